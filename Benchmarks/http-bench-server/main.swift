import CommandLineKit
import Foundation
import HTTPServer
import Logging

// The benchmark target: our real stack (Server + Router + Connection) serving a ~20 KB HTML page from
// memory. Built only with HABITS_BENCH=1 (see Package.swift); driven by Benchmarks/http.sh.
//   http-bench-server --port N          serve the page on 127.0.0.1:N (access log on, to stderr)
//   http-bench-server --no-access-log   the same with the access log off (to measure what it costs)
//   http-bench-server --dump-page FILE  write the exact page bytes to FILE (nginx serves the same bytes)
var arguments = ArraySlice(CommandLine.arguments.dropFirst())
var port = 0
var dumpPath: String?
var accessLog = true
while let flag = arguments.popFirst() {
    switch flag {
    case "--port": port = Int(arguments.popFirst() ?? "") ?? 0
    case "--dump-page": dumpPath = arguments.popFirst()
    case "--no-access-log": accessLog = false
    default:
        FileHandle.standardError.write(Data("http-bench-server: unknown option \(flag)\n".utf8))
        exit(2)
    }
}

var html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Habits</title></head><body>\n"
var row = 0
while html.utf8.count < 20_400 {
    row += 1
    html += "<tr><td class=\"habit\">Habit number \(row)</td><td class=\"leader\">User \(row % 37)</td>"
    html += "<td class=\"count\">\(row * 7 % 101)</td></tr>\n"
}
html += "</body></html>\n"
let page = Array(html.utf8)

if let dumpPath {
    guard FileManager.default.createFile(atPath: dumpPath, contents: Data(page)) else {
        FileHandle.standardError.write(Data("http-bench-server: cannot write \(dumpPath)\n".utf8))
        exit(1)
    }
    exit(0)
}

var router = Router()
// Answered now on the event loop, as a warm dashboard page is (`Answer.now`, issue 45 point 3).
router.get("/", answering: { _, _ in .now(.html(page)) })
// Info level: the access log is on, as in production (http.sh sends stderr to /dev/null).
let logger = Logger(label: "http-bench-server", level: accessLog ? .info : .notice)
let server = Server(configuration: ServerConfiguration(port: port), responder: router, logger: logger)
try server.start()
CommandLineTool.announce("http-bench-server: http://127.0.0.1:\(server.port)/ (\(page.count) bytes)")
_ = await ShutdownSignal.wait()
await server.shutdown()
exit(0)
