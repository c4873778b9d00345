import Foundation
import TestSupport
import Testing

/// Issue 20 on the built `habits-dashboard`: systemd's notifications and the console's log levels and formats.
extension ExecutableTests {
    /// Flags that keep a test's dashboard out of the repository's `var/`.
    static func privateDirectories() -> [String] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("exe-\(UUID().uuidString)").path
        return ["--settings-dir", base + "/settings", "--cache-dir", base + "/cache"]
    }

    /// Reads stdout until the dashboard's own line (`Habits Dashboard: http://host:port/`, after the embedded API's)
    /// and returns its port.
    static func dashboardPort(_ pipe: Pipe) async throws -> Int {
        let handle = pipe.fileHandleForReading
        let text = await onOwnThread { () -> String in
            var text = ""
            while !text.contains("Habits Dashboard: ") || !text.hasSuffix("\n") {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Habits Dashboard: ") }),
            let port = Int(line.split(separator: ":").last?.dropLast() ?? "")
        else {
            throw POSIXError(.EPROTO)
        }
        return port
    }

    /// One page, then SIGTERM and a clean exit; the process's stderr.
    static func runOnePage(_ arguments: [String]) async throws -> String {
        let errors = Pipe()
        let (process, output) = try launch(
            "habits-dashboard", ["--port", "0", "--seed", "1"] + privateDirectories() + arguments,
            standardError: errors)
        let drained = Task { await onOwnThread { errors.fileHandleForReading.readDataToEndOfFile() } }
        let port = try await dashboardPort(output)
        let client = try TestClient(port: port)
        try client.send("GET /habits HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        process.terminate()
        try await waitForExit(process, within: .seconds(60))
        #expect(process.terminationStatus == 0)
        return String(decoding: await drained.value, as: UTF8.self)
    }

    @Test func underSystemdTheDashboardSaysReadyPetsTheWatchdogAndSaysStopping() async throws {
        let listener = try NotifyListener()
        let (process, output) = try Self.launch(
            "habits-dashboard", ["--port", "0", "--seed", "1"] + Self.privateDirectories(),
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"])
        _ = try await Self.dashboardPort(output)
        #expect(await listener.next() == "READY=1")
        #expect(await listener.next() == "WATCHDOG=1")
        process.terminate()
        var message = await listener.next()
        while message == "WATCHDOG=1" { message = await listener.next() }
        #expect(message == "STOPPING=1")
        try await Self.waitForExit(process, within: .seconds(60))
        #expect(process.terminationStatus == 0)
    }

    /// The console of `swift run habits-dashboard`: start-up, the dashboard's requests, not the embedded API's four
    /// statistics calls a second; `--log-level debug` adds them, `--log-level warning` leaves only problems.
    @Test func theEmbeddedAPIsAccessLogIsDebugAndTheLevelFlagFilters() async throws {
        let info = try await Self.runOnePage([])
        #expect(info.contains(" notice habits-dashboard: habits dashboard listening"))
        #expect(info.contains(" info habits-dashboard: request ") && info.contains("http.path=/habits"))
        #expect(!info.contains("habits-api: request"))

        let debug = try await Self.runOnePage(["--log-level", "debug"])
        #expect(debug.contains(" debug habits-api: request ") && debug.contains("http.path=/combinedStats"))

        let warning = try await Self.runOnePage(["--log-level", "warning"])
        #expect(!warning.contains(" info ") && !warning.contains(" notice "))
    }

    @Test func jsonLogFormatWritesOneObjectPerLineWithTheSameKeys() async throws {
        let text = try await Self.runOnePage(["--log-format", "json"])
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3)
        var sawRequest = false
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            #expect(object["time"] != nil && object["level"] != nil && object["label"] != nil, "\(line)")
            if object["message"] == "request" && object["http.path"] == "/habits" {
                sawRequest = true
                #expect(object["http.status"] == "200" && object["http.method"] == "GET" && object["request.id"] != nil)
            }
        }
        #expect(sawRequest)
    }
}
