/* LCP mode of `ipcc run` (cmd_run_lcp.c): its options, its world and its run_mode table
   (ipc_run_mode_lcp); the run itself (frames, previews, checkpoints, --resume, stats.json) is
   cmd_run.c's, shared with IPC mode */
#ifndef IPCC_CLI_RUN_LCP_H
#define IPCC_CLI_RUN_LCP_H

#include <stdio.h>

#include "cli/run_mode.h"
#include "core/world.h"
#include "io/run_output.h"
#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"

/* the LCP options of the command line, as given */
typedef struct ipc_run_lcp_opts {
  const char *val[11]; /* the last value of each option that sets a def key, or NULL */
  const char *dump;    /* --dump-lcp DIR */
  int no_warm, no_regions;
  const char *first; /* the first LCP option given (messages), NULL when none */
} ipc_run_lcp_opts;

/* the LCP options of the usage text */
void ipc_run_lcp_usage(FILE *f);

/* if argv[*i] is an LCP option (--solver S, --friction F, --directions K, --coupling C, --gap D,
   --baumgarte B, --restitution E, --tol T, --max-iter N, --omega W, --manifold M, --no-warm-start,
   --no-regions, --dump-lcp DIR), records it and moves *i past its value: 1; 0 when it is none,
   2 when its value is missing (message on stderr; values are checked by ipc_run_lcp_def) */
int ipc_run_lcp_option(ipc_run_lcp_opts *lo, int argc, char **argv, int *i);

/* whether the scene file asks for LCP mode ("mode": "lcp"): 1, 0 (IPC mode; also IPC
   scripts), or -1 when its "mode" or "lcp" keys (or the file itself) do not load, with the
   message on stderr */
int ipc_run_scene_is_lcp(const char *scene);

/* the run's options: the scene's "lcp" object (none in IPC scripts), then the command
   line's; 0, or 2 with a message naming the key */
int ipc_run_lcp_def(const ipc_run_lcp_opts *lo, const char *scene, ipcc_lcp_world_def *ld);

/* the world of the run (dump: --dump-lcp, prepared here, or NULL); warns about the lumped
   coupling on bodies too stiff and light for the step. NULL with a message on stderr */
ipcc_world *ipc_run_lcp_world(const ipcc_scene_def *def, const ipcc_lcp_world_def *ld,
                              const char *dump);

#endif
