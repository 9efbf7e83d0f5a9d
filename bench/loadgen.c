/*
 * loadgen.c: pipelined JSON-RPC load generator for the native-ads benchmark.
 *
 * Drives a server over C TCP connections (--port) or over the stdin/stdout pipes of a server it
 * spawns itself (--spawn -- CMD ARGS...), in either framing: NDJSON (one message a line) or
 * LSP-style Content-Length headers (--framing cl). It optionally sends one set-up request first
 * (e.g. a loadAd, whose first "adId" is then substituted for @ADID@ in the template) and waits
 * for its reply, then sends WARMUP + N requests built from a template (@ID@ becomes an
 * increasing integer id; @UNIT@ a line of --units-file, chosen round-robin), keeping at most W
 * messages outstanding on each connection (topping the window up once at least R = --refill
 * slots are free; default 1, i.e. keep the window full), and counts the replies. The clock
 * (and, with --pid or --spawn, the server's CPU time read from /proc) covers only the replies
 * after the warm-up.
 *
 * --release: every reply that carries an "adId" (a loadAd reply) is answered with a releaseAd
 * of that ad on the same connection, so each template request costs two messages (loadAd +
 * releaseAd) and figures are per template request (per loaded ad); the window counts both.
 *
 * --spawn: the server's stdin/stdout are pipes; the set-up request is written at once, right
 * after the fork, so "setup_reply_ms" is the time from spawn to its reply (a cold start). At the
 * end stdin is closed and the server reaped ("server_exit_status"). --server-cpu pins it.
 *
 * --mem: the server's memory (VmRSS, VmHWM, smaps_rollup's Private_Clean + Private_Dirty) is
 * read when the measured part starts and again when it ends, before any connection closes
 * (so ads loaded meanwhile are still alive): "mem_start" / "mem_end", kB. With --spawn the
 * memory right after the set-up reply is "mem_after_setup".
 *
 * Prints one JSON object on stdout:
 *   {"requests":N,"messages":..,"elapsed_s":..,"rps":.. (template requests a second),
 *    "bytes_in":..,"reply_bytes_avg":.. (bytes a measured reply, framing included),
 *    "bytes_per_request":..,"load_reply_bytes_avg":.. (--release: replies with an adId),
 *    "error_replies":..,"server_cpu_s":..,
 *    "server_cpu_us_per_req":.. (utime+stime from /proc/PID/stat, clock-tick resolution),
 *    "server_cpu_us_per_req_schedstat":.. (same, ns precision), "server_busy_fraction":..
 *    (server CPU time / elapsed), "loadgen_cpu_s":.., "others_cpu_s":.. (CPU time of every other
 *    process during the run: noise), "machine_cpu_s":.. (non-idle time of all CPUs from
 *    /proc/stat; tick-sampled, info only), "first_reply":"<first 200 bytes of the body of the
 *    first measured reply>","stalled":false, ...}
 *
 *   gcc -O2 -o out/loadgen loadgen.c
 *   out/loadgen (--port P [--host 127.0.0.1] [-c C] [--pid SERVER_PID]
 *               | --spawn [--server-cpu CPU] [--startup-timeout S]) [--framing ndjson|cl]
 *               [-n N] [-w W] [--refill R] [--warmup K] [--setup JSON] [--release]
 *               [--units-file FILE] [--mem] [--timeout SECONDS] --template JSON [-- CMD ARGS...]
 *
 * Non-blocking sockets/pipes + poll(2); replies of any size are fine. "error_replies" counts
 * replies (warm-up included) that contain "error":{"code": (a JSON-RPC error object), as a
 * sanity check. A Content-Length header block that does not parse is a protocol error.
 * Exit status: 0 ok, 2 usage, 3 stalled (no progress for --timeout seconds), 4 connection lost,
 * 5 no set-up reply within --startup-timeout, 6 protocol error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RBUF (1 << 20)
#define SBUF (64 * 1024)
#define MAX_CONNS 256
#define ADID_MAX 128
#define HDR_MAX 8192

static const char ERR_PAT[] = "\"error\":{\"code\":";
#define ERR_PAT_LEN (sizeof(ERR_PAT) - 1)
static const char ADID_PAT[] = "\"adId\":\"";
#define ADID_PAT_LEN (sizeof(ADID_PAT) - 1)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double self_cpu(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

/* utime + stime of a process (all threads), in seconds; -1 if unreadable. */
static double proc_cpu(int pid) {
  if (pid <= 0) return -1;
  char path[64], buf[4096];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  char *p = strrchr(buf, ')'); /* comm may contain spaces */
  if (!p) return -1;
  p += 2; /* field 3 (state) */
  unsigned long long utime = 0, stime = 0;
  /* fields 3..13 skipped, 14 utime, 15 stime */
  int field = 3;
  char *tok = strtok(p, " ");
  while (tok) {
    if (field == 14) utime = strtoull(tok, NULL, 10);
    if (field == 15) { stime = strtoull(tok, NULL, 10); break; }
    field++;
    tok = strtok(NULL, " ");
  }
  return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* Time on CPU of all threads of a process, in seconds, from /proc/PID/task/TID/schedstat
 * (nanosecond precision; the same quantity utime+stime is scaled to, without the tick
 * rounding); -1 if unavailable. */
static double proc_cpu_ns(int pid) {
  if (pid <= 0) return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", pid);
  DIR *d = opendir(path);
  if (!d) return -1;
  unsigned long long total = 0;
  int found = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char p2[320], buf[128];
    snprintf(p2, sizeof p2, "/proc/%d/task/%s/schedstat", pid, e->d_name);
    int fd = open(p2, O_RDONLY);
    if (fd < 0) continue;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = 0;
    total += strtoull(buf, NULL, 10);
    found = 1;
  }
  closedir(d);
  return found ? (double)total / 1e9 : -1;
}

