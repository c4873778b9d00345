import Foundation
import Testing

@testable import TemplateKit

@Suite struct TemplateLibraryTests {
    private static let layout = #"""
        <!doctype html>
        <title>{{ title }}</title>
        <main>
        {{{ content }}}
        </main>
        """#

    @Test func rendersAPageInsideALayout() throws {
        let library = try TemplateLibrary(
            sources: ["layout": Self.layout, "home": "<h1>{{ title }}</h1>"], strict: true)
        let output = try library.render("home", ["title": "Home & away"], layout: "layout")
        let expected = #"""
            <!doctype html>
            <title>Home &amp; away</title>
            <main>
            <h1>Home &amp; away</h1>
            </main>
            """#
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test func layoutContentShadowsAPageFieldNamedContent() throws {
        let library = try TemplateLibrary(
            sources: ["layout": "[{{{ content }}}]", "page": "{{ content }}"], strict: true)
        let output = try library.render("page", ["content": "<x>"], layout: "layout")
        #expect(String(decoding: output, as: UTF8.self) == "[&lt;x&gt;]")
    }

    @Test func layoutContentIsVisibleInSectionsAndPartialsUnlessShadowed() throws {
        let library = try TemplateLibrary(
            sources: [
                "layout": "{{# on }}<{{{ content }}}>{{/ on }}{{# items }}({{{ content }}}){{/ items }}{{> p }}",
                "p": "{{# content }}[{{ content }}]{{/ content }}",
                "page": "<b>",
            ],
            strict: true)
        let value: TemplateValue = ["on": true, "items": [["content": .trustedHTML("item")]], "content": "page's own"]
        let output = try library.render("page", value, layout: "layout")
        #expect(String(decoding: output, as: UTF8.self) == "<<b>>(item)[&lt;b&gt;]")
    }

    @Test func unknownTemplateIsAnError() throws {
        let library = try TemplateLibrary(sources: ["home": "x"], strict: true)
        #expect(throws: TemplateError(file: "nope.html", line: 0, column: 0, reason: .unknownTemplate("nope"))) {
            try library.render("nope", [:])
        }
        #expect(throws: TemplateError(file: "nope.html", line: 0, column: 0, reason: .unknownTemplate("nope"))) {
            try library.render("home", [:], layout: "nope")
        }
    }

    @Test func rendersConcurrentlyFromOneLibrary() async throws {
        let library = try TemplateLibrary(sources: ["row": "{{# xs }}{{ . }},{{/ xs }}"], strict: true)
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for task in 0..<8 {
                group.addTask {
                    String(decoding: try library.render("row", ["xs": [.int(task), .int(task)]]), as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(outputs == Set((0..<8).map { "\($0),\($0)," }))
    }

    // MARK: - Directory loading

    /// A fresh temporary directory with the given files (relative path → contents), removed by the caller.
    private func makeDirectory(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("templatekit-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return root
    }

    @Test func loadsEveryHTMLFileUnderTheDirectoryByRelativeName() throws {
        let root = try makeDirectory([
            "layout.html": "<body>{{{ content }}}</body>", "home.html": "{{> partials/nav }}<h1>Home</h1>",
            "partials/nav.html": "<nav>{{ tab }}</nav>", "partials/deep/x.html": "x", "notes.txt": "{{ broken",
            ".hidden.html": "{{ broken",
        ])
        defer { try? FileManager.default.removeItem(at: root) }  // cleanup only; a leftover temp dir is harmless
        let library = try TemplateLibrary(directory: root, strict: true)
        #expect(library.templateNames == ["home", "layout", "partials/deep/x", "partials/nav"])
        let output = try library.render("home", ["tab": "Home"], layout: "layout")
        #expect(String(decoding: output, as: UTF8.self) == "<body><nav>Home</nav><h1>Home</h1></body>")
    }

    @Test func brokenFileInDirectoryFailsWithFileLineAndColumn() throws {
        let root = try makeDirectory([
            "home.html": "<h1>Home</h1>\n\n<ul>\n{{# favorites }}\n<li>{{ name }}</li>\n</ul>",
            "partials/nav.html": "<nav></nav>",
        ])
        defer { try? FileManager.default.removeItem(at: root) }  // cleanup only
        #expect(throws: TemplateError(file: "home.html", line: 4, column: 1, reason: .unclosedSection("favorites"))) {
            try TemplateLibrary(directory: root, strict: true)
        }
    }

    @Test func brokenPartialInSubdirectoryNamesItsRelativePath() throws {
        let root = try makeDirectory(["partials/nav.html": "<nav>\n  {{ }}</nav>"])
        defer { try? FileManager.default.removeItem(at: root) }  // cleanup only
        do {
            _ = try TemplateLibrary(directory: root, strict: true)
            Issue.record("expected a load error")
        } catch {
            #expect(error.description == "partials/nav.html:2:3: empty tag name")
        }
    }

    @Test func invalidUTF8IsALoadError() throws {
        let root = try makeDirectory([:])
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }  // cleanup only
        try Data([0x3C, 0xFF, 0xFE, 0x3E]).write(to: root.appendingPathComponent("bad.html"))
        #expect(throws: TemplateError(file: "bad.html", line: 0, column: 0, reason: .invalidUTF8)) {
            try TemplateLibrary(directory: root, strict: true)
        }
    }

    @Test func missingDirectoryIsALoadError() {
        let root = URL(fileURLWithPath: "/nonexistent-templatekit-\(UUID().uuidString)")
        do {
            _ = try TemplateLibrary(directory: root, strict: true)
            Issue.record("expected a load error")
        } catch {
            #expect(error.file == root.path)
            guard case .unreadable = error.reason else {
                Issue.record("unexpected reason \(error.reason)")
                return
            }
        }
    }
}
