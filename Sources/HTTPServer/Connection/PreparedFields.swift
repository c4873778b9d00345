import HTTPCore

/// The serialized field lines of heads whose fields are one array many answers share (a render-cache entry's
/// fields, issue 21), made once and copied from then on: checking and copying field by field was the largest part
/// of writing a warm page's head.
///
/// One per event loop (no lock). A slot is found by the fields' storage address and holds that storage, so while
/// it is in the slot the address cannot be another array's, and the elements cannot change (a write to shared
/// storage copies it first). Fields made per answer simply miss, and are written field by field as before.
struct PreparedFields {
    private struct Slot {
        /// The fields, kept alive by the slot.
        let fields: [(name: String, value: String)]
        /// Their lines as `ResponseHead.write` writes them: connection-owned fields left out, each line checked.
        let lines: [UInt8]
    }

    /// How many arrays are kept: the live pages' entries in both encodings, with room for collisions.
    static let slotCount = 64

    /// Fields with fewer entries than this are cheaper to write than to look up.
    static let minimumFields = 3

    private var slots: [Slot?] = Array(repeating: nil, count: PreparedFields.slotCount)
    /// Lookups answered from a slot, and lines prepared (for tests).
    private(set) var hits = 0
    private(set) var misses = 0

    /// The field lines of `headers`, prepared on the first call for their storage; nil when they are too few to be
    /// worth it, or a field is invalid (the caller's own writer then reports it).
    mutating func lines(for headers: HTTPHeaders) -> [UInt8]? {
        let fields = headers.fields
        guard fields.count >= Self.minimumFields else { return nil }
        let address = fields.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        // Heap blocks are 16-byte aligned: the bits above those pick the slot.
        let index = Int((address >> 4) % UInt(Self.slotCount))
        if let slot = slots[index], slot.fields.count == fields.count,
            slot.fields.withUnsafeBufferPointer({ UInt(bitPattern: $0.baseAddress) }) == address
        {
            hits += 1
            return slot.lines
        }
        guard let lines = Self.serialize(fields) else { return nil }
        misses += 1
        slots[index] = Slot(fields: fields, lines: lines)
        return lines
    }

    private static func serialize(_ fields: [(name: String, value: String)]) -> [UInt8]? {
        let bound = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        var valid = true
        let lines = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            var out = ByteWriter(buffer)
            valid = ResponseHead.writeFields(fields, into: &out) == nil
            initialized = valid ? out.count : 0
        }
        return valid ? lines : nil
    }
}
