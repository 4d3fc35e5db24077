/* options shared by the two modes of `ipcc run` (run_args.h) */
#include "cli/run_args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/outdir.h"
#include "ipcc/ipcc.h"
#include "linalg/linear_solver.h"

void ipc_run_args_init(ipc_run_args *o) {
  memset(o, 0, sizeof *o);
  o->steps = -1;
  o->checkpoint = 1;
}

int ipc_run_parse_count(const char *opt, const char *val, long *out) {
  char *end;
  long v = strtol(val, &end, 10);
  if (!val[0] || *end || v < 1 || v > INT_MAX) {
    fprintf(stderr, "ipcc run: %s: expected a positive integer, got '%s'\n", opt, val);
    return 2;
  }
  *out = v;
  return 0;
}

int ipc_run_parse_steps(const char *cmd, const char *val, long *out) {
  char *end;
  errno = 0;
  long v = strtol(val, &end, 10);
  if (!val[0] || *end || v < 0) {
    fprintf(stderr, "%s: --steps: expected a non-negative integer, got '%s'\n", cmd, val);
    return 2;
  }
  if (errno == ERANGE || v > IPC_RUN_MAX_STEPS) {
    fprintf(stderr, "%s: --steps %s: at most %ld steps\n", cmd, val, IPC_RUN_MAX_STEPS);
    return 2;
  }
  *out = v;
  return 0;
}

int ipc_run_check_scene_steps(const char *cmd, const char *scene, const ipcc_scene_def *def) {
  double n = def->duration / def->time_step;
  if (n <= (double)IPC_RUN_MAX_STEPS) return 0;
  fprintf(stderr,
          "%s: %s: duration / time_step = %.3g / %.3g = %.3g steps, more than the %ld a run "
          "may take (raise time_step, lower duration or give --steps)\n",
          cmd, scene, def->duration, def->time_step, n, IPC_RUN_MAX_STEPS);
  return 2;
}

int ipc_run_stats_room(void **buf, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return 0;
  size_t c = *cap < 64 ? 64 : 2 * *cap;
  /* plain realloc: ipc_realloc would abort. The buffers are freed with free or ipc_free,
     which is free */
  void *p = realloc(*buf, c * elem);
  if (!p) {
    fprintf(stderr, "ipcc run: out of memory for the statistics of step %zu\n", n + 1);
    return 2;
  }
  *buf = p;
  *cap = c;
  return 0;
}

/* the options without a value; 1 when argv's a is one of them */
static int flag(ipc_run_args *o, const char *a) {
  if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
    o->quiet = 1;
  } else if (!strcmp(a, "--check")) {
    o->check = 1;
  } else if (!strcmp(a, "--overwrite")) {
    o->overwrite = 1;
  } else if (!strcmp(a, "--lenient")) {
    o->lenient = 1;
  } else if (!strcmp(a, "--no-checkpoint")) {
    o->checkpoint = 0;
  } else if (!strcmp(a, "--preview")) {
    if (!o->preview_every) o->preview_every = 1;
    o->run_only = 1;
  } else if (!strcmp(a, "--write-planes")) {
    o->write_planes = 1;
    o->run_only = 1;
  } else {
    return 0;
  }
  return 1;
}

static const char *const valued[] = {
    "-o",       "--out",    "--steps", "--threads",       "--mode",
    "--resume", "--format", "--every", "--preview-every", "--checkpoint-every"};

/* --linear-solver NAME and --petsc-options "...": process-wide, applied at once (as
   --threads), so a resumed run may take them too; 0 or 2 */
static int linear_solver_option(const char *a, const char *val) {
  ipcc_linear_solver_kind kind;
  ipcc_error err;
  if (!strcmp(a, "--petsc-options")) {
    if (ipc_linear_solver_set_petsc_options(val, &err) == 0) return 0;
    fprintf(stderr, "ipcc run: --petsc-options: %s\n", err.msg);
    return 2;
  }
  if (!ipc_linear_solver_kind_parse(val, &kind)) {
    fprintf(stderr, "ipcc run: --linear-solver: expected %s, got '%s'\n",
            ipc_linear_solver_kind_list(), val);
    return 2;
  }
  if (!ipc_linear_solver_kind_available(kind)) {
    fprintf(stderr,
            "ipcc run: --linear-solver %s: this build of ipcc has no PETSc (install petsc-dev "
            "and libopenmpi-dev, e.g. with tools/install-deps.sh, then meson setup --reconfigure "
            "-Dpetsc=enabled)\n",
            val);
    return 2;
  }
  ipc_linear_solver_force((int)kind);
  return 0;
}

