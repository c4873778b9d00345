import Testing

@testable import HTTPServer

@Suite struct PercentEncodingTests {
    @Test func encodesEverythingButUnreservedInAPathSegment() {
        #expect(PercentEncoding.encodePathSegment("Push-ups/Sit-ups") == "Push-ups%2FSit-ups")
        #expect(PercentEncoding.encodePathSegment("a b?c#d%e") == "a%20b%3Fc%23d%25e")
        #expect(PercentEncoding.encodePathSegment("Café") == "Caf%C3%A9")
        #expect(PercentEncoding.encodePathSegment("safe-._~") == "safe-._~")
    }

    @Test func decodeIsTheInverseOfEncode() {
        for text in ["Push-ups/Sit-ups", "100%", "Café ☕️", "a+b"] {
            #expect(PercentEncoding.decode(PercentEncoding.encodePathSegment(text)) == text)
        }
    }

    @Test func decodeKeepsPlusInPaths() {
        #expect(PercentEncoding.decode("a+b") == "a+b")
    }

    @Test func decodeRefusesMalformedEscapesAndInvalidUTF8() {
        #expect(PercentEncoding.decode("%") == nil)
        #expect(PercentEncoding.decode("%4") == nil)
        #expect(PercentEncoding.decode("%zz") == nil)
        #expect(PercentEncoding.decode("%C3") == nil)
    }

    @Test func queryComponentsUsePlusForSpaceAndKeepStrayPercents() {
        #expect(PercentEncoding.decodeQueryComponent("two+words%21") == "two words!")
        #expect(PercentEncoding.decodeQueryComponent("100%") == "100%")
        #expect(PercentEncoding.encodeQueryComponent("two words&more") == "two+words%26more")
    }
}
