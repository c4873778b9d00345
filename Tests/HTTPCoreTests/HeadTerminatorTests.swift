import HTTPCore
import Testing

/// `LineScanner.headTerminator`: where a head's CR LF CR LF is, for the response parser and the server's answer memo.
@Suite struct HeadTerminatorTests {
    @Test func theTerminatorIsTheFirstCRLFCRLFLyingWhollyInTheRange() {
        // Every string of up to 8 bytes over CR, LF and "a", alone and after a printable run long enough for the
        // word-at-a-time skip, against the plain search.
        let alphabet: [UInt8] = [13, 10, 97]
        var level: [[UInt8]] = [[]]
        var strings = level
        for _ in 0..<8 {
            level = level.flatMap { string in alphabet.map { string + [$0] } }
            strings += level
        }
        let run = Array("GET /a HTTP/1.1".utf8)
        var mismatches: [String] = []
        for bytes in strings + strings.map({ run + $0 }) {
            for start in 0...min(2, bytes.count) {
                for end in Set([start + 4, start + 6, bytes.count]) where end <= bytes.count {
                    let plain = (start..<max(start, end - 3)).first { bytes[$0..<$0 + 4] == [13, 10, 13, 10] }
                    let found = bytes.withUnsafeBufferPointer {
                        LineScanner.headTerminator(in: $0, from: start, to: end)
                    }
                    if found != plain { mismatches.append("\(bytes) from \(start) to \(end)") }
                }
            }
        }
        #expect(strings.count == 9841)
        #expect(mismatches == [])
    }
}