/* Non-idle CPU time of the whole machine (all CPUs), in seconds, from /proc/stat; -1 if
 * unreadable. */
static double machine_busy_s(void) {
  FILE *f = fopen("/proc/stat", "r");
  if (!f) return -1;
  unsigned long long v[10] = {0};
  int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
  fclose(f);
  if (got < 5) return -1;
  unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]; /* all but idle, iowait */
  return (double)busy / (double)sysconf(_SC_CLK_TCK);
}

/* Memory of a process, kB: VmRSS, VmHWM, RssAnon, RssFile from /proc/PID/status and
 * Private_Clean + Private_Dirty from /proc/PID/smaps_rollup. */
typedef struct {
  long rss, hwm, anon, file, priv_clean, priv_dirty, pss;
  int ok;
} mem_t;

static long field_kb(const char *buf, const char *key) {
  const char *p = strstr(buf, key);
  if (!p) return -1;
  p += strlen(key);
  while (*p == ' ' || *p == '\t') p++;
  return strtol(p, NULL, 10);
}

static mem_t read_mem(int pid) {
  mem_t m = {-1, -1, -1, -1, -1, -1, -1, 0};
  if (pid <= 0) return m;
  char path[64], buf[8192];
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return m;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return m;
  buf[n] = 0;
  m.rss = field_kb(buf, "\nVmRSS:");
  m.hwm = field_kb(buf, "\nVmHWM:");
  m.anon = field_kb(buf, "\nRssAnon:");
  m.file = field_kb(buf, "\nRssFile:");
  snprintf(path, sizeof path, "/proc/%d/smaps_rollup", pid);
  fd = open(path, O_RDONLY);
  if (fd >= 0) {
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n > 0) {
      buf[n] = 0;
      m.priv_clean = field_kb(buf, "\nPrivate_Clean:");
      m.priv_dirty = field_kb(buf, "\nPrivate_Dirty:");
      m.pss = field_kb(buf, "\nPss:");
    }
  }
  m.ok = 1;
  return m;
}

static void print_mem(const char *key, mem_t m) {
  if (!m.ok) { printf(",\"%s\":null", key); return; }
  printf(",\"%s\":{\"VmRSS\":%ld,\"VmHWM\":%ld,\"RssAnon\":%ld,\"RssFile\":%ld,\"Pss\":%ld,"
         "\"Private_Clean\":%ld,\"Private_Dirty\":%ld,\"Private\":%ld}",
         key, m.rss, m.hwm, m.anon, m.file, m.pss, m.priv_clean, m.priv_dirty,
         (m.priv_clean >= 0 && m.priv_dirty >= 0) ? m.priv_clean + m.priv_dirty : -1);
}

/* CPU time used by every other process on the machine (all but `pid` and this one) between two
 * snapshots, in seconds: for a process alive at both, the growth of its utime+stime; for one
 * that started in between, all of it (processes that both start and end in between are missed).
 * Kernel threads (softirq work, ...) count too. This is other work, i.e. noise. */
typedef struct {
  int pid;
  unsigned long long start; /* start time, to tell a reused pid */
  unsigned long long cpu;   /* utime + stime, ticks */
} proc_sample;

static int cmp_sample(const void *a, const void *b) {
  const proc_sample *x = a, *y = b;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

static proc_sample *snapshot_procs(int pid, size_t *count) {
  DIR *d = opendir("/proc");
  if (!d) return NULL;
  size_t cap = 256, n = 0;
  proc_sample *v = malloc(cap * sizeof *v);
  struct dirent *e;
  int self = getpid();
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    int p = atoi(e->d_name);
    if (p == pid || p == self) continue;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", p);
    int fd = open(path, O_RDONLY);
    if (fd < 0) continue;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0) continue;
    buf[r] = 0;
    char *q = strrchr(buf, ')');
    if (!q) continue;
    unsigned long long ut = 0, st = 0, start = 0;
    /* after ") ": field 3 state ... 14 utime, 15 stime, 22 starttime */
    if (sscanf(q + 2,
               "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %*d %*d "
               "%llu",
               &ut, &st, &start) != 3)
      continue;
    if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
    v[n++] = (proc_sample){p, start, ut + st};
  }
  closedir(d);
  qsort(v, n, sizeof *v, cmp_sample);
  *count = n;
  return v;
}

