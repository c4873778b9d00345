import DashboardCore
import TemplateKit

extension HabitsListPage {
    /// The value of `Templates/habits.html`; `listPath` is the page's own path (without `page`): the favourite
    /// buttons come back to the page shown, and the navigation links its other pages. The sections are the page's
    /// parts (`parts(returnTo:)`), from `renderer`'s card cache.
    public func templateFields(listPath: String, renderer: PageRenderer) throws -> TemplateObject {
        var fields = skeletonFields(listPath: listPath)
        var html = ""
        for part in parts(returnTo: returnTo(listPath: listPath)) {
            html += try renderer.cards.html(part.key) { try renderer.templates.render(part.template, part.value) }
        }
        fields["sections"] = .trustedHTML(html)
        return fields
    }

    /// The fields every browser's page shares: all but the sections (a composed page's place, issue 46 point 1).
    func skeletonFields(listPath: String) -> TemplateObject {
        [
            "hasHabits": .bool(!sections.isEmpty),
            "pager": pager?.templateValue(label: "Pages of habits") { Pager.url(listPath, page: $0) } ?? .null,
        ]
    }

    /// Where the favourite buttons of the page shown return.
    func returnTo(listPath: String) -> String { Pager.url(listPath, page: pager?.number ?? 1) }
}

extension HabitSection {
    /// The start of one section (Favorites or a category); `id` labels it for assistive technology.
    func templateValue(id: String) -> TemplateValue {
        [
            "id": .text(id),
            "title": .text(title),
            "isFavorites": .bool(isFavorites),
            "colorClass": .text(color.className),
        ]
    }
}

extension HabitRow {
    /// One habit with its favourite button.
    var templateValue: TemplateValue { .object(fields) }

    /// One habit with its favourite button, which returns to `returnTo`.
    func templateValue(returnTo: String) -> TemplateValue {
        var fields = fields
        fields["returnTo"] = .text(returnTo)
        return .object(fields)
    }

    private var fields: TemplateObject {
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
    /// What every browser's `/habits` shares (`skeletonFields`): the habits and categories, no settings.
    static let skeletonDeclaration = PageDeclaration(.habits, data: .reference, reads: .nothing)
}
