import Foundation
import HabitsSimulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A simulator served on 127.0.0.1:0 for one test, with a small URLSession client.
struct LiveSimulator {
    /// One answer.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    let embedded: EmbeddedSimulator
    let session: URLSession

    /// The simulation behind the server.
    var simulator: Simulator { embedded.simulator }

    /// Runs `body` against a fresh stopped simulator with `seed`, then shuts it down even if `body` throws.
    static func with<T>(
        seed: UInt64 = 7, dataDirectory: URL? = nil, _ body: (LiveSimulator) async throws -> T
    ) async throws -> T {
        let embedded = try startEmbeddedSimulator(
            port: 0, seed: seed, dataDirectory: dataDirectory, runSimulation: false, logger: .silent)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let live = LiveSimulator(embedded: embedded, session: URLSession(configuration: configuration))
        do {
            let result = try await body(live)
            await embedded.shutdown()
            return result
        } catch {
            await embedded.shutdown()
            throw error
        }
    }

    /// Sends a request; `path` is sent as written (already percent-encoded where needed).
    func fetch(
        _ path: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8]? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(embedded.port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, body: [UInt8](data))
    }

    /// GETs `path` and decodes the JSON body as `T`, failing on a non-200 status.
    func get<T: Decodable>(_ type: T.Type, _ path: String) async throws -> T {
        let reply = try await fetch(path)
        guard reply.status == 200 else { throw Failure(description: "GET \(path) answered \(reply.status)") }
        return try JSONDecoder().decode(type, from: Data(reply.body))
    }

    /// GETs `path` and parses the JSON without a model, for shape checks.
    func raw(_ path: String) async throws -> Any {
        try await JSONSerialization.jsonObject(with: Data(fetch(path).body))
    }

    /// POSTs a JSON body to `/loggedHabit`.
    func log(_ json: String, contentType: String = "application/json") async throws -> Reply {
        try await fetch("/loggedHabit", method: "POST", headers: ["Content-Type": contentType], body: Array(json.utf8))
    }

    /// Percent-encodes one path segment or query value (everything but unreserved characters).
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))!
    }

    /// A failure with a message.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
