import DashboardCore
import TemplateKit

extension Pager {
    /// The value of `Templates/partials/pager.html`: previous and next, and the numbered pages with gaps, each a link
    /// `url` makes for a page number; null when the list fits one page (no navigation). `label` names the navigation
    /// for assistive technology ("Pages of people").
    func templateValue(label: String, url: (Int) -> String) -> TemplateValue {
        guard isPaged else { return .null }
        return [
            "label": .text(label),
            "previous": number > 1 ? ["href": .text(url(number - 1))] : .null,
            "next": number < count ? ["href": .text(url(number + 1))] : .null,
            "pages": .list(
                shownNumbers.map { shown in
                    guard let shown else { return ["isGap": true, "href": .null, "number": .null, "isCurrent": false] }
                    return [
                        "isGap": false, "href": .text(url(shown)), "number": .int(shown),
                        "isCurrent": .bool(shown == number),
                    ]
                }),
        ]
    }

    /// `path` (which may carry a query already) on page `number`: the first page's URL is the path itself.
    static func url(_ path: String, page number: Int) -> String {
        let pair = query(number)
        return pair.isEmpty ? path : path + (path.contains("?") ? "&" : "?") + pair
    }
}
