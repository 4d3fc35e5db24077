/* ipcc run SCENE [-o OUTDIR] [--mode ipc] [--steps N] [--check] [--quiet] [--lenient] [--threads N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "ipcc/ipcc.h"

static void run_usage(FILE *f) {
  fputs(
      "usage: ipcc run SCENE [-o OUTDIR] [--mode ipc] [--steps N] [--check] [--quiet] [--lenient]\n"
      "                [--threads N]\n"
      "  SCENE       a JSON scene (docs/scene-format.md) or an IPC .txt script (README.md)\n"
      "  -o OUTDIR   output folder (default: out/<scene name>); frames go to OUTDIR/frames\n"
      "  --steps N   simulate N steps instead of the scene's duration / time_step\n"
      "  --check     exact intersection check of every frame (sets intersection_free)\n"
      "  --quiet     no progress output\n"
      "  --lenient   IPC scripts: unsupported keywords are warnings, not errors\n"
      "  --threads N threads for ipcc's own loops (default: one per core); results do not\n"
      "              depend on it\n",
      f);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *default_outdir(const char *scene) {
  const char *b = strrchr(scene, '/');
  b = b ? b + 1 : scene;
  size_t n = strlen(b) + 8;
  char *out = malloc(n);
  snprintf(out, n, "out/%s", b);
  char *dot = strrchr(out, '.');
  if (dot && dot > out + 4) *dot = '\0';
  return out;
}

int ipc_cmd_run(int argc, char **argv) {
  if (ipc_run_wants_lcp(argc, argv)) return ipc_cmd_run_lcp(argc, argv);
  const char *scene = NULL, *outdir = NULL, *mode = "ipc";
  long steps = -1;
  int quiet = 0, check = 0, lenient = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if ((!strcmp(a, "-o") || !strcmp(a, "--out")) && i + 1 < argc) {
      outdir = argv[++i];
    } else if (!strcmp(a, "--steps") && i + 1 < argc) {
      char *end;
      steps = strtol(argv[++i], &end, 10);
      if (*end || steps < 0) {
        fprintf(stderr, "ipcc run: --steps: expected a non-negative integer, got '%s'\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--mode") && i + 1 < argc) {
      mode = argv[++i];
      if (strcmp(mode, "ipc") != 0) {
        fprintf(stderr, "ipcc run: --mode: '%s' is not available (expected: ipc)\n", mode);
        return 2;
      }
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      quiet = 1;
    } else if (!strcmp(a, "--check")) {
      check = 1;
    } else if (!strcmp(a, "--lenient")) {
      lenient = 1;
    } else if (!strcmp(a, "--threads") && i + 1 < argc) {
      char *end;
      long nt = strtol(argv[++i], &end, 10);
      if (*end || nt < 1 || nt > 1024) {
        fprintf(stderr, "ipcc run: --threads: expected an integer from 1 to 1024, got '%s'\n",
                argv[i]);
        return 2;
      }
      ipc_set_threads((int)nt);
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      run_usage(stdout);
      return 0;
    } else if (a[0] == '-' || scene) {
      fprintf(stderr, "ipcc run: unexpected argument '%s'\n", a);
      run_usage(stderr);
      return 2;
    } else {
      scene = a;
    }
  }
  if (!scene) {
    run_usage(stderr);
    return 2;
  }
  ipc_error err;
  ipc_error_clear(&err);
  ipc_scene_def def;
  if (ipc_scene_load_any(scene, lenient ? IPC_SCENE_LENIENT : 0, &def, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return 2;
  }
  ipc_world *w = ipc_world_create(&def, &err);
  if (!w) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    ipc_scene_def_free(&def);
    return 2;
  }
  char *own_out = outdir ? NULL : default_outdir(scene);
  if (!outdir) outdir = own_out;
  size_t plen = strlen(outdir) + 64;
  char *path = malloc(plen);
  snprintf(path, plen, "%s/frames", outdir);
  int rc = 0;
  if (ipc_output_prepare(path, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    rc = 2;
    goto done;
  }
  long nsteps = steps >= 0 ? steps : ipc_world_scene_steps(w);
  int every = def.output_every > 0 ? def.output_every : 1;
  ipc_step_stats *st = calloc((size_t)nsteps + 1, sizeof *st);
  ipc_run_summary sum;
  memset(&sum, 0, sizeof sum);
  sum.mode = mode;
  sum.scene = scene;
  sum.min_distance = INFINITY;
  sum.intersection_free = 1;
  sum.intersection_checked = check;
  sum.dhat = ipc_world_dhat(w);
  int tty = !quiet && isatty(fileno(stderr));
  double t0 = now_s();
  int frame = 0;
  snprintf(path, plen, "%s/frames/%06d.obj", outdir, frame);
  if (ipc_world_write_obj(w, path, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    rc = 2;
    goto done_steps;
  }
  if (check) {
    sum.frames_checked++;
    if (!ipc_world_intersection_free(w, NULL, 0)) sum.intersection_free = 0;
  }
  for (long k = 0; k < nsteps; ++k) {
    ipc_status s = ipc_world_step(w, &st[k], &err);
    sum.steps = (int)k + 1;
    sum.newton_iterations += st[k].newton_iterations;
    sum.newton_capped_steps += st[k].newton_capped;
    if (st[k].contacts_max > sum.contacts_max) sum.contacts_max = st[k].contacts_max;
    if (st[k].dirichlet_unmet) sum.dirichlet_unmet_steps++;
    if (st[k].min_distance < sum.min_distance) sum.min_distance = st[k].min_distance;
    if (s != IPC_OK) {
      fprintf(stderr, "%sipcc run: %s\n", tty ? "\n" : "", err.msg);
      rc = 1;
      break;
    }
    if ((k + 1) % every == 0 || k + 1 == nsteps) {
      ++frame;
      snprintf(path, plen, "%s/frames/%06d.obj", outdir, frame);
      if (ipc_world_write_obj(w, path, &err) != IPC_OK) {
        fprintf(stderr, "ipcc run: %s\n", err.msg);
        rc = 2;
        break;
      }
      if (check) {
        char what[256];
        sum.frames_checked++;
        if (!ipc_world_intersection_free(w, what, sizeof what)) {
          sum.intersection_free = 0;
          fprintf(stderr, "%sipcc run: frame %d intersects: %s\n", tty ? "\n" : "", frame, what);
        }
      }
    }
    if (tty) {
      double el = now_s() - t0;
      double eta = el / (double)(k + 1) * (double)(nsteps - k - 1);
      fprintf(stderr, "\rstep %ld/%ld  t=%.4g s  newton %d  contacts %d  dmin %.3g  ETA %.0f s   ",
              k + 1, nsteps, st[k].time, st[k].newton_iterations, st[k].contacts,
              st[k].min_distance, eta);
    }
  }
  sum.wall_seconds = now_s() - t0;
  if (tty) fputc('\n', stderr);
  snprintf(path, plen, "%s/stats.json", outdir);
  if (ipc_write_stats_json(path, &sum, st, (size_t)sum.steps, &err) != IPC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    if (!rc) rc = 2;
  }
  if (!quiet) {
    printf("%d steps in %.2f s (%.3f s/step, %.2f Newton iterations/step), min distance %.3g",
           sum.steps, sum.wall_seconds, sum.steps ? sum.wall_seconds / sum.steps : 0.0,
           sum.steps ? (double)sum.newton_iterations / sum.steps : 0.0, sum.min_distance);
    if (check) printf(", %s", sum.intersection_free ? "intersection-free" : "INTERSECTING");
    printf("\nframes: %s/frames, statistics: %s\n", outdir, path);
  }
  if (check && !sum.intersection_free && !rc) rc = 1;
done_steps:
  free(st);
done:
  free(path);
  free(own_out);
  ipc_world_destroy(w);
  ipc_scene_def_free(&def);
  return rc;
}
