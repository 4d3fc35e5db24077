/* IPC integrator benchmark: runs a scene for N steps and reports time per step,
   Newton iterations per step and the time split (assembly, factorization, CCD,
   broad phase, other). usage: bench_ipc SCENE [STEPS] [--threads N] [--linear-solver NAME]
   [--petsc-options "..."]; SCENE is JSON or an IPC .txt script
   e.g. bench_ipc scenes/mat_twist.json            (IPC's mat40x40 twist, 250 steps)
        bench_ipc tests/bench/mat100x100_twist.json 20 --threads 2
        bench_ipc scenes/mat_twist.json 20 --linear-solver petsc-cg-gamg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"
#include "linalg/linear_solver.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: bench_ipc SCENE [STEPS] [--threads N] [--linear-solver NAME] "
            "[--petsc-options \"...\"]\n");
    return 2;
  }
  int nsteps_arg = -1, threads = 1, solver = -1;
  ipcc_error err;
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = ipcc_set_threads(atoi(argv[++i]));
    } else if (!strcmp(argv[i], "--linear-solver") && i + 1 < argc) {
      ipcc_linear_solver_kind kind;
      if (!ipc_linear_solver_kind_parse(argv[++i], &kind)) {
        fprintf(stderr, "--linear-solver: expected %s\n", ipc_linear_solver_kind_list());
        return 2;
      }
      solver = (int)kind;
    } else if (!strcmp(argv[i], "--petsc-options") && i + 1 < argc) {
      if (ipc_linear_solver_set_petsc_options(argv[++i], &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
      }
    } else {
      nsteps_arg = atoi(argv[i]);
    }
  }
  ipcc_scene_def def;
  if (ipcc_scene_load_any(argv[1], 0, &def, &err) != IPCC_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  if (solver >= 0) def.linear_solver = (ipcc_linear_solver_kind)solver;
  ipc_world *w = ipc_world_create(&def, &err);
  if (!w) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  int steps = nsteps_arg >= 0 ? nsteps_arg : ipc_world_scene_steps(w);
  double tot = 0, ta = 0, tf = 0, tc = 0, tb = 0, tan = 0;
  long analyses = 0;
  long its = 0, capped = 0, unmet = 0;
  int cmax = 0;
  for (int k = 0; k < steps; ++k) {
    ipcc_step_stats st;
    if (ipc_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "step %d: %s\n", k + 1, err.msg);
      return 1;
    }
    tot += st.t_total;
    ta += st.t_assembly;
    tf += st.t_factor;
    tc += st.t_ccd;
    tb += st.t_broad_phase;
    tan += st.t_analyze;
    analyses += st.analyses;
    its += st.newton_iterations;
    capped += st.newton_capped;
    unmet += st.dirichlet_unmet > 0;
    if (st.contacts_max > cmax) cmax = st.contacts_max;
    if ((k + 1) % 10 == 0 || k + 1 == steps)
      fprintf(stderr, "step %d: %.3f s/step so far, %.2f its/step, %d contacts\n", k + 1,
              tot / (k + 1), (double)its / (k + 1), st.contacts);
  }
  int free_ok = ipc_world_intersection_free(w, NULL, 0);
  printf("scene %s, %d thread%s, linear solver %s\n", argv[1], threads, threads == 1 ? "" : "s",
         ipc_linear_solver_kind_name(def.linear_solver));
  printf("steps %d, total %.2f s, %.3f s/step, %.2f Newton iterations/step (%.3f s/iteration)\n",
         steps, tot, tot / steps, (double)its / steps, tot / (double)(its ? its : 1));
  printf(
      "time split: assembly %.1f%%, factorization %.1f%%, ccd %.1f%%, broad phase %.1f%%, "
      "other %.1f%%\n",
      100 * ta / tot, 100 * tf / tot, 100 * tc / tot, 100 * tb / tot,
      100 * (tot - ta - tf - tc - tb) / tot);
  printf("symbolic analyses: %ld (%.1f%% of the time, inside factorization)\n", analyses,
         100 * tan / tot);
  /* per Newton iteration: assembly, the linear solve (factorization or preconditioner set-up,
     and the solve), the rest (CCD, broad phase, line search, contacts) */
  double it = (double)(its ? its : 1);
  printf("per Newton iteration: %.2f ms = assembly %.2f + linear solve %.2f + rest %.2f\n",
         1e3 * tot / it, 1e3 * ta / it, 1e3 * tf / it, 1e3 * (tot - ta - tf) / it);
  printf("max contacts %d, capped steps %ld, steps with unmet scripts %ld, final state %s\n", cmax,
         capped, unmet, free_ok ? "intersection-free" : "INTERSECTING");
  ipc_world_destroy(w);
  ipcc_scene_def_free(&def);
  return 0;
}
