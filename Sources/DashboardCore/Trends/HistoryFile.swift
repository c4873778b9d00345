import Foundation
import Logging
import Timing

/// The history kept in `--cache-dir` beside the snapshot (issue 22 point 1): `<directory>/history.bin`, a
/// `HistoryFileFormat`.
///
/// - `load` runs once at start: temp files of a write cut short are deleted; a corrupt file, one of another format or
///   from another upstream is renamed to `history.bin.bad-<time>` with one log line (`CacheFiles`, as the snapshot
///   file). Nothing it finds makes it throw: the history then starts empty.
/// - `save` queues the record on a `CoalescingWriter` (the snapshot's mechanism): written at once, then at most once
///   per `minWriteInterval` (a minute: a kill -9 loses at most the last minute), each write atomic. The encoding runs
///   on the writer's task, off the request path.
final class HistoryFile: HistoryStore {
    /// The file's name in the directory.
    static let fileName = "history.bin"

    /// The cache directory.
    let directory: String
    /// The upstream's identity; a file written for another one is set aside.
    let upstream: String
    private let clock: any TimeSource
    private let logger: Logger
    private let writer: CoalescingWriter<HistoryRecord>
    /// A larger file is not read (the bound of 2 × 4,096 series in three tiers, two samples a slot, is about 90 MB).
    private let maxFileBytes = 96 << 20

    /// A history file in `directory` for `upstream`, written at most once per `minWriteInterval`.
    init(
        directory: String, upstream: String, minWriteInterval: Duration = .seconds(60),
        clock: any TimeSource = SystemTimeSource(), logger: Logger
    ) {
        self.directory = directory
        self.upstream = upstream
        self.clock = clock
        self.logger = logger
        let path = directory + "/" + Self.fileName
        writer = CoalescingWriter(minInterval: minWriteInterval, clock: clock) { record in
            do {
                try FileIO.createPrivateDirectory(directory)
                try FileIO.writeAtomically(
                    HistoryFileFormat.encode(record, upstream: upstream), to: path, directory: directory)
                return true
            } catch {
                logger.warning("history not written to disk", ["cache.file": path, "error": String(describing: error)])
                return false
            }
        }
    }

    /// `<directory>/history.bin`.
    var path: String { directory + "/" + Self.fileName }

    /// Records written so far.
    var writes: Int { writer.writes }

    func load() -> HistoryRecord? {
        do {
            try FileIO.createPrivateDirectory(directory)
        } catch {
            logger.warning("cache directory unusable: the history is not kept", ["cache.dir": directory])
            return nil
        }
        let removed = CacheFiles.removeLeftoverTemporaries(of: Self.fileName, in: directory)
        if removed > 0 { logger.notice("removed temp files of an interrupted history write", ["count": "\(removed)"]) }
        guard
            let bytes = CacheFiles.read(
                path, limit: maxFileBytes, what: "history", logger: logger, setAside: { setAside(because: $0) })
        else { return nil }
        do {
            let record = try HistoryFileFormat.decode(bytes, upstream: upstream)
            logger.notice("history loaded from disk", ["cache.file": path, "bytes": "\(bytes.count)"])
            return record
        } catch {
            setAside(because: error.description)
            return nil
        }
    }

    func save(_ record: HistoryRecord) { writer.submit(record) }

    func flush() { writer.flush() }

    /// Returns once `count` records have been written in all (tests).
    func waitForWrites(_ count: Int) async { await writer.waitForWrites(count) }

    private func setAside(because reason: String) {
        do {
            let aside = try CacheFiles.setAside(Self.fileName, in: directory, at: clock.date, kept: 3)
            logger.warning(
                "history on disk set aside, not used: \(reason)", ["cache.file": path, "cache.aside": aside])
        } catch {
            logger.warning(
                "history on disk not used (\(reason)), and it could not be set aside",
                ["cache.file": path, "error": error.description])
        }
    }
}
