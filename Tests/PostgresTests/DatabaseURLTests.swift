import Postgres
import Testing

@Suite struct DatabaseURLTests {
    private func pairs(_ text: String) throws -> [String] {
        try DatabaseURL(text).parameters.map { "\($0.key)=\($0.value)" }
    }

    @Test func readsUserPasswordHostPortDatabaseAndSSLMode() throws {
        #expect(
            try pairs("postgres://habits:s%40cret@db.example:6432/dashboard?sslmode=verify-full") == [
                "host=db.example", "port=6432", "user=habits", "password=s@cret", "dbname=dashboard",
                "sslmode=verify-full",
            ])
    }

    @Test func acceptsThePostgresqlSchemeAndNoUserOrPort() throws {
        #expect(try pairs("postgresql://localhost/habits") == ["host=localhost", "dbname=habits"])
    }

    @Test func decodesAPercentEncodedSocketDirectoryAsTheHost() throws {
        let url = try DatabaseURL("postgres://postgres@%2Ftmp%2Fhabits-pg-1/postgres")
        #expect(url.value("host") == "/tmp/habits-pg-1")
        #expect(url.value("user") == "postgres")
        #expect(url.value("port") == nil)
    }

    @Test func readsABracketedIPv6Address() throws {
        #expect(try pairs("postgres://u@[::1]:5433/d") == ["host=::1", "port=5433", "user=u", "dbname=d"])
    }

    @Test func redactsThePassword() throws {
        let url = try DatabaseURL("postgres://habits:hunter2@db:5432/dash")
        #expect(url.redacted == "habits@db:5432/dash")
        #expect(!url.redacted.contains("hunter2"))
    }

    @Test(arguments: [
        ("mysql://u@h/d", DatabaseURL.ParseError.scheme),
        ("postgres://u@h", .missingDatabase),
        ("postgres://u@h/", .missingDatabase),
        ("postgres://u@/d", .missingHost),
        ("postgres://u@h:0/d", .badPort("0")),
        ("postgres://u@h:99999/d", .badPort("99999")),
        ("postgres://u@h:x/d", .badPort("x")),
        ("postgres://u@h/d%2", .badEscape),
        ("postgres://u@h/d%00", .badEscape),
        ("postgres://u@h/d?sslmod=require", .unknownQueryKey("sslmod")),
    ])
    func refusesMalformedURLs(text: String, error: DatabaseURL.ParseError) {
        #expect(throws: error) { try DatabaseURL(text) }
    }

    @Test func namesWhatIsWrongWithoutThePassword() {
        #expect(
            DatabaseURL.ParseError.unknownQueryKey("sslmod").description.contains("sslmod"))
        #expect(DatabaseURL.ParseError.badPort("70000").description.contains("70000"))
    }
}
