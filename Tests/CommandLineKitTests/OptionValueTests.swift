import Testing

@testable import CommandLineKit

@Suite struct OptionValueTests {
    @Test func portsRangeFromZeroTo65535() throws {
        #expect(try OptionValue.port("0", option: "--port") == 0)
        #expect(try OptionValue.port("65535", option: "--port") == 65535)
        for bad in ["65536", "-1", "http", "", "80.5", " 80"] {
            #expect(throws: CommandLineError.self, "\(bad)") { try OptionValue.port(bad, option: "--port") }
        }
    }

    @Test func numbersMustBeFiniteAndInRange() throws {
        #expect(try OptionValue.number("0.1", option: "--speed", in: 0.1...10) == 0.1)
        #expect(try OptionValue.number("10", option: "--speed", in: 0.1...10) == 10)
        #expect(throws: CommandLineError("--speed: expected a number from 0.1 to 10, got '11'")) {
            try OptionValue.number("11", option: "--speed", in: 0.1...10)
        }
        for bad in ["0.09", "nan", "inf", "fast", ""] {
            #expect(throws: CommandLineError.self, "\(bad)") {
                try OptionValue.number(bad, option: "--speed", in: 0.1...10)
            }
        }
    }

    @Test func integersMustBeWholeAndInRange() throws {
        #expect(try OptionValue.integer("1", option: "--n", in: 1...10) == 1)
        #expect(try OptionValue.integer("10", option: "--n", in: 1...10) == 10)
        #expect(throws: CommandLineError("--n: expected a whole number from 1 to 10, got '11'")) {
            try OptionValue.integer("11", option: "--n", in: 1...10)
        }
        for bad in ["0", "-3", "2.5", "many", "", " 4"] {
            #expect(throws: CommandLineError.self, "\(bad)") { try OptionValue.integer(bad, option: "--n", in: 1...10) }
        }
    }

    @Test func seedsAreNonNegativeIntegers() throws {
        #expect(try OptionValue.seed("42", option: "--seed") == 42)
        #expect(throws: CommandLineError.self) { try OptionValue.seed("-1", option: "--seed") }
        #expect(throws: CommandLineError.self) { try OptionValue.seed("x", option: "--seed") }
    }

    @Test func urlsMustBeHTTPWithAHost() throws {
        #expect(try OptionValue.httpURL("http://127.0.0.1:8080", option: "--upstream").port == 8080)
        #expect(try OptionValue.httpURL("https://api.example", option: "--upstream").host == "api.example")
        for bad in ["ftp://x", "localhost:8080", "http://", "/path", ""] {
            #expect(throws: CommandLineError.self, "\(bad)") { try OptionValue.httpURL(bad, option: "--upstream") }
        }
    }
}