/* the value val of option a (one of valued); 0 or 2 */
static int value(ipc_run_args *o, const char *a, char *val) {
  long n = 0;
  if (!strcmp(a, "-o") || !strcmp(a, "--out") || !strcmp(a, "--resume")) {
    if (!val[0]) { /* "" would put frames/ and stats.json into / */
      fprintf(stderr, "ipcc run: %s: expected a folder, got an empty path\n", a);
      return 2;
    }
    *(a[2] == 'r' ? &o->resume : &o->outdir) = ipc_path_trim(val);
  } else if (!strcmp(a, "--steps")) {
    return ipc_run_parse_steps("ipcc run", val, &o->steps);
  } else if (!strcmp(a, "--mode")) {
    if (strcmp(val, "ipc") != 0 && strcmp(val, "lcp") != 0) {
      fprintf(stderr, "ipcc run: --mode: expected ipc or lcp, got '%s'\n", val);
      return 2;
    }
    o->mode = val;
  } else if (!strcmp(a, "--format")) {
    o->run_only = 1;
    if (ipcc_output_formats_parse(val, &o->formats) != 0) {
      fprintf(stderr, "ipcc run: --format: expected obj, ply, vtu, pc2 or a comma list, got '%s'\n",
              val);
      return 2;
    }
  } else {
    if (ipc_run_parse_count(a, val, &n)) return 2;
    if (!strcmp(a, "--threads")) {
      ipcc_set_threads((int)n);
    } else if (!strcmp(a, "--checkpoint-every")) {
      o->checkpoint_every = (int)n;
    } else {
      *(!strcmp(a, "--every") ? &o->every : &o->preview_every) = (int)n;
      o->run_only = 1;
    }
  }
  return 0;
}

int ipc_run_args_common(ipc_run_args *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (flag(o, a)) return 1;
  if (!strcmp(a, "--linear-solver") || !strcmp(a, "--petsc-options")) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "ipcc run: %s: expected a value\n", a);
      return 2;
    }
    return linear_solver_option(a, argv[++*i]) ? 2 : 1;
  }
  size_t k = 0;
  while (k < sizeof valued / sizeof valued[0] && strcmp(a, valued[k]) != 0) ++k;
  if (k == sizeof valued / sizeof valued[0]) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "ipcc run: %s: expected a value\n", a);
    return 2;
  }
  return value(o, a, argv[++*i]) ? 2 : 1;
}

int ipc_run_args_finish(const ipc_run_args *o, int mode_options, int *no_scene) {
  *no_scene = 0;
  /* --check and the mode are options of the run, which a resumed run takes from its
     checkpoint */
  if (o->resume && (o->scene || o->outdir || o->check || o->overwrite || o->run_only || o->mode ||
                    mode_options)) {
    fprintf(stderr,
            "ipcc run: --resume OUTDIR takes the scene, mode, folder and output options from "
            "its checkpoint (only --steps, --quiet, --lenient, --threads and --checkpoint-every "
            "may be given)\n");
    return 2;
  }
  if (!o->scene && !o->resume) {
    *no_scene = 1;
    return 2;
  }
  return 0;
}

int ipc_run_args_positional(ipc_run_args *o, int argc, char **argv, int i) {
  const char *a = argv[i];
  if (a[0] == '-' || o->scene) {
    fprintf(stderr, "ipcc run: unexpected argument '%s'%s\n", a,
            a[0] == '-' && i + 1 >= argc ? " (or its value is missing)" : "");
    return 2;
  }
  o->scene = a;
  return 0;
}

char *ipc_run_default_outdir(const char *scene, const char *suffix) {
  const char *b = strrchr(scene, '/');
  b = b ? b + 1 : scene;
  size_t n = strlen("out/") + strlen(b) + strlen(suffix) + 1;
  char *out = malloc(n);
  snprintf(out, n, "out/%s", b);
  char *dot = strrchr(out, '.');
  if (dot && dot > out + 4) *dot = '\0';
  strcat(out, suffix);
  return out;
}
