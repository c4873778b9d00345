import DashboardCore
import Foundation

/// Where `Templates/` and `Public/` are found (issue 20): `--resources DIR` when given; else `share/` beside the
/// executable's `bin/` (a release unpacked anywhere, `/proc/self/exe` naming the binary); else the working directory
/// when it holds `Templates/` (`swift run` from the repository); else the checkout the binary was built from.
enum ResourceRoot {
    /// The first candidate holding `Templates/`, by the order above; the working directory when none does (so the
    /// error names it). `exists` is the file system's, passed in so the choice is tested without one.
    static func find(
        explicit: String?, executable: String?, workingDirectory: String, checkout: String,
        exists: (String) -> Bool
    ) -> URL {
        if let explicit {
            return URL(fileURLWithPath: explicit, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
                .standardizedFileURL
        }
        var candidates: [URL] = []
        if let executable {
            let bin = URL(fileURLWithPath: executable).deletingLastPathComponent()
            candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share"))
        }
        candidates.append(URL(fileURLWithPath: workingDirectory))
        candidates.append(URL(fileURLWithPath: checkout))
        let found = candidates.first { exists($0.appendingPathComponent("Templates").path) }
        return (found ?? URL(fileURLWithPath: workingDirectory)).standardizedFileURL
    }

    /// The root for this process.
    static func current(explicit: String?, filePath: String = #filePath) -> URL {
        // #filePath is <root>/Sources/DashboardWeb/App/ResourceRoot.swift.
        let checkout = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return find(
            explicit: explicit,
            executable: try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            workingDirectory: FileManager.default.currentDirectoryPath, checkout: checkout.path,
            exists: { FileManager.default.fileExists(atPath: $0) })
    }
}
