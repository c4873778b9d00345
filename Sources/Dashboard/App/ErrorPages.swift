import HTTPCore
import HTTPServer
import HabitsAPI

/// Turns errors from page handlers into pages in the layout (404, 403, 502…), never a stack trace.
///
/// Machine-facing paths (fragments, images, static files, health, metrics, colours) keep the server's plain-text
/// answers: `live.js` only needs the status, and an image or a stylesheet cannot show a page anyway.
struct ErrorPages<Next: HTTPResponder>: HTTPResponder {
    /// The app's routes.
    let next: Next
    /// Renders the error page.
    let renderer: PageRenderer

    func respond(to request: Request, context: RequestContext) async throws -> Response {
        do {
            return try await next.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            guard Self.showsPage(for: request) else { throw error }
            if error.status.code >= 500 {
                context.logger.warning(
                    "page failed", ["error": String(describing: error), "http.path": request.path])
            }
            var page = renderer.errorPage(
                status: error.status, heading: Self.heading(for: error.status), message: Self.message(for: error),
                logger: context.logger, path: request.path)
            for field in (error as? any ErrorResponseHeaders)?.responseHeaders ?? [] {
                page.headers.add(name: field.name, value: field.value)
            }
            return page
        } catch {
            guard Self.showsPage(for: request) else { throw error }
            context.logger.error("page failed", ["error": String(describing: error), "http.path": request.path])
            return renderer.errorPage(
                status: .internalServerError, heading: "Something went wrong",
                message: "This page could not be shown. Please try again in a moment.", logger: context.logger,
                path: request.path)
        }
    }

    /// Whether a failed request gets an HTML page (people's pages and forms) rather than plain text.
    static func showsPage(for request: Request) -> Bool {
        let path = request.path
        for prefix in ["/fragments/", "/images/", "/static/", "/healthz", "/metrics", "/colors.css"]
        where path.hasPrefix(prefix) {
            return false
        }
        return true
    }

    /// The sentence under the heading: the error's own public message, except where it would repeat the heading.
    static func message(for error: any HTTPResponseError) -> String {
        if error is HabitsAPIError && error.status.code >= 500 {
            return "No data has arrived from it yet, so this page cannot be shown. Please try again in a moment."
        }
        return error.publicMessage
    }

    /// A short heading for each status a user may meet.
    static func heading(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "That request did not make sense"
        case 403: "Not allowed"
        case 404: "Page not found"
        case 405: "Not allowed here"
        case 413, 415: "That request could not be read"
        case 429: "Too many new visitors"
        case 502, 504: "The Habits service is not answering"
        case 503: "The dashboard is busy"
        default: status.code >= 500 ? "Something went wrong" : status.reason
        }
    }
}
