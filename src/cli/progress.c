#include "cli/progress.h"

#include <stdio.h>
#include <time.h>

double ipc_progress_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ipc_progress_begin(ipc_progress *p, int enabled, long first, long total) {
  p->enabled = enabled;
  p->first = first;
  p->total = total;
  p->t_start = ipc_progress_now();
  p->t_last = -1.0;
  p->drawn = 0;
  p->solver = "newton";
}

/* h:mm:ss, or m:ss below an hour */
static void format_duration(char *out, size_t n, double s) {
  if (!(s >= 0) || s > 1e8) {
    snprintf(out, n, "--:--");
    return;
  }
  long t = (long)(s + 0.5);
  if (t >= 3600)
    snprintf(out, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    snprintf(out, n, "%ld:%02ld", t / 60, t % 60);
}

void ipc_progress_update(ipc_progress *p, long done, double t, long iterations, int contacts) {
  if (!p->enabled) return;
  double now = ipc_progress_now();
  if (done < p->total && p->t_last >= 0 && now - p->t_last < 0.1) return;
  p->t_last = now;
  enum { width = 24 };
  char bar[width + 1];
  long filled = p->total > 0 ? done * width / p->total : width;
  for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '-';
  bar[width] = '\0';
  long session = done - p->first;
  double eta = session > 0 ? (now - p->t_start) / (double)session * (double)(p->total - done) : -1;
  char eta_s[32];
  format_duration(eta_s, sizeof eta_s, eta);
  fprintf(stderr, "\r[%s] %ld/%ld  t=%.4g s  ETA %s  %s %ld  contacts %d\033[K", bar, done,
          p->total, t, eta_s, p->solver, iterations, contacts);
  fflush(stderr);
  p->drawn = 1;
}

void ipc_progress_break(ipc_progress *p) {
  if (p->enabled && p->drawn) fputc('\n', stderr);
  p->drawn = 0;
}
