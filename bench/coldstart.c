/*
 * coldstart.c: cold-start latency of a stdio JSON-RPC server.
 *
 * RUNS times: spawn CMD... (fork + execvp, stdin/stdout on pipes, stderr to /dev/null), write
 * one request line to its stdin, and time until the first complete reply line arrives on its
 * stdout. Then close stdin and reap the child (not timed). Prints one JSON object:
 *   {"runs":R,"median_ms":..,"min_ms":..,"p90_ms":..,"max_ms":..,"samples_ms":[..],
 *    "reply_bytes":..,"first_reply":"<first 120 bytes>"}
 *
 *   gcc -O2 -o out/coldstart coldstart.c
 *   out/coldstart --runs 30 --request '{"jsonrpc":"2.0","id":1,...}' -- CMD ARGS...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int runs = 30;
  const char *request = NULL;
  int i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--")) { i++; break; }
    if (i + 1 >= argc) goto usage;
    if (!strcmp(argv[i], "--runs")) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--request")) request = argv[++i];
    else goto usage;
  }
  if (!request || i >= argc || runs < 1) goto usage;
  char **cmd = argv + i;
  signal(SIGPIPE, SIG_IGN);

  size_t rl = strlen(request);
  char *line = malloc(rl + 2);
  memcpy(line, request, rl);
  line[rl] = '\n';
  double *samples = calloc((size_t)runs, sizeof *samples);
  size_t cap = 1 << 20;
  char *buf = malloc(cap);
  size_t reply_len = 0;

  for (int r = 0; r < runs; r++) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) { perror("pipe"); return 1; }
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 1; }
    if (pid == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) dup2(devnull, 2);
      execvp(cmd[0], cmd);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* The request goes into the pipe at once; the server reads it when it is ready. */
    if (write(in[1], line, rl + 1) != (ssize_t)(rl + 1)) { perror("write"); return 1; }
    size_t len = 0;
    int done = 0;
    while (!done) {
      if (len == cap) { cap *= 2; buf = realloc(buf, cap); }
      ssize_t n = read(out[0], buf + len, cap - len);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) { fprintf(stderr, "coldstart: no reply (run %d)\n", r); return 3; }
      if (memchr(buf + len, '\n', (size_t)n)) done = 1;
      len += (size_t)n;
    }
    samples[r] = now_ms() - t0;
    reply_len = (size_t)((char *)memchr(buf, '\n', len) - buf);
    close(in[1]);
    /* drain until EOF so the child can exit, then reap */
    char sink[65536];
    while (read(out[0], sink, sizeof sink) > 0) {}
    close(out[0]);
    int status;
    waitpid(pid, &status, 0);
  }
  double *sorted = malloc((size_t)runs * sizeof *sorted);
  memcpy(sorted, samples, (size_t)runs * sizeof *sorted);
  qsort(sorted, (size_t)runs, sizeof *sorted, cmp);
  double median = runs % 2 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
  printf("{\"runs\":%d,\"median_ms\":%.3f,\"min_ms\":%.3f,\"p90_ms\":%.3f,\"max_ms\":%.3f,"
         "\"reply_bytes\":%zu,\"samples_ms\":[",
         runs, median, sorted[0], sorted[(runs * 9) / 10 < runs ? (runs * 9) / 10 : runs - 1],
         sorted[runs - 1], reply_len);
  for (int r = 0; r < runs; r++) printf("%s%.3f", r ? "," : "", samples[r]);
  printf("],\"first_reply\":\"");
  for (size_t k = 0; k < reply_len && k < 120; k++) {
    unsigned char c = (unsigned char)buf[k];
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
    else putchar(c);
  }
  printf("\"}\n");
  return 0;
usage:
  fprintf(stderr, "usage: coldstart [--runs N] --request JSON -- CMD [ARGS...]\n");
  return 2;
}
