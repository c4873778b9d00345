// Live viewers for Benchmarks/viewers.sh (issue 46 point 2): VIEWERS keep-alive connections from ADDRESSES loopback
// source addresses (127.0.1.1, 127.0.1.2, … 250 a third octet), each watching one live fragment as live.js does: a
// first GET for the ETag, then GET with If-None-Match and `Prefer: wait=25` again and again. One epoll loop in C, so
// 50 000 held polls cost the load generator a few MB and little CPU next to the server it measures.
//
// Usage: viewers HOST PORT PATH VIEWERS ADDRESSES RAMP_SECONDS EVENTS_FILE
// Opens the viewers evenly over RAMP_SECONDS, prints "ready" on stdout once every viewer has its ETag and a held
// poll sent. Each 200 answering a held poll is written to EVENTS_FILE as "viewer microseconds-since-epoch ETag".
// SIGUSR1 prints "held MIN MEDIAN MAX" (polls outstanding over a second, per source address); SIGTERM prints the
// counts ("key=value ...") and exits. A 304 answered sooner than 20 s is early; Retry-After is honoured, and a
// refused or reset connection is opened again after a second, as live.js does.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { IDLE, CONNECTING, WAITING };
enum { WHEEL = 8192, TICK_MS = 10 };

typedef struct {
    int fd, state, address, next, scheduled;
    long long sent_ms, due_ms;
    char etag[96];
    char *partial;
    size_t length;
} Viewer;

static Viewer *viewers;
static int viewer_count, address_count, wheel[WHEEL];
static struct sockaddr_in server;
static const char *host, *path;
static FILE *events;
static int epoll_fd;
static volatile sig_atomic_t stop_requested, shares_requested;
static long long counts_ok, counts_changes, counts_304, counts_early, counts_retry_after, counts_refused,
    counts_reset, counts_503, counts_other, ready_count;
static char buffer[1 << 18];

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static long long epoch_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

// The timer wheel: a viewer due at `due` is in slot due / TICK_MS; a viewer is in at most one slot (one already in
// the wheel only has its time changed: a later time moves it on when its slot comes).
static void schedule(int index, long long due) {
    Viewer *v = &viewers[index];
    v->due_ms = due;
    if (v->scheduled) return;
    v->scheduled = 1;
    int slot = (int)((due / TICK_MS) % WHEEL);
    v->next = wheel[slot];
    wheel[slot] = index;
}

static void close_viewer(int index, long long delay_ms) {
    Viewer *v = &viewers[index];
    if (v->fd >= 0) close(v->fd);
    v->fd = -1;
    v->state = IDLE;
    free(v->partial);
    v->partial = NULL;
    v->length = 0;
    schedule(index, now_ms() + delay_ms);
}

static void send_request(int index) {
    Viewer *v = &viewers[index];
    char request[512];
    int n;
    if (v->etag[0])
        n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/html\r\nAccept-Encoding: gzip\r\n"
                     "If-None-Match: %s\r\nPrefer: wait=25\r\n\r\n",
                     path, host, v->etag);
    else
        n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/html\r\nAccept-Encoding: gzip\r\n\r\n", path, host);
    v->sent_ms = now_ms();
    v->state = WAITING;
    // A request this small always fits an empty send buffer; anything else is a broken connection.
    if (write(v->fd, request, n) != n) {
        counts_reset++;
        close_viewer(index, 1000);
    }
}

static void open_viewer(int index) {
    Viewer *v = &viewers[index];
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        perror("socket");
        exit(1);
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    struct sockaddr_in source = {.sin_family = AF_INET};
    source.sin_addr.s_addr = htonl((127u << 24) | ((1u + v->address / 250) << 8) | (1u + v->address % 250));
    if (bind(fd, (struct sockaddr *)&source, sizeof source) < 0) {
        perror("bind");
        exit(1);
    }
    v->fd = fd;
    v->state = CONNECTING;
    struct epoll_event event = {.events = EPOLLOUT | EPOLLIN | EPOLLRDHUP, .data.u32 = (unsigned)index};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
    if (connect(fd, (struct sockaddr *)&server, sizeof server) < 0 && errno != EINPROGRESS) {
        counts_refused++;
        close_viewer(index, 1000);
    }
}

static const char *field(const char *head, const char *end, const char *name, size_t *length) {
    size_t name_length = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line && line + 2 < end; line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, name_length) == 0 && start[name_length] == ':') {
            const char *value = start + name_length + 1;
            while (*value == ' ') value++;
            const char *stop = strstr(value, "\r\n");
            *length = (size_t)(stop - value);
            return value;
        }
    }
    return NULL;
}

