import DashboardCore
import HTTPServer

/// The settings of the browser making a request: read from its cookie, and saved on change with a cookie minted on
/// the first change only (never on a plain GET, SPEC §7).
///
/// Only a cookie this installation signed names a file (`CookieSigner`); anything else is no cookie at all, and of
/// several copies only one that verifies counts (`SignedCookieChoice`, names and path from `CookieScope`). New ids
/// are rationed per client address (`NewBrowserLimiter`), so no one client can fill the store.
public struct BrowserSettings: Sendable {
    /// Where the settings live: files, or the database (DashboardCore's `SettingsAccess`).
    public let store: SettingsAccess
    /// Signs new cookies and checks the ones browsers send; empty until a database has given the secret.
    public let signers: CookieSignerSlot
    /// Rations new browser ids per client.
    public let newBrowsers: NewBrowserLimiter
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    public let trustedProxies: [AddressRange]
    /// Which site a request was sent to: over https the cookie is `Secure`, and its path is the public URL's prefix.
    public let site: SitePolicy
    /// The cookies' names and path under `site`.
    public let cookies: CookieScope
    /// Cookie values already verified, so repeat requests skip the HMAC.
    let verifiedCookies = VerifiedCookies<BrowserID>()

    /// About two years: the settings should outlive any normal gap between visits.
    public static var cookieMaxAge: Int { 2 * 365 * 24 * 60 * 60 }

    /// Creates the accessor. The defaults suit tests: a key that lives in memory, 30 new browsers a minute.
    public init(
        store: SettingsAccess, signer: CookieSigner = .ephemeral(),
        newBrowsers: NewBrowserLimiter = NewBrowserLimiter(), trustedProxies: [AddressRange] = [],
        site: SitePolicy = SitePolicy()
    ) {
        self.init(
            store: store, signers: CookieSignerSlot(signer), newBrowsers: newBrowsers, trustedProxies: trustedProxies,
            site: site)
    }

    /// The accessor with a signer that may come later (`--database`).
    public init(
        store: SettingsAccess, signers: CookieSignerSlot, newBrowsers: NewBrowserLimiter,
        trustedProxies: [AddressRange], site: SitePolicy
    ) {
        self.store = store
        self.signers = signers
        self.newBrowsers = newBrowsers
        self.trustedProxies = trustedProxies
        self.site = site
        self.cookies = CookieScope(site: site)
    }

    /// The browser's id: that of the one settings cookie that verifies (`SignedCookieChoice`); nil without one, or
    /// when two verify to different browsers (one was tossed by someone else, issue 48 point 2).
    public func browserID(of request: Request) -> BrowserID? {
        browserCookie(of: request).value
    }

    /// Which settings cookie of `request` counts, under `cookies`' names.
    func browserCookie(of request: Request) -> SignedCookieChoice<BrowserID> {
        guard let signer = signers.current else { return .none }
        return SignedCookieChoice.of(request, name: cookies.browserName, legacyName: cookies.legacyBrowserName) {
            value in
            if let id = verifiedCookies.named(by: value) { return id }
            guard let id = signer.browserID(fromCookie: value) else { return nil }
            verifiedCookies.remember(value, names: id)
            return id
        }
    }

    /// Adds to `response` the browser's cookie under its `__Host-` name, and the deletion of its old name, when the
    /// request's settings cookie came under the old name (issue 48 point 2: read once, then reissued).
    public func reissuingLegacyCookie(_ request: Request, into response: inout Response) {
        guard cookies.legacyBrowserName != nil, case .one(let id, legacy: true) = browserCookie(of: request) else {
            return
        }
        reissuing(id, into: &response)
    }

    /// Adds `id`'s cookie under the `__Host-` name and the deletion of the old name (a request whose settings cookie
    /// came under the old name).
    private func reissuing(_ id: BrowserID, into response: inout Response) {
        guard let legacyName = cookies.legacyBrowserName, let signer = signers.current else { return }
        response.setCookie(cookies.cookie(name: cookies.browserName, value: signer.cookieValue(for: id), isHTTPS: true))
        response.setCookie(cookies.deletion(of: legacyName))
    }

    /// The browser's settings; defaults without a (valid) cookie. Never writes a settings file.
    public func load(for request: Request) async throws -> Settings {
        try await loadVersioned(for: request).value
    }

    /// The browser's settings with their version and digest (for caches of what was rendered from them).
    public func loadVersioned(for request: Request) async throws -> Versioned<Settings> {
        try await browser(of: request).settings
    }

    /// The browser's id and settings, its cookie verified once.
    public func browser(of request: Request) async throws -> LoadedBrowser {
        guard let id = browserID(of: request) else { return LoadedBrowser(id: nil, settings: store.defaults) }
        return LoadedBrowser(id: id, settings: try await store.loadVersioned(id))
    }

    /// `browser(of:)`'s answer when the settings are in memory (`SettingsStore.loadedAtOnce`), else nil.
    public func browserAtOnce(of request: Request) -> LoadedBrowser? {
        guard let id = browserID(of: request) else { return LoadedBrowser(id: nil, settings: store.defaults) }
        return store.loadedAtOnce(id).map { LoadedBrowser(id: id, settings: $0) }
    }

    /// Applies `change` to the browser's settings; mints an id (and a cookie for `response`) when it has none and the
    /// change really changes something. Throws `NewBrowserRateLimited` (nothing written) when the client has had
    /// its share of new ids.
    public func update(
        for request: Request, context: RequestContext, response: inout Response,
        _ change: @escaping @Sendable (inout Settings) -> Void
    ) async throws {
        // No secret yet (the database was unreachable at start): the cookie cannot be read, and a new one would
        // replace the browser's real one, so nothing is saved.
        guard let signer = signers.current else { throw SettingsUnavailable(reason: "no cookie secret yet") }
        switch browserCookie(of: request) {
        case .conflicting: throw ConflictingCookies()
        case .one(let id, let legacy):
            try await store.update(id, change)
            // The choice just made: the request's cookies are not read and checked a second time.
            if legacy { reissuing(id, into: &response) }
            return
        case .none: break
        }
        // A browser without a cookie has the defaults; a change that leaves them as they are (unfavouriting a habit
        // that is no favourite) is no change, and SPEC §7 mints the cookie on the first change only.
        guard !store.leavesDefaults(change) else { return }
        let client = ClientAddress.key(of: request, context: context, trustedProxies: trustedProxies)
        // No log line of its own: the access log has the 429, and a flood must not double the log's volume.
        if case .limited(let retryAfter) = newBrowsers.admit(client) {
            throw NewBrowserRateLimited(retryAfter: retryAfter)
        }
        let id = BrowserID.random()
        try await store.update(id, change)
        response.setCookie(
            cookies.cookie(
                name: cookies.browserName, value: signer.cookieValue(for: id),
                isHTTPS: site.site(of: request, peer: context.peer)?.isHTTPS ?? false))
    }
}
