import HTTPServer
import TemplateKit

/// Turns template values into responses: pages inside the layout, live fragments with ETags, and error pages.
public struct PageRenderer: Sendable {
    /// The parsed `Templates/` directory.
    public let templates: TemplateLibrary
    /// Where the layout links its assets.
    public let assets: AssetURLs

    /// Creates a renderer.
    public init(templates: TemplateLibrary, assets: AssetURLs = .plain) {
        self.templates = templates
        self.assets = assets
    }

    /// Renders page template `name` inside the layout.
    public func page(
        _ name: String, _ fields: [String: TemplateValue], frame: PageFrame, status: HTTPStatus = .ok
    ) throws -> Response {
        let layoutFields = frame.fields.merging(assetFields) { page, _ in page }
        let html = try templates.render(name, .object(fields, adding: layoutFields), layout: "layout")
        return .html(html, status: status)
    }

    private var assetFields: [String: TemplateValue] {
        ["appCSS": .text(assets.appCSS), "liveJS": .text(assets.liveJS), "favicon": .text(assets.favicon)]
    }

    /// Renders a live page: the fragment first (its ETag goes on the region, so the script's first poll is a 304),
    /// then the page with the fragment inside its `data-live-src` region.
    public func livePage(
        _ name: String, _ fields: [String: TemplateValue], fragment: String, fragmentValue: TemplateValue,
        liveSource: String, frame: PageFrame
    ) throws -> Response {
        let fragmentHTML = try templates.render(fragment, fragmentValue)
        var fields = fields
        fields["fragment"] = .trustedHTML(String(decoding: fragmentHTML, as: UTF8.self))
        fields["liveSrc"] = .text(liveSource)
        fields["liveETag"] = .text(EntityTag.strong(for: fragmentHTML))
        return try page(name, fields, frame: frame)
    }

    /// Renders a fragment for `live.js`: 200 with a strong ETag, or 304 when `If-None-Match` already has it.
    public func fragment(_ name: String, _ value: TemplateValue, for request: Request) throws -> Response {
        let html = try templates.render(name, value)
        let tag = EntityTag.strong(for: html)
        var response: Response
        if EntityTag.matches(request.headers["If-None-Match"], tag) {
            response = Response(status: .notModified)
        } else {
            response = .html(html)
        }
        response.headers.replaceOrAdd(name: "ETag", value: tag)
        return response
    }

    /// The 404/502/503 page in the layout. If even that fails to render, a plain-text answer with the same status.
    public func errorPage(status: HTTPStatus, heading: String, message: String, logger: Logger) -> Response {
        do {
            return try page(
                "error", ["code": .int(status.code), "heading": .text(heading), "message": .text(message)],
                frame: PageFrame(title: heading, tab: .none), status: status)
        } catch {
            logger.error("error page failed to render", ["error": String(describing: error)])
            return .text(heading + "\n\n" + message + "\n", status: status)
        }
    }
}
