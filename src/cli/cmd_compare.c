/* ipcc compare SCENE [-o DIR] [--steps N] [LCP options]: the scene in IPC mode and in LCP
   mode (the same steps, every frame checked exactly), then a side-by-side table of the two
   runs' summaries and DIR/compare.json. Each run is an ordinary `ipcc run` into DIR/ipc and
   DIR/lcp; the LCP options go to the LCP run. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/outdir.h"
#include "cli/run_args.h"
#include "cli/run_lcp.h"
#include "core/alloc.h"
#include "io/path.h"
#include "io/stats_common.h"

static void compare_usage(FILE *f) {
  fputs(
      "usage: ipcc compare SCENE [-o DIR] [--steps N] [--overwrite] [LCP options]\n"
      "  runs SCENE in IPC mode and in LCP mode (frames and stats.json under DIR/ipc and\n"
      "  DIR/lcp, every frame checked exactly) and prints a side-by-side table; the table's\n"
      "  numbers go to DIR/compare.json (default DIR: out/<scene name>-compare)\n"
      "  --overwrite  replace an earlier comparison in DIR (else DIR must hold none)\n"
      "  LCP options (--coupling, --friction, --solver, ... as ipcc run takes them) set the\n"
      "  LCP run's options over the scene's \"lcp\" object\n",
      f);
}

/* the measures of one run, read back from its stats.json */
typedef struct run_measures {
  int ok, steps, iterations, contacts_max, intersection_free, frames_checked;
  double seconds_per_step, min_distance, energy_start, energy_end, drift;
} run_measures;

static double num(const cJSON *o, const char *key, double dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static run_measures measures_read(const char *stats_path, int lcp) {
  run_measures r;
  memset(&r, 0, sizeof r);
  r.min_distance = INFINITY;
  ipcc_error err; /* a run that failed before writing stats.json: not completed */
  char *text = ipc_stats_read(stats_path, &err);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  ipc_free(text);
  const cJSON *s = root ? cJSON_GetObjectItemCaseSensitive(root, "summary") : NULL;
  if (!cJSON_IsObject(s)) {
    cJSON_Delete(root);
    return r;
  }
  r.ok = 1;
  r.steps = (int)num(s, "steps", 0);
  r.seconds_per_step = num(s, "seconds_per_step", 0);
  const cJSON *md = cJSON_GetObjectItemCaseSensitive(s, "min_distance");
  r.min_distance = cJSON_IsNumber(md) ? md->valuedouble : INFINITY;
  r.iterations = (int)num(s, lcp ? "lcp_iterations" : "newton_iterations", 0);
  r.contacts_max = (int)num(s, "contacts_max", 0);
  r.frames_checked = (int)num(s, "frames_checked", 0);
  r.intersection_free = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "intersection_free"));
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(s, "energy");
  int ne = cJSON_IsArray(e) ? cJSON_GetArraySize(e) : 0;
  r.drift = NAN;
  if (ne > 0) {
    r.energy_start = cJSON_GetArrayItem(e, 0)->valuedouble;
    r.energy_end = cJSON_GetArrayItem(e, ne - 1)->valuedouble;
    double scale = fabs(r.energy_start) > 0 ? fabs(r.energy_start) : 1;
    r.drift = (r.energy_end - r.energy_start) / scale;
  }
  cJSON_Delete(root);
  return r;
}

/* the run of one mode; extra (nextra arguments) go to its command line */
static int run_mode(const char *scene, const char *dir, const char *mode, const char *steps,
                    int overwrite, char **extra, int nextra) {
  char **argv = malloc((size_t)(11 + nextra) * sizeof *argv);
  int argc = 0;
  argv[argc++] = (char *)scene;
  argv[argc++] = "-o";
  argv[argc++] = (char *)dir;
  argv[argc++] = "--mode";
  argv[argc++] = (char *)mode;
  argv[argc++] = "--check";
  argv[argc++] = "--quiet";
  if (steps) {
    argv[argc++] = "--steps";
    argv[argc++] = (char *)steps;
  }
  if (overwrite) argv[argc++] = "--overwrite";
  for (int k = 0; k < nextra; ++k) argv[argc++] = extra[k];
  argv[argc] = NULL;
  int rc = ipc_cmd_run(argc, argv);
  free(argv);
  return rc;
}

