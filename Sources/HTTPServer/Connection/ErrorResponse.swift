import HTTPCore
import Logging

/// The one place errors become responses: one error type per layer, mapped to a status here and nowhere else.
///
/// Parser errors are answered with their status (the connection then closes). `HTTPResponseError`s are
/// answered with their status, their public message (unless the caller asks for the reason phrase only) and the
/// fields an `ErrorResponseHeaders` error asks for. Anything else is logged with its details and answered with a
/// bare 500, so internals (paths, upstream URLs, stack state) never reach the client. An app that shows errors as
/// pages (the dashboard's `ErrorAnswers`) renders the page itself and leaves every other answer to this.
public enum ErrorResponse {
    /// The answer to a request the parser refused, or to a deadline that passed (408) or the connection cap (503).
    static func protocolError(_ status: HTTPStatus) -> Response {
        .text(status.reason, status: status)
    }

    /// The plain-text answer to an error thrown by a handler. With `quotingMessage` false the body is only the
    /// status's reason phrase, for answers nobody reads as a page, where a message quoting the request would be
    /// reflected for nothing.
    public static func response(for error: any Error, logger: Logger, quotingMessage: Bool = true) -> Response {
        if let error = error as? any HTTPResponseError {
            if error.status.code >= 500 {
                logger.error(
                    "handler failed", ["error": String(describing: error), "http.status": "\(error.status.code)"])
            }
            var response = Response.text(
                quotingMessage ? error.publicMessage : error.status.reason, status: error.status)
            addHeaders(of: error, to: &response)
            return response
        }
        logger.error("handler failed", ["error": String(describing: error)])
        return .text(HTTPStatus.internalServerError.reason, status: .internalServerError)
    }

    /// Adds the fields `error` asks for (`ErrorResponseHeaders`) to `response`.
    public static func addHeaders(of error: any Error, to response: inout Response) {
        for field in (error as? any ErrorResponseHeaders)?.responseHeaders ?? [] {
            response.headers.add(name: field.name, value: field.value)
        }
    }

    /// `responder`'s one answer (`HTTPResponder.respond`), an error it throws at once turned into its response.
    static func answer(_ responder: any HTTPResponder, to request: Request, context: RequestContext) -> Answer {
        do {
            return try responder.respond(to: request, context: context)
        } catch {
            return .now(response(for: error, logger: context.logger))
        }
    }

    /// Awaits an answer's work (`Answer.later`), turning any error it throws into its response.
    static func respond(_ work: @Sendable () async throws -> Response, context: RequestContext) async -> Response {
        do {
            return try await work()
        } catch {
            return response(for: error, logger: context.logger)
        }
    }
}
