import Testing

@testable import HTTPServer

@Suite struct ByteWriterTests {
    func written(_ body: (inout ByteWriter) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
            var writer = ByteWriter(buffer)
            body(&writer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<writer.count]), as: UTF8.self)
        }
    }

    @Test func literalsStringsBytesAndDecimalsLandInOrder() {
        let big = String(repeating: "é", count: 20)  // not a small string
        let text = written { out in
            out.append("a ")
            out.append("small")
            out.append(UInt8(ascii: " "))
            out.append(big)
            out.append(UInt8(ascii: " "))
            for value in [0, 7, 10, 99, 100, 20_506, Int.max] {
                out.appendDecimal(value)
                out.append(UInt8(ascii: ","))
            }
        }
        #expect(text == "a small \(big) 0,7,10,99,100,20506,\(Int.max),")
    }

    @Test func filteredAppendWritesNothingWhenAByteIsRefused() {
        let text = written { out in
            out.append("x=")
            let accepted = out.append("/ok/path", ifEvery: AccessLog.isPlain)
            let refused = !out.append("/not ok", ifEvery: AccessLog.isPlain)
            #expect(accepted && refused)
            out.append("!")
        }
        #expect(text == "x=/ok/path!")
    }
}
