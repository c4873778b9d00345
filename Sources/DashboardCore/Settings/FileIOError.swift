import Glibc

/// A failed system call in `FileIO`, with the operation, the path and `errno`, for the log (never shown to users).
public struct FileIOError: Error, Equatable, CustomStringConvertible {
    /// The system call that failed, e.g. `open`, `fsync`, `rename`.
    public var operation: String
    /// The path it was given.
    public var path: String
    /// The `errno` it set.
    public var code: Int32

    /// Creates an error.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The `operation` of an error saying the path is not a regular file (a symlink, directory, FIFO, socket).
    public static let notRegularFile = "not a regular file"

    /// Whether the path exists but is not a regular file, so the settings store treats it like a corrupt file.
    public var isNotRegularFile: Bool { operation == Self.notRegularFile }

    /// Whether the store treats the file like a corrupt one and moves it aside: too large, or not a regular file.
    var isMovedAside: Bool { code == EFBIG || isNotRegularFile }

    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
