// libFuzzer harness for what decodes request text into values: query strings and urlencoded form bodies
// (HTTPServer/Forms), the Cookie header and Set-Cookie encoding (HTTPServer/Cookies), and the browser id a cookie
// carries (DashboardCore/Settings/BrowserID.swift). Built only with HABITS_FUZZ=1 (see docs/FUZZING.md).
//
// Every input is tried as each of them (they are cheap), so one corpus serves all. Invariants:
// - query/form: parsing never crashes; the pairs re-encode to text that parses back to the same pairs; a form body
//   parses like the same query when it is UTF-8 and is refused with 400 when it is not;
// - Cookie header: names are non-empty, trimmed and hold no `;` or `=`, values hold no `;`;
// - Set-Cookie: whatever the name, value and path, the field holds no control byte and no attribute beyond ours,
//   and a browser sending it back gives the encoded value, which percent-decodes to the original;
// - BrowserID: accepted exactly when the text is the canonical base64url form of 16 bytes; every id we mint is
//   accepted; a settings cookie is accepted only when it is exactly what the signer makes for its id
//   (DashboardCore/Settings/CookieSigner.swift), so no forged or altered tag names a browser.

import FuzzSupport
import HTTPCore

@testable import DashboardCore
@testable import DashboardWeb
@testable import HTTPServer

// MARK: - Query strings and forms

/// WHATWG application/x-www-form-urlencoded parsing, written on bytes as the standard is: split on `&`, then at the
/// first `=`, then `+` is a space and each `%XX` a byte; invalid UTF-8 becomes U+FFFD.
func referencePairs(_ text: String) -> [(name: String, value: String)] {
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
                let high = PercentEncoding.hexValue(bytes[index + 1]),
                let low = PercentEncoding.hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
    let bytes = Array(text.utf8)
    return bytes.split(separator: UInt8(ascii: "&")).map { piece in
        guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { return (decode(piece), "") }
        return (decode(piece[..<equals]), decode(piece[(equals + 1)...]))
    }
}

/// A query string: parsed like the byte-level reference, re-encoded to itself, and alike through a request target.
func checkQuery(_ text: String) {
    let parameters = QueryParameters(parsing: text[...])
    require(parameters == QueryParameters(referencePairs(text)), "query parsed unlike WHATWG: \(text.debugDescription)")
    let encoded = parameters.encoded
    require(
        encoded.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || "%+=&".utf8.contains($0) },
        "encoded parameters hold a byte that needs escaping")
    require(QueryParameters(parsing: encoded[...]) == parameters, "parameters do not survive re-encoding")
    let target = Request(method: .get, target: "/p?" + text)
    require(target.query == parameters, "the query of a target parses differently")
}

/// A form body: parsed like the same query when UTF-8, refused with 400 when not.
func checkForm(_ body: [UInt8]) {
    let request = Request(
        method: .post, target: "/f", headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
        body: body)
    do {
        let parameters = try request.formParameters()
        guard let text = String(validating: body, as: UTF8.self) else { fatalError("a non-UTF-8 form was accepted") }
        require(parameters == QueryParameters(parsing: text[...]), "a form parses unlike the same query")
    } catch let error as HTTPError {
        require(error.status == .badRequest, "a form body was refused with \(error.status)")
        require(String(validating: body, as: UTF8.self) == nil, "a UTF-8 form body was refused")
    } catch {
        fatalError("unexpected error \(error)")
    }
}

// MARK: - Cookies

/// `Cookie` fields: cookies like the byte-level reference, and the settings id is the cookie's id.
func checkCookieHeader(_ fields: [String]) {
    let request = Request(method: .get, target: "/", headers: HTTPHeaders(fields.map { ("Cookie", $0) }))
    let cookies = request.cookies
    for (name, value) in cookies {
        require(!name.isEmpty && !name.utf8.contains(UInt8(ascii: ";")), "bad cookie name \(name.debugDescription)")
        require(!name.utf8.contains(UInt8(ascii: "=")), "a cookie name holds =")
        require(!value.utf8.contains(UInt8(ascii: ";")), "a cookie value holds ;")
    }
    require(cookies == referenceCookies(fields), "cookies parsed unlike RFC 6265: \(fields.debugDescription)")
    if let value = request.cookies[BrowserID.cookieName], let id = cookieSigner.browserID(fromCookie: value) {
        require(cookieSigner.cookieValue(for: id) == value, "a cookie the signer did not make was accepted")
    }
}

