import TetherSync

/// The package's one SplitMix64 (TetherSync), so every run checks the same values and failures reproduce.
typealias SeededRandom = SplitMix64
