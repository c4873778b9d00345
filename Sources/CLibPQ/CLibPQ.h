// PostgreSQL's client library (Debian's libpq-dev): its declarations only. Nothing links libpq: the Postgres module
// opens it with dlopen when a database is first used (Sources/Postgres/LibPQ.swift), so a dashboard without
// --database never maps libpq and the TLS, Kerberos and LDAP libraries it pulls in (about 3.5 MB of RSS).
// Debian installs the header under postgresql/ (pkg-config would give that path, but also -lpq).
#include <postgresql/libpq-fe.h>

// The type of each function LibPQ.swift looks up, taken from its declaration above, so each of the table's properties
// has exactly the type libpq declares for its function (no hand-written signature to get wrong).
typedef __typeof__(PQconnectStartParams) *PQconnectStartParams_f;
typedef __typeof__(PQconnectPoll) *PQconnectPoll_f;
typedef __typeof__(PQstatus) *PQstatus_f;
typedef __typeof__(PQsetnonblocking) *PQsetnonblocking_f;
typedef __typeof__(PQsocket) *PQsocket_f;
typedef __typeof__(PQerrorMessage) *PQerrorMessage_f;
typedef __typeof__(PQfinish) *PQfinish_f;
typedef __typeof__(PQsendQueryParams) *PQsendQueryParams_f;
typedef __typeof__(PQflush) *PQflush_f;
typedef __typeof__(PQconsumeInput) *PQconsumeInput_f;
typedef __typeof__(PQisBusy) *PQisBusy_f;
typedef __typeof__(PQgetResult) *PQgetResult_f;
typedef __typeof__(PQnotifies) *PQnotifies_f;
typedef __typeof__(PQfreemem) *PQfreemem_f;
typedef __typeof__(PQresultStatus) *PQresultStatus_f;
typedef __typeof__(PQresultErrorField) *PQresultErrorField_f;
typedef __typeof__(PQresultErrorMessage) *PQresultErrorMessage_f;
typedef __typeof__(PQnfields) *PQnfields_f;
typedef __typeof__(PQntuples) *PQntuples_f;
typedef __typeof__(PQfname) *PQfname_f;
typedef __typeof__(PQgetisnull) *PQgetisnull_f;
typedef __typeof__(PQgetvalue) *PQgetvalue_f;
typedef __typeof__(PQcmdTuples) *PQcmdTuples_f;
typedef __typeof__(PQclear) *PQclear_f;
