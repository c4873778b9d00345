import HTTPServer

extension DashboardApp {
    /// The name or id `route`'s `:key` segment carries. An empty segment with a `key` query parameter is how `Links`
    /// spells the names `.` and `..`, which browsers would otherwise remove from the path.
    static func routeParameter(_ route: ItemRoute, _ request: Request, _ context: RequestContext) throws -> String {
        let key = route.parameter
        let segment = try context.parameters.require(key)
        if segment.isEmpty, let value = request.query[key] { return value }
        return segment
    }
}
