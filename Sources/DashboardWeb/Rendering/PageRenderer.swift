import DashboardCore
import HTTPCore
import HTTPServer
import Logging
import TemplateKit

/// Turns template values into responses: pages inside the layout, live fragments with ETags, and error pages.
public struct PageRenderer: Sendable {
    /// The parsed `Templates/` directory.
    public let templates: TemplateLibrary
    /// Where the layout links its assets.
    public let assets: AssetURLs
    /// The path a proxy serves the dashboard under, put on every URL of the HTML rendered here.
    public let prefix: PathPrefix
    /// The cards rendered so far, by content (issue 21 point 2), shared by every copy of this renderer.
    let cards: CardCache

    /// Creates a renderer.
    public init(templates: TemplateLibrary, assets: AssetURLs = .plain, prefix: PathPrefix = .none) {
        self.init(templates: templates, assets: assets, prefix: prefix, cards: CardCache())
    }

    /// Creates a renderer whose cards go to `cards`.
    init(templates: TemplateLibrary, assets: AssetURLs = .plain, prefix: PathPrefix = .none, cards: CardCache) {
        self.templates = templates
        self.assets = assets
        self.prefix = prefix
        self.cards = cards
    }

    /// Renders page template `name` inside the layout.
    public func page(
        _ name: String, _ fields: TemplateObject, frame: PageFrame, status: HTTPStatus = .ok
    ) throws -> Response {
        .html(try pageBytes(name, fields, frame: frame), status: status)
    }

    /// The bytes of page template `name` inside the layout.
    public func pageBytes(_ name: String, _ fields: TemplateObject, frame: PageFrame) throws -> [UInt8] {
        let layoutFields = assetFields.merging(frame.fields)
        return prefix.html(try templates.render(name, .object(fields, adding: layoutFields), layout: "layout"))
    }

    /// The skeleton of page template `name` (issue 46 point 1): rendered with `places` left open, each where its field
    /// would go, to be filled per browser.
    func skeleton(
        _ name: String, _ fields: TemplateObject, frame: PageFrame, places: [String],
        layout: (any SkeletonLayout)? = nil
    ) throws -> Skeleton {
        Skeleton(page: try pageBytes(name, Skeleton.marking(places, in: fields), frame: frame), layout: layout)
    }

    /// The skeleton of fragment template `name` (a live region's content): rendered with `places` left open.
    func fragmentSkeleton(
        _ name: String, _ fields: TemplateObject, places: [String], layout: (any SkeletonLayout)? = nil
    ) throws -> Skeleton {
        Skeleton(page: try fragmentBytes(name, .object(Skeleton.marking(places, in: fields))), layout: layout)
    }

    /// The bytes of fragment template `name` (a live region's content), URLs under the prefix.
    public func fragmentBytes(_ name: String, _ value: TemplateValue) throws -> [UInt8] {
        prefix.html(try templates.render(name, value))
    }

    private var assetFields: TemplateObject {
        ["appCSS": .text(assets.appCSS), "liveJS": .text(assets.liveJS), "favicon": .text(assets.favicon)]
    }

    /// Renders a live page: the fragment first (its ETag goes on the region, so the script's first poll is a 304),
    /// then the page with the fragment inside its `data-live-src` region.
    public func livePage(
        _ name: String, _ fields: TemplateObject, fragment: String, fragmentValue: TemplateValue,
        liveSource: String, frame: PageFrame
    ) throws -> Response {
        let fragmentHTML = try fragmentBytes(fragment, fragmentValue)
        return .html(
            try livePageBytes(
                name, fields, fragment: fragmentHTML, fragmentTag: EntityTag.strong(for: fragmentHTML),
                liveSource: liveSource, frame: frame))
    }

    /// The bytes of a live page around an already rendered fragment and its ETag.
    public func livePageBytes(
        _ name: String, _ fields: TemplateObject, fragment: [UInt8], fragmentTag: String,
        liveSource: String, frame: PageFrame
    ) throws -> [UInt8] {
        var fields = fields
        fields["liveSrc"] = .text(liveSource)
        // Raw in the template, so that a composed page can leave a place there (issue 46 point 1); escaped here.
        fields["liveETag"] = .trustedHTML(HTMLEscaping.escape(fragmentTag))
        // The fragment goes in after the page around it is rendered, in the skeleton's place for it: its bytes are
        // what the fragment route serves (ETag and all, URLs already under the prefix), so they must not pass through
        // the prefix twice, and as bytes they skip a round trip through a `String`.
        return try skeleton(name, fields, frame: frame, places: ["fragment"])
            .compose { _, page in page.append(literal: fragment) }.body
    }

    /// Renders a fragment for `live.js`: 200 with a strong ETag, or 304 when `If-None-Match` already has it.
    public func fragment(_ name: String, _ value: TemplateValue, for request: Request) throws -> Response {
        let html = try fragmentBytes(name, value)
        let tag = EntityTag.strong(for: html)
        var response: Response
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag: tag) {
            response = Response(status: .notModified)
        } else {
            response = .html(html)
        }
        response.headers.replaceOrAdd(name: "ETag", value: tag)
        return response
    }

    /// The 404/502/503 page in the layout. If even that fails to render, a plain-text answer with the same status.
    ///
    /// `path` is the page that failed: an unreachable upstream's page (502/503/504) tries it again by itself, and the
    /// page offers a link to Home only when it is not Home that failed.
    public func errorPage(
        status: HTTPStatus, heading: String, message: String, logger: Logger, path: String = ""
    ) -> Response {
        let retries = [502, 503, 504].contains(status.code)
        do {
            return try page(
                "error",
                [
                    "code": .int(status.code), "heading": .text(heading), "message": .text(message),
                    "offersHome": .bool(path != "/"), "retries": .bool(retries),
                ],
                frame: PageFrame(title: heading, tab: .none, retries: retries), status: status)
        } catch {
            logger.error("error page failed to render", ["error": String(describing: error)])
            return .text(heading + "\n\n" + message + "\n", status: status)
        }
    }
}
