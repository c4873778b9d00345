import Testing

@testable import TemplateKit

/// Renders `source` as template "page" (with extra templates such as partials) and returns the output as text.
func render(
    _ source: String, _ value: TemplateValue, templates: [String: String] = [:], strict: Bool = true
) throws -> String {
    var sources = templates
    sources["page"] = source
    let library = try TemplateLibrary(sources: sources, strict: strict)
    return String(decoding: try library.render("page", value), as: UTF8.self)
}

/// The error that loading these sources throws, or nil if they load.
func loadError(_ sources: [String: String]) -> TemplateError? {
    do {
        _ = try TemplateLibrary(sources: sources, strict: true)
        return nil
    } catch {
        return error
    }
}

/// The error that rendering `source` as "page" throws, or nil if it renders.
func renderError(_ source: String, _ value: TemplateValue, templates: [String: String] = [:]) -> TemplateError? {
    do {
        var sources = templates
        sources["page"] = source
        _ = try TemplateLibrary(sources: sources, strict: true).render("page", value)
        return nil
    } catch {
        return error
    }
}
