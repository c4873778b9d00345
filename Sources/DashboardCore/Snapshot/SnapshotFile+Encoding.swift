import Foundation
import HabitsAPI

/// Writes `snapshot.json` by hand (issue 23 point 6): `JSONEncoder` builds a tree of every value before it writes
/// a byte, about eight times the file's size for a 45 000-person upstream, and ran on every new version. The shape is
/// the `Codable` one `SnapshotFile.decode` reads; keys are sorted, so the same data gives the same bytes.
extension SnapshotFile {
    /// Appends the envelope and the inputs.
    func writeJSON(to out: inout [UInt8]) {
        JSONFragment.appendRaw(#"{"fetchedAt":"#, to: &out)
        JSONFragment.appendString(fetchedAt.formatted(.iso8601), to: &out)
        JSONFragment.appendRaw(#","format":"#, to: &out)
        JSONFragment.appendInt(format, to: &out)
        JSONFragment.appendRaw(#","inputs":"#, to: &out)
        Self.write(inputs, to: &out)
        JSONFragment.appendRaw(#","upstream":"#, to: &out)
        JSONFragment.appendString(upstream, to: &out)
        JSONFragment.appendRaw(#","version":"#, to: &out)
        JSONFragment.appendString(version, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A capacity to reserve for the file, so the buffer is not copied while it grows (a copy holds it twice):
    /// generous, since pages of it never written are never resident. The generated upstream's user objects average
    /// 136 bytes (`/users` of 45 000 people is 6.1 MB); 256 are reserved for each, and for each count, which carries
    /// one.
    static func estimatedSize(of inputs: SnapshotInputs) -> Int {
        let statistics = inputs.statistics
        let counts =
            statistics.userStatistics.reduce(0) { $0 + $1.habitCounts.count + 1 }
            + statistics.habitStatistics.reduce(0) { $0 + $1.userCounts.count }
        return 4096 + (counts + inputs.users.count) * 256 + (inputs.habits.count + statistics.habitStatistics.count)
            * 512
    }

    private static func write(_ inputs: SnapshotInputs, to out: inout [UInt8]) {
        JSONFragment.appendRaw(#"{"categories":"#, to: &out)
        list(inputs.categories, to: &out) { JSONFragment.appendCategory($0, to: &$1) }
        JSONFragment.appendRaw(#","habits":"#, to: &out)
        object(inputs.habits, to: &out) { JSONFragment.appendHabit($0, to: &$1) }
        JSONFragment.appendRaw(#","statistics":{"habitStatistics":"#, to: &out)
        list(inputs.statistics.habitStatistics, to: &out) { entry, out in
            JSONFragment.appendRaw(#"{"habit":"#, to: &out)
            JSONFragment.appendHabit(entry.habit, to: &out)
            JSONFragment.appendRaw(#","userCounts":"#, to: &out)
            list(entry.userCounts, to: &out) { count, out in
                counted(count.count, #","user":"#, to: &out) { JSONFragment.appendUser(count.user, to: &$0) }
            }
            out.append(UInt8(ascii: "}"))
        }
        JSONFragment.appendRaw(#","userStatistics":"#, to: &out)
        list(inputs.statistics.userStatistics, to: &out) { entry, out in
            JSONFragment.appendRaw(#"{"habitCounts":"#, to: &out)
            list(entry.habitCounts, to: &out) { count, out in
                counted(count.count, #","habit":"#, to: &out) { JSONFragment.appendHabit(count.habit, to: &$0) }
            }
            JSONFragment.appendRaw(#","user":"#, to: &out)
            JSONFragment.appendUser(entry.user, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONFragment.appendRaw(#"},"users":"#, to: &out)
        object(inputs.users, to: &out) { JSONFragment.appendUser($0, to: &$1) }
        out.append(UInt8(ascii: "}"))
    }

    /// `[…]` of `elements`, each written by `element`.
    private static func list<Element>(
        _ elements: [Element], to out: inout [UInt8], _ element: (Element, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            element(value, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{…}` of `members` in the order of their keys, each value written by `value`.
    private static func object<Value>(
        _ members: [String: Value], to out: inout [UInt8], _ value: (Value, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "{"))
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONFragment.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            if let member = members[key] { value(member, &out) }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"count":n,"<key>":…}`, the other member written by `other` after its `key` (given as `,"key":`).
    private static func counted(
        _ count: Int, _ key: StaticString, to out: inout [UInt8], _ other: (inout [UInt8]) -> Void
    ) {
        JSONFragment.appendRaw(#"{"count":"#, to: &out)
        JSONFragment.appendInt(count, to: &out)
        JSONFragment.appendRaw(key, to: &out)
        other(&out)
        out.append(UInt8(ascii: "}"))
    }
}
