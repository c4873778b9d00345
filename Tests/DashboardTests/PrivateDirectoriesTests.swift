import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 23: the directories the dashboard creates (settings, cache, images, and their missing parents) are 0700,
/// so another local user cannot list browser ids or their access times.
@Suite struct PrivateDirectoriesTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID().uuidString)").path

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func theSettingsAndImageDirectoriesAndTheirParentsAreCreatedPrivate() throws {
        defer {
            do {
                try FileManager.default.removeItem(atPath: root)
            } catch {
                // Left in /tmp: it affects no other test.
            }
        }
        _ = try SettingsStore(
            directory: URL(fileURLWithPath: root + "/var/settings"), maxFiles: 3, defaultValue: Settings(),
            logger: .silent)
        _ = ImageDiskCache(directory: root + "/var/cache/images", logger: .silent)
        for path in [root, root + "/var", root + "/var/settings", root + "/var/cache", root + "/var/cache/images"] {
            #expect(try mode(path) == 0o700, "\(path)")
        }
    }

    /// A directory someone made already keeps the mode they gave it.
    @Test func anExistingDirectoryIsLeftAsItIs() throws {
        try FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
        defer {
            do {
                try FileManager.default.removeItem(atPath: root)
            } catch {
                // Left in /tmp: it affects no other test.
            }
        }
        try FileIO.createPrivateDirectory(root)
        #expect(try mode(root) == 0o750)
    }
}
