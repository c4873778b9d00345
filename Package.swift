// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the toolchain (Foundation, Dispatch, Glibc, Swift Testing) is all there is.
// Dependencies run one way: DashboardWeb → DashboardCore → {HTTPServer, HabitsAPI, TemplateKit, Postgres};
// HabitsSimulator → {HTTPServer, HabitsAPI};
// HTTPServer → HTTPCore and HabitsAPI → HTTPCore: the HTTP vocabulary and grammar both sides share (headers, method,
// version, status, byte classes, lines, field and chunk-size lines, framing and chunked bodies, keep-alive,
// If-None-Match), so the server's request parser and the client's response parser are built on the same pieces
// while the client knows nothing of the server.
// Beside HTTP, four small modules that know nothing of it: Logging (the logger and its buffered writer),
// CommandLineKit (what a main.swift needs: option scanning, the announce line, the shutdown signals, systemd's
// notifications), Compression (gzip over the system's zlib) and Hashing (FNV-1a, the one non-adversarial digest), so
// the app and the simulator import what they use, not the server for them.

var targets: [Target] = [
    // epoll, eventfd, accept4 and the like, which Swift's Glibc module leaves out (HTTPServer's event loops; the tests'
    // PostgreSQL spawns its commands with nothing else open).
    .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
    // The system's zlib for gzip responses (issue 14); README's set-up installs zlib1g-dev where it is missing.
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // OpenSSL's libcrypto: HMAC-SHA-256 tags on settings cookies, constant-time compare (DashboardCore's CookieSigner).
    .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // PostgreSQL's libpq (issue 19): the Postgres module's non-blocking sessions. Its header only, from libpq-dev (the
    // test command installs it; without it the build stops at "postgresql/libpq-fe.h not found"): no pkg-config, whose
    // flags would link libpq, which the Postgres module opens with dlopen on first use (Sources/Postgres/LibPQ.swift).
    .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", providers: [.apt(["libpq-dev"])]),
    .target(name: "HTTPCore"),
    // The one clock protocol (monotonic and wall-clock time, and sleeping until a deadline) and the one waiter
    // registry, shared by the upstream client, the simulator and the dashboard.
    .target(name: "Timing"),
    .target(name: "Logging", dependencies: ["Timing"]),
    .target(name: "CommandLineKit", dependencies: ["Logging", "Timing"]),
    .target(name: "Compression", dependencies: ["CZlib"]),
    .target(name: "Hashing"),
    .target(name: "HTTPServer", dependencies: ["HTTPCore", "Logging", "Compression", "Hashing", "Timing", "CLinux"]),
    .target(name: "HabitsAPI", dependencies: ["HTTPCore", "Logging", "Timing"]),
    // The database layer (issue 19): URL, sessions, pool, listener, migrations; knows nothing of the dashboard.
    .target(name: "Postgres", dependencies: ["CLibPQ", "Timing"]),
    .target(
        name: "HabitsSimulator",
        dependencies: ["HTTPCore", "HTTPServer", "HabitsAPI", "Logging", "CommandLineKit", "Compression", "Timing"]),
    .target(name: "TemplateKit"),
    // The dashboard's state (issue 45): the snapshot and its refresh, settings with both backends, history, moments,
    // the cluster, the database, profile images; it owns the clock, the pool, the listener, the sweeper and the
    // sampler, and offers the web a small public API (`DashboardState`). Everything else in it stays internal.
    .target(
        name: "DashboardCore",
        dependencies: [
            "HTTPCore", "HTTPServer", "HabitsAPI", "TemplateKit", "Logging", "CommandLineKit", "Hashing", "Timing",
            "CCrypto", "Postgres",
        ]),
    // The dashboard's web layer: routes, pages, rendering, live polls, security, the app's wiring. It reads and changes
    // the state only through DashboardCore's public API, and knows neither PostgreSQL nor the upstream's client.
    .target(
        name: "DashboardWeb",
        dependencies: [
            "DashboardCore", "HTTPCore", "HTTPServer", "HabitsAPI", "TemplateKit", "Logging", "Compression", "Hashing",
            "Timing",
        ]),
    .executableTarget(
        name: "habits-dashboard",
        dependencies: [
            "DashboardCore", "DashboardWeb", "HabitsSimulator", "HTTPServer", "Logging", "CommandLineKit", "CLinux",
        ]),
    .executableTarget(name: "habits-api", dependencies: ["HabitsSimulator", "Logging", "CommandLineKit"]),
    // What more than one test target needs (blocking work off the cooperative pool, fakes, clocks, gates).
    .target(name: "TestSupport", dependencies: ["Timing", "HabitsAPI", "CLinux"], path: "Tests/TestSupport"),
    .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
    .testTarget(name: "LoggingTests", dependencies: ["Logging", "TestSupport"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "TestSupport"]),
    .testTarget(name: "CompressionTests", dependencies: ["Compression"]),
    .testTarget(name: "HashingTests", dependencies: ["Hashing"]),
    .testTarget(
        name: "HTTPServerTests",
        dependencies: ["HTTPCore", "HTTPServer", "Logging", "CommandLineKit", "Compression", "TestSupport"]),
    .testTarget(
        name: "HabitsAPITests", dependencies: ["HTTPCore", "HabitsAPI", "HabitsSimulator", "Timing", "TestSupport"],
        resources: [.copy("Fixtures")]),
    .testTarget(
        name: "HabitsSimulatorTests",
        dependencies: [
            "HabitsSimulator", "HabitsAPI", "HTTPCore", "HTTPServer", "Logging", "CommandLineKit", "CZlib",
            "TestSupport",
        ]),
    .testTarget(name: "TemplateKitTests", dependencies: ["TemplateKit"]),
    .testTarget(name: "TimingTests", dependencies: ["Timing", "TestSupport"]),
    .testTarget(name: "PostgresTests", dependencies: ["Postgres", "Timing", "TestSupport"]),
    .testTarget(
        name: "DashboardTests",
        dependencies: [
            "DashboardCore", "DashboardWeb", "HabitsSimulator", "HabitsAPI", "HTTPCore", "HTTPServer", "TemplateKit",
            "Logging",
            "CommandLineKit", "Compression", "Timing", "TestSupport", "Postgres",
        ]),
]

