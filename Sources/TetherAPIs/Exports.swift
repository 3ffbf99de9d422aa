// The typed APIs are used with the store; importing TetherAPIs is enough for both.
@_exported public import TetherStore
