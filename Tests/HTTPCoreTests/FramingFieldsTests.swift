import HTTPCore
import Testing

/// `Content-Length` and `Transfer-Encoding` as both parsers read them.
@Suite struct FramingFieldsTests {
    @Test(arguments: [("0", 0), ("42", 42), ("007", 7), ("99999999999999999999999", Int.max)])
    func aLengthIsARunOfDigitsSaturated(text: String, length: Int) {
        #expect(ContentLength.parse(Array(text.utf8)) == length)
    }

    @Test(arguments: ["", "+3", "-1", " 3", "3 ", "1,1", "0x10", "３"])
    func anythingElseIsNoLength(text: String) {
        #expect(ContentLength.parse(Array(text.utf8)) == nil)
    }

    static func codings(_ values: [String]) throws(TransferCodings.Error) -> TransferCodings {
        var codings = TransferCodings()
        for value in values { try codings.add(value) }
        return codings
    }

    @Test func chunkedLastIsChunkedOnlyAndEmptyElementsAreSkipped() throws {
        #expect(try Self.codings(["chunked"]).isChunkedOnly)
        #expect(try Self.codings([" , Chunked ,"]).isChunkedOnly)
        let gzipped = try Self.codings(["gzip", "chunked"])
        #expect(gzipped.isChunked && gzipped.hasOtherCoding && !gzipped.isChunkedOnly)
        let empty = try Self.codings([","])
        #expect(empty.isPresent && !empty.isChunked)
        #expect(!TransferCodings().isPresent)
    }

    @Test func aCodingAfterChunkedOrOneThatIsNotATokenIsRefused() {
        #expect(throws: TransferCodings.Error.chunkedNotFinal) { try Self.codings(["chunked, chunked"]) }
        #expect(throws: TransferCodings.Error.chunkedNotFinal) { try Self.codings(["chunked", "gzip"]) }
        #expect(throws: TransferCodings.Error.invalidCoding) { try Self.codings(["chunked;q=1"]) }
        #expect(throws: TransferCodings.Error.invalidCoding) { try Self.codings(["\"chunked\""]) }
    }
}