// The fuzz targets are opt-in (HABITS_FUZZ=1) so normal builds never need libFuzzer. See docs/FUZZING.md:
// Fuzz/run.sh builds them with `-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing` so the code under test
// is instrumented too and the harnesses can check internal state. Each harness is one executable in Fuzz/<name>.
if Context.environment["HABITS_FUZZ"] == "1" {
    targets.append(.target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"))
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("RequestParserFuzz", ["HTTPCore", "HTTPServer"]),
        ("ResponseParserFuzz", ["HTTPCore", "HabitsAPI"]),
        ("TemplateFuzz", ["TemplateKit"]),
        ("FormsFuzz", ["HTTPCore", "HTTPServer", "DashboardCore", "DashboardWeb"]),
        ("SettingsFuzz", ["DashboardCore"]),
    ]
    for fuzzTarget in fuzzTargets {
        targets.append(
            .executableTarget(
                name: fuzzTarget.name,
                dependencies: fuzzTarget.dependencies + ["FuzzSupport"],
                path: "Fuzz/\(fuzzTarget.name)",
                swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])],
                linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
            )
        )
    }
}

// The HTTP benchmark server is opt-in too (HABITS_BENCH=1, set by Benchmarks/http.sh), so normal builds skip it.
if Context.environment["HABITS_BENCH"] == "1" {
    targets.append(
        .executableTarget(
            name: "http-bench-server", dependencies: ["HTTPCore", "HTTPServer", "Logging", "CommandLineKit"],
            path: "Benchmarks/http-bench-server")
    )
    // Benchmarks/pages.sh: the render time of a new snapshot version for People and Home.
    targets.append(
        .executableTarget(
            name: "pages-render-bench", dependencies: ["DashboardCore", "DashboardWeb", "HabitsAPI", "TemplateKit"],
            path: "Benchmarks/pages-render-bench")
    )
}

let package = Package(
    name: "habits-dashboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "habits-dashboard", targets: ["habits-dashboard"]),
        .executable(name: "habits-api", targets: ["habits-api"]),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
