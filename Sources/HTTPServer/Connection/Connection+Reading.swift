import Glibc
import HTTPCore

/// Reading: `recv` into the parser while the phase wants input, and turning the parser's events into
/// `ConnectionState` events.
extension Connection {
    /// Reads while input may be waiting and the phase wants it. While a handler runs or a response is being
    /// written, nothing is read: pipelined requests and a FIN wait in the kernel and are read once the answer
    /// is out, so answers stay in order and the socket buffer is the backpressure.
    func readWhileWanted() {
        while readReady && !isClosed {
            switch state.phase {
            case .lingering:
                drainLingering()
            case .writing(_, linger: true):
                // The parser is dead; only an error answer is going out. Drop input (so a client blocked on
                // sending can read our answer), note EOF.
                drainWhileAnsweringError()
            case .responding, .writing, .closed:
                return
            case .idle, .readingHead, .readingBody:
                readIntoParser()
            }
        }
    }

    /// Runs the parser over buffered bytes until it needs more, hands over a request, or fails.
    func parseBuffered() {
        while !isClosed {
            if let known = knownRequest() {
                perform(state.requestReceived(keepAlive: known.keepAlive, now: loop.now), with: .known(known))
                return
            }
            let event: RequestParser.Event
            do {
                event = try parser.next()
            } catch {
                perform(state.parseFailed(status: error.status, now: loop.now))
                return
            }
            switch event {
            case .needMoreData:
                state.needMoreData(parserPhase: parser.phase, progress: parser.progress, now: loop.now)
                return
            case .continueExpected:
                // The parser emits this only for HTTP/1.1: an HTTP/1.0 client must not get a 100 (RFC 9110 §10.1.1).
                perform(state.continueExpected(now: loop.now))
            case .request(let request):
                let keepAlive = ConnectionState.wantsKeepAlive(request.head)
                perform(state.requestReceived(keepAlive: keepAlive, now: loop.now), with: .request(request))
                return
            }
        }
    }

    /// The next request when its head's bytes are the very bytes of one whose answer the loop's memo kept, from this
    /// peer and in this epoch: consumed from the parser without being parsed (issue 21).
    private func knownRequest() -> AnswerMemo.Entry? {
        guard let answerEpoch = environment.answerEpoch else { return nil }
        let answers = answers
        var known: AnswerMemo.Entry?
        _ = parser.consumeHead { bytes in
            known = answers.memo.answer(toHeadOf: bytes, from: client, in: answerEpoch.current())
            return known?.head.count
        }
        return known
    }

    // MARK: - recv

    /// What one `recv` gave.
    private enum ReadResult {
        case bytes(Int)
        case endOfStream
        case wouldBlock
        case failed
    }

    /// One `recv` into the loop's read buffer, handed to `body`. A short read means the kernel buffer is empty (the next
    /// arrival is a new edge), so a whole request costs one read and no EAGAIN.
    private func receive(_ body: (UnsafeRawBufferPointer) -> Void) -> ReadResult {
        let buffer = loop.readBuffer
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 {
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if count < buffer.count && !peerHungUp { readReady = false }
            return .bytes(count)
        }
        if count == 0 {
            readReady = false
            return .endOfStream
        }
        switch errno {
        case EINTR: return .bytes(0)
        case EAGAIN, EWOULDBLOCK:
            readReady = false
            return .wouldBlock
        default: return .failed
        }
    }

    private func readIntoParser() {
        switch receive({ parser.append($0) }) {
        case .bytes(let count): if count > 0 { parseBuffered() }
        case .endOfStream: perform(state.peerClosed(now: loop.now))
        case .wouldBlock: break
        case .failed: closeNow()
        }
    }

    private func drainWhileAnsweringError() {
        switch receive({ _ in }) {
        case .bytes, .wouldBlock: break
        case .endOfStream: perform(state.peerClosed(now: loop.now))
        case .failed: closeNow()
        }
    }

    /// Lingering close: read and drop whatever the client still sends, up to a bound, until EOF or timeout.
    private func drainLingering() {
        switch receive({ _ in }) {
        case .bytes(let count):
            lingerBytesDropped += count
            if lingerBytesDropped > 256 * 1024 { closeNow() }
        case .wouldBlock: break
        case .endOfStream: perform(state.peerClosed(now: loop.now))
        case .failed: closeNow()
        }
    }
}
