// libFuzzer harness for TemplateKit: the escaping every untrusted value goes through, and the lexer, parser,
// linker and renderer on arbitrary template sources. Built only with HABITS_FUZZ=1 (see docs/FUZZING.md).
//
// Input layout: byte 0 picks the mode; the rest is the payload.
// - Even byte 0: the payload is a value. Escaped (as raw bytes and as a String), the output holds no `<`, `>`, `"`,
//   `'`, and every `&` starts one of the five entities we write; decoding those entities gives back the input
//   exactly. Rendered through `{{v}}`, in text and in an attribute, it is that same escaped text; `{{{v}}}` refuses
//   it as untrusted and prints it only as `.trustedHTML`.
// - Odd byte 0: the payload is template sources (main, then `p1` and `p2` after NUL bytes). Lexing, parsing and
//   linking may fail with a TemplateError, never crash. A library that loads is rendered, strict and not, alone and
//   inside a layout, with a context whose text values are wrapped in private-use markers (U+E000) that the sources
//   cannot contain: every marked run in the output must be exactly the escaped value.

import FuzzSupport

@testable import TemplateKit

// MARK: - Escaping

/// The entities HTMLEscaping writes and the byte each stands for.
let entities: [([UInt8], UInt8)] = [
    (Array("&amp;".utf8), UInt8(ascii: "&")), (Array("&lt;".utf8), UInt8(ascii: "<")),
    (Array("&gt;".utf8), UInt8(ascii: ">")), (Array("&quot;".utf8), UInt8(ascii: "\"")),
    (Array("&#39;".utf8), UInt8(ascii: "'")),
]

/// Decodes the five entities; fails the run on a raw special byte or an `&` that starts no entity.
func unescape(_ escaped: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var index = 0
    while index < escaped.count {
        let byte = escaped[index]
        require(byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">"), "raw < or > at \(index)")
        require(byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'"), "raw quote at \(index)")
        if byte == UInt8(ascii: "&") {
            guard let (entity, original) = entities.first(where: { escaped[index...].starts(with: $0.0) }) else {
                fatalError("& at \(index) starts no entity")
            }
            output.append(original)
            index += entity.count
        } else {
            output.append(byte)
            index += 1
        }
    }
    return output
}

/// Templates that print one value in text, in an attribute and raw.
let valueLibrary = try! TemplateLibrary(
    sources: ["text": "{{v}}", "attribute": "<a title=\"{{ v }}\">", "raw": "{{{v}}}"], strict: true)

/// A value through `HTMLEscaping` and through `{{v}}` / `{{{v}}}`.
func checkEscaping(_ payload: ArraySlice<UInt8>) {
    var escapedBytes: [UInt8] = []
    Array(payload).withUnsafeBufferPointer { HTMLEscaping.append(escaping: $0, to: &escapedBytes) }
    require(unescape(escapedBytes) == Array(payload), "escaping bytes does not decode back")

    let string = String(decoding: payload, as: UTF8.self)
    let escaped = HTMLEscaping.escape(string)
    require(unescape(Array(escaped.utf8)) == Array(string.utf8), "escaping a String does not decode back")

    let value = TemplateValue.object(["v": .text(string)])
    require(try! valueLibrary.render("text", value) == Array(escaped.utf8), "{{v}} is not the escaped text")
    let attribute = try! valueLibrary.render("attribute", value)
    require(attribute == Array("<a title=\"\(escaped)\">".utf8), "an attribute value escaped differently")
    do {
        _ = try valueLibrary.render("raw", value)
        fatalError("{{{v}}} printed untrusted text")
    } catch {
        require(error.reason == .rawValueNotTrusted("v", kind: "text"), "{{{v}}} failed with \(error)")
    }
    let trusted = try! valueLibrary.render("raw", .object(["v": .trustedHTML(string)]))
    require(trusted == Array(string.utf8), "{{{v}}} changed trusted HTML")
}

// MARK: - Template sources

/// Marks the start and end of every untrusted text in the context; the harness removes it from the sources.
let marker = "\u{E000}"
/// The lead byte of the marker's UTF-8 form, which the sources may not contain.
let markerLead: UInt8 = 0xEE
/// The untrusted text every text value of the context holds.
let hostile = "<script>\"x\" 'y' & z</script>\u{301}"

/// A context with every kind of value under short names the dictionary knows.
let context: TemplateValue = [
    "a": .text(marker + hostile + marker),
    "b": [["a": .text(marker + hostile + marker), "n": 1], ["n": 2, "t": true]],
    "c": true, "f": false, "n": 0, "m": 7, "z": nil, "e": [],
    "h": .trustedHTML("<em>trusted</em>"),
    "o": ["a": .text(marker + hostile + marker), "o": ["t": true]],
]

/// Arbitrary sources through the lexer, parser and linker, then the renderer when they load.
func checkTemplates(_ payload: ArraySlice<UInt8>) {
    var sources = payload.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map {
        $0.map { $0 == markerLead ? UInt8(ascii: "e") : $0 }
    }
    while sources.count < 3 { sources.append([]) }
    let library: TemplateLibrary
    let laxLibrary: TemplateLibrary
    do {
        let named = ["main": sources[0], "p1": sources[1], "p2": sources[2]]
        library = try TemplateLibrary(sources: named, strict: true, onMissing: nil)
        laxLibrary = try TemplateLibrary(sources: named, strict: false, onMissing: { _ in })
    } catch {
        return  // a broken template is an error at startup, which is all that is asked of it
    }
    // Sections over lists and partials multiply the work: each needs a `#` or `>`, so few of them keep one run short.
    let multipliers = payload.lazy.filter { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ">") }.count
    guard multipliers <= 10 else { return }
    for lib in [library, laxLibrary] {
        if let output = try? lib.render("main", context) { checkMarkedRuns(output) }
        if let output = try? lib.render("main", context, layout: "p1") { checkMarkedRuns(output) }
    }
}

/// Every run between two markers is the hostile text escaped once, or more than once when a layout printed the
/// page with `{{ content }}` (escaping trusted HTML again is safe, only less pretty).
func checkMarkedRuns(_ output: [UInt8]) {
    let markerBytes = Array(marker.utf8)
    let hostileBytes = Array(hostile.utf8)
    var index = 0
    while index < output.count {
        guard output[index...].starts(with: markerBytes) else {
            index += 1
            continue
        }
        let start = index + markerBytes.count
        guard let end = firstMarker(in: output, from: start) else { fatalError("a marker at \(index) is unpaired") }
        var text = Array(output[start..<end])
        repeat {
            text = unescape(text)  // fails the run on any raw `<`, `>`, quote or stray `&`
        } while text != hostileBytes && text.count > hostileBytes.count
        require(text == hostileBytes, "an untrusted value at \(index) printed as something else")
        index = end + markerBytes.count
    }
}

/// Where the next marker starts, at or after `start`.
func firstMarker(in output: [UInt8], from start: Int) -> Int? {
    let markerBytes = Array(marker.utf8)
    var index = start
    while index < output.count {
        if output[index...].starts(with: markerBytes) { return index }
        index += 1
    }
    return nil
}

/// One input: the mode from byte 0, the payload from the rest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if input[0] & 1 == 0 {
        checkEscaping(input[1...])
    } else {
        checkTemplates(input[1...])
    }
    return 0
}

/// The executable's entry point: hands over to libFuzzer.
@_cdecl("TemplateFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzOneInput)
}
