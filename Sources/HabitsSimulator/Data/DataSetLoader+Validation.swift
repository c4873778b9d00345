import HabitsAPI

extension DataSetLoader {
    /// Unique, non-empty category names with valid colours; returns them by name.
    static func validate(categories: [Category]) throws(DataSetError) -> [String: Category] {
        var byName: [String: Category] = [:]
        for (index, category) in categories.enumerated() {
            guard !category.name.isEmpty else {
                throw DataSetError(file: "categories.json", problem: "category [\(index)] has an empty name")
            }
            guard byName.updateValue(category, forKey: category.name) == nil else {
                throw DataSetError(file: "categories.json", problem: "duplicate category name \"\(category.name)\"")
            }
            try validate(category.color, file: "categories.json", owner: "category \"\(category.name)\"")
        }
        return byName
    }

    /// Unique, non-empty habit names whose category exists; returns the habits with categories resolved.
    static func resolve(_ records: [HabitRecord], categories: [String: Category]) throws(DataSetError) -> [Habit] {
        var names: Set<String> = []
        var habits: [Habit] = []
        for (index, record) in records.enumerated() {
            guard !record.name.isEmpty else {
                throw DataSetError(file: "habits.json", problem: "habit [\(index)] has an empty name")
            }
            guard names.insert(record.name).inserted else {
                throw DataSetError(file: "habits.json", problem: "duplicate habit name \"\(record.name)\"")
            }
            guard let category = categories[record.categoryName] else {
                throw DataSetError(
                    file: "habits.json",
                    problem: "habit \"\(record.name)\" has unknown category \"\(record.categoryName)\"")
            }
            habits.append(Habit(name: record.name, category: category, info: record.info))
        }
        return habits
    }

    /// Unique, non-empty user ids and names, valid colours, and an active user distinct from them all.
    static func validate(users: [User], activeUser: User) throws(DataSetError) {
        var ids: Set<String> = []
        for (index, user) in users.enumerated() {
            guard !user.id.isEmpty, !user.name.isEmpty else {
                throw DataSetError(file: "users.json", problem: "user [\(index)] has an empty id or name")
            }
            guard ids.insert(user.id).inserted else {
                throw DataSetError(file: "users.json", problem: "duplicate user id \"\(user.id)\"")
            }
            if let color = user.color {
                try validate(color, file: "users.json", owner: "user \"\(user.id)\"")
            }
        }
        guard !activeUser.id.isEmpty, !activeUser.name.isEmpty else {
            throw DataSetError(file: "activeUser.json", problem: "the active user has an empty id or name")
        }
        guard !ids.contains(activeUser.id) else {
            throw DataSetError(
                file: "activeUser.json", problem: "active user id \"\(activeUser.id)\" is also in users.json")
        }
    }

    /// HSB components are fractions; anything else would draw garbage in every client.
    private static func validate(_ color: Color, file: String, owner: String) throws(DataSetError) {
        for (key, value) in [("h", color.hue), ("s", color.saturation), ("b", color.brightness)]
        where !(0...1).contains(value) {
            throw DataSetError(file: file, problem: "\(owner) has colour component \(key) = \(value), not in 0…1")
        }
    }
}
