import Testing

@testable import TetherServer
