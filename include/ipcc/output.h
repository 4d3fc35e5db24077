/* writing frames and statistics */
#ifndef IPCC_OUTPUT_H
#define IPCC_OUTPUT_H

#include <stddef.h>

#include "ipcc/error.h"
#include "ipcc/world.h"

/* writes the surfaces of all bodies and obstacles at the current state as one OBJ
   file, one named object each, atomically (temporary file, then rename) */
ipc_status ipc_world_write_obj(const ipc_world *w, const char *path, ipc_error *err);

/* creates the output folder (and parents) */
ipc_status ipc_output_prepare(const char *dir, ipc_error *err);

/* summary of a run, as stats.json's "summary" */
typedef struct ipc_run_summary {
  const char *mode; /* "ipc" or "lcp" */
  const char *scene;
  int steps;
  double wall_seconds;
  double min_distance;
  int intersection_checked; /* 1 when intersection_free holds a result */
  int intersection_free;
  int frames_checked;
  long newton_iterations;
  long newton_capped_steps;
  long lcp_iterations;
  int contacts_max;
  int dirichlet_unmet_steps;
  double dhat;
} ipc_run_summary;

/* writes {"summary": {...}, "steps": [{...}, ...]} atomically */
ipc_status ipc_write_stats_json(const char *path, const ipc_run_summary *sum,
                                const ipc_step_stats *steps, size_t nsteps, ipc_error *err);

#endif
