// PostgreSQL's client library (Debian's libpq-dev): its declarations only. Nothing links libpq: the Postgres module
// opens it with dlopen when a database is first used (Sources/Postgres/LibPQ.swift), so a dashboard without
// --database never maps libpq and the TLS, Kerberos and LDAP libraries it pulls in (about 3.5 MB of RSS).
#include <postgresql/libpq-fe.h>
