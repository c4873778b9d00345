import HTTPServer

/// The settings of the browser making a request: read from its cookie, and saved on change with a cookie minted on
/// the first change only (never on a plain GET, SPEC §7).
public struct BrowserSettings: Sendable {
    /// The store of settings files.
    public let store: SettingsStore<Settings>

    /// About two years: the settings should outlive any normal gap between visits.
    public static var cookieMaxAge: Int { 2 * 365 * 24 * 60 * 60 }

    /// Creates the accessor.
    public init(store: SettingsStore<Settings>) { self.store = store }

    /// The browser's id, if its cookie holds a valid one; any other value is treated as no cookie at all.
    public static func browserID(of request: Request) -> BrowserID? {
        request.cookies[BrowserID.cookieName].flatMap(BrowserID.init)
    }

    /// The browser's settings; defaults without a (valid) cookie. Never writes anything.
    public func load(for request: Request) async throws -> Settings {
        guard let id = Self.browserID(of: request) else { return .default }
        return try await store.load(id)
    }

    /// Applies `change` to the browser's settings; mints an id (and a cookie for `response`) when it has none and the
    /// change really changes something.
    public func update(
        for request: Request, response: inout Response, _ change: @escaping @Sendable (inout Settings) -> Void
    ) async throws {
        if let id = Self.browserID(of: request) {
            try await store.update(id, change)
            return
        }
        // A browser without a cookie has the defaults; a change that leaves them as they are (unfavouriting a habit
        // that is no favourite) is no change, and SPEC §7 mints the cookie on the first change only.
        var changed = store.defaultValue
        change(&changed)
        guard changed != store.defaultValue else { return }
        let id = BrowserID.random()
        try await store.update(id, change)
        response.setCookie(
            Cookie(
                name: BrowserID.cookieName, value: id.rawValue, maxAge: Self.cookieMaxAge, path: "/", httpOnly: true,
                sameSite: .lax))
    }
}
