/* ipcc run SCENE --mode lcp [options]: the scene stepped in LCP mode (docs/lcp-mode.md) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/outdir.h"
#include "cli/run_args.h"
#include "io/run_output.h"
#include "ipcc/ipcc.h"
#include "ipcc/lcp_world.h"

static void usage(FILE *f) {
  fputs(
      "usage: ipcc run SCENE --mode lcp [-o OUTDIR] [--steps N] [--check] [--quiet]\n"
      "                 [--overwrite] [--solver pgs|pcg-pgs|amgs|lemke] [--friction "
      "none|box|pyramid|cone]\n"
      "                 [--directions K] [--coupling lumped|coupled] [--gap D]\n"
      "                 [--baumgarte B] [--restitution E] [--tol T] [--max-iter N]\n"
      "                 [--omega W] [--no-warm-start] [--no-regions] [--dump-lcp DIR]\n"
      "  the scene key \"mode\": \"lcp\" selects LCP mode too; its \"lcp\" object sets the\n"
      "  same options (flags win). --dump-lcp writes each region's LCP as Matrix Market.\n",
      f);
}

/* flags that take a value, and the option name they set (NULL: handled here, or for -o,
   --out, --steps and --threads in run_args.c) */
static const char *const value_flags[][2] = {
    {"--solver", "solver"},
    {"--friction", "friction"},
    {"--directions", "directions"},
    {"--coupling", "coupling"},
    {"--gap", "gap"},
    {"--baumgarte", "baumgarte"},
    {"--restitution", "restitution"},
    {"--tol", "tolerance"},
    {"--max-iter", "max_iterations"},
    {"--omega", "omega"},
    {"-o", NULL},
    {"--out", NULL},
    {"--steps", NULL},
    {"--mode", NULL},
    {"--dump-lcp", NULL},
    {"--threads", NULL},
};

static int value_flag(const char *a) {
  for (size_t k = 0; k < sizeof value_flags / sizeof value_flags[0]; ++k)
    if (!strcmp(a, value_flags[k][0])) return (int)k;
  return -1;
}

