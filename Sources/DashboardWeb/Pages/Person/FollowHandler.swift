import DashboardCore
import Foundation
import HTTPServer

/// A person's Follow form.
struct FollowHandler: Sendable {
    /// The state, settings and origin check the form goes through.
    let web: WebContext

    /// `POST /people/<id>/follow` with `follow=true|false` and `return=<local path>`.
    func post(_ request: Request, _ context: RequestContext) async throws -> Response {
        try web.originCheck.verify(request, peer: context.peer)
        let id = try RequestParameters.route(Links.personFollowRoute, request, context)
        let form = try request.formParameters()
        let wanted = try RequestParameters.wantedState(form, field: "follow")
        if wanted {
            guard try await web.state.view(activity: context.activity).snapshot.inputs.users[id] != nil else {
                throw HTTPError(.notFound, "There is nobody with the id “\(id)”.")
            }
        }
        var response = Response.redirect(to: LocalRedirect.path(form["return"]) ?? Links.person(id))
        try await web.settings.update(for: request, context: context, response: &response) { settings in
            if wanted != settings.isFollowed(id) { settings.toggleFollow(id) }
        }
        web.state.settingsChanged()
        context.logger.info("follow changed", ["user.id": id, "follow": "\(wanted)"])
        return response
    }
}
