import DashboardCore
import HTTPServer
import TemplateKit

extension PageRenderer {
    /// The bytes of `page`'s template inside the layout.
    func pageBytes(_ page: DashboardPage, _ fields: TemplateObject, frame: PageFrame) throws -> [UInt8] {
        try pageBytes(page.template, fields, frame: frame)
    }

    /// Renders live `page` shown at `path` with its fragment rendered from `fragmentValue`.
    func livePage(
        _ page: LivePage, _ fields: TemplateObject, fragmentValue: TemplateValue, path: String,
        frame: PageFrame
    ) throws -> Response {
        try livePage(
            page.template, fields, fragment: page.fragmentTemplate, fragmentValue: fragmentValue,
            liveSource: page.liveSource(path: path), frame: frame)
    }

    /// The bytes of live `page` shown at `path`, around its already rendered fragment and that fragment's ETag.
    func livePageBytes(
        _ page: LivePage, _ fields: TemplateObject, fragment: [UInt8], fragmentTag: String, path: String,
        frame: PageFrame
    ) throws -> [UInt8] {
        try livePageBytes(
            page.template, fields, fragment: fragment, fragmentTag: fragmentTag,
            liveSource: page.liveSource(path: path), frame: frame)
    }

    /// The skeleton of live `page` shown at `path` (issue 46 point 1): its places are `sinceLastVisit`, the region's
    /// `liveETag` (the fragment's tag, HTML-escaped) and its `fragment`.
    func liveSkeleton(_ page: LivePage, path: String, frame: PageFrame) throws -> Skeleton {
        try skeleton(
            page.template, ["liveSrc": .text(page.liveSource(path: path))], frame: frame,
            places: ["sinceLastVisit", "liveETag", "fragment"])
    }
}
