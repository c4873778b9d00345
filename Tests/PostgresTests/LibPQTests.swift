import CLibPQ
import Foundation
import Testing

@testable import Postgres

@Suite struct LibPQTests {
    @Test func aMissingLibraryIsAConnectErrorThatSaysWhatToInstall() {
        #expect {
            try LibPQ(opening: "libpq-not-installed.so.5")
        } throws: { error in
            guard case .connect(let message) = error as? PostgresError else { return false }
            return message.contains("libpq could not be loaded") && message.contains("libpq-not-installed.so.5")
                && message.contains("libpq5")
        }
    }

    @Test func theInstalledLibraryAnswersThroughTheTable() throws {
        let libpq = try LibPQ(opening: LibPQ.loader.path)
        // libpq's answer for a session that was never started, without touching a socket.
        #expect(libpq.status(nil) == CONNECTION_BAD)
        #expect(libpq.socket(nil) == -1)
    }

    @Test func theLoaderLooksAgainAfterAFailure() throws {
        let installed = try Self.installedLibraryPath()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("libpq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("libpq.so.5").path
        let loader = LibPQ.Loader(path: path)

        #expect(throws: PostgresError.self) { try loader.load() }
        // libpq5 installed while the dashboard runs: the next attempt finds it.
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: installed)
        #expect(try loader.load().status(nil) == CONNECTION_BAD)
    }

    /// Where the dynamic linker found libpq.so.5 on this machine: the file this process has mapped once it is open.
    private static func installedLibraryPath() throws -> String {
        _ = try LibPQ(opening: LibPQ.loader.path)
        // Read to the end: a /proc file says its size is 0, and a reader that trusts the size may stop early.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let line = maps.split(separator: "\n").first { $0.contains("/libpq.so.5") }
        let path = try #require(line?.split(separator: " ", omittingEmptySubsequences: true).last)
        return String(path)
    }
}
