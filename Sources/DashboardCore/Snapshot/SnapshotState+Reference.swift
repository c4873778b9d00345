/// The reference data (users, habits, categories) a snapshot is built with, and whether it is complete.
extension SnapshotState {
    /// The reference data a snapshot was built with (a follower that becomes the leader builds the next one with it).
    static func reference(of snapshot: Snapshot) -> Reference {
        Reference(
            users: snapshot.inputs.users, habits: snapshot.inputs.habits, categories: snapshot.inputs.categories,
            digest: snapshot.referenceVersion)
    }

    /// Whether the reference data knows every user and habit the statistics name (the active user need not be in
    /// `/users`).
    static func referenceIsComplete(_ snapshot: Snapshot) -> Bool {
        let inputs = snapshot.inputs
        for entry in inputs.statistics.userStatistics
        where entry.user.id != snapshot.activeUserID && inputs.users[entry.user.id] == nil {
            return false
        }
        for entry in inputs.statistics.habitStatistics where inputs.habits[entry.habit.name] == nil {
            return false
        }
        return true
    }
}
