import Testing

@testable import HabitsAPI

@Suite struct UpstreamConfigurationTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", "127.0.0.1", 8080, "", "127.0.0.1:8080"),
        ("http://localhost", "localhost", 80, "", "localhost"),
        ("http://api.example:9000/habits/", "api.example", 9000, "/habits", "api.example:9000"),
        ("HTTP://[::1]:8080/", "::1", 8080, "", "[::1]:8080"),
    ])
    func parsesAnHTTPURL(text: String, host: String, port: Int, basePath: String, hostHeader: String) throws {
        let configuration = try UpstreamConfiguration(url: text)
        #expect(configuration.host == host)
        #expect(configuration.port == port)
        #expect(configuration.basePath == basePath)
        #expect(configuration.hostHeader == hostHeader)
        #expect(configuration.connectTimeout == .seconds(1))
        #expect(configuration.totalTimeout == .seconds(3))
    }

    @Test(arguments: ["https://example.com", "example.com:80", "http://", "http://h:8080/?x=1", "ftp://h/", ""])
    func refusesWhatItCannotSpeak(text: String) {
        #expect(throws: HabitsAPIError.self) { try UpstreamConfiguration(url: text) }
    }
}
