import Testing

@testable import CommandLineKit

@Suite struct ArgumentScannerTests {
    let options: [String: ArgumentScanner.Kind] = ["--port": .value, "--quiet": .flag]

    func scanAll(_ arguments: [String]) throws(CommandLineError) -> [String] {
        var scanner = ArgumentScanner(arguments, options: options)
        var seen: [String] = []
        while let (name, value) = try scanner.next() {
            seen.append(value.map { "\(name)=\($0)" } ?? name)
        }
        return seen
    }

    @Test func readsSeparateAndInlineValuesAndFlags() throws {
        #expect(try scanAll(["--port", "80", "--quiet", "--port=81"]) == ["--port=80", "--quiet", "--port=81"])
    }

    @Test func valueMayStartWithDashes() throws {
        #expect(try scanAll(["--port", "--quiet"]) == ["--port=--quiet"])
    }

    @Test func unknownOptionIsAnError() {
        #expect(throws: CommandLineError("unknown option '--prot' (see --help)")) { try scanAll(["--prot", "80"]) }
    }

    @Test func positionalArgumentIsAnError() {
        #expect(throws: CommandLineError("unexpected argument '80' (see --help)")) { try scanAll(["80"]) }
        #expect(throws: CommandLineError.self) { try scanAll(["-p"]) }
    }

    /// `swift run habits-dashboard -- --help` passes its separator through (issue 10): options after a leading
    /// `--` are still options.
    @Test func aLeadingDoubleDashIsTheLaunchersSeparator() throws {
        #expect(try scanAll(["--", "--port", "80", "--quiet"]) == ["--port=80", "--quiet"])
        #expect(try scanAll(["--"]).isEmpty)
    }

    /// POSIX: `--` ends the options; what follows are operands, and none are taken.
    @Test func aLaterDoubleDashEndsTheOptions() throws {
        #expect(try scanAll(["--quiet", "--"]) == ["--quiet"])
        #expect(throws: CommandLineError("unexpected argument '--port' after '--': no operands are taken (see --help)"))
        {
            try scanAll(["--quiet", "--", "--port", "80"])
        }
    }

    @Test func missingValueIsAnError() {
        #expect(throws: CommandLineError("--port needs a value")) { try scanAll(["--port"]) }
    }

    @Test func flagWithValueIsAnError() {
        #expect(throws: CommandLineError("--quiet takes no value")) { try scanAll(["--quiet=yes"]) }
    }
}
