// The Linux calls that Swift's Glibc module leaves out: for HTTPServer's event loops, and for the tests' own
// PostgreSQL (Tests/TestSupport/ThrowawayPostgres.swift).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// Declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without. Accepting a
// connection already non-blocking and close-on-exec saves two fcntl calls and closes the fork window.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

// Also _GNU_SOURCE only: names the loop threads (`http-loop-0`) in top, perf and gdb.
#include <pthread.h>
extern int pthread_setname_np(pthread_t thread, const char *name);

// mallopt and its parameters: the dashboard keeps the allocator from holding freed memory (issue 23's RSS budget).
#include <malloc.h>

// _GNU_SOURCE only as well (glibc 2.34+): a spawned command inherits no descriptor but the ones it is given.
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