int ipc_run_wants_lcp(int argc, char **argv) {
  const char *scene = NULL;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--mode") && i + 1 < argc) return !strcmp(argv[i + 1], "lcp");
    int k = value_flag(a);
    if (k >= 0 && value_flags[k][1]) return 1; /* an LCP option */
    if (!strcmp(a, "--dump-lcp") || !strcmp(a, "--no-warm-start") || !strcmp(a, "--no-regions"))
      return 1;
    if (k >= 0) {
      ++i;
    } else if (a[0] != '-' && !scene) {
      scene = a;
    }
  }
  if (!scene) return 0;
  ipc_lcp_world_def d = ipc_default_lcp_world_def();
  int lcp = 0;
  ipc_error err;
  if (ipc_lcp_scene_load(scene, &d, &lcp, &err) != IPC_OK) return 0;
  return lcp;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ipc_cmd_run_lcp(int argc, char **argv) {
  const char *dump = NULL;
  ipc_run_args ra; /* scene, -o, --steps, --threads, --quiet, --check (run_args.h) */
  ipc_run_args_init(&ra);
  /* options: scene first, then flags; flags are collected and applied after the scene */
  const char **fk = calloc((size_t)argc + 1, sizeof *fk),
             **fv = calloc((size_t)argc + 1, sizeof *fv);
  int nf = 0, no_warm = 0, no_regions = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    int common = ipc_run_args_common(&ra, argc, argv, &i);
    if (common == 2) {
      free(fk);
      free(fv);
      return 2;
    }
    if (common) continue;
    int k = value_flag(a);
    if (k >= 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "ipcc run: %s: expected a value\n", a);
        free(fk);
        free(fv);
        return 2;
      }
      const char *v = argv[++i];
      if (value_flags[k][1]) {
        fk[nf] = value_flags[k][1];
        fv[nf++] = v;
      } else if (!strcmp(a, "--dump-lcp")) {
        dump = v;
        if (!dump[0]) {
          fprintf(stderr, "ipcc run: --dump-lcp: expected a folder, got an empty path\n");
          free(fk);
          free(fv);
          return 2;
        }
      } else if (!strcmp(a, "--mode") && strcmp(v, "lcp") != 0) {
        fprintf(stderr, "ipcc run: --mode: expected lcp here, got '%s'\n", v);
        free(fk);
        free(fv);
        return 2;
      }
    } else if (!strcmp(a, "--no-warm-start")) {
      no_warm = 1;
    } else if (!strcmp(a, "--no-regions")) {
      no_regions = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      free(fk);
      free(fv);
      return 0;
    } else if (ipc_run_args_positional(&ra, argc, argv, i)) {
      usage(stderr);
      free(fk);
      free(fv);
      return 2;
    }
  }
  const char *scene = ra.scene, *outdir = ra.outdir;
  long steps = ra.steps;
  int quiet = ra.quiet, check = ra.check;
  if (!scene) {
    usage(stderr);
    free(fk);
    free(fv);
    return 2;
  }
  ipc_error err;
  ipc_error_clear(&err);
  ipc_scene_def def;
  if (ipc_scene_load(scene, &def, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    free(fk);
    free(fv);
    return 2;
  }
  ipc_lcp_world_def ld = ipc_default_lcp_world_def();
  int rc = 0;
  if (ipc_lcp_scene_load(scene, &ld, NULL, &err) != IPC_OK) rc = 2;
  for (int k = 0; k < nf && !rc; ++k) {
    ipc_error e;
    if (ipc_lcp_world_def_set(&ld, fk[k], fv[k], &e) != IPC_OK) {
      ipc_error_set(&err, IPC_ERR_INPUT, "%s", e.msg);
      rc = 2;
    }
  }
  free(fk);
  free(fv);
  if (no_warm) ld.warm_start = 0;
  if (no_regions) ld.split_regions = 0;
  if (!rc && dump) {
    ld.dump_dir = dump;
    if (ipc_output_prepare(dump, &err) != IPC_OK) rc = 2;
  }
  ipc_lcp_world *w = rc ? NULL : ipc_lcp_world_create(&def, &ld, &err);
  if (!w) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    ipc_scene_def_free(&def);
    return 2;
  }
  const char *stiff_body = "";
  double ratio = ipc_lcp_world_stiffness_ratio(w, &stiff_body);
  if (ld.coupling == IPC_LCP_LUMPED && ratio > 1.0)
    fprintf(stderr,
            "ipcc run: warning: lumped coupling with body '%s': E h^2 / (rho l^2) = %.3g > 1 "
            "(stiff and light for the time step); it gains energy at contacts and can invert "
            "tets. Use --coupling coupled or a smaller time step (docs/lcp-mode.md)\n",
            stiff_body, ratio);
  char *own_out = outdir ? NULL : ipc_run_default_outdir(scene, "_lcp");
  if (!outdir) outdir = own_out;
  size_t plen = strlen(outdir) + 64;
  char *path = malloc(plen);
  snprintf(path, plen, "%s/frames", outdir);
  long nsteps = steps;
  if (nsteps < 0 && ipc_run_check_scene_steps("ipcc run", scene, &def) != 0)
    rc = 2;
  else if (nsteps < 0)
    nsteps = ipc_lcp_world_scene_steps(w);
  int every = def.output_every > 0 ? def.output_every : 1;
  ipc_lcp_step_stats *st = NULL; /* grows as steps run (ipc_run_stats_room) */
  size_t st_cap = 0;
  ipc_run_summary sum;
  memset(&sum, 0, sizeof sum);
  sum.mode = "lcp";
  sum.scene = scene;
  sum.min_distance = INFINITY;
  sum.intersection_free = 1;
  sum.intersection_checked = check;
  sum.dhat = ipc_lcp_world_gap(w);
  int tty = !quiet && isatty(fileno(stderr));
  double t0 = now_s();
  int frame = 0;
  if (rc || (rc = ipc_outdir_claim("ipcc run", outdir, ra.overwrite)) != 0) goto done;
  if (ipc_output_prepare(path, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    rc = 2;
    goto done;
  }
  snprintf(path, plen, "%s/frames/%06d.obj", outdir, frame);
  if (ipc_lcp_world_write_obj(w, path, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    rc = 2;
    goto done;
  }
  if (check) {
    sum.frames_checked++;
    if (!ipc_lcp_world_intersection_free(w, NULL, 0)) sum.intersection_free = 0;
  }
  for (long k = 0; k < nsteps; ++k) {
    if (ipc_run_stats_room((void **)&st, &st_cap, (size_t)k, sizeof *st)) {
      rc = 2;
      break;
    }
    memset(&st[k], 0, sizeof st[k]);
    ipc_status s = ipc_lcp_world_step(w, &st[k], &err);
    if (s != IPC_OK) {
      fprintf(stderr, "%sipcc run: %s\n", tty ? "\n" : "", err.msg);
      rc = 1;
      break;
    }
    sum.steps = (int)k + 1;
    sum.lcp_iterations += st[k].lcp_iterations;
    if (st[k].contacts > sum.contacts_max) sum.contacts_max = st[k].contacts;
    if (st[k].min_distance < sum.min_distance) sum.min_distance = st[k].min_distance;
    if ((k + 1) % every == 0 || k + 1 == nsteps) {
      ++frame;
      snprintf(path, plen, "%s/frames/%06d.obj", outdir, frame);
      if (ipc_lcp_world_write_obj(w, path, &err) != IPC_OK) {
        fprintf(stderr, "ipcc run: %s\n", err.msg);
        rc = 2;
        break;
      }
      if (check) {
        char what[256];
        sum.frames_checked++;
        if (!ipc_lcp_world_intersection_free(w, what, sizeof what)) {
          if (sum.intersection_free)
            fprintf(stderr, "%sipcc run: frame %d intersects: %s\n", tty ? "\n" : "", frame, what);
          sum.intersection_free = 0;
        }
      }
    }
    if (tty)
      fprintf(stderr,
              "\rstep %ld/%ld  t=%.4g s  contacts %d  regions %d  iterations %ld  dmin %.3g   ",
              k + 1, nsteps, st[k].time, st[k].contacts, st[k].regions, st[k].lcp_iterations,
              st[k].min_distance);
  }
  sum.wall_seconds = now_s() - t0;
  if (tty) fputc('\n', stderr);
  snprintf(path, plen, "%s/stats.json", outdir);
  if (ipc_write_lcp_stats_json(path, &sum, &ld, st, (size_t)sum.steps, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    if (!rc) rc = 2;
  }
  if (!quiet) {
    printf("%d steps in %.2f s (%.4f s/step, %.1f LCP iterations/step), min distance %.3g",
           sum.steps, sum.wall_seconds, sum.steps ? sum.wall_seconds / sum.steps : 0.0,
           sum.steps ? (double)sum.lcp_iterations / sum.steps : 0.0, sum.min_distance);
    if (check) printf(", %s", sum.intersection_free ? "intersection-free" : "INTERSECTING");
    printf("\nframes: %s/frames, statistics: %s\n", outdir, path);
  }
done:
  free(st);
  free(path);
  free(own_out);
  ipc_lcp_world_destroy(w);
  ipc_scene_def_free(&def);
  return rc;
}
