import CLinux
import Foundation
import Glibc

/// A PostgreSQL server of a test's own: `initdb` in a temporary directory, no TCP (`listen_addresses=''`), its Unix
/// socket in that directory, started with `pg_ctl start -w`. Trust authentication, but only its owner (and root)
/// may open the socket or enter the directory (mode 0700, issue 48 point 4: no other local user reaches it). As root (as in the image) the
/// cluster runs as the `postgres` user (`runuser`), since PostgreSQL refuses to run as root.
///
/// Faults for the tests: `stop()` (`pg_ctl stop -m immediate`, a crash as far as clients can tell), `start()` again,
/// and `pause()`/`resume()`, which SIGSTOP/SIGCONT the postmaster and every backend: a server that keeps its sockets
/// open and never answers.
///
/// When the binaries are missing, `available` is false and suites skip with `missingReason`; under `CI=true` they
/// run anyway and fail in `make()`, so CI never passes without PostgreSQL.
public final class ThrowawayPostgres: Sendable {
    /// The temporary directory holding the data directory, the socket and the log.
    public let directory: String
    /// `postgres://…@<socket dir>/postgres` for the cluster's superuser.
    public let url: String
    private let binaries: String
    private let user: String?

    /// Whether the suites that need a server should run: the binaries are there, or this is CI (where a missing
    /// binary must fail, not skip).
    public static var available: Bool { binDirectory != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The skip message.
    public static let missingReason =
        "PostgreSQL binaries (initdb, pg_ctl) not found: install postgresql (scripts/test.sh does) or set POSTGRES_BIN"

    /// Where initdb and pg_ctl are: `POSTGRES_BIN`, `pg_config --bindir`'s neighbours, Debian's versioned directory.
    public static let binDirectory: String? = {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["POSTGRES_BIN"] { candidates.append(explicit) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += ["/usr/local/bin", "/usr/bin"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    private init(directory: String, binaries: String, user: String?) {
        self.directory = directory
        self.binaries = binaries
        self.user = user
        let socket = directory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? directory
        url = "postgres://\(user ?? NSUserName())@\(socket)/postgres"
    }

    /// Creates and starts a fresh server (about a second).
    public static func make() async throws -> ThrowawayPostgres {
        guard let binaries = binDirectory else { throw Failure(message: missingReason) }
        let directory = "/tmp/habits-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let user: String? = geteuid() == 0 ? "postgres" : nil
        if user != nil {
            try await run("/bin/chown", ["postgres", directory])
        }
        let server = ThrowawayPostgres(directory: directory, binaries: binaries, user: user)
        try await server.asOwner(
            "\(binaries)/initdb", ["-D", "\(directory)/data", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        let settings =
            "listen_addresses = ''\nunix_socket_directories = '\(directory)'\nunix_socket_permissions = 0700\nfsync = off\n"
        let configuration = "\(directory)/data/postgresql.conf"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: configuration))
        handle.seekToEndOfFile()
        handle.write(Data(settings.utf8))
        try handle.close()
        try await server.start()
        Registry.shared.add(server)
        return server
    }

    /// The server most tests share (faults get their own): started once per test process, on first use.
    public static func shared() async throws -> ThrowawayPostgres { try await sharedServer.value }

    private static let sharedServer = Task { try await make() }

    /// A new, empty database on this server (`createdb`); returns its URL. Tests on the shared server each take one.
    public func makeDatabase() async throws -> String {
        let name = "test_\(UUID().uuidString.prefix(8).lowercased())"
        try await asOwner("\(binaries)/createdb", ["-h", directory, name])
        return String(url.dropLast("postgres".count)) + name
    }

    /// Starts the server (again) and waits until it accepts connections.
    public func start() async throws {
        try await asOwner("\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "start"])
    }

    /// Stops the server at once, as a crash would (`-m immediate`).
    public func stop() async throws {
        try await asOwner("\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
    }

    /// SIGSTOPs the postmaster and every backend: connections stay open, nothing answers.
    public func pause() throws { try signalAll(SIGSTOP) }

    /// SIGCONTs what `pause` stopped.
    public func resume() throws { try signalAll(SIGCONT) }

    /// Stops the server and deletes its directory.
    public func destroy() async {
        _ = try? signalAll(SIGCONT)
        _ = try? await stop()
        try? FileManager.default.removeItem(atPath: directory)
        Registry.shared.remove(self)
    }

    /// The postmaster and its children (every backend and auxiliary process).
    public func processes() throws -> [pid_t] {
        let pidFile = try String(contentsOfFile: "\(directory)/data/postmaster.pid", encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
            throw Failure(message: "no postmaster.pid in \(directory)")
        }
        var found = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Field 4 (after "pid (comm) state") is the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == postmaster { found.append(pid) }
        }
        return found
    }

    private func signalAll(_ signal: Int32) throws {
        for pid in try processes() { kill(pid, signal) }
    }

    private func asOwner(_ executable: String, _ arguments: [String]) async throws {
        if let user {
            try await Self.run("/usr/sbin/runuser", ["-u", user, "--", executable] + arguments)
        } else {
            try await Self.run(executable, arguments)
        }
    }

    /// Runs a command to its end on a thread of its own (`posix_spawn`, `waitpid`), with only standard input, output
    /// and error open; throws with its output when it fails. The output goes to a temporary file, not a pipe:
    /// `pg_ctl start` leaves the postmaster holding its output, so a pipe would never reach its end (and Foundation's
    /// `Process` did not reap `runuser` here).
    private static func run(_ executable: String, _ arguments: [String]) async throws {
        let outputPath = "/tmp/habits-pg-command-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try await onOwnThread { () throws -> Int32 in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            // Nothing else of the test process: `pg_ctl start` leaves a postmaster that lives on, and a pipe or socket
            // it inherited from another test's child (opened meanwhile, not close-on-exec) would never reach its end
            // there. A test reading a dashboard's output to its end, and Foundation's wait for that child's exit,
            // hung until CI's deadline that way (the postmaster held the write end of the dashboard's stdout pipe).
            posix_spawn_file_actions_addclosefrom_np(&actions, 3)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard spawned == 0 else { throw Failure(message: "cannot run \(executable) (errno \(spawned))") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return status
        }
        guard status == 0 else {
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure(message: "\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
    }

    /// A set-up step that failed, with the command's output.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let message: String
        public var description: String { message }
    }
}