static double others_cpu_between(const proc_sample *a, size_t na, const proc_sample *b,
                                 size_t nb) {
  unsigned long long total = 0;
  for (size_t i = 0; i < nb; i++) {
    const proc_sample *old = bsearch(&b[i], a, na, sizeof *a, cmp_sample);
    if (old && old->start == b[i].start) {
      if (b[i].cpu > old->cpu) total += b[i].cpu - old->cpu;
    } else {
      total += b[i].cpu; /* started during the run */
    }
  }
  return (double)total / (double)sysconf(_SC_CLK_TCK);
}

/* ---------------------------------------------------------------- state */

static pid_t child = 0; /* --spawn: the server */
static int server_pid = 0;

static void kill_child(void) {
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    child = 0;
  }
}

static void die(const char *msg) {
  fprintf(stderr, "loadgen: %s: %s\n", msg, strerror(errno));
  kill_child();
  exit(4);
}

static void usage(void) {
  fprintf(stderr,
          "usage: loadgen (--port P [--host H] [-c C] [--pid PID] | --spawn [--server-cpu N]\n"
          "               [--startup-timeout S]) [--framing ndjson|cl] [-n N] [-w W] [--refill R]\n"
          "               [--warmup K] [--setup JSON] [--release] [--units-file FILE] [--mem]\n"
          "               [--timeout S] --template JSON [-- CMD ARGS...]\n");
  exit(2);
}

/* The template, split into literal pieces and placeholders. */
enum { SEG_LIT, SEG_ID, SEG_UNIT };
typedef struct {
  int kind;
  const char *s;
  size_t len;
} seg_t;
static seg_t segs[64];
static int nsegs = 0;
static char **units = NULL;
static size_t *unit_lens = NULL;
static size_t nunits = 0, max_unit_len = 0;
static int framing_cl = 0;

static char *replace_all(const char *s, const char *needle, const char *with) {
  size_t nl = strlen(needle), wl = strlen(with), cnt = 0;
  for (const char *p = s; (p = strstr(p, needle)); p += nl) cnt++;
  char *out = malloc(strlen(s) + cnt * (wl > nl ? wl - nl : 0) + 1), *o = out;
  const char *p = s, *q;
  while ((q = strstr(p, needle))) {
    memcpy(o, p, (size_t)(q - p)); o += q - p;
    memcpy(o, with, wl); o += wl;
    p = q + nl;
  }
  strcpy(o, p);
  return out;
}

static void split_template(const char *t) {
  const char *p = t;
  while (*p) {
    const char *a = strstr(p, "@ID@"), *b = strstr(p, "@UNIT@"), *q;
    int kind;
    if (a && (!b || a < b)) { q = a; kind = SEG_ID; }
    else if (b) { q = b; kind = SEG_UNIT; }
    else { q = NULL; kind = SEG_LIT; }
    if (!q) { segs[nsegs++] = (seg_t){SEG_LIT, p, strlen(p)}; break; }
    if (q > p) segs[nsegs++] = (seg_t){SEG_LIT, p, (size_t)(q - p)};
    segs[nsegs++] = (seg_t){kind, NULL, 0};
    p = q + (kind == SEG_ID ? 4 : 6);
    if (nsegs > 60) { fprintf(stderr, "loadgen: template too complex\n"); exit(2); }
  }
}

static size_t put_uint(char *o, uint64_t v) {
  char num[24];
  int k = 0;
  do { num[k++] = (char)('0' + v % 10); v /= 10; } while (v);
  for (int i = 0; i < k; i++) o[i] = num[k - 1 - i];
  return (size_t)k;
}

/* Frames a body at dst (NDJSON: body + '\n'; CL: "Content-Length: N\r\n\r\n" + body). The body
 * is written by `fill` at a fixed offset and moved when the header is shorter. */
#define CL_HDR_ROOM 40
static size_t frame(char *dst, const char *body, size_t len) {
  if (!framing_cl) {
    memmove(dst, body, len);
    dst[len] = '\n';
    return len + 1;
  }
  char hdr[CL_HDR_ROOM];
  int h = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", len);
  memmove(dst + h, body, len);
  memcpy(dst, hdr, (size_t)h);
  return (size_t)h + len;
}

static size_t put_request(char *dst, uint64_t id, uint64_t index) {
  char *body = dst + CL_HDR_ROOM, *o = body;
  for (int i = 0; i < nsegs; i++) {
    switch (segs[i].kind) {
    case SEG_LIT: memcpy(o, segs[i].s, segs[i].len); o += segs[i].len; break;
    case SEG_ID: o += put_uint(o, id); break;
    case SEG_UNIT: {
      size_t u = nunits ? index % nunits : 0;
      if (nunits) { memcpy(o, units[u], unit_lens[u]); o += unit_lens[u]; }
      break;
    }
    }
  }
  return frame(dst, body, (size_t)(o - body));
}

