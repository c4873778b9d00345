import DashboardCore
import TemplateKit

extension LogHabitPage {
    /// The value of `Templates/log.html`; `failure` is the plain message shown when logging failed.
    public func templateFields(failure: String?) -> TemplateObject {
        let route = DashboardPage.log.route
        return [
            // On a page after the first, each form says which, so the redirect after logging comes back to it.
            "page": pager.flatMap { $0.number > 1 ? .int($0.number) : nil } ?? .null,
            "pager": pager?.templateValue(label: "Pages of habits to log") { Pager.url(route, page: $0) } ?? .null,
            "confirmation": loggedHabitName.map { name in
                [
                    "name": .text(name), "path": .text(Links.habit(name)),
                    "standing": TemplateValue(yours[name].map { ": " + $0.text }),
                    "passedText": TemplateValue(passedText),
                ]
            } ?? .null,
            "failure": failure.map { ["message": .text($0)] } ?? .null,
            "hasFavorites": .bool(!favorites.isEmpty),
            "favorites": .list(favorites.map(button)),
            "categories": .list(
                categories.enumerated().map { index, section in
                    guard case .object(var fields) = section.templateValue(id: "section-\(index)") else { return .null }
                    fields["habits"] = .list(section.habits.map(button))
                    return .object(fields)
                }),
        ]
    }

    /// One log button: the habit, its element id (the redirect's fragment) and your count and rank in it.
    private func button(_ row: HabitRow) -> TemplateValue {
        guard case .object(var fields) = row.templateValue else { return row.templateValue }
        fields["elementID"] = .text(Links.elementID(habit: row.name))
        fields["standing"] = TemplateValue(yours[row.name].map { "You: \($0.count), \(Ordinal.string($0.rank))" })
        return .object(fields)
    }
}

extension LogHabitPage {
    /// `/log` (`Templates/log.html`): the counts (your count and rank on each button) and the favourites (listed
    /// first).
    static let declaration = PageDeclaration(.log, data: .statistics, reads: .favorites)
}
