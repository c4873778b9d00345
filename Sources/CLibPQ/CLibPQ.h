// PostgreSQL's client library (Debian's libpq-dev) for the Postgres module: the non-blocking connection calls
// (PQconnectStartParams/PQconnectPoll, PQsendQueryParams, PQconsumeInput/PQisBusy, PQnotifies).
#include <libpq-fe.h>
