/*
 * loadgen.c: pipelined NDJSON load generator for the native-ads benchmark.
 *
 * Connects to HOST:PORT over TCP, optionally sends one set-up request and waits for its reply
 * (e.g. a loadAd, whose first "adId" is then substituted for @ADID@ in the template), then sends
 * WARMUP + N requests built from a template (@ID@ becomes an increasing integer id), keeping at
 * most W requests outstanding (topping the window up once at least R = --refill slots are free;
 * default 1, i.e. keep the window full), and counts reply lines ('\n'). The clock (and, with
 * --pid, the server's CPU time read from /proc) covers only the N measured requests.
 *
 * Prints one JSON object on stdout:
 *   {"requests":N,"elapsed_s":..,"rps":..,"bytes_in":..,"reply_bytes_avg":..,
 *    "error_replies":..,"server_cpu_s":..,
 *    "server_cpu_us_per_req":.. (utime+stime from /proc/PID/stat, clock-tick resolution),
 *    "server_cpu_us_per_req_schedstat":.. (same, ns precision), "server_busy_fraction":..
 *    (server CPU time / elapsed), "loadgen_cpu_s":.., "others_cpu_s":.. (CPU time of every other
 *    process during the run: noise), "machine_cpu_s":.. (non-idle time of all CPUs from
 *    /proc/stat; tick-sampled, so biased when wake-ups line up with ticks: info only),
 *    "first_reply":"<first 200 bytes of the first measured reply>","stalled":false}
 *
 *   gcc -O2 -o out/loadgen loadgen.c
 *   out/loadgen --port P [--host 127.0.0.1] [-n N] [-w W] [--refill R] [--warmup K]
 *               [--pid SERVER_PID] [--setup JSON] [--timeout SECONDS] --template JSON
 *
 * Plain blocking-free sockets + poll(2); replies of any size are fine (only '\n' is counted).
 * "error_replies" counts replies (warm-up included) that contain "error":{"code": (a JSON-RPC
 * error object), as a sanity check.
 * Exit status: 0 ok, 2 usage, 3 stalled (no progress for --timeout seconds), 4 connection lost.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <dirent.h>

#define RBUF (1 << 20)
#define SBUF (64 * 1024)

static const char ERR_PAT[] = "\"error\":{\"code\":";
#define ERR_PAT_LEN (sizeof(ERR_PAT) - 1)

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
 * unreadable. What neither the server nor the load generator used is other work: noise. */
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

static void die(const char *msg) {
  fprintf(stderr, "loadgen: %s: %s\n", msg, strerror(errno));
  exit(4);
}

static void usage(void) {
  fprintf(stderr,
          "usage: loadgen --port P [--host H] [-n N] [-w W] [--refill R] [--warmup K] [--pid PID]\n"
          "               [--setup JSON] [--timeout S] --template JSON\n");
  exit(2);
}

/* Template split at @ID@: prefix, suffix. */
static char *t_pre, *t_suf;
static size_t t_pre_len, t_suf_len;

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

