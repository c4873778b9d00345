import Testing

@testable import HTTPServer

/// The server's connection counts, without sockets: what the cap and the per-address limit count at each step of a
/// connection's life (admitted, evicted, refused an eviction, last answer, closed, refused with a 503).
@Suite struct ConnectionTableTests {
    typealias Table = ConnectionTable<String>

    @Test func aServingConnectionCountsAgainstTheCapAndItsAddressUntilItCloses() {
        var table = Table()
        let id = table.reserveServing(address: "10.0.0.1")
        table.register(id: id, handle: "a", address: "10.0.0.1", role: .serving)
        #expect(table.serving == 1)
        #expect(table.count(of: "10.0.0.1") == 1)
        table.remove(id)
        #expect(table.serving == 0)
        #expect(table.count(of: "10.0.0.1") == 0)
        #expect(table.perAddress.isEmpty)
        #expect(table.isEmpty)
    }

    @Test func idsAreNeverReusedWhateverTheRole() {
        var table = Table()
        let first = table.reserveServing(address: "a")
        let second = table.reserveRejecting()
        let third = table.reserveServing(address: "a")
        #expect(Set([first, second, third]).count == 3)
    }

    @Test func anEvictedConnectionLeavesTheCapButStillCountsForItsAddress() {
        var table = Table()
        let id = table.reserveServing(address: "a")
        table.register(id: id, handle: "victim", address: "a", role: .serving)
        #expect(table.evict(id) == "victim")
        #expect(table.serving == 0)
        #expect(table.count(of: "a") == 1)
        // Only a serving connection can be chosen; one already evicted is not chosen twice.
        #expect(table.evict(id) == nil)
        table.remove(id)
        #expect(table.count(of: "a") == 0)
        #expect(table.serving == 0)
    }

    @Test func aVictimThatBecameBusyCountsAsServingAgain() {
        var table = Table()
        let id = table.reserveServing(address: "a")
        table.register(id: id, handle: "busy", address: "a", role: .serving)
        _ = table.evict(id)
        table.evictionRefused(id)
        #expect(table.serving == 1)
        #expect(table.servingEntries.map(\.id) == [id])
        // Refusing twice changes nothing more.
        table.evictionRefused(id)
        #expect(table.serving == 1)
    }

    @Test func theLastAnswerFreesTheSlotAndTheAddressBeforeTheSocketCloses() {
        var table = Table()
        let id = table.reserveServing(address: "a")
        table.register(id: id, handle: "closing", address: "a", role: .serving)
        table.lastAnswer(id)
        #expect(table.serving == 0)
        #expect(table.count(of: "a") == 0)
        #expect(!table.isEmpty)
        // Closing afterwards frees nothing twice.
        table.remove(id)
        #expect(table.serving == 0)
        #expect(table.perAddress.isEmpty)
        #expect(table.isEmpty)
    }

    @Test func aRefusalCountsOnlyAmongTheRefusalsUntilItCloses() {
        var table = Table()
        let id = table.reserveRejecting()
        table.register(id: id, handle: "503", address: "a", role: .rejecting)
        #expect(table.rejecting == 1)
        #expect(table.serving == 0)
        #expect(table.count(of: "a") == 0)
        // Its 503 is a last answer, but it stays bounded by the refusals' count until the socket closes.
        table.lastAnswer(id)
        #expect(table.rejecting == 1)
        table.remove(id)
        #expect(table.rejecting == 0)
    }

    @Test func servingEntriesLeaveOutEveryOtherRole() {
        var table = Table()
        let serving = table.reserveServing(address: "a")
        table.register(id: serving, handle: "s", address: "a", role: .serving)
        let evicted = table.reserveServing(address: "a")
        table.register(id: evicted, handle: "e", address: "a", role: .serving)
        _ = table.evict(evicted)
        let rejected = table.reserveRejecting()
        table.register(id: rejected, handle: "r", address: "b", role: .rejecting)
        #expect(table.servingEntries.map(\.entry.handle) == ["s"])
        #expect(table.count(of: "a") == 2)
    }

    /// Behind a trusted proxy a connection counts under the client of its latest request (issue 46 point 3).
    @Test func aReaddressedConnectionCountsUnderItsNewAddressUntilItCloses() {
        var table = Table()
        let id = table.reserveServing(address: "proxy")
        table.register(id: id, handle: "p", address: "proxy", role: .serving)
        table.readdress(id, to: "10.0.0.1")
        #expect(table.count(of: "proxy") == 0)
        #expect(table.count(of: "10.0.0.1") == 1)
        #expect(table.servingEntries.map(\.entry.address) == ["10.0.0.1"])
        table.readdress(id, to: "10.0.0.2")
        #expect(table.perAddress == ["10.0.0.2": 1])
        table.remove(id)
        #expect(table.perAddress.isEmpty)
        #expect(table.serving == 0)
    }

    @Test func aFinishingConnectionIsNotCountedAgainByAReaddress() {
        var table = Table()
        let id = table.reserveServing(address: "proxy")
        table.register(id: id, handle: "p", address: "proxy", role: .serving)
        table.lastAnswer(id)
        table.readdress(id, to: "10.0.0.1")
        #expect(table.perAddress.isEmpty)
    }
}
