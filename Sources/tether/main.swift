import TetherCLI

TetherCLI.main()
