// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the toolchain (Foundation, Dispatch, Glibc, Swift Testing) is all there is.
// Dependencies run one way: Dashboard → {HTTPServer, HabitsAPI, TemplateKit};
// HabitsSimulator → {HTTPServer, HabitsAPI}; HabitsAPI → HTTPServer (its socket client reuses the parser).

var targets: [Target] = [
    // epoll, eventfd and accept4, which Swift's Glibc module leaves out (HTTPServer's event loops).
    .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
    // The system's zlib for gzip responses (issue 14); README's set-up installs zlib1g-dev where it is missing.
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // OpenSSL's libcrypto: HMAC-SHA-256 tags on settings cookies, constant-time compare (Dashboard's CookieSigner).
    .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(name: "HTTPServer", dependencies: ["CLinux", "CZlib"]),
    .target(name: "HabitsAPI", dependencies: ["HTTPServer"]),
    .target(name: "HabitsSimulator", dependencies: ["HTTPServer", "HabitsAPI", "CZlib"]),
    .target(name: "TemplateKit"),
    .target(name: "Dashboard", dependencies: ["HTTPServer", "HabitsAPI", "TemplateKit", "CCrypto"]),
    .executableTarget(name: "habits-dashboard", dependencies: ["Dashboard", "HabitsSimulator", "HTTPServer"]),
    .executableTarget(name: "habits-api", dependencies: ["HabitsSimulator", "HTTPServer"]),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
    .testTarget(
        name: "HabitsAPITests", dependencies: ["HabitsAPI", "HabitsSimulator"], resources: [.copy("Fixtures")]),
    .testTarget(name: "HabitsSimulatorTests", dependencies: ["HabitsSimulator", "HabitsAPI", "HTTPServer", "CZlib"]),
    .testTarget(name: "TemplateKitTests", dependencies: ["TemplateKit"]),
    .testTarget(
        name: "DashboardTests",
        dependencies: ["Dashboard", "HabitsSimulator", "HabitsAPI", "HTTPServer", "TemplateKit"]),
]

// The fuzz targets are opt-in (HABITS_FUZZ=1) so normal builds never need libFuzzer. See docs/FUZZING.md:
// Fuzz/run.sh builds them with `-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing` so the code under test
// is instrumented too and the harnesses can check internal state. Each harness is one executable in Fuzz/<name>.
if Context.environment["HABITS_FUZZ"] == "1" {
    targets.append(.target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"))
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("RequestParserFuzz", ["HTTPServer"]),
        ("ResponseParserFuzz", ["HabitsAPI", "HTTPServer"]),
        ("TemplateFuzz", ["TemplateKit"]),
        ("FormsFuzz", ["HTTPServer", "Dashboard"]),
        ("SettingsFuzz", ["Dashboard"]),
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
        .executableTarget(name: "http-bench-server", dependencies: ["HTTPServer"], path: "Benchmarks/http-bench-server")
    )
    // Benchmarks/pages.sh: the render time of a new snapshot version for People and Home.
    targets.append(
        .executableTarget(
            name: "pages-render-bench", dependencies: ["Dashboard", "HabitsAPI", "TemplateKit"],
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