static cJSON *measures_json(const run_measures *r) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "completed", r->ok);
  cJSON_AddNumberToObject(o, "steps", r->steps);
  cJSON_AddNumberToObject(o, "seconds_per_step", r->seconds_per_step);
  if (isfinite(r->min_distance))
    cJSON_AddNumberToObject(o, "min_distance", r->min_distance);
  else
    cJSON_AddNullToObject(o, "min_distance");
  cJSON_AddNumberToObject(o, "max_penetration",
                          isfinite(r->min_distance) && r->min_distance < 0 ? -r->min_distance : 0);
  cJSON_AddNumberToObject(o, "energy_start", r->energy_start);
  cJSON_AddNumberToObject(o, "energy_end", r->energy_end);
  if (isfinite(r->drift))
    cJSON_AddNumberToObject(o, "energy_drift", r->drift);
  else
    cJSON_AddNullToObject(o, "energy_drift");
  cJSON_AddNumberToObject(o, "iterations", r->iterations);
  cJSON_AddNumberToObject(o, "iterations_per_step",
                          r->steps ? (double)r->iterations / r->steps : 0);
  cJSON_AddNumberToObject(o, "contacts_max", r->contacts_max);
  cJSON_AddNumberToObject(o, "frames_checked", r->frames_checked);
  cJSON_AddBoolToObject(o, "intersection_free", r->intersection_free);
  return o;
}

static int is_compare_json(const char *name) {
  return !strcmp(name, "compare.json");
}

/* dir for a new comparison: refused when it holds an earlier one (its compare.json or a run
   in pi or pl) unless overwrite, which removes compare.json here (the two runs clear their
   own folders); 0 or 2 */
static int claim(const char *dir, const char *pi, const char *pl, int overwrite) {
  char *found = ipc_outdir_find(dir, is_compare_json);
  if (!found) found = ipc_outdir_earlier_run(pi);
  if (!found) found = ipc_outdir_earlier_run(pl);
  if (!found) return 0;
  if (!overwrite) return ipc_outdir_refuse("ipcc compare", dir, found);
  ipc_free(found);
  return ipc_outdir_remove("ipcc compare", dir, is_compare_json);
}

/* the command line of a comparison */
typedef struct compare_args {
  const char *scene, *dir, *steps;
  int overwrite;
  char **lcp_args; /* the LCP options as given, for the LCP run (argc entries allocated) */
  int nlcp;
  ipc_run_lcp_opts lo;
} compare_args;

/* -1 to go on, or an exit code */
static int parse(compare_args *o, int argc, char **argv) {
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    long n;
    int first = i, lcp = ipc_run_lcp_option(&o->lo, argc, argv, &i);
    if (lcp == 2) return 2;
    if (lcp) {
      for (int k = first; k <= i; ++k) o->lcp_args[o->nlcp++] = argv[k];
    } else if ((!strcmp(a, "-o") || !strcmp(a, "--out")) && i + 1 < argc) {
      o->dir = ipc_path_trim(argv[++i]);
      if (!o->dir[0]) { /* "" would put ipc/ and lcp/ into / */
        fprintf(stderr, "ipcc compare: %s: expected a folder, got an empty path\n", a);
        return 2;
      }
    } else if (!strcmp(a, "--steps") && i + 1 < argc) {
      o->steps = argv[++i];
      if (ipc_run_parse_steps("ipcc compare", o->steps, &n)) return 2;
    } else if (!strcmp(a, "--overwrite")) {
      o->overwrite = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      compare_usage(stdout);
      return 0;
    } else if (a[0] == '-' || o->scene) {
      fprintf(stderr, "ipcc compare: unexpected argument '%s'\n", a);
      compare_usage(stderr);
      return 2;
    } else {
      o->scene = a;
    }
  }
  if (!o->scene) {
    compare_usage(stderr);
    return 2;
  }
  /* bad LCP options are found before the IPC run, not after it */
  ipcc_lcp_world_def ld;
  if (o->lo.dump) {
    fprintf(stderr, "ipcc compare: --dump-lcp is an option of ipcc run only\n");
    return 2;
  }
  return ipc_run_lcp_def(&o->lo, o->scene, &ld) ? 2 : -1;
}

