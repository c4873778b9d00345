/// CRC-32 as PNG uses it (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320, reflected), table-driven.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The checksum of `bytes`, continuing from `initial` (the checksum of what came before, 0 to start).
    public static func checksum(_ bytes: some Sequence<UInt8>, continuing initial: UInt32 = 0) -> UInt32 {
        var crc = ~initial
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }
}
