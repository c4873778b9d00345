import DashboardCore
import TemplateKit

extension TemplateValue {
    /// An object of `fields` plus `extra` (extra wins); used to add layout fields to a page's value.
    static func object(_ fields: TemplateObject, adding extra: TemplateObject) -> TemplateValue {
        .object(fields.merging(extra))
    }
}
