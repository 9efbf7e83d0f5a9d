/*
 * ceiling.c: the throughput ceiling for the native-ads benchmark.
 *
 * A plain C libuv server that does no JSON work at all: for every message it reads it appends
 * one canned JSON-RPC reply, and it writes all replies produced by one read callback in a single
 * uv_write (one buffer for small replies; for large ones one iovec per reply pointing at the
 * same canned bytes, so nothing is copied in user space). Same event loop library, same syscall
 * pattern as the real server, so what native-ads spends above this is the cost of its own
 * parsing, dispatch and reply building.
 *
 * Framing, as native-ads (rpc-contract.md section 1): detected per connection from the first
 * non-whitespace byte it sends: `{` or `[` is NDJSON (a message is a '\n'-terminated line, the
 * reply is the canned line), anything else LSP-style headers (`Content-Length: N`, case-
 * insensitive, other headers ignored, a blank line, N bytes; the reply is
 * `Content-Length: M\r\n\r\n` + the canned body). The header block is parsed for real (the
 * length must be known to find the next message); the body is skipped unread.
 *
 *   gcc -O2 -o out/ceiling ceiling.c -luv
 *   out/ceiling [HOST:PORT [REPLY_FILE]]
 *   out/ceiling --stdio [REPLY_FILE]
 *
 * HOST:PORT defaults to 127.0.0.1:0 (prints "listening on HOST:PORT" on stderr). --stdio serves
 * stdin/stdout instead (pipes; exits 0 at stdin EOF once its replies are written). REPLY_FILE,
 * if given, holds the canned reply to use instead (its first line; e.g. a real loadAd reply of
 * native-ads, for the ceiling of loadAd and of a cold start).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uv.h>

static const char DEFAULT_REPLY[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"Flood-It! 2\"}\n";
static const char *REPLY = DEFAULT_REPLY;      /* NDJSON: the canned line, '\n' included */
static size_t REPLY_LEN = sizeof(DEFAULT_REPLY) - 1;
static char *CL_REPLY;                          /* Content-Length: header + the same body */
static size_t CL_REPLY_LEN;
#define READ_BUF (64 * 1024)
#define HDR_MAX 8192

enum { FRAMING_UNKNOWN, FRAMING_NDJSON, FRAMING_CL };

typedef struct {
  union {
    uv_tcp_t tcp;
    uv_pipe_t pipe;
  } in;
  uv_pipe_t out;  /* --stdio: stdout (in.pipe is stdin); TCP: unused, replies go to in.tcp */
  int stdio;
  int framing;
  /* Content-Length: the header block being read, then the body bytes still to skip */
  char hdr[HDR_MAX + 1];
  size_t hdr_len;
  size_t body_left;
  int in_body;
  size_t pending_writes;
  int eof;
  char rbuf[READ_BUF];
} conn_t;

typedef struct {
  uv_write_t req;
  uv_buf_t *bufs; /* the buffers written (freed with the request) */
  char *copy;     /* small replies: one contiguous copy per read, else NULL */
  conn_t *conn;
} write_t;

static uv_loop_t *loop;

static void on_close(uv_handle_t *h) {
  conn_t *c = h->data;
  if (!c->stdio) free(c);
}

static void close_conn(conn_t *c) {
  if (c->stdio) {
    /* stdin EOF: exit once the replies are written */
    uv_stop(loop);
    return;
  }
  uv_close((uv_handle_t *)&c->in.tcp, on_close);
}

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
  conn_t *c = w->conn;
  free(w->copy);
  free(w->bufs);
  free(w);
  if (--c->pending_writes == 0 && c->eof) close_conn(c);
}

/* The value of the Content-Length header (name case-insensitive) of a header block (the lines
 * and the blank line that ends them; other headers ignored), or -1 when there is none. */
