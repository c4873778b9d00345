import HabitsAPI

/// Everything the simulator serves that does not change while it runs: people, habits, categories, images.
///
/// Validated on creation by `DataSetLoader`; ids and names are unique, every habit's category exists.
public struct DataSet: Sendable {
    /// The simulated users, in file order (`user0`, `user1`, …). The active user is not among them.
    public var users: [User]
    /// The user who logs habits from the dashboard (`activeUser.json`).
    public var activeUser: User
    /// The categories, in file order.
    public var categories: [Category]
    /// The habits, in file order, each with its category resolved into a full object.
    public var habits: [Habit]
    /// PNG files from the data folder's `images/`, by user id. Users without one get a generated image.
    public var images: [String: [UInt8]]
    /// How the simulated people take up habits.
    public var activity: ActivityModel

    /// How simulated people choose their habits.
    public enum ActivityModel: Sendable, Equatable {
        /// Each person may do any habit (about four in ten each): the built-in data and `--data-dir`, a few dozen
        /// habits.
        case anyHabit
        /// Each person does a handful of habits (a number in the range), popular habits more often: a made-up
        /// network of thousands of habits (`GeneratedData`), whose past activity grows with its people.
        case fewHabitsEach(ClosedRange<Int>)
    }

    /// Creates a data set. Use `DataSetLoader` for validated data from files.
    public init(
        users: [User], activeUser: User, categories: [Category], habits: [Habit], images: [String: [UInt8]] = [:],
        activity: ActivityModel = .anyHabit
    ) {
        self.users = users
        self.activeUser = activeUser
        self.categories = categories
        self.habits = habits
        self.images = images
        self.activity = activity
    }

    /// The built-in data set (our own text, same format and scale as the original server's).
    public static func builtIn() throws -> DataSet {
        try DataSetLoader.load(files: BuiltInData.files.mapValues { Array($0.utf8) }, images: [:])
    }
}
