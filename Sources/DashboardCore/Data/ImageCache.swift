import HabitsAPI
import Synchronization
import Timing

/// Profile images, the one thing pages show that is not in the snapshot: asked of the upstream, and kept on disk
/// (issue 13) so person pages keep their pictures while the upstream is down, even after a restart.
///
/// The upstream stays first, so a changed picture shows at once; every image it gives is also written to the
/// `ImageDiskCache` (off the request path, and only when the bytes changed), and when the upstream cannot give one the
/// copy on disk answers. Upstream calls go through `ImageFetches` (issue 23): one call per image at a time, failures
/// remembered for 30 s, at most 32 requests waiting on the upstream; a request turned away there gets the disk's copy
/// at once, or a quick 503 with `Retry-After`. An image larger than `maxImageBytes` is a failed image: the upstream is
/// untrusted and the client accepts bodies up to 16 MB.
///
/// Images the upstream gave are also kept in memory (`budgetBytes`, least recently used first) for as long as the
/// snapshot's reference data (the users) keeps its version: the snapshot owns their freshness too, so a page of 40
/// avatars costs the upstream nothing until the users are fetched anew and found changed.
final class ImageCache: Sendable {
    /// Where images come from.
    public let upstream: any HabitsAPI
    /// The images on disk; nil keeps none (tests).
    public let disk: ImageDiskCache?
    /// Largest profile image served (bytes).
    public let maxImageBytes: Int
    /// The upstream calls for images.
    let fetches: ImageFetches
    /// The images in memory, each with the reference version it was fetched under.
    private let memory: Mutex<LRUCache<String, (version: UInt64, bytes: [UInt8], contentType: String)>>

    /// Images from `upstream`, kept in `disk`; `clock` times remembered failures.
    public init(
        upstream: any HabitsAPI, disk: ImageDiskCache?, maxImageBytes: Int = 2 << 20, budgetBytes: Int = 32 << 20,
        clock: any TimeSource = SystemTimeSource()
    ) {
        memory = Mutex(LRUCache(capacity: 4096, budgetBytes: budgetBytes))
        self.upstream = upstream
        self.disk = disk
        self.maxImageBytes = maxImageBytes
        self.fetches = ImageFetches(clock: clock)
    }

    /// The bytes of the images in memory and their budget, for `/metrics` (`images`).
    var memoryUse: (bytes: Int, budget: Int) { memory.withLock { ($0.bytes, $0.budgetBytes) } }

    /// User `id`'s image under the snapshot's reference `version`: from memory when fetched under it, else the
    /// upstream's, else the copy on disk; throws when none has one.
    public func image(id: String, version: UInt64) async throws -> (bytes: [UInt8], contentType: String) {
        if let kept = memory.withLock({ $0.value(for: id) }), kept.version == version {
            return (kept.bytes, kept.contentType)
        }
        let image = try await fetched(id: id)
        memory.withLock { _ = $0.set((version, image.bytes, image.contentType), for: id, cost: image.bytes.count + 64) }
        return image
    }

    private func fetched(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        let (upstream, disk, maxImageBytes) = (upstream, disk, maxImageBytes)
        do {
            return try await fetches.image(id: id) {
                let image = try await upstream.image(id: id)
                guard image.bytes.count <= maxImageBytes else {
                    throw HabitsAPIError.decoding(
                        type: "image", detail: "\(image.bytes.count) bytes, over the \(maxImageBytes)-byte limit")
                }
                // Once per upstream answer, however many requests share it.
                if let disk { Task.detached { disk.store(id: id, bytes: image.bytes, contentType: image.contentType) } }
                return image
            }
        } catch {
            if let kept = disk?.load(id: id) { return kept }
            throw error
        }
    }
}
