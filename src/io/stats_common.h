/* pieces of stats.json that the IPC-mode writer (stats_json.c) and the LCP-mode writer
   (stats_lcp_json.c) share: the summary's first keys, the intersection check, step records,
   groups of timings, the atomic write and reading it back */
#ifndef IPCC_IO_STATS_COMMON_H
#define IPCC_IO_STATS_COMMON_H

#include <cjson/cJSON.h>

#include "io/run_output.h"
#include "ipcc/error.h"

/* adds key: v to o, or key: null when v is not finite (JSON has no infinity) */
void ipc_stats_add_num(cJSON *o, const char *key, double v);

/* adds to o an object `key` of n numbers names[i]: values[i] (null when not finite) */
void ipc_stats_add_nums(cJSON *o, const char *key, const char *const *names, const double *values,
                        int n);

/* the summary's first keys: mode (default_mode when sum->mode is NULL), scene (when set),
   steps, wall_seconds, seconds_per_step, min_distance, planes (when sum->planes is set), and
   time_step and every (when sum->every > 0) */
void ipc_stats_summary_begin(cJSON *s, const ipc_run_summary *sum, const char *default_mode);

/* intersection_free and frames_checked when the frames were checked, else
   intersection_free: null */
void ipc_stats_summary_check(cJSON *s, const ipc_run_summary *sum);

/* appends one step's energy to the summary's energy history (0 when not finite) */
void ipc_stats_energy_push(cJSON *history, double energy);

/* a new step record {"step": step, "time": time}, appended to the array steps; returns it */
cJSON *ipc_stats_step_begin(cJSON *steps, int step, double time);

/* prints root to path (atomically, with a final newline) and deletes root; IPCC_ERR_INPUT
   when the file cannot be written */
ipcc_status ipc_stats_write(cJSON *root, const char *path, ipcc_error *err);

/* the text of the stats.json at path (ipc_free it), for `ipcc plot` and `ipcc compare`;
   NULL with err naming path when it is missing, not a regular file or unreadable */
char *ipc_stats_read(const char *path, ipcc_error *err);

#endif
