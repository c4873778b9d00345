extension Logger {
    /// The keys every JSON line starts with, in this order; metadata of the same name is left out rather than
    /// written twice.
    static let jsonFixedKeys: Set<String> = ["time", "level", "label", "message"]

    /// One JSON object (RFC 8259) on one line: `time`, `level`, `label`, `message`, then the metadata by sorted key.
    package static func jsonLine(
        time: String, level: Level, label: String, message: String, _ metadata: [String: String]
    ) -> String {
        var line = "{\"time\":" + jsonString(time) + ",\"level\":\"\(level)\",\"label\":" + jsonString(label)
        line += ",\"message\":" + jsonString(message)
        for key in metadata.keys.sorted() where !jsonFixedKeys.contains(key) {
            line += "," + jsonString(key) + ":" + jsonString(metadata[key]!)
        }
        return line + "}"
    }

    /// `value` as a JSON string. `"` and `\` are escaped, and every control character with it (a raw LF would end
    /// the line, so one request could forge the next log event); so are DEL, C1 controls, U+2028/U+2029 (line breaks
    /// to JavaScript) and the bidi controls (`isUnsafe`), as `\uXXXX`, so a terminal showing the log is not steered
    /// either. Everything else is written as UTF-8. A log value is cut after `maxValueBytes`; `limit: .max` keeps it
    /// whole (`JSONFragment`'s data).
    package static func jsonString(_ value: String, limit: Int = maxValueBytes) -> String {
        quoted(value, limit: limit) { scalar in
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
