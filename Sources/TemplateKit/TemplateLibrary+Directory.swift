import Foundation

extension TemplateLibrary {
    /// Parses every `*.html` file under `directory` (recursively; `partials/` too), naming each by its path
    /// relative to the directory without ".html" ("home", "partials/nav"). Hidden files are skipped.
    ///
    /// - Parameter onMissing: called for each missing name when `strict` is false (e.g. to log it).
    public init(
        directory: URL, strict: Bool, onMissing: (@Sendable (TemplateError) -> Void)? = nil
    ) throws(TemplateError) {
        var sources: [String: [UInt8]] = [:]
        try Self.collect(directory: directory, prefix: "", into: &sources)
        try self.init(sources: sources, strict: strict, onMissing: onMissing)
    }

    /// Reads the templates in `directory` and its subdirectories into `sources`.
    private static func collect(directory: URL, prefix: String, into sources: inout [String: [UInt8]])
        throws(TemplateError)
    {
        let entries: [URL]
        do {
            entries = try FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        } catch {
            throw TemplateError(
                file: directory.path, line: 0, column: 0, reason: .unreadable(String(describing: error)))
        }
        for entry in entries {
            let name = entry.lastPathComponent
            let isDirectory: Bool
            do {
                isDirectory = try entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory ?? false
            } catch {
                throw TemplateError(
                    file: prefix + name, line: 0, column: 0, reason: .unreadable(String(describing: error)))
            }
            if isDirectory {
                try collect(directory: entry, prefix: prefix + name + "/", into: &sources)
            } else if name.hasSuffix(".html") {
                sources[prefix + String(name.dropLast(".html".count))] = try read(entry, file: prefix + name)
            }
        }
    }

    /// The bytes of one template file, which must be valid UTF-8.
    private static func read(_ url: URL, file: String) throws(TemplateError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw TemplateError(file: file, line: 0, column: 0, reason: .unreadable(String(describing: error)))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw TemplateError(file: file, line: 0, column: 0, reason: .invalidUTF8)
        }
        return bytes
    }
}