static size_t put_request(char *dst, uint64_t id) {
  char num[24];
  int k = 0;
  do { num[k++] = (char)('0' + id % 10); id /= 10; } while (id);
  char *o = dst;
  memcpy(o, t_pre, t_pre_len); o += t_pre_len;
  while (k) *o++ = num[--k];
  memcpy(o, t_suf, t_suf_len); o += t_suf_len;
  *o++ = '\n';
  return (size_t)(o - dst);
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

int main(int argc, char **argv) {
  const char *host = "127.0.0.1", *tmpl = NULL, *setup = NULL;
  int port = 0, pid = 0;
  uint64_t n = 100000, warmup = 0, window = 256, refill = 0;
  double timeout = 10;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) usage();
    if (!strcmp(a, "--host")) host = v;
    else if (!strcmp(a, "--port")) port = atoi(v);
    else if (!strcmp(a, "-n")) n = strtoull(v, NULL, 10);
    else if (!strcmp(a, "-w")) window = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--warmup")) warmup = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--refill")) refill = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--pid")) pid = atoi(v);
    else if (!strcmp(a, "--setup")) setup = v;
    else if (!strcmp(a, "--template")) tmpl = v;
    else if (!strcmp(a, "--timeout")) timeout = atof(v);
    else usage();
    i++;
  }
  if (!tmpl || port <= 0 || window < 1 || n < 1) usage();
  if (refill == 0 || refill > window) refill = 1;

  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) die("socket");
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) { fprintf(stderr, "bad host\n"); return 2; }
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die("connect");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

  char *rbuf = malloc(RBUF);
  char adid[256] = "none";

  /* Set-up request (blocking): send one line, read until its reply line is complete. */
  if (setup) {
    size_t sl = strlen(setup);
    char *line = malloc(sl + 2);
    memcpy(line, setup, sl); line[sl] = '\n';
    for (size_t off = 0; off < sl + 1;) {
      ssize_t w = send(fd, line + off, sl + 1 - off, MSG_NOSIGNAL);
      if (w < 0) die("send setup");
      off += (size_t)w;
    }
    free(line);
    size_t cap = RBUF, len = 0;
    char *acc = malloc(cap);
    for (;;) {
      if (len == cap) { cap *= 2; acc = realloc(acc, cap); }
      ssize_t r = recv(fd, acc + len, cap - len, 0);
      if (r <= 0) die("recv setup reply");
      char *nl = memchr(acc + len, '\n', (size_t)r);
      len += (size_t)r;
      if (nl) {
        if ((size_t)(nl - acc) + 1 != len) {
          fprintf(stderr, "loadgen: unexpected bytes after the set-up reply\n");
          return 4;
        }
        break;
      }
    }
    acc[len] = 0;
    const char *key = "\"adId\":\"";
    char *p = memmem(acc, len, key, strlen(key));
    if (p) {
      p += strlen(key);
      char *q = memchr(p, '"', len - (size_t)(p - acc));
      if (q && (size_t)(q - p) < sizeof adid) { memcpy(adid, p, (size_t)(q - p)); adid[q - p] = 0; }
    }
    free(acc);
  }

  char *t1 = replace_all(tmpl, "@ADID@", adid);
  char *at = strstr(t1, "@ID@");
  if (!at) { fprintf(stderr, "loadgen: template needs @ID@\n"); return 2; }
  t_pre = t1; t_pre_len = (size_t)(at - t1);
  t_suf = at + 4; t_suf_len = strlen(t_suf);
  size_t max_req = t_pre_len + t_suf_len + 22;
  if (max_req > SBUF) { fprintf(stderr, "loadgen: template too long\n"); return 2; }

  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

  uint64_t total = warmup + n, sent = 0, recvd = 0, errors = 0, bytes_in = 0;
  uint64_t next_id = 1000;
  char *sbuf = malloc(SBUF);
  size_t s_off = 0, s_len = 0;
  double t_start = 0, cpu_start = -1, ns_start = -1, self_start = 0, machine_start = -1;
  proc_sample *procs_start = NULL;
  size_t nprocs_start = 0;
  int measuring = 0;
  char first[200];
  size_t first_len = 0;
  int capture_first = 0; /* capturing the first measured reply */
  /* error-pattern scan across buffer boundaries: keep the last ERR_PAT_LEN-1 bytes */
  char carry[ERR_PAT_LEN * 2];
  size_t carry_len = 0;
  double last_progress = now();

