import HTTPCore

// MARK: - Head: request-line and field lines (RFC 9112 §2–§5)

extension RequestParser {
    /// The request-line, after skipping a few empty lines.
    mutating func parseRequestLine() throws(RequestParseError) -> Step {
        // The request-line and its CRLF must leave room for the head's final CRLF.
        guard
            let line = try nextLine(
                limit: limits.requestLineBytes, tooLong: .requestLineTooLong,
                room: limits.headBytes - 4, sectionTooLarge: .headTooLarge)
        else { return .needMoreData }
        consume(upTo: line.upperBound + 2)
        if line.isEmpty {
            leadingEmptyLines += 1
            guard leadingEmptyLines <= Self.maxLeadingEmptyLines else { throw .tooManyEmptyLines }
            return .progressed
        }
        let requestLine = try buffer.withUnsafeBufferPointer { bytes throws(RequestParseError) in
            try RequestLine.parse(bytes, line)
        }
        head = HeadBuilder(requestLine: requestLine)
        headStart = line.lowerBound
        sectionBytes = line.count + 2
        stage = .fieldLines
        return .progressed
    }

    /// One field line, or the empty line that ends the head.
    mutating func parseFieldLine() throws(RequestParseError) -> Step {
        guard
            let line = try nextLine(
                limit: limits.headerLineBytes, tooLong: .headerLineTooLong,
                room: limits.headBytes - sectionBytes - 2, sectionTooLarge: .headTooLarge)
        else { return .needMoreData }
        consume(upTo: line.upperBound + 2)
        sectionBytes += line.count + 2
        if line.isEmpty { return try finishHead() }
        // A field line must leave room for the final CRLF.
        guard sectionBytes + 2 <= limits.headBytes else { throw .headTooLarge }
        guard head!.headers.count < limits.headerCount else { throw .tooManyHeaders }
        try head!.addField(buffer, line)
        return .progressed
    }

    /// Decides framing once the head is complete.
    private mutating func finishHead() throws(RequestParseError) -> Step {
        let framing = try head!.framing(limits: limits)
        let version = head!.requestLine.version
        switch framing {
        case .none:
            let request = finishRequest()
            if headStart >= 0 { lastHeadRange = headStart..<readIndex }
            return .event(.request(request))
        case .length(let length): stage = .fixedBody(length: length)
        case .chunked:
            stage = .chunkedBody
            chunked = ChunkedBody(limits: limits.chunkedBody)
        }
        // A 100-continue expectation from an HTTP/1.0 client is ignored (RFC 9110 §10.1.1).
        if head!.expectsContinue && version == .http1_1 {
            return .event(.continueExpected(head!.makeHead()))
        }
        return .progressed
    }

    /// Hands out the finished request and resets for the next one.
    mutating func finishRequest(body: [UInt8] = []) -> Request {
        lastHeadRange = nil
        let request = Request(head: head!.makeHead(), body: body)
        head = nil
        leadingEmptyLines = 0
        sectionBytes = 0
        stage = .requestLine
        return request
    }
}
