// A store is made from an HTTP client, and its errors carry HTTP errors: importing TetherStore is enough for both.
@_exported public import TetherHTTP
