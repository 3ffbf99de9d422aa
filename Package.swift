// swift-tools-version:6.0
//
// Tether: JSON from REST APIs into apps, kept in sync.
//
// Modules, bottom up (see ARCHITECTURE.md, whose module graph Scripts/module-graph draws from this file):
// - TetherSync: what every module shares: Locked (a lock ThreadSanitizer sees), runBlocking, LRUList, CivilDate,
//   SplitMix64 and FNV-1a. CThreadSanitizer.
// - TetherJSON: the JSON value, parser, writer, Codable decoder and encoder, lossy helpers.
// - TetherHTTP1: HTTP/1.1 messages, an incremental parser and a serializer, with no I/O (shared by server and client).
// - TetherIO: non-blocking I/O on Linux (an epoll event loop, TCP channels, timers, connecting with DNS and
//   both address families, TLS on OpenSSL), shaped like SwiftNIO's seams; what the native client transport runs
//   on, and the server's HTTPS. CEpoll: the Linux headers for epoll and eventfd. COpenSSL: the system OpenSSL 3
//   (libssl, libcrypto), for TLS.
// - TetherHTTP: the HTTP client (requests, validation, errors, retries, interceptors, cache, coalescing).
// - TetherHTTPTesting: test support for TetherHTTP users (a stub transport).
// - TetherSQLite: the SQLite layer, package-internal (a connection with prepared statements read by column name,
//   the one-writer queue, migrations, errors, files created private). CSQLite: the system libsqlite3.
// - TetherStore: the normalized, observable entity store (queries, pagination, optimistic edits), persisted to
//   SQLite (through TetherSQLite) with an outbox of writes.
// - TetherAPIs: typed APIs for the three examples (Rakuten item search, jsonplaceholder posts, notes) on the store.
// - TetherServer: the local API server (sockets, json-server REST, Rakuten item search, images, faults).
// - CZlib: the system zlib (gzip/deflate, CRC-32). CJPEG, CPNG: the system libjpeg(-turbo) and libpng, each with a small C
//   shim that keeps the libraries' setjmp/longjmp error handling inside C.
// - TetherImages: the image pipeline (download through TetherHTTP, JPEG/PNG decoding, downsizing, caches).
// - TetherTerminal: a terminal UI toolkit (raw mode, keys, widths, a diffing screen buffer, widgets).
// - TetherCLI: the full-screen app and the commands behind the `tether` executable, as a library so tests can drive them.
// - tether: the app and CLI. tether-bench: the benchmarks. tether-cache-tests: the cache-tests suite's proxy.
import PackageDescription

