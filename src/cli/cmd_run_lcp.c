/* the LCP mode of ipcc run (docs/lcp-mode.md): options, world and its run_mode table
   (run_lcp.h) */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_lcp.h"
#include "core/alloc.h"
#include "io/path.h"
#include "io/scene_txt.h"

void ipc_run_lcp_usage(FILE *f) {
  fputs(
      "LCP mode (--mode lcp, or the scene's \"mode\": \"lcp\"; its \"lcp\" object sets the\n"
      "same options, flags win; any of these flags selects LCP mode too):\n"
      "  --solver pgs|pcg-pgs|amgs|lemke  --friction none|box|pyramid|cone  --directions K\n"
      "  --coupling coupled|lumped (default coupled)  --gap D  --baumgarte B\n"
      "  --restitution E  --tol T  --max-iter N  --omega W  --no-warm-start  --no-regions\n"
      "  --manifold reduced|full (default reduced: at most 4 contact points per touching pair)\n"
      "  --dump-lcp DIR   each region's LCP as Matrix Market (not with --resume)\n",
      f);
}

/* flags that take a value and the option name they set (ipcc_lcp_world_def_set) */
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
    {"--manifold", "manifold"},
};

enum { NVALUED = sizeof value_flags / sizeof value_flags[0] };

int ipc_run_lcp_option(ipc_run_lcp_opts *lo, int argc, char **argv, int *i) {
  _Static_assert(NVALUED == sizeof lo->val / sizeof lo->val[0], "one value per option");
  const char *a = argv[*i];
  if (!strcmp(a, "--no-warm-start") || !strcmp(a, "--no-regions")) {
    *(!strcmp(a, "--no-warm-start") ? &lo->no_warm : &lo->no_regions) = 1;
  } else {
    int k = 0;
    while (k < NVALUED && strcmp(a, value_flags[k][0]) != 0) ++k;
    if (k == NVALUED && strcmp(a, "--dump-lcp") != 0) return 0;
    if (*i + 1 >= argc) {
      fprintf(stderr, "ipcc run: %s: expected a value\n", a);
      return 2;
    }
    const char *v = argv[++*i];
    if (k < NVALUED) {
      lo->val[k] = v;
    } else if (!v[0]) {
      fprintf(stderr, "ipcc run: --dump-lcp: expected a folder, got an empty path\n");
      return 2;
    } else {
      lo->dump = v;
    }
  }
  if (!lo->first) lo->first = a;
  return 1;
}

/* an IPC script (ipcc_scene_load_any's test): it has no "lcp" object */
static int is_script(const char *scene) {
  size_t len = 0;
  ipcc_error err;
  char *text = ipc_read_file(scene, &len, &err);
  int txt = text && ipc_scene_text_is_txt(scene, text);
  ipc_free(text);
  return txt;
}

int ipc_run_scene_is_lcp(const char *scene) {
  if (is_script(scene)) return 0;
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  int lcp = 0;
  ipcc_error err;
  /* a bad "mode" or "lcp" option is an error, never a silent run in the other mode */
  if (ipcc_lcp_scene_load(scene, &d, &lcp, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return -1;
  }
  return lcp;
}

int ipc_run_lcp_def(const ipc_run_lcp_opts *lo, const char *scene, ipcc_lcp_world_def *ld) {
  ipcc_error err;
  ipcc_error_clear(&err);
  *ld = ipcc_default_lcp_world_def();
  ipcc_status st = is_script(scene) ? IPCC_OK : ipcc_lcp_scene_load(scene, ld, NULL, &err);
  for (int k = 0; k < NVALUED && st == IPCC_OK; ++k)
    if (lo->val[k]) st = ipcc_lcp_world_def_set(ld, value_flags[k][1], lo->val[k], &err);
  if (st != IPCC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return 2;
  }
  if (lo->no_warm) ld->warm_start = 0;
  if (lo->no_regions) ld->split_regions = 0;
  ld->dump_dir = lo->dump;
  return 0;
}

ipcc_world *ipc_run_lcp_world(const ipcc_scene_def *def, const ipcc_lcp_world_def *ld,
                              const char *dump) {
  ipcc_error err;
  ipcc_error_clear(&err);
  ipcc_lcp_world_def d = *ld;
  d.dump_dir = dump;
  ipcc_world *w = NULL;
  if (!dump || ipc_output_prepare(dump, &err) == IPCC_OK)
    w = ipcc_world_create(def, &ipcc_strategy_lcp, &d, &err);
  if (!w) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return NULL;
  }
  const char *stiff_body = "";
  double ratio = ipc_lcp_world_stiffness_ratio(w->ws, &stiff_body);
  if (d.coupling == IPCC_LCP_LUMPED && ratio > 1.0)
    fprintf(stderr,
            "ipcc run: warning: lumped coupling with body '%s': E h^2 / (rho l^2) = %.3g > 1 "
            "(stiff and light for the time step); it gains energy at contacts and can invert "
            "tets. Use --coupling coupled or a smaller time step (docs/lcp-mode.md)\n",
            stiff_body, ratio);
  return w;
}

