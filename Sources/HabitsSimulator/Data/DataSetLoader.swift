import Foundation
import HabitsAPI

/// Reads and validates HabitServer-format data: `users.json`, `habits.json`, `categories.json`,
/// `activeUser.json` and optional `images/<userID>.png`.
///
/// Every problem becomes a `DataSetError` naming the file, so a bad data folder fails the start with one clear line
/// instead of serving half a data set.
public enum DataSetLoader {
    /// The four required files.
    public static let requiredFiles = ["users.json", "habits.json", "categories.json", "activeUser.json"]

    /// Loads a folder laid out like the original server's data folder.
    public static func load(directory: URL) throws(DataSetError) -> DataSet {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw DataSetError(file: directory.path, problem: "no such directory")
        }
        var files: [String: [UInt8]] = [:]
        for name in requiredFiles {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw DataSetError(file: name, problem: "missing file (looked for \(url.path))")
            }
            files[name] = try readFile(url, name: name)
        }
        return try load(files: files, images: readImages(in: directory.appendingPathComponent("images")))
    }

    /// Loads data from file contents in memory (`file name → bytes`); `images` maps user ids to PNG bytes.
    public static func load(files: [String: [UInt8]], images: [String: [UInt8]]) throws(DataSetError) -> DataSet {
        func bytes(_ name: String) throws(DataSetError) -> [UInt8] {
            guard let bytes = files[name] else { throw DataSetError(file: name, problem: "missing file") }
            return bytes
        }
        let categories = try decode([Category].self, from: bytes("categories.json"), file: "categories.json")
        let habitRecords = try decode([HabitRecord].self, from: bytes("habits.json"), file: "habits.json")
        let users = try decode([User].self, from: bytes("users.json"), file: "users.json")
        let activeUser = try decode(User.self, from: bytes("activeUser.json"), file: "activeUser.json")

        let categoriesByName = try validate(categories: categories)
        let habits = try resolve(habitRecords, categories: categoriesByName)
        try validate(users: users, activeUser: activeUser)
        let knownIDs = Set(users.map(\.id) + [activeUser.id])
        for (id, png) in images where knownIDs.contains(id) {
            guard png.starts(with: PNGEncoder.signature) else {
                throw DataSetError(file: "images/\(id).png", problem: "not a PNG file")
            }
        }
        return DataSet(
            users: users, activeUser: activeUser, categories: categories, habits: habits,
            images: images.filter { knownIDs.contains($0.key) })
    }

    // MARK: - Files

    /// `habits.json` names its category instead of embedding it; the API resolves it into a full object.
    struct HabitRecord: Decodable {
        var name: String
        var categoryName: String
        var info: String
    }

    private static func readFile(_ url: URL, name: String) throws(DataSetError) -> [UInt8] {
        do {
            return try [UInt8](Data(contentsOf: url))
        } catch {
            throw DataSetError(file: name, problem: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// Every `images/<userID>.png`; other files (e.g. `.DS_Store`) are ignored.
    private static func readImages(in folder: URL) throws(DataSetError) -> [String: [UInt8]] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [:] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw DataSetError(file: "images", problem: "cannot be listed (\(error.localizedDescription))")
        }
        var images: [String: [UInt8]] = [:]
        for name in names.sorted() where name.hasSuffix(".png") && !name.hasPrefix(".") {
            let id = String(name.dropLast(4))
            images[id] = try readFile(folder.appendingPathComponent(name), name: "images/\(name)")
        }
        return images
    }

    private static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], file: String) throws(DataSetError)
        -> T
    {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw DataSetError(file: file, problem: "invalid JSON (\(syntaxProblem(in: bytes)))")
        } catch let error as DecodingError {
            throw DataSetError(file: file, problem: describe(error))
        } catch {
            throw DataSetError(file: file, problem: "invalid JSON (\(error))")
        }
    }

    /// Where the JSON syntax breaks, as `line L, column C: <reason>`. `JSONDecoder` on Linux only says "not
    /// valid JSON"; `JSONSerialization` names a byte offset, which people editing the file need as a line.
    static func syntaxProblem(in bytes: [UInt8]) -> String {
        let detail: String
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return "not valid JSON"
        } catch let error as NSError {
            detail = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        }
        guard let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
            let offset = Int(detail[range].dropFirst("character ".count))
        else { return detail }
        let before = bytes.prefix(min(offset, bytes.count))
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column): \(detail)"
    }

    /// A one-line reading of a `DecodingError`, with the JSON path of the offending value.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined()
            return text.isEmpty ? "top level" : text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "invalid JSON (\(context.debugDescription))"
        case .dataCorrupted(let context):
            return "bad value at \(path(context)) (\(context.debugDescription))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context))"
        case .valueNotFound(let type, let context):
            return "missing \(type) value at \(path(context))"
        @unknown default:
            return "invalid JSON (\(error))"
        }
    }
}
