import DashboardCore
import Foundation
import HTTPServer

/// A habit's Favorite form.
struct FavoriteHandler: Sendable {
    /// The state, settings and origin check the form goes through.
    let web: WebContext

    /// `POST /habits/<name>/favorite` with `favorite=true|false` and `return=<local path>`.
    ///
    /// The field says the wanted state rather than "toggle", so a double submit or two stale tabs cannot undo
    /// each other.
    func post(_ request: Request, _ context: RequestContext) async throws -> Response {
        try web.originCheck.verify(request, peer: context.peer)
        let name = try RequestParameters.route(Links.habitFavoriteRoute, request, context)
        let form = try request.formParameters()
        let wanted = try RequestParameters.wantedState(form, field: "favorite")
        if wanted {
            // Adding needs a habit that exists; removing does not, so a habit gone upstream can still be removed.
            guard try await web.state.view(activity: context.activity).snapshot.inputs.habits[name] != nil else {
                throw HTTPError(.notFound, "There is no habit called “\(name)”.")
            }
        }
        var response = Response.redirect(to: LocalRedirect.path(form["return"]) ?? Links.habit(name))
        try await web.settings.update(for: request, context: context, response: &response) { settings in
            if wanted != settings.isFavorite(name) { settings.toggleFavorite(name) }
        }
        web.state.settingsChanged()
        context.logger.info("favorite changed", ["habit.name": name, "favorite": "\(wanted)"])
        return response
    }
}