static long long parse_cl_header(const char *h, size_t len) {
  const char *end = h + len;
  long long value = -1;
  while (h < end) {
    const char *eol = memmem(h, (size_t)(end - h), "\r\n", 2);
    if (!eol) eol = end;
    if ((size_t)(eol - h) > 15 && !strncasecmp(h, "Content-Length:", 15)) {
      const char *v = h + 15;
      while (v < eol && (*v == ' ' || *v == '\t')) v++;
      if (v == eol || *v < '0' || *v > '9') return -1;
      value = 0;
      while (v < eol && *v >= '0' && *v <= '9') value = value * 10 + (*v++ - '0');
    }
    h = eol + 2;
  }
  return value;
}

/* Counts the messages in a read: NDJSON lines, or Content-Length framed messages. */
static size_t count_messages(conn_t *c, const char *p, size_t n) {
  const char *end = p + n;
  if (c->framing == FRAMING_UNKNOWN) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    if (p == end) return 0;
    c->framing = (*p == '{' || *p == '[') ? FRAMING_NDJSON : FRAMING_CL;
  }
  size_t count = 0;
  if (c->framing == FRAMING_NDJSON) {
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
      count++;
      p++;
    }
    return count;
  }
  while (p < end) {
    if (!c->in_body) {
      long long len;
      const char *hend = c->hdr_len ? NULL : memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
      if (hend) { /* the whole header block is in this read: parse it in place */
        len = parse_cl_header(p, (size_t)(hend + 4 - p));
        p = hend + 4;
      } else { /* header bytes until the blank line, across reads */
        while (p < end) {
          if (c->hdr_len == HDR_MAX) return (size_t)-1;
          c->hdr[c->hdr_len++] = *p++;
          if (c->hdr_len >= 4 && !memcmp(c->hdr + c->hdr_len - 4, "\r\n\r\n", 4)) break;
        }
        if (c->hdr_len < 4 || memcmp(c->hdr + c->hdr_len - 4, "\r\n\r\n", 4)) break;
        len = parse_cl_header(c->hdr, c->hdr_len);
      }
      if (len < 0) return (size_t)-1;
      c->hdr_len = 0;
      c->in_body = 1;
      c->body_left = (size_t)len;
    }
    size_t take = (size_t)(end - p) < c->body_left ? (size_t)(end - p) : c->body_left;
    p += take;
    c->body_left -= take;
    if (c->body_left == 0) {
      c->in_body = 0;
      count++;
    }
  }
  return count;
}

/* Large replies are not copied at all: one iovec per reply, all pointing at the canned bytes
 * (only the kernel copies them). Small ones are copied into one buffer, which is cheaper for
 * the kernel than hundreds of tiny iovecs. */
#define IOVEC_FROM 4096

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  conn_t *c = s->data;
  if (n < 0) {
    c->eof = 1;
    uv_read_stop(s);
    if (c->pending_writes == 0) close_conn(c);
    return;
  }
  if (n == 0) return;
  size_t lines = count_messages(c, buf->base, (size_t)n);
  if (lines == (size_t)-1) { /* a header block that does not parse: give up on the client */
    c->eof = 1;
    uv_read_stop(s);
    if (c->pending_writes == 0) close_conn(c);
    return;
  }
  if (lines == 0) return;
  const char *reply = c->framing == FRAMING_CL ? CL_REPLY : REPLY;
  size_t reply_len = c->framing == FRAMING_CL ? CL_REPLY_LEN : REPLY_LEN;
  write_t *w = calloc(1, sizeof *w);
  w->conn = c;
  unsigned nbufs;
  if (reply_len >= IOVEC_FROM) {
    w->bufs = malloc(lines * sizeof *w->bufs);
    for (size_t i = 0; i < lines; i++) w->bufs[i] = uv_buf_init((char *)reply, (unsigned)reply_len);
    nbufs = (unsigned)lines;
  } else {
    w->copy = malloc(lines * reply_len);
    for (size_t i = 0; i < lines; i++) memcpy(w->copy + i * reply_len, reply, reply_len);
    w->bufs = malloc(sizeof *w->bufs);
    w->bufs[0] = uv_buf_init(w->copy, (unsigned)(lines * reply_len));
    nbufs = 1;
  }
  uv_stream_t *out = c->stdio ? (uv_stream_t *)&c->out : s;
  c->pending_writes++;
  if (uv_write(&w->req, out, w->bufs, nbufs, on_write) != 0) {
    free(w->copy);
    free(w->bufs);
    free(w);
    c->pending_writes--;
    c->eof = 1;
    uv_read_stop(s);
    if (c->pending_writes == 0) close_conn(c);
  }
}

