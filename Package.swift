// swift-tools-version:6.0
//
// Tether: JSON from REST APIs into apps, kept in sync.
//
// Modules, bottom up (see ARCHITECTURE.md):
// - TetherJSON: the JSON value, parser, writer, Codable decoder and encoder, lossy helpers.
// - TetherCLI: the commands behind the `tether` executable, as a library so tests can drive them.
// - tether: the app and CLI. tether-bench: the benchmarks.
import PackageDescription

let package = Package(
    name: "Tether",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "TetherJSON", targets: ["TetherJSON"]),
        .executable(name: "tether", targets: ["tether"]),
        .executable(name: "tether-bench", targets: ["tether-bench"]),
    ],
    targets: [
        .target(name: "TetherJSON"),
        .target(name: "TetherCLI", dependencies: ["TetherJSON"]),
        .executableTarget(name: "tether", dependencies: ["TetherCLI"]),
        .executableTarget(name: "tether-bench", dependencies: ["TetherJSON"]),
        .testTarget(name: "TetherJSONTests", dependencies: ["TetherJSON"]),
        .testTarget(name: "TetherCLITests", dependencies: ["TetherCLI", "TetherJSON"]),
    ]
)

// One set of language settings for every target.
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