static size_t put_release(char *dst, uint64_t id, const char *adid) {
  char *body = dst + CL_HDR_ROOM, *o = body;
  static const char a[] = "{\"jsonrpc\":\"2.0\",\"id\":";
  static const char b[] = ",\"method\":\"releaseAd\",\"params\":{\"adId\":\"";
  memcpy(o, a, sizeof a - 1); o += sizeof a - 1;
  o += put_uint(o, id);
  memcpy(o, b, sizeof b - 1); o += sizeof b - 1;
  size_t l = strlen(adid);
  memcpy(o, adid, l); o += l;
  memcpy(o, "\"}}", 3); o += 3;
  return frame(dst, body, (size_t)(o - body));
}

static void json_str(FILE *f, const char *s, size_t n) {
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') { fputc('\\', f); fputc(c, f); }
    else if (c < 0x20 || c >= 0x7f) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

typedef struct {
  int rfd, wfd;
  /* sending */
  char *sbuf;
  size_t s_off, s_len;
  uint64_t quota, sent_req; /* template requests to send / sent */
  uint64_t sent_msgs, recvd_msgs;
  char (*rel)[ADID_MAX]; /* releases to send (ring) */
  size_t rel_head, rel_count, rel_cap;
  int wclosed;
  /* receiving: Content-Length state */
  int in_body;
  char hdr[HDR_MAX + 1];
  size_t hdr_len;
  uint64_t body_left;
  /* the message being received */
  uint64_t msg_bytes;
  int adid_state; /* 0..ADID_PAT_LEN-1 matching, ADID_PAT_LEN capturing, -1 done */
  char adid[ADID_MAX];
  size_t adid_len;
  /* error-pattern scan across buffer boundaries: the last ERR_PAT_LEN-1 bytes */
  char carry[ERR_PAT_LEN * 2];
  size_t carry_len;
} conn_t;

static conn_t conns[MAX_CONNS];
static int nconns = 1;
static int release_mode = 0, mem_mode = 0;
static uint64_t window = 256, refill = 0;
static uint64_t next_id = 1000, req_index = 0;
static uint64_t recvd_total = 0, errors = 0, bytes_in = 0, load_bytes = 0, load_replies = 0;
static uint64_t warmup_msgs = 0, msgs_at_start = 0;
static int measuring = 0, capture_first = 0, setup_phase = 0, setup_done = 0;
static char first[200];
static size_t first_len = 0;
static char setup_adid[ADID_MAX] = "none";
static double t_start = 0, cpu_start = -1, ns_start = -1, self_start = 0, machine_start = -1;
static proc_sample *procs_start = NULL;
static size_t nprocs_start = 0;
static mem_t mem_start, mem_end, mem_after_setup;

static void start_measuring(void) {
  /* the slow /proc scans first, the server's CPU time and the clock last, closest together */
  measuring = 1;
  capture_first = 1;
  msgs_at_start = recvd_total;
  if (mem_mode) mem_start = read_mem(server_pid);
  procs_start = snapshot_procs(server_pid, &nprocs_start);
  machine_start = machine_busy_s();
  self_start = self_cpu();
  cpu_start = proc_cpu(server_pid);
  ns_start = proc_cpu_ns(server_pid);
  t_start = now();
}

static void push_release(conn_t *c, const char *adid) {
  if (c->rel_count == c->rel_cap) {
    size_t cap = c->rel_cap ? c->rel_cap * 2 : 64;
    char (*r)[ADID_MAX] = malloc(cap * ADID_MAX);
    for (size_t i = 0; i < c->rel_count; i++)
      memcpy(r[i], c->rel[(c->rel_head + i) % c->rel_cap], ADID_MAX);
    free(c->rel);
    c->rel = r;
    c->rel_head = 0;
    c->rel_cap = cap;
  }
  strcpy(c->rel[(c->rel_head + c->rel_count) % c->rel_cap], adid);
  c->rel_count++;
}

/* Bytes of the body of the message being received. */
static void body_bytes(conn_t *c, const char *p, size_t n) {
  if (capture_first && measuring) {
    size_t room = sizeof first - first_len;
    memcpy(first + first_len, p, n < room ? n : room);
    first_len += n < room ? n : room;
  }
  if (!release_mode && !setup_phase) return;
  for (size_t i = 0; i < n && c->adid_state >= 0; i++) {
    char ch = p[i];
    if (c->adid_state == (int)ADID_PAT_LEN) {
      if (ch == '"') { c->adid[c->adid_len] = 0; c->adid_state = -1; }
      else if (c->adid_len + 1 < ADID_MAX) c->adid[c->adid_len++] = ch;
    } else if (ch == ADID_PAT[c->adid_state]) {
      if (++c->adid_state == (int)ADID_PAT_LEN) c->adid_len = 0;
    } else {
      c->adid_state = ch == ADID_PAT[0] ? 1 : 0;
    }
  }
}

static void message_end(conn_t *c) {
  int has_adid = c->adid_state == -1;
  c->recvd_msgs++;
  if (setup_phase) {
    if (has_adid) strcpy(setup_adid, c->adid);
    setup_done = 1;
  } else {
    recvd_total++;
    if (measuring) {
      bytes_in += c->msg_bytes;
      capture_first = 0;
      if (has_adid && release_mode) { load_bytes += c->msg_bytes; load_replies++; }
    }
    if (release_mode && has_adid) push_release(c, c->adid);
    if (!measuring && warmup_msgs && recvd_total == warmup_msgs) start_measuring();
  }
  c->msg_bytes = 0;
  c->adid_state = 0;
  c->adid_len = 0;
}

static void protocol_error(const char *what, conn_t *c) {
  fprintf(stderr, "loadgen: protocol error: %s (header: ", what);
  fwrite(c->hdr, 1, c->hdr_len < 200 ? c->hdr_len : 200, stderr);
  fprintf(stderr, ")\n");
  printf("{\"protocol_error\":true,\"received\":%llu}\n", (unsigned long long)recvd_total);
  kill_child();
  exit(6);
}

/* The value of the Content-Length header (name case-insensitive) of a header block (the lines
 * and the blank line that ends them), or -1 when there is none or it is not a number. */
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
      while (v < eol && (*v == ' ' || *v == '\t')) v++;
      if (v != eol) return -1;
    }
    h = eol + 2;
  }
  return value;
}

