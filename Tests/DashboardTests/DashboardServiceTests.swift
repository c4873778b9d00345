import Foundation
import HabitsAPI
import Logging
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The whole dashboard started against an upstream that is not there, over a prepared cache directory (issue 13):
/// what a restart with the upstream down shows.
@Suite struct DashboardServiceTests {
    /// Nothing listens on port 1 of the loopback address: every connection is refused at once.
    static let deadUpstream = URL(string: "http://127.0.0.1:1")!
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID().uuidString)").path
    var cacheDirectory: String { root + "/cache" }
    let fetchedAt = Date().addingTimeInterval(-120)

    func prepareCache(upstream: String = "http://127.0.0.1:1") throws {
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        let file = SnapshotFile(
            snapshot: SnapshotPersistenceTests.fixtureSnapshot(), fetchedAt: fetchedAt, upstream: upstream)
        try Data(try file.encoded()).write(to: URL(fileURLWithPath: cacheDirectory + "/snapshot.json"))
        ImageDiskCache(directory: cacheDirectory + "/images", logger: .silent).store(
            id: "user0", bytes: [0x89, 0x50, 0x4E, 0x47, 1], contentType: "image/png")
    }

    /// The dashboard on a manual clock that never moves: its waits on the upstream (the no-data bound, a page's wait
    /// for the refresh it started) end with the refused refresh, however long a loaded machine takes to refuse, so a
    /// page is the cache's or the refusal's, never a 503 for a slow start.
    func start(logger: Logger = .silent) throws -> DashboardService {
        let options = DashboardOptions(port: 0, settingsDirectory: root + "/settings", cacheDirectory: cacheDirectory)
        return try DashboardService.start(
            options: options, upstream: Self.deadUpstream, clock: ManualClock(), logger: logger)
    }

    func get(_ service: DashboardService, _ target: String) async throws -> HTTPClientResponse {
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: service.port)
        // Hang guards only: the whole suite shares two cores, and a debug build renders slowly under that load (at a
        // load average of 15, other builds and suites beside this one, a first page took over 60 s; `eventually`'s
        // guard is 120 s too).
        configuration.connectTimeout = .seconds(120)
        configuration.totalTimeout = .seconds(120)
        let transport = SocketTransport(configuration: configuration)
        return try await transport.send(HTTPClientRequest(method: .get, target: target))
    }

    @Test func withTheUpstreamDownEveryPageIsServedFromTheCacheWithTheNotice() async throws {
        try prepareCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let service = try start()
        let asOf = StaleNotice(dataFetchedAt: fetchedAt, now: Date()).asOf
        let pages = [
            ("/", "Showing data as of"), ("/habits", "Yoga"), ("/habits/Yoga", "Aga Orlova"),
            ("/people", "Aga Orlova"), ("/people/user0", "Aga Orlova"), ("/log", "Yoga"),
            ("/fragments/home", "Showing data as of"),
        ]
        for (target, content) in pages {
            let response = try await get(service, target)
            let html = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == .ok, "\(target)")
            #expect(html.contains(content), "\(target)")
            #expect(html.contains(#"data-time="clock">\#(asOf)</time>."#), "\(target)")
        }
        let image = try await get(service, "/images/user0")
        #expect(image.status == .ok)
        #expect(image.body == [0x89, 0x50, 0x4E, 0x47, 1])
        await service.shutdown()
    }

    @Test(arguments: ["corrupt", "foreign", "format", "old"])
    func anUnusableFileBehavesAsNoFileAndTheLogSaysWhy(kind: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try prepareCache(upstream: kind == "foreign" ? "http://elsewhere:8080" : "http://127.0.0.1:1")
        let path = cacheDirectory + "/snapshot.json"
        switch kind {
        case "corrupt":
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count - 10).write(to: URL(fileURLWithPath: path))
        case "format":
            try Data("{\"format\":0,\"upstream\":\"http://127.0.0.1:1\",\"users\":{}}".utf8).write(
                to: URL(fileURLWithPath: path))
        case "old":
            let file = SnapshotFile(
                snapshot: SnapshotPersistenceTests.fixtureSnapshot(), fetchedAt: Date().addingTimeInterval(-8 * 86_400),
                upstream: "http://127.0.0.1:1")
            try Data(try file.encoded()).write(to: URL(fileURLWithPath: path))
        default: break
        }
        let (logger, capture) = Logger.capturing()
        let service = try start(logger: logger)
        // A page that needs data (Home with no favourites or follows needs none, issue 10 point 8).
        let response = try await get(service, "/habits")
        #expect(response.status == .badGateway)
        let reason = [
            "corrupt": "corrupt", "foreign": "another upstream", "format": "format 0", "old": "--cache-max-age",
        ]
        #expect(capture.lines.filter { $0.contains("snapshot on disk") }.count == 1)
        #expect(capture.lines.contains { $0.contains("snapshot on disk") && $0.contains(reason[kind]!) })
        let names = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory)
        #expect(names.contains { $0.hasPrefix("snapshot.json.bad-") } == (kind != "old"))
        await service.shutdown()
    }
}
