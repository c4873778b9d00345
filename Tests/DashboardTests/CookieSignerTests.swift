import Foundation
import Glibc
import HTTPServer
import Logging
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite final class CookieSignerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookie-signer-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // Nothing to clean up.
        }
    }

    @Test func cookieValueIsTheIDADotAndA43CharacterTag() {
        let signer = CookieSigner.ephemeral()
        let id = BrowserID.random()
        let value = signer.cookieValue(for: id)
        #expect(value.hasPrefix(id.rawValue + "."))
        #expect(value.utf8.count == 22 + 1 + 43)
        // Letters, digits, `-`, `_` and `.` are cookie-octets (RFC 6265 §4.1.1): it travels unencoded in Set-Cookie.
        #expect(value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        #expect(Cookie(name: "habits_browser", value: value).headerValue.hasPrefix("habits_browser=\(value);"))
        #expect(signer.browserID(fromCookie: value) == id)
    }

    /// A known answer, so the tag is standard HMAC-SHA-256 and not something home-made. Computed independently with
    /// `printf 'habits-browser-id-v1:AAAAAAAAAAAAAAAAAAAAAA' | openssl dgst -sha256 -mac HMAC -macopt hexkey:4a656665`
    /// `000…` (32 bytes) `-binary | basenc --base64url` and with Python's `hmac`.
    @Test func tagIsHMACSHA256OfTheLabelledID() {
        let signer = CookieSigner(key: Array("Jefe".utf8) + [UInt8](repeating: 0, count: 28))
        let id = BrowserID(bytes: [UInt8](repeating: 0, count: 16))
        #expect(signer.cookieValue(for: id) == "AAAAAAAAAAAAAAAAAAAAAA.PLH1RdwTWAgybphsTLa4fy13cNDIDKRNmVbAHTAD-k8")
    }

    @Test func anotherInstallationsTagIsRefused() {
        let mine = CookieSigner.ephemeral()
        let theirs = CookieSigner.ephemeral()
        let id = BrowserID.random()
        #expect(mine.browserID(fromCookie: theirs.cookieValue(for: id)) == nil)
    }

    @Test func tagOfAnotherIDIsRefused() {
        let signer = CookieSigner.ephemeral()
        let (first, second) = (BrowserID.random(), BrowserID.random())
        let tag = signer.cookieValue(for: first).split(separator: ".")[1]
        #expect(signer.browserID(fromCookie: second.rawValue + "." + tag) == nil)
    }

    @Test func everyOneCharacterChangeOfTheTagIsRefused() {
        let signer = CookieSigner.ephemeral()
        let value = Array(signer.cookieValue(for: BrowserID.random()).utf8)
        for index in 23..<value.count {
            var forged = value
            forged[index] = forged[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(signer.browserID(fromCookie: String(decoding: forged, as: UTF8.self)) == nil)
        }
    }

    @Test func untaggedTruncatedAndPaddedValuesAreRefused() {
        let signer = CookieSigner.ephemeral()
        let id = BrowserID.random()
        let value = signer.cookieValue(for: id)
        for forged in [
            id.rawValue, id.rawValue + ".", String(value.dropLast()), value + "A", value + "=", "." + value,
            value.replacingOccurrences(of: ".", with: "_"), "", String(repeating: "A", count: 66),
        ] {
            #expect(signer.browserID(fromCookie: forged) == nil, "\(forged)")
        }
    }

    @Test func secretIsCreatedOnceWithMode0600AndReused() throws {
        let path = directory.appendingPathComponent(CookieSigner.secretFileName).path
        let first = try CookieSigner.loadOrCreate(directory: directory.path, logger: .silent)
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_size == 32)
        let second = try CookieSigner.loadOrCreate(directory: directory.path, logger: .silent)
        let id = BrowserID.random()
        #expect(second.cookieValue(for: id) == first.cookieValue(for: id))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [".cookie-secret"])
    }

    @Test func secretReadableByOthersIsNarrowedTo0600() throws {
        let path = directory.appendingPathComponent(CookieSigner.secretFileName).path
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)
        let (logger, capture) = Logger.capturing()
        let signer = try CookieSigner.loadOrCreate(directory: directory.path, logger: logger)
        #expect(signer.cookieValue(for: BrowserID.random()).utf8.count == 66)
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(capture.lines.contains { $0.contains("readable by others") })
    }

    @Test func secretOfTheWrongSizeStopsTheStartInsteadOfSigningEveryoneOut() throws {
        let path = directory.appendingPathComponent(CookieSigner.secretFileName).path
        try Data(repeating: 7, count: 31).write(to: URL(fileURLWithPath: path))
        #expect(throws: FileIOError.self) { try CookieSigner.loadOrCreate(directory: directory.path, logger: .silent) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 31)
    }

    /// Several processes starting at once on an empty directory all end up with the one secret that won.
    @Test func concurrentFirstStartsAgreeOnOneSecret() async throws {
        let path = directory.path
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try CookieSigner.loadOrCreate(directory: path, logger: .silent)
                        .cookieValue(for: BrowserID(bytes: [UInt8](repeating: 1, count: 16)))
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [".cookie-secret"])
    }
}
