import Foundation

/// A data folder in the system temp directory, written by a test and removed when it ends.
struct TemporaryDataFolder: ~Copyable {
    /// The folder.
    let url: URL

    /// A small valid data set: 3 users, 3 categories (one without habits), 3 habits.
    static let validFiles: [String: String] = [
        "users.json": #"""
        [
            {"id": "u1", "name": "Ada One", "bio": "First.", "color": {"h": 0.1, "s": 0.5, "b": 0.9}},
            {"id": "u2", "name": "Bo Two", "bio": null, "color": null, "extra": "ignored"},
            {"id": "u3", "name": "Cy Three"}
        ]
        """#,
        "categories.json": #"""
        [
            {"name": "Body", "color": {"h": 0.3, "s": 1, "b": 0.8}},
            {"name": "Mind", "color": {"h": 0.7, "s": 0.4, "b": 0.9}},
            {"name": "Empty", "color": {"h": 0, "s": 0, "b": 0.5}}
        ]
        """#,
        "habits.json": #"""
        [
            {"name": "Run", "categoryName": "Body", "info": "Go."},
            {"name": "Sit/Stand", "categoryName": "Body", "info": "Up, down."},
            {"name": "Think & Do", "categoryName": "Mind", "info": "Both."}
        ]
        """#,
        "activeUser.json": #"{"id": "activeUser", "name": "Active User"}"#,
    ]

    /// Writes `files` (name → text; `nil` leaves a file out) into a fresh folder.
    init(files: [String: String?] = [:], images: [String: [UInt8]] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("habits-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let merged = Self.validFiles.mapValues { Optional($0) }.merging(files) { _, new in new }
        for (name, text) in merged {
            guard let text else { continue }
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
        }
        if !images.isEmpty {
            let folder = url.appendingPathComponent("images")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, bytes) in images {
                try Data(bytes).write(to: folder.appendingPathComponent(name))
            }
        }
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            // A leftover folder in the temp directory is harmless; a deinit cannot fail the test anyway.
        }
    }
}
