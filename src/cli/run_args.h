/* the options that both modes of `ipcc run` take (cmd_run.c: IPC mode, cmd_run_lcp.c: LCP
   mode), parsed in one place */
#ifndef IPCC_CLI_RUN_ARGS_H
#define IPCC_CLI_RUN_ARGS_H

#include <stddef.h>

#include "ipcc/scene.h"

/* the most steps a run may be asked for (--steps, or the scene's duration / time_step): more
   would take years, and the limit keeps the step and frame counters far from INT_MAX */
#define IPC_RUN_MAX_STEPS 1000000000L

typedef struct ipc_run_args {
  const char *scene;    /* the positional SCENE; NULL until given */
  const char *outdir;   /* -o / --out DIR; NULL: ipc_run_default_outdir */
  const char *mode;     /* --mode ipc|lcp; NULL: the scene's "mode" */
  const char *resume;   /* --resume OUTDIR; NULL: a new run */
  long steps;           /* --steps N; -1: the scene's duration / time_step */
  int quiet;            /* --quiet / -q */
  int check;            /* --check */
  int overwrite;        /* --overwrite: replace an earlier run in outdir */
  unsigned formats;     /* --format LIST (IPCC_FORMAT_* bits); 0: the scene's */
  int write_planes;     /* --write-planes: frames/planes.obj (or the scene's output.planes) */
  int every;            /* --every N; 0: the scene's */
  int preview_every;    /* --preview (1) / --preview-every N; 0: the scene's */
  int checkpoint;       /* 0 with --no-checkpoint */
  int checkpoint_every; /* --checkpoint-every N; 0: by wall time (a resumed run may set it) */
  int lenient;          /* --lenient */
  int run_only;         /* an option that a resumed run takes from its checkpoint was given */
} ipc_run_args;

/* no scene, no folder, the scene's step count and output options, checkpoints */
void ipc_run_args_init(ipc_run_args *o);

/* if argv[*i] is one of the options both modes take (-o/--out DIR, --steps N, --threads N
   (applied at once with ipcc_set_threads), --quiet/-q, --check, --overwrite, --mode M,
   --resume DIR, --format LIST, --write-planes, --every N, --preview, --preview-every N,
   --no-checkpoint,
   --checkpoint-every N, --lenient; trailing slashes of folders are dropped), records it in o and
   moves *i past its value: returns 1. returns 0 when argv[*i] is none of these, 2 when its value is
   missing or bad (message on stderr). --linear-solver NAME and --petsc-options "..." are applied
   at once, process-wide (linear_solver.h), so a resumed run takes them too. */
int ipc_run_args_common(ipc_run_args *o, int argc, char **argv, int *i);

/* after all arguments: with --resume, only --steps, --quiet, --lenient, --threads and
   --checkpoint-every may
   have been given (mode_options: options of a mode were given too); without, SCENE must
   have been. 0, or 2 with a message on stderr (no_scene: 1 when SCENE is what is missing,
   for the caller's usage) */
int ipc_run_args_finish(const ipc_run_args *o, int mode_options, int *no_scene);

/* argv[i], which no option took, as SCENE: 0, or 2 with a message on stderr when it looks
   like an option or SCENE was given already (the caller prints its usage) */
int ipc_run_args_positional(ipc_run_args *o, int argc, char **argv, int i);

/* the integer value val of option opt (--every, --threads), 1 to INT_MAX, into *out: 0, or 2
   with a message on stderr */
int ipc_run_parse_count(const char *opt, const char *val, long *out);

/* --steps N of command cmd ("ipcc run"): 0 to IPC_RUN_MAX_STEPS into *out: 0, or 2 with a
   message on stderr */
int ipc_run_parse_steps(const char *cmd, const char *val, long *out);

/* the step count def asks for (duration / time_step) against IPC_RUN_MAX_STEPS: 0, or 2 with a
   message naming scene and both keys (the world's int step count would overflow) */
int ipc_run_check_scene_steps(const char *cmd, const char *scene, const ipcc_scene_def *def);

/* makes room in *buf (capacity *cap records of elem bytes) for record n, growing as a run
   goes (never by the steps asked for); 0, or 2 with a message when memory runs out */
int ipc_run_stats_room(void **buf, size_t *cap, size_t n, size_t elem);

/* "out/<scene file name without its extension><suffix>" (suffix may be ""), malloc'd */
char *ipc_run_default_outdir(const char *scene, const char *suffix);

#endif