let package = Package(
    name: "Tether",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "TetherJSON", targets: ["TetherJSON"]),
        .library(name: "TetherHTTP1", targets: ["TetherHTTP1"]),
        .library(name: "TetherIO", targets: ["TetherIO"]),
        .library(name: "TetherHTTP", targets: ["TetherHTTP"]),
        .library(name: "TetherHTTPTesting", targets: ["TetherHTTPTesting"]),
        .library(name: "TetherStore", targets: ["TetherStore"]),
        .library(name: "TetherAPIs", targets: ["TetherAPIs"]),
        .library(name: "TetherServer", targets: ["TetherServer"]),
        .library(name: "TetherImages", targets: ["TetherImages"]),
        .library(name: "TetherTerminal", targets: ["TetherTerminal"]),
        .executable(name: "tether", targets: ["tether"]),
        .executable(name: "tether-bench", targets: ["tether-bench"]),
    ],
    targets: [
        .systemLibrary(name: "CThreadSanitizer", path: "Sources/CThreadSanitizer"),
        .target(name: "TetherSync", dependencies: ["CThreadSanitizer"]),
        .target(name: "TetherJSON", dependencies: ["TetherSync"]),
        .target(name: "TetherHTTP1", dependencies: ["TetherSync"]),
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .target(name: "TetherIO", dependencies: ["CEpoll", "COpenSSL", "TetherSync"]),
        .target(name: "TetherHTTP", dependencies: ["TetherJSON", "TetherHTTP1", "TetherIO", "CZlib", "TetherSync"]),
        .target(name: "TetherHTTPTesting", dependencies: ["TetherHTTP", "TetherSync"]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(name: "TetherSQLite", dependencies: ["CSQLite", "TetherSync"]),
        .target(name: "TetherStore", dependencies: ["TetherHTTP", "TetherJSON", "TetherSQLite", "TetherSync"]),
        .target(name: "TetherAPIs", dependencies: ["TetherStore", "TetherHTTP", "TetherJSON"]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(
            name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-turbo8-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .target(name: "TetherImages", dependencies: ["TetherHTTP", "CJPEG", "CPNG", "TetherSync"]),
        .target(
            name: "TetherServer",
            dependencies: ["TetherJSON", "TetherHTTP1", "TetherIO", "CZlib", "CJPEG", "CPNG", "TetherSync"]),
        .target(name: "TetherTerminal", dependencies: ["TetherSync", "CPNG"]),
        .target(
            name: "TetherCLI",
            dependencies: [
                "TetherJSON", "TetherHTTP", "TetherIO", "TetherStore", "TetherAPIs", "TetherServer", "TetherTerminal",
                "TetherImages", "TetherSync",
            ]),
        .executableTarget(name: "tether", dependencies: ["TetherCLI"]),
        // The adapter that runs the HTTP WG's cache-tests suite against the cache (Scripts/cache-tests.sh): a tool.
        .executableTarget(name: "tether-cache-tests", dependencies: ["TetherHTTP", "TetherHTTP1", "TetherServer"]),
        .executableTarget(
            name: "tether-bench",
            dependencies: [
                "TetherJSON", "TetherHTTP", "TetherStore", "TetherAPIs", "TetherServer", "TetherTerminal", "CMalloc",
                "CSQLite", "TetherImages", "CJPEG", "CPNG", "TetherSync",
            ]),
        // Test support shared by several test targets (certificates made with openssl, the loader of ../shared, the two
        // JSON decoders to test models with, images, loopback sockets); not a product.
        .target(
            name: "TetherTestSupport", dependencies: ["TetherSync", "TetherJSON", "CJPEG", "CPNG", "CZlib"],
            path: "Tests/TetherTestSupport"
        ),
        .testTarget(name: "TetherSyncTests", dependencies: ["TetherSync"]),
        .testTarget(name: "TetherJSONTests", dependencies: ["TetherSync", "TetherJSON", "TetherTestSupport"]),
        .testTarget(name: "TetherHTTP1Tests", dependencies: ["TetherSync", "TetherHTTP1"]),
        .testTarget(
            name: "TetherIOTests",
            dependencies: ["TetherSync", "TetherIO", "TetherTestSupport"]),
        .testTarget(
            name: "TetherHTTPTests",
            dependencies: [
                "TetherSync", "TetherTestSupport", "TetherHTTP", "TetherHTTPTesting", "TetherHTTP1", "CZlib",
            ]),
        // The tests that need a real server over real sockets (the client against TetherServer, the native
        // transport, TLS): the unit test targets depend on what they test plus test support only.
        .testTarget(
            name: "TetherIntegrationTests",
            dependencies: [
                "TetherSync", "TetherTestSupport", "TetherStoreTestSupport",
                "TetherHTTP", "TetherHTTPTesting", "TetherServer", "TetherJSON", "TetherHTTP1", "TetherIO", "CZlib",
                "TetherStore", "TetherSQLite", "CSQLite", "TetherAPIs", "TetherImages",
            ]),
        .testTarget(name: "TetherSQLiteTests", dependencies: ["TetherSQLite", "TetherSync", "CSQLite"]),
        // The store's test entities, shared by its unit tests and the integration tests; not a product.
        .target(name: "TetherStoreTestSupport", dependencies: ["TetherStore"], path: "Tests/TetherStoreTestSupport"),
        .testTarget(
            name: "TetherStoreTests",
            dependencies: [
                "TetherSync", "TetherTestSupport", "TetherStoreTestSupport",
                "TetherStore", "TetherSQLite", "TetherHTTP", "TetherHTTPTesting", "TetherJSON", "CSQLite",
            ]),
        .testTarget(
            name: "TetherAPIsTests",
            dependencies: [
                "TetherSync", "TetherTestSupport",
                "TetherAPIs", "TetherStore", "TetherJSON", "TetherHTTP1", "TetherHTTPTesting",
            ]),
        .testTarget(
            name: "TetherServerTests",
            dependencies: [
                "TetherSync", "TetherServer", "TetherHTTP1", "TetherIO", "TetherJSON", "TetherTestSupport", "CPNG",
            ]),
        .testTarget(name: "TetherTerminalTests", dependencies: ["TetherSync", "TetherTerminal", "CPNG"]),
        .testTarget(
            name: "TetherImagesTests",
            dependencies: [
                "TetherSync", "TetherTestSupport", "TetherImages", "TetherHTTP", "TetherHTTP1", "CJPEG", "CPNG",
            ]),
        .testTarget(
            name: "TetherCLITests",
            dependencies: [
                "TetherSync", "TetherTestSupport", "TetherCLI", "TetherJSON", "TetherHTTP1", "TetherServer",
                "TetherAPIs", "TetherTerminal",
            ]),
    ]
)

// One set of language settings for every target.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
