import HabitsAPI
import Timing

/// `DashboardData` whose profile images survive the upstream going away (issue 13): every image the upstream gives
/// is also kept in an `ImageDiskCache` (written off the request path), and when the upstream cannot give one the
/// copy on disk answers. Everything else passes straight through to `base`.
///
/// The upstream stays first, so a changed picture shows as soon as the shared cache fetches it again; the disk only
/// answers when the upstream (and the shared cache's memory) cannot. Upstream calls go through `ImageFetches`
/// (issue 23): one call per image at a time, failures remembered for 30 s, at most 32 requests waiting on the
/// upstream; a request turned away there gets the disk's copy at once, or a quick 503 with `Retry-After`.
public struct ImageDiskFallback: DashboardData {
    /// Where everything comes from.
    public let base: any DashboardData
    /// The images on disk.
    public let disk: ImageDiskCache
    /// The upstream calls for images.
    let fetches: ImageFetches

    /// Wraps `base`; `clock` times remembered failures.
    public init(base: any DashboardData, disk: ImageDiskCache, clock: any TimeSource = SystemTimeSource()) {
        self.base = base
        self.disk = disk
        self.fetches = ImageFetches(clock: clock)
    }

    public func users() async throws -> Cached<[String: User]> { try await base.users() }
    public func habits() async throws -> Cached<[String: Habit]> { try await base.habits() }
    public func categories() async throws -> Cached<[Category]> { try await base.categories() }
    public func combinedStatistics() async throws -> Cached<CombinedStatistics> {
        try await base.combinedStatistics()
    }
    public func userLeadingStatistics(id: String) async throws -> Cached<UserStatistics> {
        try await base.userLeadingStatistics(id: id)
    }
    public func log(_ habit: LoggedHabit) async throws { try await base.log(habit) }

    public func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        let (base, disk) = (base, disk)
        do {
            return try await fetches.image(id: id) {
                let image = try await base.image(id: id)
                // Once per upstream answer, however many requests share it.
                Task.detached { disk.store(id: id, bytes: image.bytes, contentType: image.contentType) }
                return image
            }
        } catch {
            if let kept = disk.load(id: id) { return kept }
            throw error
        }
    }
}
