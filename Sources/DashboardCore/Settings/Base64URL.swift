/// Unpadded base64url (RFC 4648 §5): cookie-safe, path-safe text for random bytes and tags.
enum Base64URL {
    /// The 64 characters, in value order.
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The encoding of `bytes` as ASCII bytes, without `=` padding.
    static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 5) / 6)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let b0 = bytes[index]
            let b1 = count > 1 ? bytes[index + 1] : 0
            let b2 = count > 2 ? bytes[index + 2] : 0
            let sextets = [b0 >> 2, (b0 & 0x03) << 4 | b1 >> 4, (b1 & 0x0F) << 2 | b2 >> 6, b2 & 0x3F]
            for sextet in sextets.prefix(count + 1) {
                output.append(alphabet[Int(sextet)])
            }
            index += 3
        }
        return output
    }

    /// The value (0…63) of one character, or nil for a byte outside the alphabet.
    static func sixBits(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
