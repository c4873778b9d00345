import Foundation
import Glibc
import Synchronization

extension ThrowawayPostgres {
    /// Every server not yet destroyed, so none outlives the test process: at exit each is SIGKILLed (postmaster and
    /// backends; nothing is spawned while exiting) and its directory removed. A test that fails before its
    /// `destroy()` leaves nothing running behind it.
    final class Registry: Sendable {
        static let shared = Registry()
        private let servers = Mutex<[ObjectIdentifier: ThrowawayPostgres]>([:])

        private init() {
            atexit {
                for server in Registry.shared.servers.withLock({ Array($0.values) }) {
                    for pid in (try? server.processes()) ?? [] { kill(pid, SIGKILL) }
                    try? FileManager.default.removeItem(atPath: server.directory)
                }
            }
        }

        func add(_ server: ThrowawayPostgres) { servers.withLock { $0[ObjectIdentifier(server)] = server } }

        func remove(_ server: ThrowawayPostgres) {
            _ = servers.withLock { $0.removeValue(forKey: ObjectIdentifier(server)) }
        }
    }
}
