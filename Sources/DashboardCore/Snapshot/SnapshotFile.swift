import Foundation

/// What `snapshot.json` holds (issue 13): the upstream answers of the last good snapshot in a small envelope that
/// says which upstream they came from, which version they are and when they were fetched.
///
/// The inputs, not rendered HTML: templates and settings may change between two runs, the data does not.
struct SnapshotFile: Codable, Sendable {
    /// The format written now. Bump it whenever the envelope or the models' JSON changes shape: a file of another
    /// format is set aside, never half-read.
    static let currentFormat = 1

    /// The file's format.
    var format: Int
    /// The upstream the data came from (`SnapshotPersistence.upstream`); a file from another one is set aside.
    var upstream: String
    /// `Snapshot.version` of the inputs, as 16 hex digits (a JSON number would lose bits in most readers). Loading
    /// recomputes it, so a file whose content was damaged but still parses is caught too.
    var version: String
    /// When the data was fetched (wall clock): the time the "data as of" notice shows.
    var fetchedAt: Date
    /// The four upstream answers.
    var inputs: SnapshotInputs

    /// An envelope for `snapshot`, fetched at `fetchedAt` from `upstream`.
    init(snapshot: Snapshot, fetchedAt: Date, upstream: String) {
        self.init(inputs: snapshot.inputs, version: snapshot.version, fetchedAt: fetchedAt, upstream: upstream)
    }

    /// An envelope for the answers `inputs` of version `version` (a snapshot's), fetched at `fetchedAt`.
    init(inputs: SnapshotInputs, version: UInt64, fetchedAt: Date, upstream: String) {
        format = Self.currentFormat
        self.upstream = upstream
        self.version = Self.hex(version)
        self.fetchedAt = fetchedAt
        self.inputs = inputs
    }

    /// A version as 16 lowercase hex digits.
    static func hex(_ version: UInt64) -> String {
        let digits = String(version, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// The file's bytes: what `JSONEncoder` (ISO 8601 dates, sorted keys) would write for the envelope, written by
    /// `JSONFragment` into one buffer (`SnapshotFile+Encoding.swift`; issue 23: the encoder's tree of a 45 000-person
    /// snapshot took about 120 MB at once). Absent colours and bios are `null`, as the upstream sends them.
    func encoded() throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.estimatedSize(of: inputs))
        writeJSON(to: &out)
        return out
    }

    /// Why a file cannot be shown.
    enum Rejection: Error, Equatable, CustomStringConvertible {
        /// Not JSON, not the envelope, or the version does not match the content.
        case corrupt(String)
        /// Another format than `currentFormat` (older or newer).
        case format(Int)
        /// Written for another upstream.
        case foreignUpstream(String)
        /// Fetched longer ago than the allowed age (kept in place: the next write replaces it).
        case tooOld(fetchedAt: Date)

        var description: String {
            switch self {
            case .corrupt(let detail): "the file is corrupt (\(detail))"
            case .format(let format): "the file has format \(format), this build reads \(SnapshotFile.currentFormat)"
            case .foreignUpstream(let upstream): "the file is from another upstream (\(upstream))"
            case .tooOld(let fetchedAt):
                "the data was fetched at \(fetchedAt.formatted(.iso8601)), longer ago than --cache-max-age allows"
            }
        }
    }

    /// Only the fields every format has, read first so that a file of another format is told apart from a
    /// corrupt one.
    private struct Header: Decodable {
        var format: Int
        var upstream: String
    }

    /// Decodes and checks `bytes`: the format, the upstream, the version against the content, the age. Returns the
    /// file and the snapshot built from it.
    static func decode(
        _ bytes: [UInt8], upstream: String, now: Date, maxAge: TimeInterval, activeUserID: String
    ) throws(Rejection)
        -> (file: SnapshotFile, snapshot: Snapshot)
    {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw .corrupt(Self.reason(error))
        }
        guard header.format == currentFormat else { throw .format(header.format) }
        guard header.upstream == upstream else { throw .foreignUpstream(header.upstream) }
        let file: SnapshotFile
        do {
            file = try decoder.decode(SnapshotFile.self, from: data)
        } catch {
            throw .corrupt(Self.reason(error))
        }
        guard now.timeIntervalSince(file.fetchedAt) <= maxAge else { throw .tooOld(fetchedAt: file.fetchedAt) }
        let snapshot = Snapshot(inputs: file.inputs, activeUserID: activeUserID)
        guard hex(snapshot.version) == file.version else {
            throw .corrupt("version \(file.version) does not match the content's \(hex(snapshot.version))")
        }
        return (file, snapshot)
    }

    /// A one-line reason for a decoding error (the full `DecodingError` description spans a coding path and more).
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "not valid JSON: \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: String(describing: error)
        }
    }
}