/// A fixed key, so a crash found by the fuzzer replays.
let cookieSigner = CookieSigner(key: Array(repeating: 7, count: CookieSigner.keyLength))

/// RFC 6265 §5.4 on bytes: pairs split on `;`, name and value split at the first `=`, SP/HTAB trimmed, one pair of
/// surrounding quotes dropped, the first of a repeated name wins.
func referenceCookies(_ fields: [String]) -> [String: String] {
    func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        return bytes
    }
    var result: [String: String] = [:]
    for field in fields {
        for pair in Array(field.utf8).split(separator: UInt8(ascii: ";")) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: trim(pair[..<equals]), as: UTF8.self)
            var value = trim(pair[(equals + 1)...])
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            guard !name.isEmpty, result[name] == nil else { continue }
            result[name] = String(decoding: value, as: UTF8.self)
        }
    }
    return result
}

/// A `Set-Cookie` built from arbitrary parts: no injected byte or attribute, and it decodes back.
func checkSetCookie(name: String, value: String, path: String) {
    let cookie = Cookie(name: name, value: value, maxAge: 60, path: path)
    let field = cookie.headerValue
    require(field.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "Set-Cookie holds a control or non-ASCII byte")
    require(field.utf8.filter { $0 == UInt8(ascii: ";") }.count == 4, "Set-Cookie has extra attributes: \(field)")
    let encodedName = Cookie.encode(name, allowed: Cookie.isTokenByte)
    let encodedValue = Cookie.encode(value, allowed: Cookie.isCookieOctet)
    require(PercentEncoding.decode(encodedName) == name, "the cookie name does not decode back")
    require(PercentEncoding.decode(encodedValue) == value, "the cookie value does not decode back")
    guard !encodedName.isEmpty else { return }
    let echoed = Request(method: .get, target: "/", headers: ["Cookie": encodedName + "=" + encodedValue])
    require(echoed.cookies[encodedName] == encodedValue, "a cookie sent back reads differently")
}

// MARK: - Browser ids

/// base64url, in the order of its values.
let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

/// The 16 bytes a 22-character base64url text stands for (low bits of the last character dropped), or nil.
func decodeID(_ text: String) -> [UInt8]? {
    let characters = Array(text.utf8)
    guard characters.count == 22 else { return nil }
    var bits: [UInt8] = []
    for character in characters {
        guard let value = alphabet.firstIndex(of: character) else { return nil }
        for shift in stride(from: 5, through: 0, by: -1) { bits.append(UInt8(value >> shift) & 1) }
    }
    return (0..<16).map { byte in bits[byte * 8..<byte * 8 + 8].reduce(0) { $0 << 1 | $1 } }
}

/// `BrowserID` accepts exactly the canonical texts, and every minted id.
func checkBrowserID(_ text: String, bytes: ArraySlice<UInt8>) {
    let canonical = decodeID(text).map { BrowserID(bytes: $0).rawValue == text } ?? false
    require((BrowserID(text) != nil) == canonical, "BrowserID(\(text.debugDescription)) disagrees with base64url")
    if bytes.count >= 16 {
        let minted = BrowserID(bytes: Array(bytes.prefix(16)))
        require(BrowserID(minted.rawValue) == minted, "a minted id is refused")
        require(decodeID(minted.rawValue) == Array(bytes.prefix(16)), "a minted id decodes to other bytes")
        let cookie = cookieSigner.cookieValue(for: minted)
        require(cookieSigner.browserID(fromCookie: cookie) == minted, "a signed cookie for a minted id is refused")
    }
}

// MARK: - Entry

/// One input, tried as each kind of text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: input, as: UTF8.self)
    checkQuery(text)
    checkForm(input)
    // NUL separates header fields (the request parser never lets a NUL through, so it is free as a separator).
    let parts = input.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    checkCookieHeader(parts)
    checkCookieHeader(["\(BrowserID.cookieName)=\(text)"])
    checkSetCookie(name: parts[0], value: parts.count > 1 ? parts[1] : text, path: parts.count > 2 ? parts[2] : "/")
    checkBrowserID(text, bytes: input[...])
    return 0
}

/// The executable's entry point: hands over to libFuzzer.
@_cdecl("FormsFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzOneInput)
}
