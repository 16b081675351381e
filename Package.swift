// swift-tools-version: 6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// scripts/test.sh builds without an index store (indexing every module, the dependencies' too,
// costs the build about an eighth of its compile time) and names in NARRATE_TEST_INDEX_STORE
// where the test targets alone are indexed: on Linux, SwiftPM finds the tests through their index.
let testSettings: [SwiftSetting] = strictSettings + (Context.environment["NARRATE_TEST_INDEX_STORE"].map { [.unsafeFlags(["-index-store-path", $0])] } ?? [])

// Linux only: eSpeak NG runs in forked `narrate-worker` processes, and the code relies on
// Glibc, /proc and Linux pipes (SwiftPM has no way to declare Linux as the only platform, so
// none is declared; building elsewhere fails at `import Glibc`).
let package = Package(
    name: "Narrate",
    products: [
        .library(name: "NarrateKit", targets: ["NarrateKit"]),
        .executable(name: "narrate", targets: ["narrate"]),
        .executable(name: "narrate-worker", targets: ["narrate-worker"]),
        .executable(name: "narrate-pdf", targets: ["narrate-pdf"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `swift package generate-documentation --target NarrateKit` (the API reference).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The service (`narrate serve`). Hummingbird's default traits pull in swift-configuration,
        // which nothing here reads.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The cache store's TLS trust roots (AWS_CA_BUNDLE); AsyncHTTPClient brings it anyway.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The remote engine (any OpenAI-compatible speech API).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CESpeakNG",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        // libmp3lame ships no pkg-config file; the modulemap links mp3lame directly.
        .systemLibrary(
            name: "CLame",
            path: "Sources/CLame",
            providers: [.apt(["libmp3lame-dev"])]
        ),
        // Poppler's GLib API, for narrate-pdf alone.
        .systemLibrary(
            name: "CPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]
        ),
        // The PDF reader: Poppler in a process of its own, bounded in memory and CPU time, which
        // writes a PDF's positioned words for PDFParser (one process per document).
        .executableTarget(
            name: "narrate-pdf",
            dependencies: ["CPoppler"],
            linkerSettings: [.linkedLibrary("m")]
        ),
        // zlib inflates EPUB entries (zlib1g-dev, which ZIPFoundation needs too).
        .target(name: "CNarrateSystem", linkerSettings: [.linkedLibrary("z")]),
        // The synthesis worker: eSpeak in a process of its own, a forked child per text (a neural
        // voice: its zygote speaks every text itself).
        .executableTarget(
            name: "narrate-worker",
            dependencies: ["CESpeakNG", "CNarrateSystem"],
            linkerSettings: [.linkedLibrary("espeak-ng"), .linkedLibrary("m")]
        ),
        .target(
            name: "NarrateDomain",
            swiftSettings: strictSettings
        ),
        .target(
            name: "NarrateData",
            dependencies: [
                "NarrateDomain",
                "CESpeakNG",
                "CNarrateSystem",
                "CLame",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Writes read-along EPUBs (reading one needs only zlib).
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "NarrateKit",
            dependencies: [
                // Built with the library, so an app finds them beside its own program.
                "narrate-worker",
                "narrate-pdf",
                "NarrateDomain",
                "NarrateData",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The README's library examples, as one program: a test checks the README shows exactly
        // this file and runs it.
        .executableTarget(
            name: "narrate-readme-examples",
            dependencies: ["NarrateKit", .product(name: "Logging", package: "swift-log")],
            path: "Examples/ReadmeExamples"
        ),
        // The service: OpenAI's speech API and the library over HTTP, Home Assistant's Wyoming
        // protocol, Prometheus metrics. A front end like the CLI.
        .target(
            name: "NarrateServer",
            dependencies: [
                "NarrateKit",
                "NarrateDomain",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Compiled in as bytes (`PackageResources.openapi_json`), not a bundle beside the
            // program: an installed `narrate` copied alone still serves `GET /openapi.json`.
            resources: [
                .embedInCode("Resources/openapi.json"),
                // The listening room (`WebController`): static, no build step.
                .embedInCode("Resources/web/index.html"),
                .embedInCode("Resources/web/app.js"),
                .embedInCode("Resources/web/app.css"),
                .embedInCode("Resources/web/manifest.webmanifest"),
                // One module per view (WebController serves them under /web/).
                .embedInCode("Resources/web/state.js"),
                .embedInCode("Resources/web/api.js"),
                .embedInCode("Resources/web/library.js"),
                .embedInCode("Resources/web/book.js"),
                .embedInCode("Resources/web/contents.js"),
                .embedInCode("Resources/web/reader.js"),
                .embedInCode("Resources/web/player.js"),
                .embedInCode("Resources/web/exporter.js"),
                .embedInCode("Resources/web/voices.js"),
                .embedInCode("Resources/web/sleep.js"),
                .embedInCode("Resources/web/bookmarks.js"),
                .embedInCode("Resources/web/shortcuts.js"),
                .embedInCode("Resources/web/media-session.js"),
                .embedInCode("Resources/web/cast.js"),
                .embedInCode("Resources/web/icon.svg"),
                .embedInCode("Resources/web/icon-192.png"),
                .embedInCode("Resources/web/icon-512.png"),
                .embedInCode("Resources/web/icon-maskable.png"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "narrate",
            dependencies: [
                "NarrateKit",
                "NarrateServer",
                "CNarrateSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The EPUB parser under libFuzzer (scripts/fuzz.sh builds it with -DFUZZING); built
        // normally, a tool that replays the inputs it found.
        .executableTarget(
            name: "narrate-fuzz-epub",
            dependencies: ["NarrateData", "NarrateDomain"],
            swiftSettings: strictSettings
        ),
        // The DOCX, ODT and FB2 parsers under libFuzzer, the same way (one program: the parser is
        // chosen by NARRATE_FUZZ_FORMAT, else by the input's content, sniffing included).
        .executableTarget(
            name: "narrate-fuzz-office",
            dependencies: ["NarrateData", "NarrateDomain"],
            swiftSettings: strictSettings
        ),
        // The PDF reader's records (wire decoder and layout analysis) under libFuzzer, the same way.
        .executableTarget(
            name: "narrate-fuzz-pdf",
            dependencies: ["NarrateData", "NarrateDomain"],
            swiftSettings: strictSettings
        ),
        // The cache entry decoder under libFuzzer, the same way: what a store object may hold.
        .executableTarget(
            name: "narrate-fuzz-entry",
            dependencies: ["NarrateData"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NarrateDomainTests",
            dependencies: ["NarrateDomain"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "NarrateDataTests",
            dependencies: [
                "NarrateData",
                "NarrateDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "NarrateKitTests",
            dependencies: ["NarrateKit", "NarrateDomain", "NarrateData", .product(name: "Logging", package: "swift-log")],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "NarrateServerTests",
            dependencies: [
                "NarrateServer",
                "NarrateKit",
                "NarrateDomain",
                .product(name: "Hummingbird", package: "hummingbird"),
                // In-process route tests: `app.test(.router)` sends requests straight to the router.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                // A connection a test closes itself (a client going away while it waits).
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "narrateTests",
            dependencies: [
                "narrate",
                "NarrateKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: testSettings
        ),
    ]
)
