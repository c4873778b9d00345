/// A JSON object key as `StatisticsJSONDecoder` reads it: its bytes in the answer when it has no escapes, else its
/// decoded UTF-8. `switch key { case "user": … }` compares bytes, so reading a key allocates nothing.
///
/// `.raw` points into the answer being decoded: it is valid only while that decode runs.
enum ObjectKey {
    case raw(UnsafeBufferPointer<UInt8>)
    case decoded([UInt8])

    /// Whether `key` is spelled `pattern` (after unescaping, as `JSONDecoder` compares keys).
    static func ~= (pattern: StaticString, key: ObjectKey) -> Bool {
        let expected = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        switch key {
        case .raw(let bytes): return bytes.elementsEqual(expected)
        case .decoded(let bytes): return bytes.elementsEqual(expected)
        }
    }
}
