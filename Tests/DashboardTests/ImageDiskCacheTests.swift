import Foundation
import HabitsAPI
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Profile images on disk (issue 13): kept across a restart, bounded in bytes with the least recently used going
/// first, raster types only, and the fallback that answers from them when the upstream cannot.
@Suite struct ImageDiskCacheTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)").path

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

    @Test func anImageKeptIsReadBackAfterARestart() {
        ImageDiskCache(directory: directory, logger: .silent).store(
            id: "user0", bytes: [1, 2, 3], contentType: "image/PNG; q=1")
        let reopened = ImageDiskCache(directory: directory, logger: .silent)
        let image = reopened.load(id: "user0")
        #expect(image?.bytes == [1, 2, 3])
        #expect(image?.contentType == "image/png")
        #expect(reopened.load(id: "user1") == nil)
    }

    @Test(arguments: ["text/html", "image/svg+xml", "", ";"])
    func anythingButARasterImageIsNotKept(type: String) {
        let cache = ImageDiskCache(directory: directory, logger: .silent)
        cache.store(id: "user0", bytes: [1], contentType: type)
        #expect(cache.load(id: "user0") == nil)
        #expect(names().isEmpty)
    }

    @Test func idsBecomeSafeFileNames() {
        #expect(ImageDiskCache.fileName("../etc") == "2e2e2f657463.img")
        #expect(ImageDiskCache.fileName("") == nil)
        #expect(ImageDiskCache.fileName(String(repeating: "a", count: 101)) == nil)
    }

    /// Each file is the type line (10 bytes for `image/png\n`) and the body; past the budget the least recently used
    /// goes, and a read counts as a use.
    @Test func theBudgetEvictsTheLeastRecentlyUsed() {
        // Uses are times of the cache's clock, one second apart: no two can tie, however fast the machine.
        let clock = ManualClock()
        let cache = ImageDiskCache(directory: directory, budgetBytes: 100, clock: clock, logger: .silent)
        let body = [UInt8](repeating: 7, count: 30)  // 40 bytes on disk each
        cache.store(id: "a", bytes: body, contentType: "image/png")
        clock.advance(by: .seconds(1))
        cache.store(id: "b", bytes: body, contentType: "image/png")
        clock.advance(by: .seconds(1))
        #expect(cache.load(id: "a") != nil)  // a is now more recent than b
        clock.advance(by: .seconds(1))
        cache.store(id: "c", bytes: body, contentType: "image/png")
        #expect(cache.totalBytes == 80)
        #expect(cache.load(id: "b") == nil)
        #expect(cache.load(id: "a") != nil && cache.load(id: "c") != nil)
        #expect(names().count == 2)
    }

    @Test func anOverBudgetDirectoryIsTrimmedAtStartAndTempFilesGo() throws {
        let cache = ImageDiskCache(directory: directory, logger: .silent)
        for id in ["a", "b", "c"] {
            cache.store(id: id, bytes: [UInt8](repeating: 1, count: 30), contentType: "image/gif")
        }
        try Data([1, 2]).write(to: URL(fileURLWithPath: directory + "/61.img" + FileIO.temporaryMarker + "ff"))
        let reopened = ImageDiskCache(directory: directory, budgetBytes: 90, logger: .silent)
        #expect(reopened.totalBytes <= 90)
        #expect(names().count == 2 && !names().contains { $0.contains(FileIO.temporaryMarker) })
    }

    @Test func aDamagedFileIsForgotten() throws {
        let cache = ImageDiskCache(directory: directory, logger: .silent)
        cache.store(id: "user0", bytes: [1], contentType: "image/png")
        try Data("no newline".utf8).write(to: URL(fileURLWithPath: directory + "/" + ImageDiskCache.fileName("user0")!))
        #expect(cache.load(id: "user0") == nil)
        #expect(names().isEmpty)
    }

    @Test func theFallbackKeepsWhatTheUpstreamGaveAndAnswersWithItWhenTheUpstreamFails() async throws {
        let api = FakeHabitsAPI()
        let disk = ImageDiskCache(directory: directory, logger: .silent)
        let data = ImageCache(upstream: api, disk: disk)
        let fresh = try await data.image(id: "user0", version: 1)
        await eventually("the image written") { disk.load(id: "user0") != nil }
        api.fail(with: .transport("connection refused"))
        let kept = try await data.image(id: "user0", version: 2)
        #expect(kept.bytes == fresh.bytes)
        await #expect(throws: HabitsAPIError.self) { try await data.image(id: "user1", version: 1) }
    }

    /// The snapshot owns the images' freshness too: one upstream call per image per reference version.
    @Test func anImageIsKeptInMemoryWhileTheReferenceVersionStands() async throws {
        let api = FakeHabitsAPI()
        let images = ImageCache(upstream: api, disk: nil)
        _ = try await images.image(id: "user0", version: 1)
        _ = try await images.image(id: "user0", version: 1)
        #expect(api.perUserCalls == ["user0"])
        _ = try await images.image(id: "user0", version: 2)
        #expect(api.perUserCalls == ["user0", "user0"], "new reference data: asked again")
    }
}
