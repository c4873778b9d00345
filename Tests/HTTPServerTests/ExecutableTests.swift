import CommandLineKit
import Foundation
import TestSupport
import Testing

@testable import HTTPServer

/// Runs the built executables (scripts/test.sh builds them first) as a user would: on a free port, then SIGTERM,
/// expecting a clean exit 0. This is the test that catches the main.swift Dispatch trap (a handler defined in
/// main-actor code fired off the main queue).
@Suite struct ExecutableTests {
    /// Where the executables were built: beside the running test binary (so a sanitizer build with its own
    /// `--build-path` tests its own executables), else the default `.build/debug`.
    static let buildDirectory: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: beside.appendingPathComponent("habits-api").path) {
            return beside
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug")
    }()

    static func launch(
        _ name: String, _ arguments: [String], standardError: Pipe? = nil, environment: [String: String] = [:]
    ) throws -> (Process, Pipe) {
        let executable = buildDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CommandLineError("\(executable.path) is missing: run `swift build` first (scripts/test.sh does)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Reads stdout until the first line that holds `http://host:port/` and returns the port.
    static func announcedPort(_ pipe: Pipe) async throws -> Int {
        let handle = pipe.fileHandleForReading
        let text = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            Thread {
                var text = ""
                while !text.contains("\n") {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                continuation.resume(returning: text)
            }.start()
        }
        guard let range = text.range(of: #":(\d+)/"#, options: .regularExpression),
            let port = Int(text[range].dropFirst().dropLast())
        else {
            throw CommandLineError("no URL announced on stdout: \(text)")
        }
        return port
    }

    /// Waits for `process` to exit; one that outlives `limit` is an issue, and is killed and waited for, so a
    /// caller may read `terminationStatus` (Foundation traps on a running process, which took the whole test run
    /// down with it).
    static func waitForExit(_ process: Process, within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            Issue.record("process did not exit within \(limit)")
            kill(process.processIdentifier, SIGKILL)
            await onOwnThread { process.waitUntilExit() }
        }
    }

    /// The dashboard prints its embedded API's URL first, so its own port is read from its own line, and each page
    /// is told from the other's by what it says.
    @Test(arguments: [
        ("habits-api", ["--port", "0", "--seed", "1"], "Habits API simulator"),
        ("habits-dashboard", ["--port", "0", "--api-port", "0", "--seed", "1"], "<!doctype html>"),
    ])
    func servesThenExitsZeroOnSIGTERM(name: String, arguments: [String], pageStart: String) async throws {
        let isDashboard = name == "habits-dashboard"
        let (process, output) = try Self.launch(name, arguments + (isDashboard ? Self.privateDirectories() : []))
        let port = try await isDashboard ? Self.dashboardPort(output) : Self.announcedPort(output)
        let client = try TestClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["Date"] != nil)
        #expect(response.text.hasPrefix(pageStart))

        process.terminate()  // SIGTERM
        try await Self.waitForExit(process, within: .seconds(60))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// The signal handlers are armed before the URL is printed: a SIGTERM sent the moment it appears is
    /// neither fatal (default action) nor lost (ignored while libdispatch registers its source).
    @Test(arguments: [
        ("habits-api", ["--port", "0", "--seed", "1"]),
        ("habits-dashboard", ["--port", "0", "--api-port", "0", "--seed", "1"]),
    ])
    func sigtermRightAfterTheAnnouncementStillExitsZero(name: String, arguments: [String]) async throws {
        for _ in 0..<3 {
            let (process, output) = try Self.launch(name, arguments)
            _ = try await Self.announcedPort(output)
            process.terminate()
            try await Self.waitForExit(process, within: .seconds(60))
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }
    }

    @Test(arguments: ["habits-api", "habits-dashboard"])
    func badFlagExitsTwoAndHelpExitsZero(name: String) async throws {
        let (bad, _) = try Self.launch(name, ["--no-such-flag"])
        try await Self.waitForExit(bad, within: .seconds(60))
        #expect(bad.terminationStatus == 2)

        let (help, output) = try Self.launch(name, ["--help"])
        try await Self.waitForExit(help, within: .seconds(60))
        #expect(help.terminationStatus == 0)
        let usage = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(usage.hasPrefix("Usage: \(name)"))
    }

    /// Issue 10: the embedded API's port is the kernel's choice, so only the dashboard's own port can clash, and
    /// the message says which flag fixes it.
    @Test func aTakenDashboardPortIsNamedWithTheFlagThatFixesIt() async throws {
        let holder = Server(configuration: ServerConfiguration(), responder: LiveServer.testRouter, logger: .silent)
        try holder.start()
        let errors = Pipe()
        let (process, _) = try Self.launch(
            "habits-dashboard", ["--port", "\(holder.port)", "--no-history"], standardError: errors)
        try await Self.waitForExit(process, within: .seconds(60))
        await holder.shutdown()
        #expect(process.terminationStatus == 1)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("port \(holder.port) is taken") && text.contains("--port"))
    }

    /// Issue 48 point 3: the counters' own listener clashing is named with its own flag, not the public port's.
    @Test func aTakenMetricsPortIsNamedWithItsOwnFlag() async throws {
        let holder = Server(configuration: ServerConfiguration(), responder: LiveServer.testRouter, logger: .silent)
        try holder.start()
        let errors = Pipe()
        let (process, _) = try Self.launch(
            "habits-dashboard", ["--port", "0", "--metrics-port", "\(holder.port)", "--no-history"],
            standardError: errors)
        try await Self.waitForExit(process, within: .seconds(60))
        await holder.shutdown()
        #expect(process.terminationStatus == 1)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("port \(holder.port) is taken; choose another with --metrics-port N"), "\(text)")
    }
}
