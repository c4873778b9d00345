import Glibc
import TestSupport
import Testing

@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct ThrowawayPostgresTests {
    /// A pipe another test opened, not close-on-exec (as Foundation's `Pipe` is), while a server starts: the
    /// postmaster lives on, so a write end it inherited would keep that test's read from ever reaching the end.
    @Test(.timeLimit(.minutes(5)))
    func aServerStartedMeanwhileHoldsNoneOfTheTestProcessesDescriptors() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        close(ends[1])
        // Non-blocking: with no write end left anywhere the read is the end (0); one held elsewhere makes it EAGAIN.
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 0
        let count = read(ends[0], &byte, 1)
        #expect(count == 0, "read gave \(count), errno \(errno): the server holds the pipe's write end")
    }
}
