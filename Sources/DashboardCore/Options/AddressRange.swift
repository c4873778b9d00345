import HTTPServer

/// An address or a CIDR block (`10.0.0.0/8`, `2001:db8::/32`): the value of `--trusted-proxy`.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the block.
    public let base: IPAddress
    /// The prefix length over all 16 bytes (an IPv4 `/8` is stored as 96 + 8).
    public let prefixLength: Int

    /// Parses `ADDR` (one address) or `ADDR/N`; nil for anything else, including host bits set below the prefix
    /// (`10.0.0.1/8`), which is almost always a typo for something else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        // A bare address only: no brackets, no port (IPAddress accepts those for peers), no IPv4-mapped form.
        guard parts.count <= 2, !parts[0].contains("["), let address = IPAddress(parts[0]),
            !(address.isIPv4 && parts[0].contains(":"))
        else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var length = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given), parts[1].allSatisfy(\.isNumber) else {
                return nil
            }
            length = given
        }
        prefixLength = length + (128 - width)
        guard Self.masked(address, prefixLength) == address else { return nil }
        base = address
    }

    /// Whether `address` is in the block.
    public func contains(_ address: IPAddress) -> Bool {
        Self.masked(address, prefixLength) == base
    }

    /// `ADDR` or `ADDR/N`, as given.
    public var description: String {
        let width = base.isIPv4 ? 32 : 128
        let length = prefixLength - (128 - width)
        return length == width ? base.description : "\(base)/\(length)"
    }

    /// Parses a `--trusted-proxy` value: one range or a comma-separated list.
    public static func list(_ text: String) -> [AddressRange]? {
        var ranges: [AddressRange] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let range = AddressRange(item.trimmingCharacters(in: " ")) else { return nil }
            ranges.append(range)
        }
        return ranges
    }

    private static func masked(_ address: IPAddress, _ length: Int) -> IPAddress {
        var bytes = address.bytes
        for index in 0..<16 {
            let bits = max(0, min(8, length - index * 8))
            bytes[index] &= bits == 0 ? 0 : ~UInt8(0) << (8 - bits)
        }
        return IPAddress(bytes: bytes)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> Substring {
        var result = self
        while let first = result.first, characters.contains(first) { result = result.dropFirst() }
        while let last = result.last, characters.contains(last) { result = result.dropLast() }
        return result
    }
}
