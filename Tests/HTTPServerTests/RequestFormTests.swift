import HTTPCore
import Testing

@testable import HTTPServer

@Suite struct RequestFormTests {
    func post(_ body: String, contentType: String?) -> Request {
        var headers: HTTPHeaders = ["Host": "x"]
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return Request(method: .post, target: "/f", headers: headers, body: Array(body.utf8))
    }

    @Test func decodesAnURLEncodedBody() throws {
        let form = try post("habit=Push-ups%2FSit-ups&note=two+words", contentType: "application/x-www-form-urlencoded")
            .formParameters()
        #expect(form["habit"] == "Push-ups/Sit-ups")
        #expect(form["note"] == "two words")
    }

    @Test func acceptsCharsetParameterAndAnyCase() throws {
        let form = try post("a=1", contentType: "Application/X-WWW-Form-URLEncoded; charset=UTF-8").formParameters()
        #expect(form["a"] == "1")
    }

    @Test func otherMediaTypesAre415() {
        #expect(throws: HTTPError(.unsupportedMediaType, "Expected an application/x-www-form-urlencoded body.")) {
            try post("{}", contentType: "application/json").formParameters()
        }
        #expect(throws: HTTPError.self) { try post("a=1", contentType: nil).formParameters() }
    }

    @Test func invalidUTF8BodyIs400() {
        var request = post("", contentType: "application/x-www-form-urlencoded")
        request.body = [0x61, 0x3D, 0xFF]
        #expect(throws: HTTPError(.badRequest, "The form body is not valid UTF-8.")) { try request.formParameters() }
    }
}
