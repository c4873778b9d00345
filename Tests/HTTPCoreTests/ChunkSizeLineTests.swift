import HTTPCore
import Testing

@Suite struct ChunkSizeLineTests {
    static func parse(_ line: String) throws(ChunkSizeLine.Error) -> Int {
        let bytes = Array(line.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(ChunkSizeLine.Error) in
            try ChunkSizeLine.parse(buffer, 0..<buffer.count)
        }
    }

    @Test(arguments: [
        ("0", 0), ("a", 10), ("Ff", 255), ("000000000000000000001", 1), ("5;name=x", 5), ("5 ; a = \"q;\\\"\" ;b", 5),
        ("FFFFFFFFFFFFFFFFF", Int.max),
    ])
    func parsesHexadecimalSizesAndSkipsExtensions(line: String, size: Int) throws {
        #expect(try Self.parse(line) == size)
    }

    /// No sign, prefix or whitespace around the size: what parsers disagree on is what smuggling feeds on.
    @Test(arguments: ["", "-1", "+1", "0x5", " 5", "5 ", "5\t", "z", "5 x"])
    func refusesAnythingButPlainHexadecimal(line: String) {
        #expect(throws: ChunkSizeLine.Error.invalidSize) { try Self.parse(line) }
    }

    @Test(arguments: ["5;", "5;a b", "5;a=", "5;a=\"open", "5;=x", "5;a=b c", "5;a=\"\u{1}\""])
    func refusesMalformedExtensions(line: String) {
        #expect(throws: ChunkSizeLine.Error.invalidExtension) { try Self.parse(line) }
    }
}