/* Consumes received bytes: splits them into messages in the connection's framing. */
static void consume(conn_t *c, const char *p, size_t n) {
  /* error pattern: check the seam with the previous buffer, then the buffer itself */
  if (c->carry_len) {
    size_t take = n < ERR_PAT_LEN - 1 ? n : ERR_PAT_LEN - 1;
    memcpy(c->carry + c->carry_len, p, take);
    if (memmem(c->carry, c->carry_len + take, ERR_PAT, ERR_PAT_LEN)) errors++;
  }
  for (const char *q = p, *e = p + n; (q = memmem(q, (size_t)(e - q), ERR_PAT, ERR_PAT_LEN));
       q += ERR_PAT_LEN)
    errors++;
  c->carry_len = n < ERR_PAT_LEN - 1 ? n : ERR_PAT_LEN - 1;
  memcpy(c->carry, p + n - c->carry_len, c->carry_len);

  const char *e = p + n;
  if (!framing_cl) {
    while (p < e) {
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      size_t chunk = (size_t)((nl ? nl : e) - p);
      if (chunk && (capture_first || release_mode || setup_phase)) body_bytes(c, p, chunk);
      c->msg_bytes += chunk;
      if (!nl) break;
      c->msg_bytes++;
      p = nl + 1;
      message_end(c);
    }
    return;
  }
  while (p < e) {
    if (!c->in_body) {
      long long len;
      const char *hend = c->hdr_len ? NULL : memmem(p, (size_t)(e - p), "\r\n\r\n", 4);
      if (hend) { /* the whole header block is in this buffer: parse it in place */
        len = parse_cl_header(p, (size_t)(hend + 4 - p));
        c->msg_bytes += (size_t)(hend + 4 - p);
        p = hend + 4;
      } else { /* header bytes until the blank line, across buffers */
        while (p < e) {
          if (c->hdr_len == HDR_MAX) protocol_error("header block too long", c);
          c->hdr[c->hdr_len++] = *p++;
          c->msg_bytes++;
          if (c->hdr_len >= 4 && !memcmp(c->hdr + c->hdr_len - 4, "\r\n\r\n", 4)) break;
        }
        if (c->hdr_len < 4 || memcmp(c->hdr + c->hdr_len - 4, "\r\n\r\n", 4)) return;
        len = parse_cl_header(c->hdr, c->hdr_len);
      }
      if (len < 0) protocol_error("no valid Content-Length header", c);
      c->in_body = 1;
      c->body_left = (uint64_t)len;
      c->hdr_len = 0;
    }
    size_t take = (size_t)(e - p) < c->body_left ? (size_t)(e - p) : (size_t)c->body_left;
    if (take && (capture_first || release_mode || setup_phase)) body_bytes(c, p, take);
    c->msg_bytes += take;
    c->body_left -= take;
    p += take;
    if (c->body_left == 0) {
      c->in_body = 0;
      message_end(c);
    }
  }
}