/* LCP mode's counters of one step (ipcc_lcp_step_stats): prescribed motions that overlap
   make the run not intersection-free */
static ipcc_status lcp_fold(ipc_run_summary *sum, const void *record, ipc_run_step_view *v,
                            ipcc_status s, ipcc_error *err) {
  (void)err;
  const ipcc_lcp_step_stats *st = record;
  sum->lcp_iterations += st->lcp_iterations;
  if (st->prescribed_overlap > 0) sum->intersection_free = 0;
  *v = (ipc_run_step_view){st->lcp_iterations, st->contacts, st->contacts, st->min_distance};
  /* a failed LCP step is a failed simulation (exit 1), also when the problem it built was
     refused (an LCP with entries that are not finite) or its dump could not be written */
  return s == IPCC_OK ? s : IPCC_ERR_SIM;
}

/* LCP mode's part of the summary: penetration, the exact check,
   prescribed overlaps and the unconverged regions (count and the worst relative residual) */
static void lcp_summary(const ipc_run_checkpoint *c) {
  const ipc_run_summary *sum = &c->sum;
  /* LCP contact allows small overlaps (the gap and stabilization close them over steps): a
     negative distance is penetration, of a plane or between surfaces, and is said as such,
     with the step of the deepest */
  size_t deepest = 0, first_pre = 0;
  int pre_steps = 0, pre_max = 0;
  for (size_t k = 0; k < c->nsteps; ++k) {
    const ipcc_lcp_step_stats *st = &c->lcp_steps[k];
    if (st->min_distance < c->lcp_steps[deepest].min_distance) deepest = k;
    if (st->prescribed_overlap <= 0) continue;
    if (!pre_steps++) first_pre = k;
    if (st->prescribed_overlap > pre_max) pre_max = st->prescribed_overlap;
  }
  if (sum->min_distance < 0)
    printf(" (penetration: contacts overlap by up to %.3g m at step %d)", -sum->min_distance,
           c->nsteps ? c->lcp_steps[deepest].step : 0);
  if (c->check)
    printf(", %s", !sum->intersection_free ? "INTERSECTING"
                   : sum->min_distance < 0 ? "PENETRATING at contacts (no two surfaces cross)"
                                           : "intersection-free");
  printf("\n");
  /* two prescribed motions (scripts, pins, obstacles) that meet: the LCP's impulses move
     neither side, so the surfaces pass into or through each other (IPC mode stops the script
     short instead and reports dirichlet_unmet) */
  if (pre_steps)
    printf(
        "prescribed motions collide: scripted, pinned or obstacle surfaces overlap in %d "
        "steps from step %d (up to %d contacts; prescribed_overlap in stats.json); contact "
        "impulses move neither side, so the surfaces pass into each other\n",
        pre_steps, c->lcp_steps[first_pre].step, pre_max);
  long regions = 0;
  int steps = 0;
  size_t worst = 0;
  for (size_t k = 0; k < c->nsteps; ++k) {
    const ipcc_lcp_step_stats *st = &c->lcp_steps[k];
    if (st->unconverged <= 0) continue;
    regions += st->unconverged;
    if (!steps++ || st->rel_residual > c->lcp_steps[worst].rel_residual) worst = k;
  }
  if (regions)
    printf(
        "unconverged: %ld regions in %d steps stopped above the tolerance %.3g (worst "
        "relative residual %.3g, absolute %.3g, at step %d; unconverged in stats.json)\n",
        regions, steps, c->lcp_def->tol, c->lcp_steps[worst].rel_residual,
        c->lcp_steps[worst].residual, c->lcp_steps[worst].step);
}

const ipc_run_mode ipc_run_mode_lcp = {
    .label = "LCP",
    .outdir_suffix = "_lcp",
    .first_line = "%d steps in %.2f s (%.4f s/step, %.1f LCP iterations/step), min distance %.3g",
    .iterations = offsetof(ipc_run_summary, lcp_iterations),
    .stats = &ipc_stats_layout_lcp,
    .fold = lcp_fold,
    .summary = lcp_summary,
};
