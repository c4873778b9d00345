import TemplateKit

extension TemplateValue {
    /// An object of `fields` plus `extra` (extra wins); used to add layout fields to a page's value.
    static func object(_ fields: [String: TemplateValue], adding extra: [String: TemplateValue]) -> TemplateValue {
        .object(fields.merging(extra) { _, new in new })
    }
}
