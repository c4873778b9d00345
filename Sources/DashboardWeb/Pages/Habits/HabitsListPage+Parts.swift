import TemplateKit

extension HabitsListPage {
    /// One part of the page's list of sections, each a partial rendered once per what it shows and shared by every
    /// browser (issue 46 point 1): a browser's favourites decide only which parts come, in which order.
    enum Part: Sendable {
        /// A section's start (`<section>`, its heading, the list's opening tag), labelled `id`.
        case start(HabitSection, id: String)
        /// A habit's row, whose button returns to `returnTo`.
        case row(HabitRow, returnTo: String)
        /// A section's end.
        case end

        /// What the part shows, and so its place in the card cache.
        var key: CardKey {
            switch self {
            case .start(let section, let id):
                .habitSectionStart(
                    title: section.title, isFavorites: section.isFavorites, colorClass: section.color.className, id: id)
            case .row(let row, let returnTo): .habitRow(row, returnTo: returnTo)
            case .end: .habitSectionEnd
            }
        }

        /// The partial under `Templates/`.
        var template: String {
            switch self {
            case .start: "partials/habit-section-start"
            case .row: "partials/habit-row"
            case .end: "partials/habit-section-end"
            }
        }

        /// The partial's value.
        var value: TemplateValue {
            switch self {
            case .start(let section, let id): section.templateValue(id: id)
            case .row(let row, let returnTo): row.templateValue(returnTo: returnTo)
            case .end: .null
            }
        }
    }

    /// The parts of the sections shown, in order; rows' buttons return to `returnTo`.
    func parts(returnTo: String) -> [Part] {
        var parts: [Part] = []
        parts.reserveCapacity(sections.count * 2 + sections.reduce(0) { $0 + $1.habits.count })
        for (index, section) in sections.enumerated() {
            parts.append(.start(section, id: "section-\(index)"))
            parts += section.habits.map { .row($0, returnTo: returnTo) }
            parts.append(.end)
        }
        return parts
    }
}

extension PageRenderer {
    /// A part of the Habits page as a chunk of a composed page.
    func chunk(_ part: HabitsListPage.Part) throws -> Chunk {
        try chunk(part.key, template: part.template) { part.value }
    }
}
