import Foundation
import HabitsAPI

/// The JSON files in `Fixtures/`, shaped like the real server's answers.
enum Fixtures {
    /// The raw bytes of `Fixtures/<name>`.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"), name)
        return Array(try Data(contentsOf: url))
    }

    /// `Fixtures/<name>` decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(try bytes(name)))
    }
}

/// `#require` outside a test body: the same check, thrown as an error.
private func require<T>(_ value: T?, _ what: String = "fixture") throws -> T {
    guard let value else { throw FixtureMissing(what: what) }
    return value
}

/// A fixture file was not found in the test bundle.
struct FixtureMissing: Error {
    /// Which file.
    var what: String
}
