extension RequestParser {
    /// Size limits. Anything over a limit is refused before it is buffered in full.
    public struct Limits: Sendable, Equatable {
        /// Longest request-line, excluding its CRLF (else 414).
        public var requestLineBytes: Int
        /// Longest field line, excluding its CRLF (else 431).
        public var headerLineBytes: Int
        /// Largest head: request-line, field lines and the empty line, CRLFs included (else 431).
        public var headBytes: Int
        /// Most field lines in a head (else 431).
        public var headerCount: Int
        /// Largest body, framed by Content-Length or de-chunked (else 413).
        public var bodyBytes: Int
        /// Longest chunk-size line including extensions, excluding its CRLF (else 400).
        public var chunkLineBytes: Int
        /// Largest trailer section, CRLFs and its final empty line included (else 431).
        public var trailerBytes: Int

        /// Creates limits; the defaults are the agreed production values.
        public init(
            requestLineBytes: Int = 8192, headerLineBytes: Int = 8192, headBytes: Int = 32768, headerCount: Int = 100,
            bodyBytes: Int = 65536, chunkLineBytes: Int = 4096, trailerBytes: Int = 4096
        ) {
            self.requestLineBytes = requestLineBytes
            self.headerLineBytes = headerLineBytes
            self.headBytes = headBytes
            self.headerCount = headerCount
            self.bodyBytes = bodyBytes
            self.chunkLineBytes = chunkLineBytes
            self.trailerBytes = trailerBytes
        }
    }
}
