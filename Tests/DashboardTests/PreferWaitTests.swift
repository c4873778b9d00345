import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct PreferWaitTests {
    func seconds(_ fields: [String]) -> Int? {
        PreferWait.seconds(in: Request(method: .get, target: "/", headers: HTTPHeaders(fields.map { ("Prefer", $0) })))
    }

    @Test(arguments: [
        (["wait=25"], Optional(25)), (["respond-async, wait=10"], 10), (["WAIT = \"7\" ; x=y"], 7),
        (["handling=lenient", "wait=3"], 3), (["wait=600"], 25), (["wait=1, wait=9"], 1),
    ])
    func readsTheWaitPreference(fields: [String], expected: Int?) {
        #expect(seconds(fields) == expected)
    }

    @Test(arguments: [[], ["wait"], ["wait=0"], ["wait=-1"], ["wait=2.5"], ["wait=99999999999"], ["respond-async"]])
    func anythingElseMeansAnswerAtOnce(fields: [String]) {
        #expect(seconds(fields) == nil)
    }
}
