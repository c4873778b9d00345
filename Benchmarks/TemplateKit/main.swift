// A rough TemplateKit throughput figure (not a test: no assertions, no timing in CI).
// Build and run from the repository root:
//   swiftc -O -parse-as-library Sources/TemplateKit/*.swift Benchmarks/TemplateKit/main.swift -o /tmp/tk-bench
//   /tmp/tk-bench
import Foundation

/// Renders a habits-list-like page (a layout, 10 categories × 10 habits, escaping on every name) in a loop.
@main enum TemplateKitBenchmark {
    static func main() throws {
        let sources = [
            "layout": """
            <!doctype html><html><head><title>{{ title }}</title></head><body>
            {{> partials/nav }}
            <main>{{{ content }}}</main></body></html>
            """,
            "partials/nav": #"<nav><a href="/" {{# home }}aria-current="page"{{/ home }}>Home</a></nav>"#,
            "habits": """
            {{# categories }}
            <section><h2 class="{{ colour }}">{{ name }}</h2><ul>
            {{# habits }}
            <li><a href="/habits/{{ slug }}">{{ name }}</a> <span>{{ count }}</span>{{^ favorite }}+{{/ favorite }}</li>
            {{/ habits }}
            </ul></section>
            {{/ categories }}
            """,
        ]
        let library = try TemplateLibrary(sources: sources, strict: true)
        let categories: [TemplateValue] = (0..<10).map { category in
            let habits: [TemplateValue] = (0..<10).map { habit in
                [
                    "name": .text("Habit & <\(category)-\(habit)> Müsli"), "slug": .text("habit-\(habit)"),
                    "count": .int(habit * 7), "favorite": .bool(habit % 3 == 0),
                ]
            }
            return ["name": .text("Category \(category)"), "colour": "c\(category)", "habits": .list(habits)]
        }
        let value: TemplateValue = ["title": "Habits", "home": false, "categories": .list(categories)]
        let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20_000 : 20_000
        var bytes = 0
        let start = Date()
        for _ in 0..<iterations {
            bytes += try library.render("habits", value, layout: "layout").count
        }
        let seconds = Date().timeIntervalSince(start)
        print(
            "\(iterations) renders, \(bytes / iterations) bytes each: "
                + "\(Int(Double(iterations) / seconds)) pages/s, \(Int(seconds / Double(iterations) * 1e6)) µs/page")
    }
}
