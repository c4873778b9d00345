extension Array {
    /// Whether `other` is this array's own storage (a value kept from the snapshot replaced, or taken from the previous
    /// answer by the decode memo), so both hold the same elements: one comparison where `==` is a pass over them
    /// (issue 21 point 2). False says nothing: equal arrays in different storage are not the same storage.
    func sharesStorage(with other: [Element]) -> Bool {
        withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in
                mine.baseAddress == theirs.baseAddress && mine.count == theirs.count
            }
        }
    }
}
