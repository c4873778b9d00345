import DashboardCore
import HTTPServer

/// The `wait` preference of a request's `Prefer` fields (RFC 7240 §4.3): how many seconds the client is willing to
/// wait for a live fragment to change before it is answered 304.
enum PreferWait {
    /// The longest wait granted, whatever is asked: a held request is a connection, and proxies and browsers give
    /// up on quiet ones after about 30 s.
    static let maximum = 25

    /// The seconds asked for (at most `maximum`), or nil when the request has no usable `wait` preference.
    ///
    /// `Prefer: respond-async, wait=25` and `Prefer: wait="25"; x=y` both give 25; several fields are one list
    /// (RFC 9110 §5.3); the first `wait` wins (RFC 7240 §2); names are case-insensitive; a malformed or zero value is
    /// ignored, so the request is answered at once.
    static func seconds(in request: Request) -> Int? {
        for field in request.headers.values(for: "Prefer") {
            for preference in field.split(separator: ",") {
                let parameters = preference.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                let pair = parameters[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard trimmed(pair[0]).lowercased() == "wait" else { continue }
                guard pair.count == 2 else { return nil }
                var value = trimmed(pair[1])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                guard value.utf8.count <= 9, value.utf8.allSatisfy({ (48...57).contains($0) }),
                    let seconds = Int(value),
                    seconds > 0
                else { return nil }
                return min(seconds, maximum)
            }
        }
        return nil
    }

    /// Without the optional whitespace (spaces and tabs) around a list member or parameter.
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
