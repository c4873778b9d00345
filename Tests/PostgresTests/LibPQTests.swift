import CLibPQ
import Testing

@testable import Postgres

@Suite struct LibPQTests {
    @Test func aMissingLibraryIsAConnectErrorThatSaysWhatToInstall() {
        #expect {
            try LibPQ(opening: "libpq-not-installed.so.5")
        } throws: { error in
            guard case .connect(let message) = error as? PostgresError else { return false }
            return message.contains("libpq could not be loaded") && message.contains("libpq-not-installed.so.5")
                && message.contains("libpq5")
        }
    }

    @Test func theInstalledLibraryHasEveryFunctionASessionCalls() throws {
        let libpq = try LibPQ(opening: LibPQ.soname)
        // A session that was never started is what libpq reports as bad, without touching a socket.
        #expect(libpq.status(nil) == CONNECTION_BAD)
        #expect(LibPQ.isLoaded)
    }
}