// One whole answer in `data`: returns the bytes it took, 0 when incomplete, -1 when unreadable; `retry` is its
// Retry-After in seconds (0 without one).
static long answer(int index, const char *data, size_t size, int *retry) {
    Viewer *v = &viewers[index];
    const char *end = memmem(data, size, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head_length = (size_t)(end - data) + 4, length = 0;
    char head[4096];
    if (head_length >= sizeof head || size < 12) return -1;
    memcpy(head, data, head_length);
    head[head_length] = 0;
    const char *value = field(head, head + head_length, "Content-Length", &length);
    long body = value ? atol(value) : 0;
    if (size < head_length + (size_t)body) return 0;
    int status = atoi(head + 9);
    long long took = now_ms() - v->sent_ms;
    int had_etag = v->etag[0] != 0;
    *retry = 0;
    if ((value = field(head, head + head_length, "Retry-After", &length))) *retry = atoi(value);
    if (status == 200) {
        counts_ok++;
        if ((value = field(head, head + head_length, "ETag", &length)) && length < sizeof v->etag) {
            memcpy(v->etag, value, length);
            v->etag[length] = 0;
        }
        if (had_etag) {
            counts_changes++;
            fprintf(events, "%d %lld %s\n", index, epoch_us(), v->etag);
        } else if (++ready_count == viewer_count) {
            printf("ready\n");
            fflush(stdout);
        }
    } else if (status == 304) {
        counts_304++;
        if (took < 20000) counts_early++;
    } else if (status == 503) {
        counts_503++;
    } else {
        counts_other++;
    }
    if (*retry > 0) counts_retry_after++;
    return (long)(head_length + (size_t)body);
}

static void readable(int index) {
    Viewer *v = &viewers[index];
    ssize_t n = read(v->fd, buffer, sizeof buffer);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
        counts_reset++;
        close_viewer(index, 1000);
        return;
    }
    const char *data = buffer;
    size_t size = (size_t)n;
    if (v->partial) {
        v->partial = realloc(v->partial, v->length + size);
        memcpy(v->partial + v->length, buffer, size);
        v->length += size;
        data = v->partial;
        size = v->length;
    }
    int retry = 0;
    long taken = answer(index, data, size, &retry);
    if (taken == 0) {
        if (!v->partial) {
            v->partial = malloc(size);
            memcpy(v->partial, data, size);
            v->length = size;
        }
        return;
    }
    free(v->partial);
    v->partial = NULL;
    v->length = 0;
    if (taken < 0) {
        counts_other++;
        close_viewer(index, 1000);
        return;
    }
    if (retry > 0) {
        // The next poll after Retry-After, on the same connection.
        v->state = IDLE;
        schedule(index, now_ms() + retry * 1000LL);
    } else {
        send_request(index);
    }
}

static void shares(void) {
    int *held = calloc((size_t)address_count, sizeof *held);
    long long now = now_ms();
    for (int i = 0; i < viewer_count; i++)
        if (viewers[i].state == WAITING && viewers[i].etag[0] && now - viewers[i].sent_ms > 1000)
            held[viewers[i].address]++;
    int min = held[0], max = held[0];
    for (int i = 0; i < address_count; i++) {
        if (held[i] < min) min = held[i];
        if (held[i] > max) max = held[i];
    }
    printf("held %d %d\n", min, max);
    fflush(stdout);
    free(held);
}

static void on_signal(int signal) {
    if (signal == SIGUSR1) shares_requested = 1;
    else stop_requested = 1;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: viewers HOST PORT PATH VIEWERS ADDRESSES RAMP_SECONDS EVENTS_FILE\n");
        return 2;
    }
    host = argv[1];
    path = argv[3];
    viewer_count = atoi(argv[4]);
    address_count = atoi(argv[5]);
    double ramp = atof(argv[6]);
    events = fopen(argv[7], "w");
    server.sin_family = AF_INET;
    server.sin_port = htons((unsigned short)atoi(argv[2]));
    inet_pton(AF_INET, host, &server.sin_addr);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGUSR1, on_signal);
    viewers = calloc((size_t)viewer_count, sizeof *viewers);
    for (int i = 0; i < WHEEL; i++) wheel[i] = -1;
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    long long start = now_ms();
    for (int i = 0; i < viewer_count; i++) {
        viewers[i].fd = -1;
        viewers[i].address = i % address_count;
        schedule(i, start + (long long)(ramp * 1000 * i / viewer_count));
    }
    long long tick = start / TICK_MS;
    struct epoll_event ready[1024];
    while (!stop_requested) {
        int n = epoll_wait(epoll_fd, ready, 1024, TICK_MS);
        for (int i = 0; i < n; i++) {
            int index = (int)ready[i].data.u32;
            Viewer *v = &viewers[index];
            if (v->fd < 0) continue;
            if (v->state == CONNECTING) {
                int error = 0;
                socklen_t length = sizeof error;
                getsockopt(v->fd, SOL_SOCKET, SO_ERROR, &error, &length);
                if (error || (ready[i].events & (EPOLLERR | EPOLLHUP))) {
                    if (error == ECONNREFUSED) counts_refused++;
                    else counts_reset++;
                    close_viewer(index, 1000);
                    continue;
                }
                struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.u32 = (unsigned)index};
                epoll_ctl(epoll_fd, EPOLL_CTL_MOD, v->fd, &event);
                send_request(index);
            } else if (ready[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                readable(index);
            }
        }
        // Due viewers: open a connection, or send the poll a Retry-After put off.
        long long now = now_ms();
        for (; tick <= now / TICK_MS; tick++) {
            int slot = (int)(tick % WHEEL), index = wheel[slot];
            wheel[slot] = -1;
            while (index >= 0) {
                int next = viewers[index].next;
                viewers[index].scheduled = 0;
                if (viewers[index].due_ms / TICK_MS > tick) schedule(index, viewers[index].due_ms);
                else if (viewers[index].fd < 0) open_viewer(index);
                else send_request(index);
                index = next;
            }
        }
        if (shares_requested) {
            shares_requested = 0;
            shares();
        }
    }
    fclose(events);
    printf("ok=%lld changes=%lld not_modified=%lld early_304=%lld retry_after=%lld refused=%lld reset=%lld "
           "status_503=%lld other=%lld\n",
           counts_ok, counts_changes, counts_304, counts_early, counts_retry_after, counts_refused, counts_reset,
           counts_503, counts_other);
    return 0;
}
