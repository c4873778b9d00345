/// A view model that knows which template shows it and how to turn itself into a ``TemplateValue``.
public protocol TemplateRenderable {
    /// The template's name: its path under the templates directory without ".html" (e.g. "home").
    static var templateName: String { get }
    /// The value the template renders.
    var templateValue: TemplateValue { get }
}
