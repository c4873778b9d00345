import HTTPServer

extension SimulatorApp {
    /// `/control/simulator/{start,stop,reset,status,speed/<x.xx>}`. Actions answer GET and POST (POST is the
    /// proper method; GET keeps `curl` and a browser's address bar working, as with the original app's buttons).
    func addControlRoutes(to router: inout Router) {
        let actions: [(String, @Sendable (SimulatorApp) -> Void)] = [
            ("start", { $0.simulator.start() }),
            ("stop", { $0.simulator.stop() }),
            ("reset", { $0.simulator.reset() }),
        ]
        for (name, action) in actions {
            let handler: @Sendable (Request, RequestContext) async throws -> Response = { _, _ in
                action(self)
                return self.runningStatus()
            }
            router.get("/control/simulator/\(name)", handler)
            router.post("/control/simulator/\(name)", handler)
        }
        router.get("/control/simulator/status") { _, _ in self.runningStatus() }
        let speed: @Sendable (Request, RequestContext) async throws -> Response = { _, context in
            try self.setSpeed(context)
        }
        router.get("/control/simulator/speed/:value", speed)
        router.post("/control/simulator/speed/:value", speed)
    }

    /// `running` or `stopped`, exactly, so scripts can compare it.
    func runningStatus() -> Response {
        .text(simulator.isRunning ? "running" : "stopped")
    }

    /// `speed/<x.xx>`: a multiplier in 0.1…10, else 400 and no change. Answers the new speed.
    func setSpeed(_ context: RequestContext) throws -> Response {
        let text = try context.parameters.require("value")
        guard let speed = Double(text), speed.isFinite else {
            throw HTTPError(.badRequest, "Speed \"\(text)\" is not a number.")
        }
        do {
            try simulator.setSpeed(speed)
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        return .text(Self.format(speed: speed))
    }
}
