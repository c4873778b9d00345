import DashboardCore
import TemplateKit

extension HabitsListPage {
    /// The value of `Templates/habits.html`; `listPath` is the page's own path (without `page`): the favourite
    /// buttons come back to the page shown, and the navigation links its other pages.
    public func templateFields(listPath: String) -> TemplateObject {
        let number = pager?.number ?? 1
        return [
            "returnTo": .text(Pager.url(listPath, page: number)),
            "sections": .list(sections.enumerated().map { $1.templateValue(id: "section-\($0)") }),
            "pager": pager?.templateValue(label: "Pages of habits") { Pager.url(listPath, page: $0) } ?? .null,
        ]
    }
}

extension HabitSection {
    /// One section (Favorites or a category) with its rows; `id` labels it for assistive technology.
    func templateValue(id: String) -> TemplateValue {
        [
            "id": .text(id),
            "title": .text(title),
            "isFavorites": .bool(isFavorites),
            "colorClass": .text(color.className),
            "habits": .list(habits.map(\.templateValue)),
        ]
    }
}

extension HabitRow {
    /// One habit with its favourite button.
    var templateValue: TemplateValue {
        [
            "name": .text(name),
            "path": .text(path),
            "favoritePath": .text(Links.habitFavorite(name)),
            "isFavorite": .bool(isFavorite),
            "elementID": .text(Links.elementID(habit: name)),
            "colorClass": .text(categoryColor.className),
        ]
    }
}

extension HabitsListPage {
    /// `/habits` (`Templates/habits.html`): the habits and categories (no counts) and the favourites.
    static let declaration = PageDeclaration(.habits, data: .reference, reads: .favorites)
}
