import CLibPQ
import Glibc
import Synchronization

/// The libpq functions a session calls, found with `dlopen`/`dlsym` the first time a database is used.
///
/// Why not linked: libpq brings GnuTLS, Kerberos, LDAP and SASL with it, and a linked library is mapped and relocated
/// at start in every process, about 3.5 MB of RSS in a dashboard that, without `--database`, never opens a session
/// (issue 21: at most 40 MB after start with 1 000 idle connections). Opened on demand, they cost only the processes
/// that use them. Each property's type is the one libpq's header declares for its function (`Sources/CLibPQ`).
struct LibPQ: Sendable {
    let connectStartParams: PQconnectStartParams_f
    let connectPoll: PQconnectPoll_f
    let status: PQstatus_f
    let setNonblocking: PQsetnonblocking_f
    let socket: PQsocket_f
    let errorMessage: PQerrorMessage_f
    let finish: PQfinish_f

    let sendQueryParams: PQsendQueryParams_f
    let flush: PQflush_f
    let consumeInput: PQconsumeInput_f
    let isBusy: PQisBusy_f
    let getResult: PQgetResult_f
    let notifies: PQnotifies_f
    let freemem: PQfreemem_f

    let resultStatus: PQresultStatus_f
    let resultErrorField: PQresultErrorField_f
    let resultErrorMessage: PQresultErrorMessage_f
    let fieldCount: PQnfields_f
    let tupleCount: PQntuples_f
    let fieldName: PQfname_f
    let getIsNull: PQgetisnull_f
    let getValue: PQgetvalue_f
    let commandTuples: PQcmdTuples_f
    let clear: PQclear_f

    /// libpq for this process: its soname, as Debian's libpq5 installs it (the ABI's major version since 8.0).
    static let loader = Loader(path: "libpq.so.5")

    /// Opens the library at `path` (a soname is looked for where the dynamic linker looks) and finds every function,
    /// or throws `.connect` saying why.
    init(opening path: String) throws(PostgresError) {
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw .connect("libpq could not be loaded (\(reason)); install PostgreSQL's client library, libpq5")
        }
        func find<Function>(_ symbol: String) throws(PostgresError) -> Function {
            guard let address = dlsym(library, symbol) else {
                dlclose(library)  // a libpq without one of them is not used at all
                throw .connect("libpq has no \(symbol)")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        // Once every function is found, the library is never closed: they stay valid for the process's life.
        connectStartParams = try find("PQconnectStartParams")
        connectPoll = try find("PQconnectPoll")
        status = try find("PQstatus")
        setNonblocking = try find("PQsetnonblocking")
        socket = try find("PQsocket")
        errorMessage = try find("PQerrorMessage")
        finish = try find("PQfinish")
        sendQueryParams = try find("PQsendQueryParams")
        flush = try find("PQflush")
        consumeInput = try find("PQconsumeInput")
        isBusy = try find("PQisBusy")
        getResult = try find("PQgetResult")
        notifies = try find("PQnotifies")
        freemem = try find("PQfreemem")
        resultStatus = try find("PQresultStatus")
        resultErrorField = try find("PQresultErrorField")
        resultErrorMessage = try find("PQresultErrorMessage")
        fieldCount = try find("PQnfields")
        tupleCount = try find("PQntuples")
        fieldName = try find("PQfname")
        getIsNull = try find("PQgetisnull")
        getValue = try find("PQgetvalue")
        commandTuples = try find("PQcmdTuples")
        clear = try find("PQclear")
    }

    /// Opens the library on the first call that finds it, and keeps it. A failure (libpq5 not installed) is not
    /// kept: the pool's next attempt, after its back-off, looks again, so installing the package heals a running
    /// dashboard as a database coming back does.
    final class Loader: Sendable {
        let path: String
        private let opened = Mutex<LibPQ?>(nil)

        init(path: String) { self.path = path }

        func load() throws(PostgresError) -> LibPQ {
            try opened.withLock { (library: inout LibPQ?) throws(PostgresError) -> LibPQ in
                if let library { return library }
                let found = try LibPQ(opening: path)
                library = found
                return found
            }
        }
    }
}
