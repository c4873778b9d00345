import Foundation
import HTTPServer
import HabitsAPI

extension SimulatorApp {
    /// `POST /loggedHabit` with `{"userID","habitName","timestamp"}` (ISO 8601): counts one event and answers 200.
    ///
    /// Every refusal is a plain-text 4xx and changes nothing: 413 oversize body, 415 not JSON, 400 malformed
    /// JSON, missing field or bad timestamp, 404 unknown user or habit.
    func logHabit(_ request: Request) throws -> Response {
        guard request.body.count <= maxLogBodyBytes else {
            throw HTTPError(
                .payloadTooLarge, "Body too large: a logged habit is at most \(maxLogBodyBytes) bytes.")
        }
        guard Self.isJSON(request.headers["Content-Type"]) else {
            throw HTTPError(.unsupportedMediaType, "Send the logged habit as application/json.")
        }
        let event: LoggedHabit
        do {
            event = try JSONDecoder().decode(LoggedHabit.self, from: Data(request.body))
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, Self.describe(error))
        }
        do {
            try simulator.log(userID: event.userID, habitName: event.habitName)
        } catch {
            throw HTTPError(.notFound, error.description)
        }
        return .text("Logged \"\(event.habitName)\" for \(event.userID).\n")
    }

    /// Whether a `Content-Type` value is `application/json`, parameters such as `charset` allowed.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// A short client-facing reason for a body that did not decode as a `LoggedHabit`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "Missing field \"\(key.stringValue)\"."
        case .valueNotFound(_, let context) where context.codingPath.isEmpty,
            .typeMismatch(_, let context) where context.codingPath.isEmpty:
            "Expected a JSON object with userID, habitName and timestamp."
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            "Field \"\(context.codingPath.last?.stringValue ?? "")\" must be a string."
        case .dataCorrupted(let context) where context.codingPath.last?.stringValue == "timestamp":
            "Bad timestamp: use ISO 8601, e.g. 2026-11-29T10:15:30Z."
        case .dataCorrupted: "Malformed JSON."
        @unknown default: "Malformed JSON."
        }
    }
}
