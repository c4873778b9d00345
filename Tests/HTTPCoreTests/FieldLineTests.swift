import HTTPCore
import Testing

@Suite struct FieldLineTests {
    static func parse(_ line: String) throws(FieldLine.Error) -> (name: String, value: String) {
        let bytes = Array(line.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(FieldLine.Error) in
            let field = try FieldLine.parse(buffer, 0..<buffer.count)
            return (
                String(decoding: buffer[field.name], as: UTF8.self),
                String(decoding: buffer[field.value], as: UTF8.self)
            )
        }
    }

    @Test(arguments: [
        ("Host: x", "Host", "x"), ("A:b", "A", "b"), ("X-1: \t a b \t", "X-1", "a b"), ("Empty:", "Empty", ""),
        ("Obs: caf\u{E9}", "Obs", "caf\u{E9}"),
    ])
    func splitsNameAndTrimmedValue(line: String, name: String, value: String) throws {
        let field = try Self.parse(line)
        #expect(field.name == name && field.value == value)
    }

    @Test(arguments: [
        (" folded", FieldLine.Error.obsoleteLineFolding), ("Name : v", .whitespaceBeforeColon), ("Name", .missingColon),
        (": v", .invalidName), ("Na(me: v", .invalidName), ("Name x: v", .invalidName), ("N: a\u{0}b", .invalidValue),
        ("N: a\rb", .invalidValue), ("N: a\u{7F}", .invalidValue),
    ])
    func refusesMalformedLinesWithTheReason(line: String, error: FieldLine.Error) {
        #expect(throws: error) { try Self.parse(line) }
    }
}
