import Testing

@testable import HTTPServer

@Suite struct LoopSlotsTests {
    @Test func aTokenFindsItsItemUntilTheSlotIsEmptied() {
        var slots = LoopSlots<String>()
        let (slot, generation) = slots.reserve()
        slots.fill(slot, with: "a")
        let token = LoopSlots<String>.token(slot: slot, generation: generation)
        #expect(slots.item(token: token) == "a")
        slots.remove(slot)
        #expect(slots.item(token: token) == nil)
    }

    /// What cancels a deadline: a timer armed for a connection that went finds nothing, even once its slot holds
    /// another connection.
    @Test func aTimerOfAnEmptiedSlotFindsNothingAfterTheSlotIsReused() {
        var slots = LoopSlots<String>()
        let old = slots.reserve()
        slots.fill(old.slot, with: "old")
        slots.remove(old.slot)
        let new = slots.reserve()
        slots.fill(new.slot, with: "new")
        #expect(new.slot == old.slot)
        #expect(new.generation == old.generation + 1)
        #expect(slots.item(slot: old.slot, generation: old.generation) == nil)
        #expect(slots.item(slot: new.slot, generation: new.generation) == "new")
    }

    @Test func aReleasedReservationIsReusedWithItsGeneration() {
        var slots = LoopSlots<String>()
        let refused = slots.reserve()
        slots.release(refused.slot)
        let next = slots.reserve()
        #expect(next.slot == refused.slot && next.generation == refused.generation)
        #expect(slots.item(slot: next.slot, generation: next.generation) == nil)
    }

    @Test func noSlotsTokenIsTheWakeUpToken() {
        #expect(LoopSlots<String>.token(slot: Int(UInt32.max) - 1, generation: 0) != LoopSlots<String>.wakeToken)
        #expect(LoopSlots<String>.token(slot: 0, generation: UInt32.max) != LoopSlots<String>.wakeToken)
    }
}