static void on_connection(uv_stream_t *server, int status) {
  if (status < 0) return;
  conn_t *c = calloc(1, sizeof *c);
  uv_tcp_init(loop, &c->in.tcp);
  c->in.tcp.data = c;
  if (uv_accept(server, (uv_stream_t *)&c->in.tcp) == 0) {
    uv_tcp_nodelay(&c->in.tcp, 1);
    uv_read_start((uv_stream_t *)&c->in.tcp, on_alloc, on_read);
  } else {
    uv_close((uv_handle_t *)&c->in.tcp, on_close);
  }
}

static void on_signal(uv_signal_t *h, int signum) {
  (void)signum;
  uv_stop(h->loop);
}

static void load_reply(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  int ch;
  while ((ch = fgetc(f)) != EOF && ch != '\n') {
    if (len + 2 > cap) buf = realloc(buf, cap *= 2);
    buf[len++] = (char)ch;
  }
  fclose(f);
  buf[len++] = '\n';
  REPLY = buf;
  REPLY_LEN = len;
}

int main(int argc, char **argv) {
  int stdio = argc > 1 && !strcmp(argv[1], "--stdio");
  const char *spec = stdio ? NULL : (argc > 1 ? argv[1] : "127.0.0.1:0");
  if (argc > 2) load_reply(argv[2]);
  /* the Content-Length reply: a header, then the canned line's body (without its '\n') */
  CL_REPLY = malloc(REPLY_LEN + 64);
  int h = snprintf(CL_REPLY, 64, "Content-Length: %zu\r\n\r\n", REPLY_LEN - 1);
  memcpy(CL_REPLY + h, REPLY, REPLY_LEN - 1);
  CL_REPLY_LEN = (size_t)h + REPLY_LEN - 1;

  loop = uv_default_loop();
  uv_signal_t sigint, sigterm;
  uv_signal_init(loop, &sigint);
  uv_signal_init(loop, &sigterm);
  uv_signal_start(&sigint, on_signal, SIGINT);
  uv_signal_start(&sigterm, on_signal, SIGTERM);
  uv_unref((uv_handle_t *)&sigint);
  uv_unref((uv_handle_t *)&sigterm);

  uv_tcp_t server;
  static conn_t stdio_conn;
  if (stdio) {
    conn_t *c = &stdio_conn;
    c->stdio = 1;
    uv_pipe_init(loop, &c->in.pipe, 0);
    uv_pipe_init(loop, &c->out, 0);
    if (uv_pipe_open(&c->in.pipe, 0) != 0 || uv_pipe_open(&c->out, 1) != 0) {
      fprintf(stderr, "ceiling: stdin and stdout must be pipes\n");
      return 1;
    }
    c->in.pipe.data = c;
    c->out.data = c;
    uv_read_start((uv_stream_t *)&c->in.pipe, on_alloc, on_read);
  } else {
    char host[256];
    const char *colon = strrchr(spec, ':');
    if (!colon || (size_t)(colon - spec) >= sizeof host) {
      fprintf(stderr, "usage: %s [HOST:PORT [REPLY_FILE]] | --stdio [REPLY_FILE]\n", argv[0]);
      return 2;
    }
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    int port = atoi(colon + 1);
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
  }
  uv_run(loop, UV_RUN_DEFAULT);
  return 0;
}
