/* what `ipcc run` does differently in each mode: one table per mode (IPC: cmd_run.c, LCP:
   cmd_run_lcp.c); the run itself (cmd_run.c) is written once over the world (core/world.h) */
#ifndef IPCC_CLI_RUN_MODE_H
#define IPCC_CLI_RUN_MODE_H

#include <stddef.h>

#include "io/run_output.h"

/* what the run needs of any mode's step record */
typedef struct ipc_run_step_view {
  long iterations;     /* solver iterations of the step (progress bar) */
  int contacts;        /* contacts of the step (progress bar) */
  int contacts_peak;   /* for the summary's contacts_max */
  double min_distance; /* for the summary's min_distance */
} ipc_run_step_view;

typedef struct ipc_run_mode {
  const char *label;             /* "IPC", "LCP" (messages) */
  const char *outdir_suffix;     /* the default OUTDIR is out/<scene name><suffix> */
  const ipc_stats_layout *stats; /* its keys of stats.json */
  /* the step just taken (its record; s: what the step returned) into the mode's counters of
     sum, and *v; returns s, or the error a finished step turned out to be */
  ipcc_status (*fold)(ipc_run_summary *sum, const void *record, ipc_run_step_view *v, ipcc_status s,
                      ipcc_error *err);
  /* the summary's first line (stdout), continued by summary: printf's format of the steps,
     wall seconds, seconds per step, iterations per step (the summary's long at offset
     iterations) and the smallest distance */
  const char *first_line;
  size_t iterations;
  void (*summary)(const ipc_run_checkpoint *c);
} ipc_run_mode;

extern const ipc_run_mode ipc_run_mode_ipc; /* cmd_run.c */
extern const ipc_run_mode ipc_run_mode_lcp; /* cmd_run_lcp.c */

#endif
