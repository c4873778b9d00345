import DashboardCore

/// A request's browser as `BrowserSettings` found it: the id its cookie verified to and the settings loaded for that
/// id. A page hands this on, so what else it does for the browser (renewing the last-visit cookie, which only a
/// browser with settings gets) reads the id rather than verifying the cookie again (2.7 % of a warm page, issue 21).
public struct LoadedBrowser: Sendable {
    /// The id of the browser's valid cookie; nil without one (the browser then has the defaults).
    public var id: BrowserID?
    /// The settings, with their version and digest.
    public var settings: Versioned<Settings>

    /// The browser `id` with `settings`.
    public init(id: BrowserID?, settings: Versioned<Settings>) {
        self.id = id
        self.settings = settings
    }
}
