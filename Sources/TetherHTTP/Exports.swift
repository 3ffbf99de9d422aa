// The HTTP message vocabulary is shared with the server and the HTTP/1.1 layer: one headers type, one method type,
// one status type across Tether. Importing TetherHTTP is enough to use them.
@_exported public import struct TetherHTTP1.HTTPHeaders
@_exported public import struct TetherHTTP1.HTTPMethod
@_exported public import struct TetherHTTP1.HTTPStatus