static void set_nonblock(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

/* Messages sent and not answered yet (a notification from the server would make the count of
 * received messages run ahead). */
static uint64_t in_flight(const conn_t *c) {
  return c->sent_msgs > c->recvd_msgs ? c->sent_msgs - c->recvd_msgs : 0;
}

static int conn_done(const conn_t *c) {
  return c->sent_req == c->quota && c->rel_count == 0 && c->s_off == c->s_len &&
         c->recvd_msgs >= c->sent_msgs;
}

int main(int argc, char **argv) {
  const char *host = "127.0.0.1", *tmpl = NULL, *setup = NULL, *units_file = NULL;
  int port = 0, spawn = 0, server_cpu = -1;
  uint64_t n = 100000, warmup = 0;
  double timeout = 10, startup_timeout = -1;
  char **cmd = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) { cmd = argv + i + 1; break; }
    if (!strcmp(a, "--spawn")) { spawn = 1; continue; }
    if (!strcmp(a, "--release")) { release_mode = 1; continue; }
    if (!strcmp(a, "--mem")) { mem_mode = 1; continue; }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) usage();
    if (!strcmp(a, "--host")) host = v;
    else if (!strcmp(a, "--port")) port = atoi(v);
    else if (!strcmp(a, "-c")) nconns = atoi(v);
    else if (!strcmp(a, "-n")) n = strtoull(v, NULL, 10);
    else if (!strcmp(a, "-w")) window = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--warmup")) warmup = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--refill")) refill = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--pid")) server_pid = atoi(v);
    else if (!strcmp(a, "--setup")) setup = v;
    else if (!strcmp(a, "--template")) tmpl = v;
    else if (!strcmp(a, "--timeout")) timeout = atof(v);
    else if (!strcmp(a, "--startup-timeout")) startup_timeout = atof(v);
    else if (!strcmp(a, "--server-cpu")) server_cpu = atoi(v);
    else if (!strcmp(a, "--units-file")) units_file = v;
    else if (!strcmp(a, "--framing")) {
      if (!strcmp(v, "cl")) framing_cl = 1;
      else if (strcmp(v, "ndjson")) usage();
    } else usage();
    i++;
  }
  if (!tmpl || window < 1 || n < 1 || nconns < 1 || nconns > MAX_CONNS) usage();
  if (spawn ? (!cmd || !*cmd || nconns != 1) : port <= 0) usage();
  if (refill == 0 || refill > window) refill = 1;
  if (startup_timeout < 0) startup_timeout = timeout;
  signal(SIGPIPE, SIG_IGN);

  if (units_file) {
    FILE *f = fopen(units_file, "r");
    if (!f) { perror(units_file); return 2; }
    size_t cap = 0;
    char *line = NULL, *l2 = NULL;
    ssize_t len;
    size_t ucap = 16;
    units = malloc(ucap * sizeof *units);
    unit_lens = malloc(ucap * sizeof *unit_lens);
    while ((len = getline(&line, &cap, f)) > 0) {
      while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
      if (!len) continue;
      if (nunits == ucap) {
        units = realloc(units, (ucap *= 2) * sizeof *units);
        unit_lens = realloc(unit_lens, ucap * sizeof *unit_lens);
      }
      l2 = malloc((size_t)len);
      memcpy(l2, line, (size_t)len);
      units[nunits] = l2;
      unit_lens[nunits++] = (size_t)len;
      if ((size_t)len > max_unit_len) max_unit_len = (size_t)len;
    }
    fclose(f);
    free(line);
    if (!nunits) { fprintf(stderr, "loadgen: %s has no units\n", units_file); return 2; }
  }

  double t_spawn = now();
  if (spawn) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) die("pipe");
    t_spawn = now();
    child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
      if (server_cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(server_cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
      }
      dup2(in[0], 0);
      dup2(out[1], 1);
      execvp(cmd[0], cmd);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    server_pid = child;
    conns[0].rfd = out[0];
    conns[0].wfd = in[1];
  } else {
    for (int k = 0; k < nconns; k++) {
      int fd = socket(AF_INET, SOCK_STREAM, 0);
      if (fd < 0) die("socket");
      struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
      if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) { fprintf(stderr, "bad host\n"); return 2; }
      if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die("connect");
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      conns[k].rfd = conns[k].wfd = fd;
    }
  }
  for (int k = 0; k < nconns; k++) {
    conns[k].sbuf = malloc(SBUF);
    set_nonblock(conns[k].rfd);
    if (conns[k].wfd != conns[k].rfd) set_nonblock(conns[k].wfd);
  }
  char *rbuf = malloc(RBUF);

  /* one poll loop for the set-up request and the measured requests */
  struct pollfd pfds[MAX_CONNS * 2];
  int pconn[MAX_CONNS * 2];
  double last_progress = now();
  double setup_reply_ms = -1;

  if (setup) {
    setup_phase = 1;
    size_t sl = strlen(setup);
    char *tmp = malloc(sl + CL_HDR_ROOM + 2);
    memcpy(tmp + CL_HDR_ROOM, setup, sl);
    conn_t *c = &conns[0];
    free(c->sbuf);
    c->sbuf = malloc(sl + CL_HDR_ROOM + 2 > SBUF ? sl + CL_HDR_ROOM + 2 : SBUF);
    c->s_len = frame(c->sbuf, tmp + CL_HDR_ROOM, sl);
    c->s_off = 0;
    c->sent_msgs = 1;
    free(tmp);
  }

  uint64_t per_conn = (warmup + n) / (uint64_t)nconns, extra = (warmup + n) % (uint64_t)nconns;
  size_t max_req = CL_HDR_ROOM + 1;
  int tmpl_ready = 0;
  int per_req = release_mode ? 2 : 1;
  warmup_msgs = warmup * (uint64_t)per_req;
  int stdio_closed_early = 0;

  for (;;) {
    if (setup_phase && setup_done) {
      setup_phase = 0;
      setup_reply_ms = (now() - t_spawn) * 1e3;
      if (spawn && mem_mode) mem_after_setup = read_mem(server_pid);
      last_progress = now();
    }
    if (!setup_phase && !tmpl_ready) {
      char *t1 = replace_all(tmpl, "@ADID@", setup_adid);
      split_template(t1);
      int has_id = 0;
      for (int i = 0; i < nsegs; i++) {
        if (segs[i].kind == SEG_LIT) max_req += segs[i].len;
        else if (segs[i].kind == SEG_ID) { max_req += 22; has_id = 1; }
        else max_req += max_unit_len;
      }
      if (!has_id) { fprintf(stderr, "loadgen: template needs @ID@\n"); kill_child(); return 2; }
      size_t rel_max = CL_HDR_ROOM + 120 + ADID_MAX;
      if (rel_max > max_req) max_req = rel_max;
      if (max_req > SBUF) { fprintf(stderr, "loadgen: template too long\n"); kill_child(); return 2; }
      for (int k = 0; k < nconns; k++) conns[k].quota = per_conn + ((uint64_t)k < extra);
      tmpl_ready = 1;
      if (warmup_msgs == 0) start_measuring();
    }
    if (tmpl_ready) {
      int all_done = 1;
      for (int k = 0; k < nconns; k++)
        if (!conn_done(&conns[k])) { all_done = 0; break; }
      if (all_done) break;
    }
    int np = 0;
    for (int k = 0; k < nconns; k++) {
      conn_t *c = &conns[k];
      /* refill the send buffer within the window: releases first, then new requests */
      if (tmpl_ready && c->s_off == c->s_len) {
        uint64_t out = in_flight(c);
        /* a full batch of free slots, or the last requests (which never make a full one) */
        int can = window - out >= refill || c->sent_req == c->quota;
        if (can && out < window) {
          c->s_off = c->s_len = 0;
          while (c->rel_count && in_flight(c) < window &&
                 c->s_len + max_req <= SBUF) {
            c->s_len += put_release(c->sbuf + c->s_len, next_id++, c->rel[c->rel_head]);
            c->rel_head = (c->rel_head + 1) % c->rel_cap;
            c->rel_count--;
            c->sent_msgs++;
          }
          while (c->sent_req < c->quota && in_flight(c) < window &&
                 c->s_len + max_req <= SBUF) {
            c->s_len += put_request(c->sbuf + c->s_len, next_id++, req_index++);
            c->sent_req++;
            c->sent_msgs++;
          }
        }
      }
      short want_out = c->s_off < c->s_len ? POLLOUT : 0;
      if (c->rfd == c->wfd) {
        pfds[np] = (struct pollfd){.fd = c->rfd, .events = (short)(POLLIN | want_out)};
        pconn[np++] = k;
      } else {
        pfds[np] = (struct pollfd){.fd = c->rfd, .events = POLLIN};
        pconn[np++] = k;
        if (want_out) {
          pfds[np] = (struct pollfd){.fd = c->wfd, .events = POLLOUT};
          pconn[np++] = k;
        }
      }
    }
    int pr = poll(pfds, (nfds_t)np, 100);
    if (pr < 0) { if (errno == EINTR) continue; die("poll"); }
    double limit = setup_phase ? startup_timeout : timeout;
    if (pr == 0 || now() - last_progress > limit) {
      if (now() - last_progress > limit) {
        if (setup_phase) {
          mem_t m = read_mem(server_pid);
          fprintf(stderr, "loadgen: no reply to the set-up request within %.1f s\n", limit);
          printf("{\"startup_timeout\":true,\"waited_s\":%.3f", now() - t_spawn);
          print_mem("mem_at_timeout", m);
          printf("}\n");
          kill_child();
          return 5;
        }
        fprintf(stderr, "loadgen: stalled: received %llu messages\n",
                (unsigned long long)recvd_total);
        printf("{\"stalled\":true,\"received\":%llu,\"requests\":%llu}\n",
               (unsigned long long)recvd_total, (unsigned long long)n);
        kill_child();
        return 3;
      }
      continue;
    }
    for (int i = 0; i < np; i++) {
      conn_t *c = &conns[pconn[i]];
      short re = pfds[i].revents;
      if (!re) continue;
      int is_w = pfds[i].fd == c->wfd, is_r = pfds[i].fd == c->rfd;
      if (is_w && (re & POLLOUT) && c->s_off < c->s_len) {
        ssize_t w = write(c->wfd, c->sbuf + c->s_off, c->s_len - c->s_off);
        if (w < 0 && errno != EAGAIN && errno != EINTR) die("write");
        if (w > 0) c->s_off += (size_t)w;
      }
      if (is_r && (re & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t r = read(c->rfd, rbuf, RBUF);
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (r <= 0) {
          fprintf(stderr, "loadgen: the server closed the connection after %llu replies%s\n",
                  (unsigned long long)recvd_total, r < 0 ? strerror(errno) : "");
          printf("{\"lost\":true,\"received\":%llu,\"requests\":%llu}\n",
                 (unsigned long long)recvd_total, (unsigned long long)n);
          stdio_closed_early = 1;
          kill_child();
          return 4;
        }
        last_progress = now();
        consume(c, rbuf, (size_t)r);
      } else if (is_w && !is_r && (re & (POLLERR | POLLHUP))) {
        fprintf(stderr, "loadgen: the server's stdin closed after %llu replies\n",
                (unsigned long long)recvd_total);
        printf("{\"lost\":true,\"received\":%llu,\"requests\":%llu}\n",
               (unsigned long long)recvd_total, (unsigned long long)n);
        kill_child();
        return 4;
      }
    }
  }
  (void)stdio_closed_early;
  double t_end = now();
  double cpu_end = proc_cpu(server_pid), ns_end = proc_cpu_ns(server_pid);
  double self_end = self_cpu();
  double machine_end = machine_busy_s();
  if (mem_mode) mem_end = read_mem(server_pid);
  size_t nprocs_end = 0;
  proc_sample *procs_end = snapshot_procs(server_pid, &nprocs_end);
  double others = (procs_start && procs_end)
                      ? others_cpu_between(procs_start, nprocs_start, procs_end, nprocs_end)
                      : -1;
  double machine = (machine_start >= 0 && machine_end >= 0) ? machine_end - machine_start : -1;
  double elapsed = t_end - t_start;
  double server_cpu_s = (cpu_start >= 0 && cpu_end >= 0) ? cpu_end - cpu_start : -1;
  double server_ns = (ns_start >= 0 && ns_end >= 0) ? ns_end - ns_start : -1;
  uint64_t msgs = recvd_total - msgs_at_start;
  double reqs = (double)msgs / per_req; /* template requests measured */

  /* close the connections; a spawned server gets EOF on stdin and should exit 0 */
  int server_status = -1;
  if (spawn) {
    close(conns[0].wfd);
    double t0 = now();
    set_nonblock(conns[0].rfd);
    for (;;) {
      struct pollfd p = {.fd = conns[0].rfd, .events = POLLIN};
      if (poll(&p, 1, 100) > 0) {
        ssize_t r = read(conns[0].rfd, rbuf, RBUF);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) break;
      }
      if (now() - t0 > 10) break;
    }
    int st = 0;
    for (;;) {
      pid_t w = waitpid(child, &st, WNOHANG);
      if (w == child) { server_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st); break; }
      if (now() - t0 > 10) { kill(child, SIGKILL); waitpid(child, &st, 0); server_status = -9; break; }
      usleep(2000);
    }
    child = 0;
  } else {
    for (int k = 0; k < nconns; k++) close(conns[k].rfd);
  }

  printf("{\"requests\":%.0f,\"messages\":%llu,\"connections\":%d,\"window\":%llu,\"refill\":%llu,"
         "\"framing\":\"%s\",\"transport\":\"%s\",\"release\":%s,\"elapsed_s\":%.6f,\"rps\":%.1f,"
         "\"bytes_in\":%llu,\"reply_bytes_avg\":%.1f,\"bytes_per_request\":%.1f,"
         "\"error_replies\":%llu,\"server_cpu_s\":%.3f,"
         "\"server_cpu_us_per_req\":%.4f,\"server_cpu_us_per_req_schedstat\":%.4f,"
         "\"server_busy_fraction\":%.3f,\"loadgen_cpu_s\":%.3f,\"machine_cpu_s\":%.3f,"
         "\"others_cpu_s\":%.3f,\"clk_tck\":%ld",
         reqs, (unsigned long long)msgs, nconns, (unsigned long long)window,
         (unsigned long long)refill, framing_cl ? "cl" : "ndjson", spawn ? "stdio" : "tcp",
         release_mode ? "true" : "false", elapsed, reqs / elapsed, (unsigned long long)bytes_in,
         msgs ? (double)bytes_in / (double)msgs : 0.0, reqs ? (double)bytes_in / reqs : 0.0,
         (unsigned long long)errors, server_cpu_s,
         server_cpu_s >= 0 ? server_cpu_s * 1e6 / reqs : -1.0,
         server_ns >= 0 ? server_ns * 1e6 / reqs : -1.0,
         server_ns >= 0 ? server_ns / elapsed : (server_cpu_s >= 0 ? server_cpu_s / elapsed : -1.0),
         self_end - self_start, machine, others, sysconf(_SC_CLK_TCK));
  if (release_mode)
    printf(",\"load_replies\":%llu,\"load_reply_bytes_avg\":%.1f,\"release_reply_bytes_avg\":%.1f",
           (unsigned long long)load_replies,
           load_replies ? (double)load_bytes / (double)load_replies : 0.0,
           msgs > load_replies ? (double)(bytes_in - load_bytes) / (double)(msgs - load_replies)
                               : 0.0);
  if (setup) {
    printf(",\"setup_reply_ms\":%.3f,\"setup_adid\":", setup_reply_ms);
    json_str(stdout, setup_adid, strlen(setup_adid));
  }
  if (spawn) printf(",\"server_exit_status\":%d", server_status);
  if (mem_mode) {
    if (spawn) print_mem("mem_after_setup", mem_after_setup);
    print_mem("mem_start", mem_start);
    print_mem("mem_end", mem_end);
  }
  printf(",\"first_reply\":");
  json_str(stdout, first, first_len);
  printf(",\"stalled\":false}\n");
  return 0;
}
