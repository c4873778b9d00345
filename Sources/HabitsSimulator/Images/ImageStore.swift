import HabitsAPI
import Synchronization

/// Profile images by user id: the data folder's PNG when there is one, else a generated avatar, made once.
final class ImageStore: Sendable {
    /// One image ready to serve.
    struct Image: Sendable {
        /// The PNG bytes.
        var bytes: [UInt8]
        /// A strong validator derived from the bytes, quoted as the `ETag` header wants.
        var etag: String
    }

    private let users: [String: User]
    private let provided: [String: [UInt8]]
    private let cache = Mutex<[String: Image]>([:])

    /// Serves `dataSet`'s images, generating the missing ones on first request.
    init(dataSet: DataSet) {
        var users: [String: User] = [:]
        for user in dataSet.users + [dataSet.activeUser] { users[user.id] = user }
        self.users = users
        provided = dataSet.images
    }

    /// The image of `userID`, or nil for an unknown user.
    func image(for userID: String) -> Image? {
        if let cached = cache.withLock({ $0[userID] }) { return cached }
        guard let user = users[userID] else { return nil }
        let bytes = provided[userID] ?? AvatarRenderer.png(for: user)
        let checksum = String(CRC32.checksum(bytes), radix: 16)
        let image = Image(bytes: bytes, etag: "\"\(checksum)-\(String(bytes.count, radix: 16))\"")
        cache.withLock { $0[userID] = image }
        return image
    }
}
