import Testing

@testable import TetherCLI
