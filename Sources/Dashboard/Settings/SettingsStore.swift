import Dispatch
import Foundation
import HTTPServer

/// Per-browser settings, one JSON file per browser: `<directory>/<id>.json`.
///
/// - Writes are atomic (`FileIO.writeAtomically`: temp file, fsync, rename, fsync of the directory).
/// - Updates are serialised: every read-modify-write runs on one serial queue, so two tabs toggling at once cannot
///   lose an update. Settings change only on a human click, so one queue for all browsers is plenty, and it keeps
///   blocking fsyncs off Swift's cooperative thread pool.
/// - A corrupt file, or anything at `<id>.json` that is not a regular file (a symlink is never followed), is moved
///   aside to `<id>.json.corrupt-<timestamp>`, logged, and replaced by defaults.
/// - Temp files left by a crash are swept at start; the number of settings files is capped (`maxFiles`).
///
/// Generic over the stored value so the store does not depend on the view-model layer's `Settings` type.
public final class SettingsStore<Value: Codable & Sendable>: Sendable {
    /// The directory holding the files.
    public let directory: URL
    /// The most settings files the store will create; a new browser's change beyond it throws `SettingsStoreFull`.
    public let maxFiles: Int
    /// What a browser without a file (or with a corrupt one) gets.
    public let defaultValue: Value

    /// Files above this size are treated as corrupt (a real settings file is a few hundred bytes).
    static var maxFileBytes: Int { 1 << 20 }

    private let logger: Logger
    private let queue = DispatchQueue(label: "settings-store")
    private let state: QueueConfined<State>

    private struct State {
        var fileCount: Int
    }

    /// Opens (creating if needed) `directory`, sweeps leftover temp files and counts the existing settings files.
    public init(directory: URL, maxFiles: Int = 100_000, defaultValue: Value, logger: Logger) throws {
        self.directory = directory.standardizedFileURL
        self.maxFiles = maxFiles
        self.defaultValue = defaultValue
        self.logger = logger
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        var count = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: self.directory.path) {
            if name.contains(FileIO.temporaryMarker) {
                // A temp file is only ever renamed into place, so a leftover one is from a crash mid-write.
                try FileManager.default.removeItem(at: self.directory.appendingPathComponent(name))
                logger.notice("removed leftover settings temp file", ["settings.file": name])
            } else if name.hasSuffix(".json"), BrowserID(String(name.dropLast(5))) != nil {
                count += 1
            }
        }
        state = QueueConfined(State(fileCount: count))
        logger.info(
            "settings store ready",
            ["settings.dir": self.directory.path, "settings.files": String(count), "settings.max": String(maxFiles)])
    }

    /// The number of settings files (for `/metrics` and tests).
    public func fileCount() async -> Int {
        await onQueue { self.state.value.fileCount }
    }

    /// The settings of `id`, or the defaults when it has none yet. A corrupt file is moved aside.
    public func load(_ id: BrowserID) async throws -> Value {
        try await onQueue { try self.read(id).value }
    }

    /// Applies `change` to `id`'s settings and saves the result atomically; returns the saved value.
    ///
    /// Throws `SettingsStoreFull` (nothing written) when `id` has no file yet and the store is at its cap.
    @discardableResult
    public func update(_ id: BrowserID, _ change: @escaping @Sendable (inout Value) -> Void) async throws -> Value {
        try await onQueue {
            var (value, exists) = try self.read(id)
            if !exists && self.state.value.fileCount >= self.maxFiles {
                self.logger.warning("settings store full", ["settings.max": String(self.maxFiles)])
                throw SettingsStoreFull(limit: self.maxFiles)
            }
            change(&value)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try FileIO.writeAtomically(
                Array(encoder.encode(value)), to: self.path(of: id), directory: self.directory.path)
            if !exists { self.state.value.fileCount += 1 }
            return value
        }
    }

    // MARK: - On the queue

    /// Reads `id`'s file: its value and whether it existed. Only called on `queue`.
    private func read(_ id: BrowserID) throws -> (value: Value, exists: Bool) {
        let path = path(of: id)
        let bytes: [UInt8]?
        do {
            bytes = try FileIO.readIfExists(path, limit: Self.maxFileBytes)
        } catch let error where error.code == EFBIG {
            try moveAside(id, reason: "file too large")
            return (defaultValue, false)
        } catch let error where error.isNotRegularFile {
            // A symlink (never followed) or a directory: renaming moves the link or directory itself, never what a
            // link points to, so nothing outside the settings directory is touched.
            try moveAside(id, reason: error.description)
            return (defaultValue, false)
        }
        guard let bytes else { return (defaultValue, false) }
        do {
            return (try JSONDecoder().decode(Value.self, from: Data(bytes)), true)
        } catch {
            try moveAside(id, reason: String(describing: error))
            return (defaultValue, false)
        }
    }

    /// Renames a corrupt file out of the way, so the browser gets defaults and the bad file stays for inspection.
    private func moveAside(_ id: BrowserID, reason: String) throws {
        let stamp = Self.timestampFormatter.string(from: Date())
        let destination = path(of: id) + ".corrupt-" + stamp
        try FileIO.move(path(of: id), to: destination, directory: directory.path)
        state.value.fileCount -= 1
        logger.error(
            "corrupt settings file moved aside",
            ["settings.file": destination, "settings.reason": String(reason.prefix(200))])
    }

    private func path(of id: BrowserID) -> String {
        // Safe to concatenate: a BrowserID is exactly 22 characters of [A-Za-z0-9_-], never `/` or `..`.
        directory.path + "/" + id.rawValue + ".json"
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    private static var timestampFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return formatter
    }
}
