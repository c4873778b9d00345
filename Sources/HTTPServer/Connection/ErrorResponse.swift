import HTTPCore
import Logging

/// The one place errors become responses: one error type per layer, mapped to a status here and nowhere else.
///
/// Parser errors are answered with their status (the connection then closes). `HTTPResponseError`s are
/// answered with their status and public message. Anything else is logged with its details and answered
/// with a bare 500, so internals (paths, upstream URLs, stack state) never reach the client.
enum ErrorResponse {
    /// The answer to a request the parser refused, or to a deadline that passed (408) or the connection cap (503).
    static func protocolError(_ status: HTTPStatus) -> Response {
        .text(status.reason, status: status)
    }

    /// The answer to an error thrown by a handler.
    static func response(for error: any Error, logger: Logger) -> Response {
        if let error = error as? any HTTPResponseError {
            if error.status.code >= 500 {
                logger.error(
                    "handler failed", ["error": String(describing: error), "http.status": "\(error.status.code)"])
            }
            return .text(error.publicMessage, status: error.status)
        }
        logger.error("handler failed", ["error": String(describing: error)])
        return .text(HTTPStatus.internalServerError.reason, status: .internalServerError)
    }

    /// Runs `responder`, turning any thrown error into its response.
    static func respond(_ responder: any HTTPResponder, to request: Request, context: RequestContext) async
        -> Response
    {
        do {
            return try await responder.respond(to: request, context: context)
        } catch {
            return response(for: error, logger: context.logger)
        }
    }
}
