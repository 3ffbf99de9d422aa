/// An error a transport throws that is not about the network, such as a test double asked for more responses than
/// its script has.
///
/// The client does not retry it, and ``HTTPError/message`` is the error's own description instead of "The server
/// could not be reached", so a test that runs out of script says so.
public protocol TransportMisuse: Error, CustomStringConvertible {}