/* both runs, the table and compare.json; the exit code */
static int compare(const compare_args *o) {
  const char *scene = o->scene, *dir = o->dir, *steps = o->steps;
  int overwrite = o->overwrite;
  char *own = NULL;
  if (!dir) dir = own = ipc_run_default_outdir(scene, "-compare");
  size_t plen = strlen(dir) + 32;
  char *pi = malloc(plen), *pl = malloc(plen), *path = malloc(plen);
  snprintf(pi, plen, "%s/ipc", dir);
  snprintf(pl, plen, "%s/lcp", dir);
  ipc_outdir_lock lock; /* held until compare.json is written (outdir.h) */
  int rc = ipc_outdir_lock_take(&lock, "ipcc compare", dir, 1);
  if (!rc) rc = claim(dir, pi, pl, overwrite);
  int rc_ipc = rc ? 2 : run_mode(scene, pi, "ipc", steps, overwrite, NULL, 0);
  if (rc_ipc == 2) rc = 2; /* bad input: the LCP run would say the same */
  int rc_lcp = rc ? 2 : run_mode(scene, pl, "lcp", steps, overwrite, o->lcp_args, o->nlcp);
  if (rc_lcp == 2) rc = 2;
  run_measures r[2];
  snprintf(path, plen, "%s/ipc/stats.json", dir);
  r[0] = measures_read(path, 0);
  snprintf(path, plen, "%s/lcp/stats.json", dir);
  r[1] = measures_read(path, 1);
  if (!rc) {
    char a[2][32];
    printf("%-28s %16s %16s\n", "", "ipc", "lcp");
    printf("%-28s %16s %16s\n", "completed", rc_ipc == 1 ? "failed" : "yes",
           rc_lcp == 1 ? "failed" : "yes");
    printf("%-28s %16d %16d\n", "steps", r[0].steps, r[1].steps);
    printf("%-28s %16.4g %16.4g\n", "seconds per step", r[0].seconds_per_step,
           r[1].seconds_per_step);
    for (int k = 0; k < 2; ++k) snprintf(a[k], sizeof a[k], "%.3g", r[k].min_distance);
    printf("%-28s %16s %16s\n", "min distance (m)", a[0], a[1]);
    for (int k = 0; k < 2; ++k)
      snprintf(a[k], sizeof a[k], "%.3g",
               isfinite(r[k].min_distance) && r[k].min_distance < 0 ? -r[k].min_distance : 0.0);
    printf("%-28s %16s %16s\n", "max penetration (m)", a[0], a[1]);
    printf("%-28s %16.3g %16.3g\n", "energy drift (relative)", r[0].drift, r[1].drift);
    printf("%-28s %16.2f %16.2f\n", "iterations per step (N/LCP)",
           r[0].steps ? (double)r[0].iterations / r[0].steps : 0.0,
           r[1].steps ? (double)r[1].iterations / r[1].steps : 0.0);
    printf("%-28s %16d %16d\n", "contacts max", r[0].contacts_max, r[1].contacts_max);
    for (int k = 0; k < 2; ++k)
      snprintf(a[k], sizeof a[k], "%s (%d)", r[k].intersection_free ? "yes" : "NO",
               r[k].frames_checked);
    printf("%-28s %16s %16s\n", "intersection-free (frames)", a[0], a[1]);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scene", scene);
    cJSON_AddItemToObject(root, "ipc", measures_json(&r[0]));
    cJSON_AddItemToObject(root, "lcp", measures_json(&r[1]));
    char *text = cJSON_Print(root);
    snprintf(path, plen, "%s/compare.json", dir);
    ipcc_error err;
    ipcc_error_clear(&err);
    ipc_atomic_file af;
    ipcc_status st = ipc_atomic_open(&af, path, &err);
    if (st == IPCC_OK) {
      fprintf(af.f, "%s\n", text);
      st = ipc_atomic_commit(&af, &err);
    }
    if (st != IPCC_OK) {
      fprintf(stderr, "ipcc compare: %s\n", err.msg);
      rc = (int)st;
    }
    free(text);
    cJSON_Delete(root);
    if (!rc) printf("runs: %s, %s; table: %s\n", pi, pl, path);
    if (!rc && (rc_ipc == 1 || rc_lcp == 1)) rc = 1;
  }
  ipc_outdir_lock_release(&lock);
  free(pi);
  free(pl);
  free(path);
  free(own);
  return rc;
}

int ipc_cmd_compare(int argc, char **argv) {
  compare_args o;
  memset(&o, 0, sizeof o);
  o.lcp_args = malloc(((size_t)argc + 1) * sizeof *o.lcp_args);
  int rc = parse(&o, argc, argv);
  if (rc < 0) rc = compare(&o);
  free(o.lcp_args);
  return rc;
}
