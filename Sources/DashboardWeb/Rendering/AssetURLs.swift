import DashboardCore
import HTTPServer

/// The URLs the layout links its stylesheet, script and icon by: fingerprinted names from the static-file
/// manifest (issue 14), so browsers keep them for a year and an upgrade changes the name.
public struct AssetURLs: Equatable, Sendable {
    /// `Public/app.css`.
    public var appCSS: String
    /// `Public/live.js`.
    public var liveJS: String
    /// `Public/favicon.svg`.
    public var favicon: String

    /// The plain names (for tests and handler-only apps without static files).
    public static let plain = AssetURLs(
        appCSS: "/static/app.css", liveJS: "/static/live.js", favicon: "/static/favicon.svg")

    /// Creates the URLs.
    public init(appCSS: String, liveJS: String, favicon: String) {
        self.appCSS = appCSS
        self.liveJS = liveJS
        self.favicon = favicon
    }

    /// The fingerprinted URLs `files` serves, falling back to the plain name for a file it does not have.
    public init(files: StaticFiles) {
        self.init(
            appCSS: files.url(for: "app.css") ?? Self.plain.appCSS,
            liveJS: files.url(for: "live.js") ?? Self.plain.liveJS,
            favicon: files.url(for: "favicon.svg") ?? Self.plain.favicon)
    }
}
