import Foundation
import Testing

@testable import HabitsAPI

@Suite struct APIRequestTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var request: any APIRequest
        var method: String
        var target: String
        var endpoint: Endpoint
        var testDescription: String { target }
    }

    static let cases: [Case] = [
        Case(request: UsersRequest(), method: "GET", target: "/users", endpoint: .users),
        Case(request: HabitsRequest(), method: "GET", target: "/habits", endpoint: .habits),
        Case(request: CategoriesRequest(), method: "GET", target: "/categories", endpoint: .categories),
        Case(request: UserStatisticsRequest(), method: "GET", target: "/userStats", endpoint: .userStats),
        Case(
            request: UserStatisticsRequest(userIDs: ["user0", "user 1"]), method: "GET",
            target: "/userStats?ids=user0,user%201", endpoint: .userStats),
        Case(request: HabitStatisticsRequest(), method: "GET", target: "/habitStats", endpoint: .habitStats),
        Case(
            request: HabitStatisticsRequest(habitNames: ["Deep breathing", "Tai chi/Qigong"]), method: "GET",
            target: "/habitStats?names=Deep%20breathing,Tai%20chi%2FQigong", endpoint: .habitStats),
        Case(request: CombinedStatisticsRequest(), method: "GET", target: "/combinedStats", endpoint: .combinedStats),
        Case(
            request: UserLeadingStatisticsRequest(userID: "Zoë & co/1"), method: "GET",
            target: "/userLeadingStats/Zo%C3%AB%20%26%20co%2F1", endpoint: .userLeadingStats),
        Case(request: ImageRequest(userID: "user0"), method: "GET", target: "/images/user0", endpoint: .image),
        Case(
            request: LogHabitRequest(LoggedHabit(userID: "activeUser", habitName: "Yoga", timestamp: Date())),
            method: "POST", target: "/loggedHabit", endpoint: .logHabit),
    ]

    @Test(arguments: cases)
    func describesTheCall(_ example: Case) {
        #expect(example.request.method.rawValue == example.method)
        #expect(example.request.target == example.target)
        #expect(example.request.endpoint == example.endpoint)
    }

    @Test func logBodyIsTheAgreedJSON() throws {
        let event = LoggedHabit(
            userID: "activeUser", habitName: "Yoga", timestamp: Date(timeIntervalSince1970: 1_795_774_530))
        let body = try #require(LogHabitRequest(event).postBody)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])
        #expect(object == ["userID": "activeUser", "habitName": "Yoga", "timestamp": "2026-11-27T10:15:30Z"])
    }

    @Test(arguments: [
        ("Push-ups/Sit-ups", "Push-ups%2FSit-ups"), ("a b", "a%20b"), ("a&b=c?d#e", "a%26b%3Dc%3Fd%23e"),
        ("Crêpes", "Cr%C3%AApes"), ("100%", "100%25"), ("~._-", "~._-"), ("..", ".."), ("", ""),
    ])
    func encodesPathSegments(text: String, encoded: String) {
        #expect(PathEncoding.encodePathSegment(text) == encoded)
    }

    @Test func reportsWhereTheJSONWentWrong() {
        let response = HTTPClientResponse(status: .ok, body: Array(#"{"user0": {"id": "user0"}}"#.utf8))
        #expect(throws: HabitsAPIError.decoding(type: "Dictionary<String, User>", detail: "user0: missing key 'name'"))
        {
            try UsersRequest().decode(response)
        }
    }

    /// Regression: an upstream answering a profile image with HTML (or SVG, which can carry script) was cached as the
    /// image for five minutes; it must be a failed call, so the cache keeps the last good image and retries soon.
    @Test(arguments: ["text/html", "application/json", "image/svg+xml", "text/plain; charset=utf-8"])
    func imageAnswerThatIsNotARasterImageIsADecodingError(contentType: String) {
        let response = HTTPClientResponse(status: .ok, headers: ["Content-Type": contentType], body: Array("<x>".utf8))
        #expect(throws: HabitsAPIError.self) { try ImageRequest(userID: "user0").decode(response) }
    }

    @Test(arguments: ["image/png", "IMAGE/JPEG", "image/webp; q=1"])
    func rasterImageAnswersAreAccepted(contentType: String) throws {
        let response = HTTPClientResponse(status: .ok, headers: ["Content-Type": contentType], body: [0x89, 0x50])
        let image = try ImageRequest(userID: "user0").decode(response)
        #expect(image.bytes == [0x89, 0x50])
        #expect(image.contentType == contentType)
    }

    @Test func imageWithoutAContentTypeIsTakenAsPNG() throws {
        let image = try ImageRequest(userID: "user0").decode(HTTPClientResponse(status: .ok, body: [0x89]))
        #expect(image.contentType == "image/png")
    }
}
