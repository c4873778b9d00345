import DashboardCore
import HTTPCore
import HTTPServer
import HabitsAPI

/// The profile images pages load.
struct ImageHandler: Sendable {
    /// The state (the data's users, the images) the images come from.
    let web: WebContext

    /// Content types a profile image may have. Anything else from the upstream (say `text/html`) is refused: served
    /// from our origin it could run script in the dashboard's name. (The client already refuses them; this keeps the
    /// rule visible where the bytes are served, whatever the upstream.)
    static let imageTypes: Set<String> = DashboardState.imageTypes

    /// `GET /images/<id>`: the upstream's profile image, cacheable by the browser for a day (issue 14: a repeat visit
    /// of People takes its avatars from the cache), then revalidated with its content ETag.
    func get(_ request: Request, _ context: RequestContext) async throws -> Response {
        let id = try RequestParameters.route(Links.imageRoute, request, context)
        // Only ids the data knows are proxied: any other would cost an upstream call and a shared-cache entry. The
        // active user is not in `/users` but has an image.
        let snapshot = try await web.state.view(activity: context.activity).snapshot
        let known = snapshot.inputs.users[id] != nil
        guard known || id == User.activeUserID else {
            throw HTTPError(.notFound, "There is no such profile image.")
        }
        // Marked, so that at the connection cap the server may give this wait up rather than refuse a newcomer.
        let image = try await context.activity.waitingOnUpstream(since: web.clock.now) {
            try await web.state.image(id: id, version: snapshot.referenceVersion)
        }
        // Not `split(separator:)[0]`: an empty or ";" value splits into nothing, and indexing that traps.
        let type = image.contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.imageTypes.contains(type) else {
            context.logger.warning("upstream image has a non-image type", ["user.id": id, "content.type": type])
            throw HTTPError(.badGateway, "The Habits service sent something that is not an image.")
        }
        var response = Response(status: .ok, headers: ["Content-Type": type], body: image.bytes)
        let tag = EntityTag.strong(for: image.bytes)
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag: tag) {
            response = Response(status: .notModified)
        }
        response.headers.replaceOrAdd(name: "ETag", value: tag)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=86400")
        return response
    }
}
