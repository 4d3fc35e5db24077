/* a one-line progress bar on stderr for long runs: steps, simulated time, ETA and the last
   step's solver figures; silent unless enabled (a terminal and no --quiet) */
#ifndef IPCC_CLI_PROGRESS_H
#define IPCC_CLI_PROGRESS_H

typedef struct ipc_progress {
  int enabled;
  long total;         /* steps of the whole run */
  long first;         /* steps already done when this session started (resume) */
  double t_start;     /* wall clock at the start of this session, s */
  double t_last;      /* wall clock of the last redraw, s */
  int drawn;          /* a line is on screen */
  const char *solver; /* what the iteration count counts: "newton" (begin), "lcp" */
} ipc_progress;

/* wall clock, s (monotonic) */
double ipc_progress_now(void);

/* starts a bar for a run of total steps of which first are done; enabled as given */
void ipc_progress_begin(ipc_progress *p, int enabled, long first, long total);

/* redraws after step `done` (1-based): simulated time t (s), the step's solver iterations
   and contacts; at most ~10 redraws a second, always the last step */
void ipc_progress_update(ipc_progress *p, long done, double t, long iterations, int contacts);

/* ends the line so that following messages start on a fresh one */
void ipc_progress_break(ipc_progress *p);

#endif
