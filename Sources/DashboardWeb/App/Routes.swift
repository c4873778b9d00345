import DashboardCore
import HTTPCore
import HTTPServer

/// One route of the dashboard: method, pattern, who reads its answers, and its handler for a given app (built once,
/// with the router).
struct Route: Sendable {
    /// Who reads a route's answers, and so its errors: people (an HTML page in the layout) or machines (`live.js`'s
    /// polls, the browser's image and style loads, scripts and balancers: plain text).
    enum Audience: Sendable {
        /// Pages and forms.
        case people
        /// Fragments, images, styles, static files, health and metrics.
        case machines
    }

    /// GET (and so HEAD) or POST.
    let method: HTTPMethod
    /// The pattern (`/habits/:name`, `/static/*`).
    let pattern: String
    /// Who reads the answers.
    let audience: Audience
    /// The handler, over an app's state, renderer and settings.
    let responder: @Sendable (DashboardApp) -> any HTTPResponder

    /// The part of the pattern that names the route's kind: its first segment (`/fragments/`, `/images/`,
    /// `/healthz`). Every path of a machine-facing kind is answered in plain text when it fails, a 404 included
    /// (`/fragments/nothing-here`): the kind is what a machine asked for.
    var kind: String {
        let rest = pattern.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else { return pattern }
        return String(pattern[...slash])
    }

    /// A GET route answered by the handler method `handler` gives for the app's context.
    static func get(
        _ pattern: String, _ audience: Audience,
        _ handler: @escaping @Sendable (WebContext) -> @Sendable (Request, RequestContext) async throws -> Response
    ) -> Route {
        Route(method: .get, pattern: pattern, audience: audience) { app in ClosureResponder(handler(app.web)) }
    }

    /// A POST route (a form, people-facing) answered by the handler method `handler` gives for the app's context.
    static func post(
        _ pattern: String,
        _ handler: @escaping @Sendable (WebContext) -> @Sendable (Request, RequestContext) async throws -> Response
    ) -> Route {
        Route(method: .post, pattern: pattern, audience: .people) { app in ClosureResponder(handler(app.web)) }
    }

    /// A GET route whose handler gives its answer itself, now, later or parked (a live fragment, issue 46 point 2).
    static func answering(
        _ pattern: String, _ audience: Audience,
        _ handler: @escaping @Sendable (WebContext) -> @Sendable (Request, RequestContext) throws -> Answer
    ) -> Route {
        Route(method: .get, pattern: pattern, audience: audience) { app in
            ClosureResponder(answering: handler(app.web))
        }
    }

    /// A GET page answered at once when warm (`PageResponder`, issue 21) by the handler `handler` makes.
    static func page<Handler: PageHandler>(
        _ pattern: String, _ handler: @escaping @Sendable (WebContext) -> Handler
    ) -> Route {
        Route(method: .get, pattern: pattern, audience: .people) { app in PageResponder(handler: handler(app.web)) }
    }
}

/// The route table (issue 45 point 2): every route the dashboard answers (SPEC §5 and §6), and the metrics
/// listener's one, with who reads each; `ErrorAnswers` takes from it which paths get plain-text errors.
extension Route {
    /// The public listener's routes.
    static let all: [Route] = [
        // Pages. Home gives its own answer, now when warm (it has an introduction without data).
        Route(method: .get, pattern: LivePage.home.route, audience: .people) { app in
            ClosureResponder(answering: HomeHandler(web: app.web).answer)
        },
        .page(DashboardPage.habits.route, HabitsHandler.init),
        .page(LivePage.habit.route, ItemPageHandler<HabitDetailPage>.init),
        .page(DashboardPage.people.route, PeopleHandler.init),
        .page(LivePage.person.route, ItemPageHandler<PersonDetailPage>.init),
        .page(DashboardPage.log.route, LogPageHandler.init),
        // Live regions, polled by `live.js`.
        .answering(LivePage.home.fragmentRoute, .machines) { HomeHandler(web: $0).fragment },
        .answering(LivePage.habit.fragmentRoute, .machines) { ItemPageHandler<HabitDetailPage>(web: $0).fragment },
        .answering(LivePage.person.fragmentRoute, .machines) { ItemPageHandler<PersonDetailPage>(web: $0).fragment },
        .answering(LivePage.newsRoute, .machines) { NewsHandler(web: $0).fragment },
        // Forms.
        .post(HabitDetailPage.choice.route.pattern) { ChoiceHandler<HabitDetailPage>(web: $0).post },
        .post(PersonDetailPage.choice.route.pattern) { ChoiceHandler<PersonDetailPage>(web: $0).post },
        .post(DashboardPage.log.route) { LogHabitHandler(web: $0).post },
        // What pages load, and what balancers ask.
        .get(Links.imageRoute.pattern, .machines) { ImageHandler(web: $0).get },
        .get("/colors.css", .machines) { ColorsHandler(web: $0).get },
        // Always 200 while the process serves: pages work without the database, so a balancer must keep sending.
        Route(method: .get, pattern: "/healthz", audience: .machines) { app in
            ClosureResponder { [health = app.health, state = app.state] _, _ in
                .text("ok\n" + (health.map { $0() + "\n" } ?? "") + state.healthLines)
            }
        },
        // `Public/`; an app without static files (handler tests) answers these as any unknown path.
        Route(method: .get, pattern: "/static/*", audience: .machines) { app in app.staticFiles ?? notFound },
    ]

    /// The metrics listener's routes (`--metrics-port`, issue 48): `/metrics` and nothing else.
    static let metrics: [Route] = [
        Route(method: .get, pattern: "/metrics", audience: .machines) { app in
            ClosureResponder(MetricsHandler(web: app.web, metrics: app.metrics).get)
        }
    ]

    /// The kinds of path (`kind`) whose failures are answered in plain text, on either listener.
    static let machineKinds: Set<String> = Set((all + metrics).filter { $0.audience == .machines }.map(\.kind))

    /// The public listener's answer to a path no route takes.
    static let notFound = ClosureResponder { _, _ in throw HTTPError(.notFound, "There is no page at this address.") }
}

extension DashboardApp {
    /// The route table as a router over this app; anything else is a 404.
    public var router: Router {
        var router = Router()
        for route in Route.all { router.add(route.method, route.pattern, route.responder(self)) }
        router.fallback(Route.notFound)
        return router
    }

    /// The metrics listener's whole app: `Route.metrics`, only to the names of `policy` (the listener's own address
    /// and loopback), so a DNS-rebinding page cannot read it either.
    public func metricsResponder(policy: SitePolicy) -> some HTTPResponder {
        var router = Router()
        for route in Route.metrics { router.add(route.method, route.pattern, route.responder(self)) }
        router.fallback(ClosureResponder { _, _ in throw HTTPError(.notFound) })
        return SiteGuard(policy: policy, next: SecurityHeaders(router))
    }
}
