import HTTPCore
import Testing

@testable import HabitsAPI

@Suite struct ResponseParserTests {
    /// A well-formed response and what it must parse to.
    struct Sample: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var status: Int
        var body: String
        var reusable: Bool
        /// Close-delimited: only complete once the stream ends.
        var needsEnd = false
        var testDescription: String { name }
    }

    static let samples: [Sample] = [
        Sample(
            name: "content-length",
            bytes: Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":[1,2,3]}".utf8),
            status: 200, body: #"{"a":[1,2,3]}"#, reusable: true),
        Sample(
            name: "chunked with extension and trailer",
            bytes: Array(
                ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n7\r\n, world\r\n"
                    + "B\r\n 0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n").utf8),
            status: 200, body: "hello, world 0123456789", reusable: true),
        Sample(
            name: "no content", bytes: Array("HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n".utf8), status: 204,
            body: "",
            reusable: true),
        Sample(
            name: "empty body", bytes: Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8), status: 404,
            body: "", reusable: true),
        Sample(
            name: "interim 100 before the answer",
            bytes: Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok".utf8),
            status: 201, body: "ok", reusable: true),
        Sample(
            name: "connection close",
            bytes: Array("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 1\r\n\r\nx".utf8),
            status: 200, body: "x", reusable: false),
        Sample(
            name: "HTTP/1.0 keep-alive",
            bytes: Array("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx".utf8), status: 200,
            body: "x", reusable: true),
        Sample(
            name: "close-delimited", bytes: Array("HTTP/1.0 200 OK\r\nX: y\r\n\r\nabc\r\ndef".utf8), status: 200,
            body: "abc\r\ndef", reusable: false, needsEnd: true),
        Sample(
            name: "no reason phrase", bytes: Array("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nhi".utf8), status: 200,
            body: "hi", reusable: true),
        Sample(
            name: "utf-8 body and repeated length",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 6, 6\r\n\r\nCrêpe".utf8), status: 200, body: "Crêpe",
            reusable: true),
    ]

    private static func event(_ sample: Sample) -> ResponseParser.Event {
        .response(
            HTTPClientResponse(
                status: HTTPStatus(code: sample.status), headers: headers(sample), body: Array(sample.body.utf8)),
            reusable: sample.reusable)
    }

    /// The headers the sample's final response carries (parsed independently by a naive split).
    private static func headers(_ sample: Sample) -> HTTPHeaders {
        let text = String(decoding: sample.bytes, as: UTF8.self)
        let heads = text.components(separatedBy: "\r\n\r\n")
        let head = sample.name.hasPrefix("interim") ? heads[1] : heads[0]
        let fields = head.components(separatedBy: "\r\n").dropFirst().map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), String(parts[1]).trimmingASCIIWhitespace())
        }
        return HTTPHeaders(fields)
    }

    @Test(arguments: samples)
    func parsesWhenSplitAtEveryByte(_ sample: Sample) throws {
        let expected = Self.event(sample)
        for split in 0...sample.bytes.count {
            var parser = ResponseParser()
            parser.append(sample.bytes[..<split])
            let first = try parser.next()
            if split < sample.bytes.count || sample.needsEnd {
                #expect(first == .needMoreData, "split at \(split)")
                parser.append(sample.bytes[split...])
                if sample.needsEnd {
                    #expect(try parser.next() == .needMoreData, "split at \(split)")
                    parser.finish()
                }
                #expect(try parser.next() == expected, "split at \(split)")
            } else {
                #expect(first == expected)
            }
            #expect(!parser.hasBufferedBytes)
        }
    }

    @Test(arguments: samples)
    func parsesOneByteAtATime(_ sample: Sample) throws {
        var parser = ResponseParser()
        var result: ResponseParser.Event = .needMoreData
        for byte in sample.bytes {
            parser.append([byte])
            if case .response = result { Issue.record("response before the last byte") }
            result = try parser.next()
        }
        if sample.needsEnd {
            #expect(result == .needMoreData)
            parser.finish()
            result = try parser.next()
        }
        #expect(result == Self.event(sample))
    }

    @Test func parsesTwoResponsesInOneBuffer() throws {
        var parser = ResponseParser()
        parser.append(
            Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 500 Oops\r\nContent-Length: 1\r\n\r\nb".utf8))
        guard case .response(let first, _) = try parser.next() else { throw ParserTestFailure() }
        #expect(parser.hasBufferedBytes)
        guard case .response(let second, _) = try parser.next() else { throw ParserTestFailure() }
        #expect(first.body == Array("a".utf8))
        #expect(second.status.code == 500)
        #expect(!parser.hasBufferedBytes)
    }
}

/// Thrown when a parse produced the wrong kind of event.
struct ParserTestFailure: Error {}
