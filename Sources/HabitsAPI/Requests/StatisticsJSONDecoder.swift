/// Decodes `/combinedStats` straight from its bytes (issue 21 point 2: a whole refresh in ≤ 3 ms of CPU), where
/// `JSONDecoder` took 3.1 ms for the built-in data's 110 KB and most of the refresh.
///
/// The answer repeats itself: every count carries its whole user or habit object, so each distinct object's bytes are
/// decoded once and looked up after that; and with a `StatisticsDecodeMemo`, each top-level entry whose bytes were in
/// the previous answer is taken from it. It reads what `JSONDecoder` reads for these models and nothing looser:
/// RFC 8259 JSON, object keys in any order, unknown keys skipped, `color` and `bio` null or absent, counts integers;
/// anything else (and nesting deeper than `maximumDepth`) throws `Failure` with the byte offset.
struct StatisticsJSONDecoder {
    /// Why the bytes are not a `CombinedStatistics`.
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "byte \(offset): \(reason)" }
    }

    /// How deep objects and arrays may nest: the answer needs 6, and skipping is recursive, so an upstream's
    /// `[[[[…` must end in an error, not in a stack overflow (RFC 8259 §9 lets a parser set this limit).
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    /// Objects and arrays open at `offset`.
    var depth = 0
    private var users: [EntryBytes: User] = [:]
    private var habits: [EntryBytes: Habit] = [:]
    /// The same bytes as `bytes`, for slices as dictionary keys.
    let array: [UInt8]
    /// The previous answer's entries (looked up) and this one's (filled in).
    var previous: StatisticsDecodeMemo
    var memo = StatisticsDecodeMemo()
    /// Where in `previous`'s entries of each kind the next entry is looked for first: unchanged entries come in order.
    var userCursor = 0
    var habitCursor = 0

    /// Decodes `body`.
    static func decode(_ body: [UInt8]) throws(Failure) -> CombinedStatistics {
        try decode(body, previous: StatisticsDecodeMemo()).statistics
    }

    /// Decodes `body`, taking each entry whose bytes `previous` holds from it; also returns the memo of `body`.
    static func decode(
        _ body: [UInt8], previous: StatisticsDecodeMemo
    ) throws(Failure) -> (statistics: CombinedStatistics, memo: StatisticsDecodeMemo) {
        try body.withUnsafeBufferPointer {
            (buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> (CombinedStatistics, StatisticsDecodeMemo) in
            var decoder = StatisticsJSONDecoder(bytes: buffer, array: body, previous: previous)
            let statistics = try decoder.combined()
            decoder.skipSpace()
            guard decoder.offset == buffer.count else { throw decoder.failure("bytes after the answer") }
            return (statistics, decoder.memo)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, array: [UInt8], previous: StatisticsDecodeMemo) {
        self.bytes = bytes
        self.array = array
        self.previous = previous
    }

    // MARK: - The models

    private mutating func combined() throws(Failure) -> CombinedStatistics {
        var userStatistics: [UserStatistics]?
        var habitStatistics: [HabitStatistics]?
        try object { (decoder: inout Self, key: ObjectKey) throws(Failure) in
            switch key {
            case "userStatistics":
                userStatistics = try decoder.array { (decoder: inout Self) throws(Failure) in try decoder.userEntry() }
            case "habitStatistics":
                habitStatistics = try decoder.array { (decoder: inout Self) throws(Failure) in try decoder.habitEntry()
                }
            default: try decoder.skipValue()
            }
        }
        guard let userStatistics, let habitStatistics else {
            throw failure("userStatistics or habitStatistics missing")
        }
        return CombinedStatistics(userStatistics: userStatistics, habitStatistics: habitStatistics)
    }

    /// An entry of `kind`: the previous answer's when its bytes are the same (`reusedEntry`), else `decoded`; either
    /// way it is kept, with its bytes, for the next answer.
    private mutating func entry<Value>(
        _ kind: WritableKeyPath<StatisticsDecodeMemo, StatisticsDecodeMemo.Entries<Value>>,
        cursor: WritableKeyPath<Self, Int>,
        decoded: (inout Self) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        skipSpace()
        let start = offset
        // Out of `self` while it is searched (one reference, so not copied).
        var entries = previous[keyPath: kind]
        previous[keyPath: kind] = .init()
        let reuse = reusedEntry(&entries, from: self[keyPath: cursor])
        previous[keyPath: kind] = entries
        let value: Value
        switch reuse {
        case .reused(let known, let place):
            self[keyPath: cursor] = place + 1
            value = known
        case .decode(let next):
            self[keyPath: cursor] = next
            value = try decoded(&self)
        }
        memo[keyPath: kind].append(EntryBytes(array[start..<offset]), value)
        return value
    }

    /// A user's statistics: the previous answer's when its bytes are the same, else decoded.
    private mutating func userEntry() throws(Failure) -> UserStatistics {
        try entry(\.users, cursor: \.userCursor) { (decoder: inout Self) throws(Failure) in
            try decoder.decodedUserEntry()
        }
    }

    private mutating func decodedUserEntry() throws(Failure) -> UserStatistics {
        var user: User?
        var counts: [HabitCount]?
        try object { (decoder: inout Self, key: ObjectKey) throws(Failure) in
            switch key {
            case "user": user = try decoder.sharedUser()
            case "habitCounts":
                counts = try decoder.array { (decoder: inout Self) throws(Failure) in
                    var habit: Habit?
                    var count: Int?
                    try decoder.object { (decoder: inout Self, key: ObjectKey) throws(Failure) in
                        switch key {
                        case "habit": habit = try decoder.sharedHabit()
                        case "count": count = try decoder.integer()
                        default: try decoder.skipValue()
                        }
                    }
                    guard let habit, let count else { throw decoder.failure("a habit count lacks habit or count") }
                    return HabitCount(habit: habit, count: count)
                }
            default: try decoder.skipValue()
            }
        }
        guard let user, let counts else { throw failure("a user's statistics lack user or habitCounts") }
        return UserStatistics(user: user, habitCounts: counts)
    }

    /// A habit's statistics: the previous answer's when its bytes are the same, else decoded.
    private mutating func habitEntry() throws(Failure) -> HabitStatistics {
        try entry(\.habits, cursor: \.habitCursor) { (decoder: inout Self) throws(Failure) in
            try decoder.decodedHabitEntry()
        }
    }

    private mutating func decodedHabitEntry() throws(Failure) -> HabitStatistics {
        var habit: Habit?
        var counts: [UserCount]?
        try object { (decoder: inout Self, key: ObjectKey) throws(Failure) in
            switch key {
            case "habit": habit = try decoder.sharedHabit()
            case "userCounts":
                counts = try decoder.array { (decoder: inout Self) throws(Failure) in
                    var user: User?
                    var count: Int?
                    try decoder.object { (decoder: inout Self, key: ObjectKey) throws(Failure) in
                        switch key {
                        case "user": user = try decoder.sharedUser()
                        case "count": count = try decoder.integer()
                        default: try decoder.skipValue()
                        }
                    }
                    guard let user, let count else { throw decoder.failure("a user count lacks user or count") }
                    return UserCount(user: user, count: count)
                }
            default: try decoder.skipValue()
            }
        }
        guard let habit, let counts else { throw failure("a habit's statistics lack habit or userCounts") }
        return HabitStatistics(habit: habit, userCounts: counts)
    }

    /// A user object, decoded once per distinct spelling.
    private mutating func sharedUser() throws(Failure) -> User {
        skipSpace()
        let start = offset
        try skipValue()
        let key = EntryBytes(array[start..<offset])
        if let known = users[key] { return known }
        let end = offset
        offset = start
        var id: String?
        var name: String?
        var color: Color?
        var bio: String?
        try object { (decoder: inout Self, field: ObjectKey) throws(Failure) in
            switch field {
            case "id": id = try decoder.string()
            case "name": name = try decoder.string()
            case "color": color = try decoder.null() ? nil : try decoder.color()
            case "bio": bio = try decoder.null() ? nil : try decoder.string()
            default: try decoder.skipValue()
            }
        }
        guard offset == end, let id, let name else { throw failure("a user lacks id or name") }
        let user = User(id: id, name: name, color: color, bio: bio)
        users[key] = user
        return user
    }

    /// A habit object (its category inside), decoded once per distinct spelling.
    private mutating func sharedHabit() throws(Failure) -> Habit {
        skipSpace()
        let start = offset
        try skipValue()
        let key = EntryBytes(array[start..<offset])
        if let known = habits[key] { return known }
        let end = offset
        offset = start
        var name: String?
        var category: Category?
        var info: String?
        try object { (decoder: inout Self, field: ObjectKey) throws(Failure) in
            switch field {
            case "name": name = try decoder.string()
            case "info": info = try decoder.string()
            case "category":
                var categoryName: String?
                var color: Color?
                try decoder.object { (decoder: inout Self, field: ObjectKey) throws(Failure) in
                    switch field {
                    case "name": categoryName = try decoder.string()
                    case "color": color = try decoder.color()
                    default: try decoder.skipValue()
                    }
                }
                guard let categoryName, let color else { throw decoder.failure("a category lacks name or color") }
                category = Category(name: categoryName, color: color)
            default: try decoder.skipValue()
            }
        }
        guard offset == end, let name, let category, let info else {
            throw failure("a habit lacks name, category or info")
        }
        let habit = Habit(name: name, category: category, info: info)
        habits[key] = habit
        return habit
    }

    private mutating func color() throws(Failure) -> Color {
        var h: Double?
        var s: Double?
        var b: Double?
        try object { (decoder: inout Self, key: ObjectKey) throws(Failure) in
            switch key {
            case "h": h = try decoder.number()
            case "s": s = try decoder.number()
            case "b": b = try decoder.number()
            default: try decoder.skipValue()
            }
        }
        guard let h, let s, let b else { throw failure("a colour lacks h, s or b") }
        return Color(hue: h, saturation: s, brightness: b)
    }
}
