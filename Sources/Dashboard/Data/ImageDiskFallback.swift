import HabitsAPI

/// `DashboardData` whose profile images survive the upstream going away (issue 13): every image the upstream gives
/// is also kept in an `ImageDiskCache` (written off the request path), and when the upstream cannot give one the
/// copy on disk answers. Everything else passes straight through to `base`.
///
/// The upstream stays first, so a changed picture shows as soon as the shared cache fetches it again; the disk only
/// answers when the upstream (and the shared cache's memory) cannot.
public struct ImageDiskFallback: DashboardData {
    /// Where everything comes from.
    public let base: any DashboardData
    /// The images on disk.
    public let disk: ImageDiskCache

    /// Wraps `base`.
    public init(base: any DashboardData, disk: ImageDiskCache) {
        self.base = base
        self.disk = disk
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
        let image: (bytes: [UInt8], contentType: String)
        do {
            image = try await base.image(id: id)
        } catch {
            if let kept = disk.load(id: id) { return kept }
            throw error
        }
        let disk = disk
        Task.detached { disk.store(id: id, bytes: image.bytes, contentType: image.contentType) }
        return image
    }
}
