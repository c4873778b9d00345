import Testing

/// Waits until `condition` holds, checking after each yield and then every millisecond (so a waiting test does not
/// spin a core that the code it waits for needs); a hang guard of 120 s of wall time fails the test (the whole suite
/// on a loaded 2-core machine can hold a task back for half a minute at its start). Never a timed assertion: the
/// guard is only there so a broken build fails instead of hanging.
public func eventually(
    _ what: String = "condition", sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @Sendable () -> Bool
) async {
    let start = ContinuousClock.now
    var checks = 0
    while !condition() {
        if ContinuousClock.now - start > .seconds(120) {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
        checks += 1
        if checks < 50 {
            await Task.yield()
        } else {
            do {
                try await Task.sleep(for: .milliseconds(1))
            } catch {
                return  // cancelled: the test is over
            }
        }
    }
}
