import Foundation
import Logging

/// The housekeeping every file in `--cache-dir` shares (the snapshot, issue 13; the history, issue 22): temp files of
/// a write cut short are deleted at start, and a file that cannot be used is renamed to `<name>.bad-<time>`, keeping
/// only the newest few so a file broken at every start cannot fill the disk.
enum CacheFiles {
    /// Deletes `<fileName>` temp files left in `directory` by an interrupted write (no writer runs yet: this is the
    /// start); returns how many.
    static func removeLeftoverTemporaries(of fileName: String, in directory: String) -> Int {
        let prefix = fileName + FileIO.temporaryMarker
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            if (try? FileIO.remove(directory + "/" + name)) == true { removed += 1 }
        }
        return removed
    }

    /// Moves `<directory>/<fileName>` to `<fileName>.bad-<stamp of date>` (with `-2`, `-3`… if taken) and deletes all
    /// but the newest `kept` set-aside files; returns the new path.
    static func setAside(_ fileName: String, in directory: String, at date: Date, kept: Int) throws(FileIOError)
        -> String
    {
        let path = directory + "/" + fileName
        let stamp = stamp(date)
        var aside = path + ".bad-" + stamp
        var attempt = 1
        while FileManager.default.fileExists(atPath: aside) {
            attempt += 1
            aside = path + ".bad-" + stamp + "-\(attempt)"
        }
        try FileIO.move(path, to: aside, directory: directory)
        let prefix = fileName + ".bad-"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix(prefix) }.sorted()
        for name in names.dropLast(kept) {
            _ = try? FileIO.remove(directory + "/" + name)
        }
        return aside
    }

    /// `20261201T101500.123Z`: sorts by time, and is a valid file name everywhere.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let milliseconds = String(format: "%03d", (parts.nanosecond ?? 0) / 1_000_000)
        return String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
            + two(parts.minute) + two(parts.second) + "." + milliseconds + "Z"
    }

    /// The bytes of `path`, or nil (logged) when there is no file or it cannot be read; a file that is not a regular
    /// file or is over `limit` is handed to `setAside` with the reason. `what` names it in the log ("snapshot").
    static func read(
        _ path: String, limit: Int, what: String, logger: Logger, setAside: (String) -> Void
    ) -> [UInt8]? {
        do {
            guard let read = try FileIO.readIfExists(path, limit: limit) else {
                logger.info("no \(what) on disk", ["cache.file": path])
                return nil
            }
            return read.bytes
        } catch {
            if error.isMovedAside {
                setAside("it is not a regular file or is too large (\(error))")
            } else {
                logger.warning("\(what) on disk unreadable", ["cache.file": path, "error": error.description])
            }
            return nil
        }
    }
}
