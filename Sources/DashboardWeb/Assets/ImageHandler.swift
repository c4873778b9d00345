import DashboardCore
import HTTPCore
import HTTPServer
import HabitsAPI

extension DashboardApp {
    /// Content types a profile image may have. Anything else from the upstream (say `text/html`) is refused: served
    /// from our origin it could run script in the dashboard's name. (The client already refuses them; this keeps the
    /// rule visible where the bytes are served, whatever the upstream.)
    static let imageTypes: Set<String> = DashboardState.imageTypes

    /// `GET /images/<id>`: the upstream's profile image, cacheable by the browser for a day (issue 14: a repeat visit
    /// of People takes its avatars from the cache), then revalidated with its content ETag.
    func image(_ request: Request, _ context: RequestContext) async throws -> Response {
        let id = try Self.routeParameter(Links.imageRoute, request, context)
        // Only ids the data knows are proxied: any other would cost an upstream call and a shared-cache entry. The
        // active user is not in `/users` but has an image.
        let snapshot = try await state.view(activity: context.activity).snapshot
        let known = snapshot.inputs.users[id] != nil
        guard known || id == User.activeUserID else {
            throw HTTPError(.notFound, "There is no such profile image.")
        }
        // Marked, so that at the connection cap the server may give this wait up rather than refuse a newcomer.
        let image = try await context.activity.waitingOnUpstream(since: clock.now) {
            try await state.image(id: id, version: snapshot.referenceVersion)
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

    /// `GET /colors.css[?v=<version>]`: a class per colour in the reference data (see `ColorStyle+CSS.swift`),
    /// made once per version in the render cache and gzipped like pages. Pages link it with their data's version
    /// (issue 14): that URL's bytes never change, so browsers keep it for a year; any other URL (the plain one, an
    /// old version) gets the current sheet and revalidates. With no data at all it still answers, with the fixed
    /// colours, so pages keep their favourites yellow.
    func colors(_ request: Request, _ context: RequestContext) async throws -> Response {
        var snapshot: Snapshot?
        do {
            snapshot = try await state.view(activity: context.activity).snapshot
        } catch {
            context.logger.notice("colours without upstream data", ["error": String(describing: error)])
        }
        let inputs = snapshot?.inputs
        let version = snapshot?.referenceVersion
        let key = RenderKey(route: "colors.css", content: version ?? 0, personal: .none, stale: nil)
        let entry = renderCache.entry(for: key) {
            Array(
                ColorStylesheet.css(
                    users: Array(inputs?.users.values ?? [:].values), categories: inputs?.categories ?? []
                ).utf8)
        }
        var response =
            hasCurrentCopy(request, of: entry)
            ? notModified(entry, request) : ok(entry, request, contentType: "text/css; charset=utf-8")
        let pinned = version != nil && request.query["v"] == version.map { String($0, radix: 16) }
        // Revalidate any other URL: a new user's colour must appear as soon as the user does.
        response.headers.replaceOrAdd(
            name: "Cache-Control", value: pinned ? StaticFiles.immutableCacheControl : "no-cache")
        return response
    }

    /// The app's own caches for `/metrics`: renderings, cards, parked polls, verified browser and visit cookies.
    var cacheUses: [CacheUse] {
        [
            CacheUse(name: "render", bytes: renderCache.bytes, budget: renderCache.budget),
            CacheUse(name: "cards", bytes: renderer.cards.bytes, budget: renderer.cards.budget),
            CacheUse(
                name: "parked_polls", bytes: parkedPolls.counts.held * ParkedPolls.bytesPerPoll,
                budget: parkedPolls.capacity * ParkedPolls.bytesPerPoll),
            CacheUse(
                name: "verified_cookies", bytes: settings.verifiedCookies.bytes,
                budget: settings.verifiedCookies.budgetBytes),
            CacheUse(name: "verified_visits", bytes: verifiedVisits.bytes, budget: verifiedVisits.budgetBytes),
        ]
    }

    /// `GET /metrics`: plain-text counters (upstream calls, cache hits), when the app was given a source.
    func metricsPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        guard let metrics else { throw HTTPError(.notFound) }
        var response = Response.text(await metrics(cacheUses))
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}
