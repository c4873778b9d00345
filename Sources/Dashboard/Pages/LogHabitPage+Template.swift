import TemplateKit

extension LogHabitPage {
    /// The value of `Templates/log.html`; `failure` is the plain message shown when logging failed.
    public func templateFields(failure: String?) -> [String: TemplateValue] {
        [
            "confirmation": loggedHabitName.map { ["name": .text($0), "path": .text(Links.habit($0))] } ?? .null,
            "failure": failure.map { ["message": .text($0)] } ?? .null,
            "hasFavorites": .bool(!favorites.isEmpty),
            "favorites": .list(favorites.map(\.templateValue)),
            "categories": .list(categories.enumerated().map { $1.templateValue(id: "section-\($0)") }),
        ]
    }
}
