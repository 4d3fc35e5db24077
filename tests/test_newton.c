/* projected Newton on small scenes: the incremental potential decreases
   monotonically over the iterations of a step, converges quadratically near the
   solution, and the integrator keeps every iterate intersection-free */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "test.h"

static const char *write_scene(const char *text) {
  static char path[96];
  snprintf(path, sizeof path, "tests/data/tmp_newton_%d.json", (int)getpid());
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

static ipc_world *make(const char *text) {
  const char *path = write_scene(text);
  ipcc_scene_def def;
  ipcc_error err;
  ipc_world *w = NULL;
  if (ipcc_scene_load(path, &def, &err) == IPCC_OK) {
    w = ipc_world_create(&def, &err);
    ipcc_scene_def_free(&def);
  }
  CHECK_MSG(w != NULL, "%s", err.msg);
  remove(path);
  return w;
}

int main(void) {
  /* a hanging cube (top pinned) under gravity, no contact: pure elasticity, tight tolerance */
  {
    ipc_world *w = make(
        "{\"time_step\": 0.02, \"newton\": {\"tolerance\": 1e-9, \"max_iterations\": 60},"
        " \"bodies\": [{\"mesh\": \"../../scenes/meshes/sphere1K.msh\", \"material\": {\"young\": "
        "1e4},"
        " \"dirichlet\": [{\"box\": [[0, 0.9, 0], [1, 1, 1]]}]}]}");
    if (w) {
      double te[64], ts[64];
      w->trace_energy = te;
      w->trace_step = ts;
      w->trace_cap = 64;
      for (int s = 0; s < 3; ++s) {
        ipcc_step_stats st;
        ipcc_error err;
        w->trace_n = 0;
        CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
        CHECK(!st.newton_capped);
        /* converged to the tolerance, or stopped where the energy can no longer resolve the
           step (which of the two depends on the bits of the BLAS kernel) */
        CHECK_MSG(st.residual <= 1e-9 * w->m.bbox_diag || st.newton_floor,
                  "step %d: residual %.3g above the tolerance without reaching the floor", s,
                  st.residual);
        int n = w->trace_n;
        CHECK(n >= 2);
        for (int k = 1; k < n; ++k)
          CHECK_MSG(te[k] <= te[k - 1] + 1e-12 * fabs(te[k - 1]),
                    "step %d iteration %d: energy rose %.17g -> %.17g", s, k, te[k - 1], te[k]);
        /* quadratic convergence: once the step is small (but above the round-off floor of
           the solve, ~1e-10 here), the digits of |p| double: log|p_k+1| / log|p_k| ~ 2 */
        int quad = 0;
        for (int k = 1; k < n; ++k) {
          if (ts[k - 1] < 1e-2 && ts[k] > 1e-8) {
            double rate = log(ts[k]) / log(ts[k - 1]);
            CHECK_MSG(rate > 1.5, "step %d: |p| %.3g -> %.3g is not quadratic", s, ts[k - 1],
                      ts[k]);
            ++quad;
          }
        }
        CHECK_MSG(quad >= 1, "step %d: no iterate close enough to see the rate (%d its)", s, n);
      }
      ipc_world_destroy(w);
    }
  }
  /* a tolerance far below double precision (1e-15 of the diagonal per second): Newton must
     not cap or stall, but stop at the rounding floor after the quadratic phase, with the
     same answer as at 1e-9 to well within that tolerance */
  {
    const char *scene =
        "{\"time_step\": 0.02, \"newton\": {\"tolerance\": %s, \"max_iterations\": 60},"
        " \"bodies\": [{\"mesh\": \"../../scenes/meshes/sphere1K.msh\", \"material\": {\"young\": "
        "1e4}, \"dirichlet\": [{\"box\": [[0, 0.9, 0], [1, 1, 1]]}]}]}";
    char a[512], b[512];
    snprintf(a, sizeof a, scene, "1e-15");
    snprintf(b, sizeof b, scene, "1e-9");
    ipc_world *wa = make(a), *wb = make(b);
    if (wa && wb) {
      int floors = 0;
      for (int s = 0; s < 3; ++s) {
        ipcc_step_stats sa, sb;
        ipcc_error err;
        CHECK(ipc_world_step(wa, &sa, &err) == IPCC_OK);
        CHECK(ipc_world_step(wb, &sb, &err) == IPCC_OK);
        CHECK_MSG(!sa.newton_capped, "step %d: capped at %d iterations", s, sa.newton_iterations);
        CHECK_MSG(sa.newton_iterations <= 20, "step %d: %d iterations", s, sa.newton_iterations);
        floors += sa.newton_floor;
        double dmax = 0;
        const double *xa = ipc_world_positions(wa), *xb = ipc_world_positions(wb);
        for (int i = 0; i < 3 * ipc_world_vertex_count(wa); ++i)
          dmax = fmax(dmax, fabs(xa[i] - xb[i]));
        CHECK_MSG(dmax <= 1e-9 * wa->m.bbox_diag * 0.02, "step %d: answers %.3g apart", s, dmax);
      }
      CHECK_MSG(floors == 3, "only %d of 3 steps reported the rounding floor", floors);
    }
    ipc_world_destroy(wa);
    ipc_world_destroy(wb);
  }
  /* two cubes falling onto the ground: monotone energy in every step, no intersection */
  {
    ipc_world *w = make(
        "{\"time_step\": 0.025, \"bodies\": ["
        " {\"mesh\": \"../../scenes/meshes/cube.msh\", \"translation\": [0, 1.2, 0]},"
        " {\"mesh\": \"../../scenes/meshes/cube.msh\", \"translation\": [0.3, 0.05, 0.2]}],"
        " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}");
    if (w) {
      double te[256], ts[256];
      w->trace_energy = te;
      w->trace_step = ts;
      w->trace_cap = 256;
      int contacts = 0, cuts = 0;
      for (int s = 0; s < 40; ++s) {
        ipcc_step_stats st;
        ipcc_error err;
        w->trace_n = 0;
        CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
        for (int k = 1; k < w->trace_n; ++k)
          CHECK_MSG(te[k] <= te[k - 1] + 1e-12 * fabs(te[k - 1]), "step %d iteration %d", s, k);
        /* the line-search counts: at most one CCD cut per iteration, a halving only after an
           evaluated trial */
        CHECK_MSG(st.ccd_cuts >= 0 && st.ccd_cuts <= st.newton_iterations,
                  "step %d: %d CCD cuts in %d iterations", s, st.ccd_cuts, st.newton_iterations);
        CHECK_MSG(st.backtracks >= 0 && st.backtracks <= st.line_search_steps,
                  "step %d: %d halvings for %d evaluations", s, st.backtracks,
                  st.line_search_steps);
        cuts += st.ccd_cuts;
        CHECK(ipc_world_intersection_free(w, NULL, 0));
        if (st.contacts > contacts) contacts = st.contacts;
        CHECK(st.min_distance > 0);
      }
      CHECK_MSG(contacts > 0, "the cubes never came into contact");
      CHECK_MSG(cuts > 0, "no step cut by the CCD while the cubes landed");
      /* resting on the ground: the lower cube stays above the plane */
      double ymin = INFINITY;
      const double *x = ipc_world_positions(w);
      for (int i = 0; i < ipc_world_vertex_count(w); ++i) ymin = fmin(ymin, x[3 * i + 1]);
      CHECK(ymin > 0);
      CHECK(ymin < 0.01);
      ipc_world_destroy(w);
    }
  }
  /* Dirichlet handles (IPC's mat40x40 twist, first steps): the penalty pulls them along
     inside the Newton solve, then they are placed exactly. Every step ends with each
     handle vertex on its rotated rest position (bitwise: placed, not approached) and
     converges in at most 3 iterations (placing them first took 4 a step) */
  {
    ipc_world *w = make(
        "{\"time_step\": 0.04, \"gravity\": [0, 0, 0], \"bodies\": [{\"mesh\": "
        "\"../../scenes/meshes/mat40x40.msh\", \"rotation\": [90, 0, 0], \"translation\": "
        "[0.5, 0.5, 0.5], \"material\": {\"density\": 1000, \"young\": 2e4, \"poisson\": 0.4},"
        " \"dirichlet\": [{\"box\": [[0, 0, 0], [0.01, 1, 1]], \"angular_velocity\": "
        "[1.2566370614359172, 0, 0]}, {\"box\": [[0.99, 0, 0], [1, 1, 1]], "
        "\"angular_velocity\": [-1.2566370614359172, 0, 0]}]}]}");
    if (w) {
      for (int s = 0; s < 4; ++s) {
        ipcc_step_stats st;
        ipcc_error err;
        CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
        CHECK_MSG(st.newton_iterations <= 3, "step %d: %d Newton iterations", s + 1,
                  st.newton_iterations);
        CHECK(st.dirichlet_unmet == 0);
        int off = 0, handles = 0;
        for (int i = 0; i < w->m.nverts; ++i)
          if (w->pre.scripted[i]) {
            ++handles;
            for (int d = 0; d < 3; ++d) off += w->s.x[3 * i + d] != w->pre.target[3 * i + d];
          }
        CHECK(handles > 0);
        CHECK_MSG(off == 0, "step %d: %d handle coordinates off their targets", s + 1, off);
        CHECK(ipc_world_intersection_free(w, NULL, 0));
      }
      ipc_world_destroy(w);
    }
  }
  /* warm starts (IPC's warmStart 1 and 2): the same fall from x^n + h v^n and from the
     inertial prediction; in free fall the prediction is the minimizer itself (one Newton
     iteration per step), and no start may cost intersections */
  {
    static const char *const starts[] = {"previous", "velocity", "inertial"};
    int total[3] = {0, 0, 0}, first_free[3] = {0, 0, 0};
    for (int ws = 0; ws < 3; ++ws) {
      char text[512];
      snprintf(text, sizeof text,
               "{\"time_step\": 0.025, \"newton\": {\"warm_start\": \"%s\"}, \"bodies\": ["
               " {\"mesh\": \"../../scenes/meshes/cube.msh\", \"translation\": [0, 1.2, 0]},"
               " {\"mesh\": \"../../scenes/meshes/cube.msh\", \"translation\": [0.3, 0.05, 0.2]}],"
               " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}",
               starts[ws]);
      ipc_world *w = make(text);
      if (!w) continue;
      for (int s = 0; s < 40; ++s) {
        ipcc_step_stats st;
        ipcc_error err;
        CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
        CHECK(!st.newton_capped);
        CHECK(ipc_world_intersection_free(w, NULL, 0));
        CHECK(st.min_distance > 0);
        total[ws] += st.newton_iterations;
        if (s == 1) first_free[ws] = st.newton_iterations;
      }
      double ymin = INFINITY;
      const double *x = ipc_world_positions(w);
      for (int i = 0; i < ipc_world_vertex_count(w); ++i) ymin = fmin(ymin, x[3 * i + 1]);
      CHECK(ymin > 0 && ymin < 0.01);
      ipc_world_destroy(w);
    }
    CHECK_MSG(first_free[2] == 1, "inertial start in free fall: %d iterations", first_free[2]);
    CHECK_MSG(first_free[0] >= 2, "previous-position start in free fall: %d iterations",
              first_free[0]);
    CHECK_MSG(total[1] > 0 && total[2] > 0 && total[0] > 0, "iterations: %d %d %d", total[0],
              total[1], total[2]);
    /* an unknown start is an error naming the key */
    const char *path = write_scene(
        "{\"newton\": {\"warm_start\": \"guess\"}, \"bodies\": ["
        " {\"mesh\": \"../../scenes/meshes/cube.msh\"}]}");
    ipcc_scene_def def;
    ipcc_error err;
    CHECK(ipcc_scene_load(path, &def, &err) == IPCC_ERR_INPUT);
    CHECK(strstr(err.msg, "newton.warm_start") != NULL);
    remove(path);
  }
  TEST_MAIN_END();
}
