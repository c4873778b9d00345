import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 4: where the cookie secret from outside is found, and what its file may hold.
@Suite struct OutsideCookieSecretTests {
    @Test func theOptionWinsThenTheSystemdCredentialWhenTheServiceHasOne() {
        let credentials = ["CREDENTIALS_DIRECTORY": "/run/credentials/habits-dashboard.service"]
        let path = OutsideCookieSecret.path(option: "/etc/secret", environment: credentials, exists: { _ in true })
        #expect(path == "/etc/secret")
        #expect(
            OutsideCookieSecret.path(option: nil, environment: credentials, exists: { _ in true })
                == "/run/credentials/habits-dashboard.service/cookie-secret")
        #expect(OutsideCookieSecret.path(option: nil, environment: credentials, exists: { _ in false }) == nil)
        #expect(OutsideCookieSecret.path(option: nil, environment: [:], exists: { _ in true }) == nil)
    }

    @Test func theFileHoldsSixtyFourHexDigitsOrThirtyTwoBytes() {
        let key = (0..<32).map { UInt8($0 * 7 & 0xFF) }
        #expect(OutsideCookieSecret.key(in: Array((DatabaseSecret.hex(key) + "\n").utf8)) == key)
        #expect(OutsideCookieSecret.key(in: key) == key)
        #expect(OutsideCookieSecret.key(in: Array(String(repeating: "a", count: 62).utf8)) == nil)
        #expect(OutsideCookieSecret.key(in: Array(String(repeating: "g", count: 64).utf8)) == nil)
    }

    /// Anyone who can read the secret can forge every cookie: a file every user may read stops the start.
    @Test func aFileReadableByOthersOrMissingIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: FileIOError.self) { try OutsideCookieSecret.read(path) }
        let hex = DatabaseSecret.hex(CookieSigner.randomKey())
        FileManager.default.createFile(atPath: path, contents: Data(hex.utf8), attributes: [.posixPermissions: 0o644])
        #expect(throws: FileIOError.self) { try OutsideCookieSecret.read(path) }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(try DatabaseSecret.hex(OutsideCookieSecret.read(path)) == hex)
    }
}

extension OutsideCookieSecretTests {
    @Test func theOptionAndTheCredentialReachTheOptions() throws {
        guard case .run(let explicit) = try DashboardOptions.parse(["--cookie-secret-file", "/etc/s"]) else {
            Issue.record("expected options")
            return
        }
        #expect(explicit.cookieSecretFile == "/etc/s")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: directory.path + "/cookie-secret", contents: Data())
        guard
            case .run(let credential) = try DashboardOptions.parse(
                [], environment: ["CREDENTIALS_DIRECTORY": directory.path])
        else {
            Issue.record("expected options")
            return
        }
        #expect(credential.cookieSecretFile == directory.path + "/cookie-secret")
    }

    /// Without a database the file's secret signs, and no `.cookie-secret` is created in the settings directory.
    @Test func withFilesTheOutsideSecretSignsAndNoSecretIsWrittenBesideTheSettings() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let key = CookieSigner.randomKey()
        let secret = root.path + "/secret"
        FileManager.default.createFile(
            atPath: secret, contents: Data(DatabaseSecret.hex(key).utf8), attributes: [.posixPermissions: 0o600])
        var options = DashboardOptions()
        options.settingsDirectory = root.path + "/settings"
        options.cookieSecretFile = secret
        let (_, signers, _) = try DashboardState.settingsBackend(options: options, database: nil, logger: .silent)
        let id = BrowserID.random()
        #expect(signers.current?.browserID(fromCookie: CookieSigner(key: key).cookieValue(for: id)) == id)
        #expect(!FileManager.default.fileExists(atPath: root.path + "/settings/" + CookieSigner.secretFileName))
    }
}
