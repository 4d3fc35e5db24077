/* LCP mode on a scene: region split against one unsplit problem (solve time, the split's
 * worth in Lazarevych et al. 2010), and PGS against AMGS (Miyamoto et al.: sweeps and time to
 * the same relative residual). Times are the LCP assembly + solve part of the steps only.
 * usage: bench_lcp_regions SCENE [STEPS] [TOL] [MAX_ITER]   (defaults: 40 steps, 1e-6, 100000).
 * AMGS solves only the frictionless LCP: with box or cone friction its rows are skipped. */
#include <stdio.h>
#include <stdlib.h>

#include "ipcc/scene.h"
#include "lcp/lcp_world.h"

typedef struct tally {
  double t_solve, t_total;
  long iterations;
  int contacts_max, regions_max, unconverged;
} tally;

static int run(const ipcc_scene_def *sc, const ipcc_lcp_world_def *d, int steps, tally *t) {
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(sc, d, &err);
  if (!w) {
    fprintf(stderr, "bench_lcp_regions: %s\n", err.msg);
    return 0;
  }
  *t = (tally){0};
  for (int k = 0; k < steps; ++k) {
    ipcc_lcp_step_stats st;
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "bench_lcp_regions: %s\n", err.msg);
      ipc_lcp_world_destroy(w);
      return 0;
    }
    t->t_solve += st.t_solve;
    t->t_total += st.t_total;
    t->iterations += st.lcp_iterations;
    t->unconverged += st.unconverged;
    if (st.contacts > t->contacts_max) t->contacts_max = st.contacts;
    if (st.regions > t->regions_max) t->regions_max = st.regions;
  }
  ipc_lcp_world_destroy(w);
  return 1;
}

static void print(const char *name, const tally *t, int steps) {
  printf("%-22s %10.4f %12.4f %12ld %10.1f %9d %8d %6d\n", name, t->t_solve, t->t_total,
         t->iterations, (double)t->iterations / steps, t->contacts_max, t->regions_max,
         t->unconverged);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_lcp_regions SCENE [STEPS] [TOL] [MAX_ITER]\n");
    return 2;
  }
  int steps = argc > 2 ? atoi(argv[2]) : 40;
  double tol = argc > 3 ? atof(argv[3]) : 1e-6;
  ipcc_scene_def sc;
  ipcc_error err;
  if (ipcc_scene_load(argv[1], &sc, &err) != IPCC_OK) {
    fprintf(stderr, "bench_lcp_regions: %s\n", err.msg);
    return 2;
  }
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  if (ipcc_lcp_scene_load(argv[1], &d, NULL, &err) != IPCC_OK) { /* the scene's lcp options */
    fprintf(stderr, "bench_lcp_regions: %s\n", err.msg);
    ipcc_scene_def_free(&sc);
    return 2;
  }
  d.tol = tol;
  d.max_iter = argc > 4 ? atoi(argv[4]) : 100000;
  printf("%s, %d steps, tol %g\n", argv[1], steps, tol);
  printf("%-22s %10s %12s %12s %10s %9s %8s %6s\n", "variant", "solve s", "step s", "iterations",
         "it/step", "contacts", "regions", "unconv");
  tally t[4];
  const char *names[4] = {"pgs, regions", "pgs, one problem", "amgs, regions", "amgs, one problem"};
  int ok = 1, namgs = d.friction == IPCC_LCP_FRICTION_BOX || d.friction == IPCC_LCP_FRICTION_CONE;
  for (int k = 0; k < (namgs ? 2 : 4) && ok; ++k) {
    d.solver = k < 2 ? 0 : 2;
    d.split_regions = k % 2 == 0;
    ok = run(&sc, &d, steps, &t[k]);
    if (ok) print(names[k], &t[k], steps);
  }
  if (ok) {
    printf("split speed-up (solve time): pgs %.2fx\n",
           t[1].t_solve / (t[0].t_solve > 0 ? t[0].t_solve : 1e-300));
  }
  if (ok && !namgs) {
    printf("split speed-up (solve time): amgs %.2fx\n",
           t[3].t_solve / (t[2].t_solve > 0 ? t[2].t_solve : 1e-300));
    printf("amgs / pgs iterations (regions): %.3f, time %.3f\n",
           (double)t[2].iterations / (double)(t[0].iterations > 0 ? t[0].iterations : 1),
           t[2].t_solve / (t[0].t_solve > 0 ? t[0].t_solve : 1e-300));
  }
  ipcc_scene_def_free(&sc);
  return ok ? 0 : 1;
}
