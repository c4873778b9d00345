import HTTPCore
import Testing

@testable import HTTPServer

@Suite struct PreparedFieldsTests {
    let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    /// A response whose fields are all in one array, as a render-cache entry's are.
    let page = Response(
        headers: [
            "Content-Type": "text/html; charset=utf-8", "Vary": "Accept-Encoding", "ETag": "\"abc\"",
            "Cache-Control": "no-store", "Date": "yesterday",
        ], body: Array("<p>hi</p>".utf8))

    func head(_ response: Response, fieldLines: [UInt8]?) throws -> [UInt8] {
        let bound = ResponseHead.bound(response, dateCount: date.count)
        return try [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            initialized = try ResponseHead.write(
                response, bodyLength: response.body.count, close: false, keepAliveHTTP10: false, date: date,
                fieldLines: fieldLines, into: buffer)
        }
    }

    @Test func aHeadFromPreparedLinesIsTheHeadWrittenFieldByField() throws {
        var prepared = PreparedFields()
        let made = prepared.lines(for: page.headers)
        let lines = try #require(made)
        #expect(try head(page, fieldLines: lines) == (try head(page, fieldLines: nil)))
        // The handler's Date is the connection's to write, prepared or not.
        #expect(!String(decoding: lines, as: UTF8.self).contains("yesterday"))
    }

    @Test func theSameFieldsArePreparedOnceAndAChangedCopyIsPreparedAgain() throws {
        var prepared = PreparedFields()
        let first = prepared.lines(for: page.headers)
        let again = prepared.lines(for: page.headers)
        #expect(again == first)
        #expect((prepared.hits, prepared.misses) == (1, 1))

        var changed = page
        changed.headers.replaceOrAdd(name: "ETag", value: "\"def\"")
        let changedLines = prepared.lines(for: changed.headers)
        let lines = try #require(changedLines)
        #expect(String(decoding: lines, as: UTF8.self).contains("ETag: \"def\"\r\n"))
        #expect(prepared.misses == 2)
        // The first array is still answered from its slot or prepared again, never with the copy's lines.
        let original = prepared.lines(for: page.headers)
        #expect(original == first)
    }

    @Test func fewFieldsAndInvalidOnesAreLeftToTheWriter() throws {
        var prepared = PreparedFields()
        let few = prepared.lines(for: ["Content-Type": "text/plain"])
        #expect(few == nil)
        let split: HTTPHeaders = ["A": "1", "B": "2", "X-Evil": "a\r\nSet-Cookie: b"]
        let invalid = prepared.lines(for: split)
        #expect(invalid == nil)
        #expect(throws: ResponseHead.InvalidField.self) { try head(Response(headers: split), fieldLines: nil) }
    }
}
