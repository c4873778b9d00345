/// RFC 8259's grammar for `StatisticsJSONDecoder`: objects, arrays, strings (every escape, surrogate pairs), numbers,
/// `null`, `true`, `false`, and skipping any value.
extension StatisticsJSONDecoder {
    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func failure(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        skipSpace()
        guard current == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        offset += 1
    }

    /// Whether the next value is `null` (consumed when it is).
    mutating func null() throws(Failure) -> Bool {
        skipSpace()
        guard current == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw failure("cut short") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw failure("not a JSON value")
        }
        offset += count
    }

    /// An object: `field` is called with each key, the reader on its value.
    mutating func object(_ field: (inout Self, ObjectKey) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"))
        try enter()
        defer { depth -= 1 }
        skipSpace()
        if current == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            let key = try objectKey()
            try expect(UInt8(ascii: ":"))
            try field(&self, key)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    /// An array of what `element` reads.
    mutating func array<Element>(_ element: (inout Self) throws(Failure) -> Element) throws(Failure) -> [Element] {
        var read: [Element] = []
        try elements { (decoder: inout Self) throws(Failure) in read.append(try element(&decoder)) }
        return read
    }

    /// An array, `element` called with the reader on each of its elements (skipping one keeps nothing).
    mutating func elements(_ element: (inout Self) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["))
        try enter()
        defer { depth -= 1 }
        skipSpace()
        if current == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try element(&self)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    /// One more object or array open; refused past `maximumDepth`.
    private mutating func enter() throws(Failure) {
        guard depth < Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth)") }
        depth += 1
    }

    /// An object key (or any string), read as bytes: a key without escapes (every key of the answer) is never made a
    /// `String`.
    private mutating func objectKey() throws(Failure) -> ObjectKey {
        try expect(UInt8(ascii: "\""))
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                defer { offset += 1 }
                return .raw(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
            }
            if byte == UInt8(ascii: "\\") { return .decoded(Array(try escapedString(from: start).utf8)) }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            offset += 1
        }
        throw failure("an unterminated string")
    }

    /// A string; without escapes its bytes are taken as they are (one copy).
    mutating func string() throws(Failure) -> String {
        switch try objectKey() {
        case .raw(let bytes): String(decoding: bytes, as: UTF8.self)
        case .decoded(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    private mutating func escapedString(from start: Int) throws(Failure) -> String {
        var scalars = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw failure("cut short") }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try hex4()
                    if (0xD800..<0xDC00).contains(value) {
                        guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"),
                            bytes[offset + 1] == UInt8(ascii: "u")
                        else { throw failure("a lone surrogate") }
                        offset += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(value) {
                        throw failure("a lone surrogate")
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw failure("not a Unicode scalar") }
                    scalars += Array(String(Character(scalar)).utf8)
                default: throw failure("an unknown escape")
                }
            default:
                guard byte >= 0x20 else { throw failure("a control character in a string") }
                scalars.append(byte)
            }
        }
        throw failure("an unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw failure("cut short") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("not a hex digit")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The extent of a number, checked against RFC 8259's grammar: (start, end, whether it is an integer).
    private mutating func numberToken() throws(Failure) -> (Int, Int, Bool) {
        skipSpace()
        let start = offset
        func digits(_ decoder: inout Self) -> Int {
            let first = decoder.offset
            while let byte = decoder.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                decoder.offset += 1
            }
            return decoder.offset - first
        }
        if current == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integerDigits = digits(&self)
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw failure("not a number")
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            offset += 1
            isInteger = false
            guard digits(&self) > 0 else { throw failure("not a number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw failure("not a number") }
        }
        return (start, offset, isInteger)
    }

    /// A number as a `Double`.
    mutating func number() throws(Failure) -> Double {
        let (start, end, _) = try numberToken()
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        else { throw failure("not a number") }
        return value
    }

    /// An integer that fits an `Int` (a count); a fraction or exponent is refused, as `JSONDecoder` refuses `1.5`.
    mutating func integer() throws(Failure) -> Int {
        let (start, end, isInteger) = try numberToken()
        guard isInteger, end - start <= 20 else { throw failure("not an integer") }
        var value = 0
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        while index < end {
            let (scaled, overflow1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (next, overflow2) =
                negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { throw failure("an integer out of range") }
            value = next
            index += 1
        }
        return value
    }

    /// Skips any one value.
    mutating func skipValue() throws(Failure) {
        skipSpace()
        switch current {
        case UInt8(ascii: "{"):
            try object { (decoder: inout Self, _: ObjectKey) throws(Failure) in try decoder.skipValue() }
        case UInt8(ascii: "["): try elements { (decoder: inout Self) throws(Failure) in try decoder.skipValue() }
        case UInt8(ascii: "\""): _ = try objectKey()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case nil: throw failure("cut short")
        default: _ = try numberToken()
        }
    }
}
