import DashboardCore
import HTTPCore
import HTTPServer
import Logging

/// Where every error a dashboard handler throws becomes its answer.
///
/// People's pages and forms get a page in the layout (404, 403, 502…), never a stack trace. Machine-facing paths
/// (fragments, images, static files, health, metrics, colours) get the server's plain-text answer
/// (`ErrorResponse`) with only the status's reason phrase as the body: a handler's public message may quote the
/// request (a `/fragments/people/<id>` 404 said "There is nobody with the id “<id>”"), and a reflected string is no
/// business of a response nobody reads as a page (issue 8); `live.js` only needs the status, and an image or a
/// stylesheet cannot show a page anyway. Either way the fields an error asks for (`Retry-After`) are sent.
struct ErrorAnswers<Next: HTTPResponder>: HTTPResponder {
    /// The app's routes.
    let next: Next
    /// Renders the error page.
    let renderer: PageRenderer

    /// `next`'s answer, with an error thrown at once or by its work turned into its answer here.
    func respond(to request: Request, context: RequestContext) -> Answer {
        let given: Answer
        do {
            given = try next.respond(to: request, context: context)
        } catch {
            return .now(answer(error, request, context))
        }
        // A warm page's answer passes through building no closure: only work for later and waits are wrapped.
        if case .now = given { return given }
        return given.recover { answer($0, request, context) }
    }

    /// The answer to `error`: a page for people's pages, the reason phrase for machine-facing paths.
    private func answer(_ error: any Error, _ request: Request, _ context: RequestContext) -> Response {
        guard Self.showsPage(for: request) else {
            return ErrorResponse.response(for: error, logger: context.logger, quotingMessage: false)
        }
        return page(for: error, request: request, logger: context.logger)
    }

    /// The error page for `error`, logged as a failed page when it is the server's fault.
    private func page(for error: any Error, request: Request, logger: Logger) -> Response {
        guard let error = error as? any HTTPResponseError else {
            logger.error("page failed", ["error": String(describing: error), "http.path": request.path])
            return renderer.errorPage(
                status: .internalServerError, heading: "Something went wrong",
                message: "This page could not be shown. Please try again in a moment.", logger: logger,
                path: request.path)
        }
        if error.status.code >= 500 {
            logger.warning("page failed", ["error": String(describing: error), "http.path": request.path])
        }
        var page = renderer.errorPage(
            status: error.status, heading: Self.heading(for: error.status), message: Self.message(for: error),
            logger: logger, path: request.path)
        ErrorResponse.addHeaders(of: error, to: &page)
        return page
    }

    /// Whether a failed request gets an HTML page (people's pages and forms) rather than plain text.
    static func showsPage(for request: Request) -> Bool {
        let path = request.path
        // The kinds of machine-facing route in the table (`Routes.swift`): a path of one gets plain text.
        for kind in Route.machineKinds where path.hasPrefix(kind) {
            return false
        }
        return true
    }

    /// The sentence under the heading: the error's own public message, except where it would repeat the heading.
    static func message(for error: any HTTPResponseError) -> String {
        if DashboardState.isUpstreamError(error) && error.status.code >= 500 {
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
