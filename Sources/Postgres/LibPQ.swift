import CLibPQ
import Glibc
import Synchronization

/// The libpq functions a session calls, found with `dlopen`/`dlsym` the first time a database is used.
///
/// Why not linked: libpq brings GnuTLS, Kerberos, LDAP and SASL with it, and a linked library is mapped and relocated
/// at start in every process, about 3.5 MB of RSS in a dashboard that, without `--database`, never opens a session
/// (issue 21's memory budget is 40 MB). Opened on demand, they cost only the processes that use them. The header
/// still comes from libpq-dev (`Sources/CLibPQ`), so the types below are checked against libpq's declarations.
struct LibPQ: Sendable {
    typealias Session = OpaquePointer
    typealias Result = OpaquePointer
    typealias Strings = UnsafePointer<UnsafePointer<CChar>?>

    let connectStartParams: @convention(c) (Strings?, Strings?, Int32) -> Session?
    let connectPoll: @convention(c) (Session?) -> PostgresPollingStatusType
    let status: @convention(c) (Session?) -> ConnStatusType
    let setNonblocking: @convention(c) (Session?, Int32) -> Int32
    let socket: @convention(c) (Session?) -> Int32
    let errorMessage: @convention(c) (Session?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Session?) -> Void

    let sendQueryParams:
        @convention(c) (
            Session?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?, Strings?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?, Int32
        ) -> Int32
    let flush: @convention(c) (Session?) -> Int32
    let consumeInput: @convention(c) (Session?) -> Int32
    let isBusy: @convention(c) (Session?) -> Int32
    let getResult: @convention(c) (Session?) -> Result?
    let notifies: @convention(c) (Session?) -> UnsafeMutablePointer<PGnotify>?
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void

    let resultStatus: @convention(c) (Result?) -> ExecStatusType
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let resultErrorMessage: @convention(c) (Result?) -> UnsafeMutablePointer<CChar>?
    let fieldCount: @convention(c) (Result?) -> Int32
    let tupleCount: @convention(c) (Result?) -> Int32
    let fieldName: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let getIsNull: @convention(c) (Result?, Int32, Int32) -> Int32
    let getValue: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let commandTuples: @convention(c) (Result?) -> UnsafeMutablePointer<CChar>?
    let clear: @convention(c) (Result?) -> Void

    /// The library's soname: libpq's ABI has kept major version 5 since PostgreSQL 8.0.
    static let soname = "libpq.so.5"

    /// libpq, opened on the first call that finds it. A failure (libpq5 not installed) is not kept: the pool's next
    /// attempt, after its back-off, looks again, so installing the package heals a running dashboard as a database
    /// coming back does.
    static func shared() throws(PostgresError) -> LibPQ {
        try opened.withLock { (library: inout LibPQ?) throws(PostgresError) -> LibPQ in
            if let library { return library }
            let found = try LibPQ(opening: soname)
            library = found
            return found
        }
    }

    private static let opened = Mutex<LibPQ?>(nil)

    /// Whether this process has libpq mapped (`RTLD_NOLOAD` opens nothing; it only finds a library already there).
    static var isLoaded: Bool {
        guard let library = dlopen(soname, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(library)
        return true
    }

    init(opening name: String) throws(PostgresError) {
        // Once every function is found, never closed: they stay valid for the process's life.
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
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
}
