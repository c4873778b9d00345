import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct ThrowawayPostgresTests {
    /// A pipe another test opened, not close-on-exec (as Foundation's `Pipe` is), while a server starts: the
    /// postmaster lives on, so a write end it inherited would keep that test's read from ever reaching the end. Only
    /// the server's own processes are looked at: other tests' children, running meanwhile, may hold the pipe for a
    /// while.
    @Test(.timeLimit(.minutes(5)))
    func aServerStartedMeanwhileHoldsNoneOfTheTestProcessesDescriptors() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let pipeName = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        let processes = try server.processes()
        #expect(processes.count > 1, "the postmaster and its auxiliary processes")
        var holders: [pid_t] = []
        for pid in processes {
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            let held = descriptors.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == pipeName
            }
            if held { holders.append(pid) }
        }
        #expect(holders.isEmpty, "\(pipeName) is held by the server's processes \(holders)")
    }
}
