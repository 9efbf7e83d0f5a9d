/*
 * ceiling.c: the throughput ceiling for the native-ads benchmark.
 *
 * A plain C libuv TCP server that does no JSON work at all: for every '\n'-terminated line it
 * reads it appends one canned JSON-RPC reply line, and it writes all replies produced by one
 * read callback in a single uv_write (one buffer for small replies; for large ones one iovec
 * per reply pointing at the same canned bytes, so nothing is copied in user space). Same event
 * loop library, same syscall pattern as the real server, so what native-ads spends above this
 * is the cost of its own parsing, dispatch and reply building.
 *
 *   gcc -O2 -o out/ceiling ceiling.c -luv
 *   out/ceiling [HOST:PORT [REPLY_FILE]]
 *
 * HOST:PORT defaults to 127.0.0.1:0 (prints "listening on HOST:PORT" on stderr). REPLY_FILE, if
 * given, holds the canned reply to use instead (its first line; e.g. a real ~42 KB loadAd reply,
 * for the ceiling of loadAd throughput: the cost of moving those bytes through the kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

static const char DEFAULT_REPLY[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"Flood-It! 2\"}\n";
static const char *REPLY = DEFAULT_REPLY;
static size_t REPLY_LEN = sizeof(DEFAULT_REPLY) - 1;
#define READ_BUF (64 * 1024)

typedef struct {
  uv_tcp_t tcp;
  char rbuf[READ_BUF];
} conn_t;

typedef struct {
  uv_write_t req;
  uv_buf_t *bufs; /* the buffers written (freed with the request) */
  char *copy;     /* small replies: one contiguous copy per read, else NULL */
} write_t;

static uv_loop_t *loop;

static void on_close(uv_handle_t *h) { free(h->data); }

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void)suggested;
  conn_t *c = h->data;
  /* One read buffer per connection: the read callback consumes it before the next read. */
  buf->base = c->rbuf;
  buf->len = sizeof c->rbuf;
}

static void on_write(uv_write_t *req, int status) {
  (void)status;
  write_t *w = (write_t *)req;
  free(w->copy);
  free(w->bufs);
  free(w);
}

/* Large replies are not copied at all: one iovec per reply, all pointing at the canned bytes
 * (only the kernel copies them). Small ones are copied into one buffer, which is cheaper for
 * the kernel than hundreds of tiny iovecs. */
#define IOVEC_FROM 4096

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  if (n < 0) {
    uv_close((uv_handle_t *)s, on_close);
    return;
  }
  if (n == 0) return;
  size_t lines = 0;
  const char *p = buf->base, *end = buf->base + n;
  while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    lines++;
    p++;
  }
  if (lines == 0) return;
  write_t *w = calloc(1, sizeof *w);
  unsigned nbufs;
  if (REPLY_LEN >= IOVEC_FROM) {
    w->bufs = malloc(lines * sizeof *w->bufs);
    for (size_t i = 0; i < lines; i++) w->bufs[i] = uv_buf_init((char *)REPLY, (unsigned)REPLY_LEN);
    nbufs = (unsigned)lines;
  } else {
    w->copy = malloc(lines * REPLY_LEN);
    for (size_t i = 0; i < lines; i++) memcpy(w->copy + i * REPLY_LEN, REPLY, REPLY_LEN);
    w->bufs = malloc(sizeof *w->bufs);
    w->bufs[0] = uv_buf_init(w->copy, (unsigned)(lines * REPLY_LEN));
    nbufs = 1;
  }
  if (uv_write(&w->req, s, w->bufs, nbufs, on_write) != 0) {
    free(w->copy);
    free(w->bufs);
    free(w);
    uv_close((uv_handle_t *)s, on_close);
  }
}

static void on_connection(uv_stream_t *server, int status) {
  if (status < 0) return;
  conn_t *c = calloc(1, sizeof *c);
  uv_tcp_init(loop, &c->tcp);
  c->tcp.data = c;
  if (uv_accept(server, (uv_stream_t *)&c->tcp) == 0) {
    uv_tcp_nodelay(&c->tcp, 1);
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
  } else {
    uv_close((uv_handle_t *)&c->tcp, on_close);
  }
}

static void on_signal(uv_signal_t *h, int signum) {
  (void)signum;
  uv_stop(h->loop);
}

int main(int argc, char **argv) {
  const char *spec = argc > 1 ? argv[1] : "127.0.0.1:0";
  char host[256];
  const char *colon = strrchr(spec, ':');
  if (!colon || (size_t)(colon - spec) >= sizeof host) {
    fprintf(stderr, "usage: %s HOST:PORT\n", argv[0]);
    return 2;
  }
  memcpy(host, spec, (size_t)(colon - spec));
  host[colon - spec] = 0;
  int port = atoi(colon + 1);
  if (argc > 2) {
    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror(argv[2]); return 1; }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
      if (len + 2 > cap) buf = realloc(buf, cap *= 2);
      buf[len++] = (char)c;
    }
    fclose(f);
    buf[len++] = '\n';
    REPLY = buf;
    REPLY_LEN = len;
  }

  loop = uv_default_loop();
  uv_tcp_t server;
  uv_tcp_init(loop, &server);
  struct sockaddr_in addr;
  int rc = uv_ip4_addr(host, port, &addr);
  if (rc == 0) rc = uv_tcp_bind(&server, (const struct sockaddr *)&addr, 0);
  if (rc == 0) rc = uv_listen((uv_stream_t *)&server, 128, on_connection);
  if (rc != 0) {
    fprintf(stderr, "ceiling: %s\n", uv_strerror(rc));
    return 1;
  }
  struct sockaddr_storage bound;
  int len = sizeof bound;
  uv_tcp_getsockname(&server, (struct sockaddr *)&bound, &len);
  fprintf(stderr, "listening on %s:%d\n", host, ntohs(((struct sockaddr_in *)&bound)->sin_port));
  fflush(stderr);

  uv_signal_t sigint, sigterm;
  uv_signal_init(loop, &sigint);
  uv_signal_init(loop, &sigterm);
  uv_signal_start(&sigint, on_signal, SIGINT);
  uv_signal_start(&sigterm, on_signal, SIGTERM);
  uv_run(loop, UV_RUN_DEFAULT);
  return 0;
}
