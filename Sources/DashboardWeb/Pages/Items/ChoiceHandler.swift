import DashboardCore
import Foundation
import HTTPServer

/// An item page's choice form: a habit's Favorite, a person's Follow (`ItemChoice`).
struct ChoiceHandler<Page: ItemPage>: Sendable {
    /// The state, settings and origin check the form goes through.
    let web: WebContext

    /// `POST /habits/<name>/favorite` with `favorite=true|false`, or `POST /people/<id>/follow` with
    /// `follow=true|false`; both with `return=<local path>`.
    ///
    /// The field says the wanted state rather than "toggle", so a double submit or two stale tabs cannot undo
    /// each other.
    func post(_ request: Request, _ context: RequestContext) async throws -> Response {
        let (kind, choice) = (Page.kind, Page.choice)
        try web.originCheck.verify(request, peer: context.peer)
        let item = try RequestParameters.route(choice.route, request, context)
        let form = try request.formParameters()
        let wanted = try RequestParameters.wantedState(form, field: choice.field)
        if wanted {
            // Choosing needs an item that exists; unchoosing does not, so one gone upstream can still be let go.
            guard choice.exists(try await web.state.view(activity: context.activity).snapshot.inputs, item) else {
                throw HTTPError(.notFound, kind.unknown(item))
            }
        }
        var response = Response.redirect(to: LocalRedirect.path(form["return"]) ?? kind.route.path(item))
        try await web.settings.update(for: request, context: context, response: &response) { settings in
            if wanted != choice.isChosen(settings, item) { choice.toggle(&settings, item) }
        }
        web.state.settingsChanged()
        context.logger.info("\(choice.field) changed", [choice.logKey: item, choice.field: "\(wanted)"])
        return response
    }
}

/// What a browser may choose on an item's page, and where its form posts.
struct ItemChoice: Sendable {
    /// The route the form posts to, whose `:key` names the item.
    var route: ItemRoute
    /// The form's field saying the wanted state, and the word the log uses.
    var field: String
    /// The log's key for the item.
    var logKey: String
    /// Whether the upstream knows the item.
    var exists: @Sendable (SnapshotInputs, String) -> Bool
    /// Whether the settings have the item chosen.
    var isChosen: @Sendable (Settings, String) -> Bool
    /// Chooses the item, or lets it go.
    var toggle: @Sendable (inout Settings, String) -> Void
}
