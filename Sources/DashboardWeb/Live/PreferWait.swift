import DashboardCore
import HTTPCore
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
            for preference in field.utf8.split(separator: UInt8(ascii: ",")) {
                let parameters = preference.split(
                    separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
                let pair = parameters[0].split(
                    separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                guard isWait(pair[0].trimmingOWS) else { continue }
                guard pair.count == 2 else { return nil }
                var value = pair[1].trimmingOWS
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !value.isEmpty, value.count <= 9, value.allSatisfy({ (48...57).contains($0) }) else { return nil }
                let seconds = value.reduce(0) { $0 * 10 + Int($1 - 48) }
                guard seconds > 0 else { return nil }
                return min(seconds, maximum)
            }
        }
        return nil
    }

    // On the field's bytes, not its Characters: every held poll reads it, and trimming and lowercasing Strings was
    // 5.6 % of the CPU of 10 000 live viewers (issue 46, perf on Benchmarks/viewers.sh).

    /// Whether `name` is `wait` in any case.
    private static func isWait(_ name: Substring.UTF8View.SubSequence) -> Bool {
        // `| 0x20` lowercases ASCII letters; no other byte maps onto these four.
        name.count == 4 && name.elementsEqual("wait".utf8) { $0 | 0x20 == $1 }
    }
}
