import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct PathPrefixTests {
    let prefix = PathPrefix("/habits")

    @Test func putsThePrefixOnRootRelativeURLsOnly() {
        #expect(prefix.url("/") == "/habits/")
        #expect(prefix.url("/habits/Yoga?x=1") == "/habits/habits/Yoga?x=1")
        #expect(prefix.url("//evil.example/") == "//evil.example/")
        #expect(prefix.url("https://example.org/") == "https://example.org/")
        #expect(prefix.url("#main") == "#main")
        #expect(PathPrefix.none.url("/log") == "/log")
    }

    @Test func rewritesTheURLAttributesOfHTMLOnce() {
        let html = #"""
            <a href="/">H</a><a class="tab" href="/people">P</a><form method="post" action="/log"><img src="/images/u1">
            <div data-live-src="/fragments/home" data-live-etag="&quot;x&quot;"><a href="#main"></a><a href="//cdn/x"></a>
            <input name="return" value="/people"><link href="/static/app.css"><a data-href="/no">
            """#
        let expected = #"""
            <a href="/habits/">H</a><a class="tab" href="/habits/people">P</a><form method="post" action="/habits/log"><img src="/habits/images/u1">
            <div data-live-src="/habits/fragments/home" data-live-etag="&quot;x&quot;"><a href="#main"></a><a href="//cdn/x"></a>
            <input name="return" value="/people"><link href="/habits/static/app.css"><a data-href="/no">
            """#
        #expect(String(decoding: prefix.html(Array(html.utf8)), as: UTF8.self) == expected)
        #expect(PathPrefix.none.html(Array(html.utf8)) == Array(html.utf8))
    }

    /// A name from the upstream cannot pass for an attribute: its `"` is escaped, so `href="/` never appears in it.
    @Test func escapedTextThatMentionsAnAttributeIsLeftAlone() {
        let html = #"<p>x href=&quot;/evil</p><p title="a href=&quot;/b">"#
        #expect(prefix.html(Array(html.utf8)) == Array(html.utf8))
    }
}
