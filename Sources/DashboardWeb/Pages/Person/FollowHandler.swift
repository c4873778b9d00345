import DashboardCore
import Foundation
import HTTPServer

extension DashboardApp {
    /// `POST /people/<id>/follow` with `follow=true|false` and `return=<local path>`.
    func follow(_ request: Request, _ context: RequestContext) async throws -> Response {
        try originCheck.verify(request, peer: context.peer)
        let id = try Self.routeParameter(Links.personFollowRoute, request, context)
        let form = try request.formParameters()
        let wanted = try Self.wantedState(form, field: "follow")
        if wanted {
            guard try await state.view(activity: context.activity).snapshot.inputs.users[id] != nil else {
                throw HTTPError(.notFound, "There is nobody with the id “\(id)”.")
            }
        }
        var response = Response.redirect(to: LocalRedirect.path(form["return"]) ?? Links.person(id))
        try await settings.update(for: request, context: context, response: &response) { settings in
            if wanted != settings.isFollowed(id) { settings.toggleFollow(id) }
        }
        state.settingsChanged()
        context.logger.info("follow changed", ["user.id": id, "follow": "\(wanted)"])
        return response
    }
}
