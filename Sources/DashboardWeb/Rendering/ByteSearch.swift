import Glibc

extension Array where Element == UInt8 {
    /// Where `needle` first starts in these bytes at or after `start`, or nil: a scan for its first byte with a
    /// `memcmp` at each (the generic `firstRange(of:)` took longer than rendering Home). Finds the markers a rendering
    /// leaves for what goes in after it (a live page's fragment, a skeleton's places).
    func firstIndex(of needle: [UInt8], from start: Int = 0) -> Int? {
        withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { needle in
                guard let first = needle.first, bytes.count >= needle.count else { return nil }
                var index = start
                let last = bytes.count - needle.count
                while index <= last {
                    if bytes[index] == first, memcmp(bytes.baseAddress! + index, needle.baseAddress!, needle.count) == 0
                    {
                        return index
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