/* The slow /proc scans first, the server's CPU time and the clock last, closest together. */
#define START_MEASURING()                                                                        \
  do {                                                                                           \
    measuring = 1;                                                                               \
    capture_first = 1;                                                                           \
    procs_start = snapshot_procs(pid, &nprocs_start);                                            \
    machine_start = machine_busy_s();                                                            \
    self_start = self_cpu();                                                                     \
    cpu_start = proc_cpu(pid);                                                                   \
    ns_start = proc_cpu_ns(pid);                                                                 \
    t_start = now();                                                                             \
  } while (0)

  if (warmup == 0) START_MEASURING();

  while (recvd < total) {
    /* Refill the send buffer within the window. */
    if (s_off == s_len && (sent == total || window - (sent - recvd) >= refill)) {
      s_off = s_len = 0;
      while (sent < total && sent - recvd < window && s_len + max_req <= SBUF) {
        s_len += put_request(sbuf + s_len, next_id++);
        sent++;
      }
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN | (s_off < s_len ? POLLOUT : 0)};
    int pr = poll(&pfd, 1, 200);
    if (pr < 0) { if (errno == EINTR) continue; die("poll"); }
    if (pr == 0) {
      if (now() - last_progress > timeout) {
        fprintf(stderr, "loadgen: stalled: sent %llu, received %llu of %llu\n",
                (unsigned long long)sent, (unsigned long long)recvd, (unsigned long long)total);
        printf("{\"stalled\":true,\"sent\":%llu,\"received\":%llu,\"requests\":%llu}\n",
               (unsigned long long)sent, (unsigned long long)recvd, (unsigned long long)total);
        return 3;
      }
      continue;
    }
    if (pfd.revents & (POLLERR | POLLHUP) && !(pfd.revents & POLLIN)) {
      fprintf(stderr, "loadgen: connection lost after %llu replies\n", (unsigned long long)recvd);
      printf("{\"lost\":true,\"sent\":%llu,\"received\":%llu,\"requests\":%llu}\n",
             (unsigned long long)sent, (unsigned long long)recvd, (unsigned long long)total);
      return 4;
    }
    if (pfd.revents & POLLOUT && s_off < s_len) {
      ssize_t w = send(fd, sbuf + s_off, s_len - s_off, MSG_NOSIGNAL);
      if (w < 0 && errno != EAGAIN && errno != EINTR) die("send");
      if (w > 0) s_off += (size_t)w;
    }
    if (pfd.revents & POLLIN) {
      ssize_t r = recv(fd, rbuf, RBUF, 0);
      if (r == 0) {
        fprintf(stderr, "loadgen: server closed the connection after %llu replies\n",
                (unsigned long long)recvd);
        printf("{\"lost\":true,\"sent\":%llu,\"received\":%llu,\"requests\":%llu}\n",
               (unsigned long long)sent, (unsigned long long)recvd, (unsigned long long)total);
        return 4;
      }
      if (r < 0) { if (errno == EAGAIN || errno == EINTR) continue; die("recv"); }
      last_progress = now();
      if (measuring) bytes_in += (size_t)r;
      /* error pattern: check the seam with the previous buffer, then the buffer itself */
      if (carry_len) {
        size_t take = (size_t)r < ERR_PAT_LEN - 1 ? (size_t)r : ERR_PAT_LEN - 1;
        memcpy(carry + carry_len, rbuf, take);
        if (memmem(carry, carry_len + take, ERR_PAT, ERR_PAT_LEN)) errors++;
      }
      for (char *p = rbuf, *e = rbuf + r; (p = memmem(p, (size_t)(e - p), ERR_PAT, ERR_PAT_LEN));
           p += ERR_PAT_LEN)
        errors++;
      carry_len = (size_t)r < ERR_PAT_LEN - 1 ? (size_t)r : ERR_PAT_LEN - 1;
      memcpy(carry, rbuf + r - carry_len, carry_len);

      const char *p = rbuf, *e = rbuf + r;
      while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        if (capture_first) {
          size_t chunk = (size_t)((nl ? nl : e) - p);
          size_t room = sizeof first - first_len;
          if (chunk > room) chunk = room;
          memcpy(first + first_len, p, chunk);
          first_len += chunk;
          if (nl) capture_first = 0;
        }
        if (!nl) break;
        p = nl + 1;
        recvd++;
        if (!measuring && recvd == warmup) {
          START_MEASURING();
          /* bytes after the warm-up's last reply belong to measured replies */
          bytes_in += (size_t)(e - p);
        }
      }
    }
  }
  double t_end = now();
  double cpu_end = proc_cpu(pid), ns_end = proc_cpu_ns(pid);
  double self_end = self_cpu();
  double machine_end = machine_busy_s();
  size_t nprocs_end = 0;
  proc_sample *procs_end = snapshot_procs(pid, &nprocs_end);
  double others = (procs_start && procs_end)
                      ? others_cpu_between(procs_start, nprocs_start, procs_end, nprocs_end)
                      : -1;
  double machine = (machine_start >= 0 && machine_end >= 0) ? machine_end - machine_start : -1;
  double elapsed = t_end - t_start;
  double server_cpu = (cpu_start >= 0 && cpu_end >= 0) ? cpu_end - cpu_start : -1;
  double server_ns = (ns_start >= 0 && ns_end >= 0) ? ns_end - ns_start : -1;

  printf("{\"requests\":%llu,\"window\":%llu,\"refill\":%llu,\"elapsed_s\":%.6f,\"rps\":%.1f,"
         "\"bytes_in\":%llu,\"reply_bytes_avg\":%.1f,\"error_replies\":%llu,\"server_cpu_s\":%.3f,"
         "\"server_cpu_us_per_req\":%.4f,\"server_cpu_us_per_req_schedstat\":%.4f,"
         "\"server_busy_fraction\":%.3f,\"loadgen_cpu_s\":%.3f,\"machine_cpu_s\":%.3f,\"others_cpu_s\":%.3f,\"clk_tck\":%ld,\"first_reply\":",
         (unsigned long long)n, (unsigned long long)window, (unsigned long long)refill, elapsed,
         (double)n / elapsed,
         (unsigned long long)bytes_in, (double)bytes_in / (double)n, (unsigned long long)errors,
         server_cpu, server_cpu >= 0 ? server_cpu * 1e6 / (double)n : -1.0,
         server_ns >= 0 ? server_ns * 1e6 / (double)n : -1.0,
         server_ns >= 0 ? server_ns / elapsed : (server_cpu >= 0 ? server_cpu / elapsed : -1.0),
         self_end - self_start, machine, others, sysconf(_SC_CLK_TCK));
  json_str(stdout, first, first_len);
  printf(",\"stalled\":false}\n");
  close(fd);
  return 0;
}
