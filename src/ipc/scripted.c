/* scripted vertices on the Newton solve's side: IPC's moving boundary conditions (its
   AnimScripter and the augmented Lagrangian's penalty schedule of Optimizer::solveSub_IP) and
   the direct placement of scripted vertices and affine bodies (scripted.h) */
#include "ipc/scripted.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"
#include "geometry/broad_phase.h"
#include "ipc/line_search.h"

int ipc_mbc_vertex(const ipc_world *w, int i) {
  return w->pre.scripted[i] && w->mbc.mass[i] > 0 &&
         !(w->rest.naff > 0 && w->rest.vert_aff[i] >= 0);
}

/* holds the scripted vertices of deformable bodies where they are (held) or lets them go
   under the pull of stiffness rho per unit mass */
void ipc_mbc_hold(ipc_world *w, int held) {
  w->mbc.held = held;
  for (int i = 0; i < w->m.nverts; ++i)
    if (ipc_mbc_vertex(w, i)) {
      w->fixed[i] = (unsigned char)held;
      w->penalty[i] = held ? 0.0 : w->mbc.rho * w->mbc.mass[i];
    }
  ipc_newton_update_mask(w);
}

/* IPC's moving boundary conditions after a line search (Optimizer::solveSub_IP), pmax the
   search direction's largest entry. Held short of the targets: let go with rho = 1e6. Let
   go: the completed fraction of the move (AnimScripter::computeCompletedStepSize); within
   1e-3 of the targets they are held where they are; while the fraction is below the one
   taken at the step's start, rho doubles (up to 1e8); once the direction is small (below
   1e-2 bbox h) rho doubles while the fraction is below 0.99, else lambda takes the pull.
   returns 1 when the potential changed (its terms or unknowns) */
int ipc_mbc_update(ipc_world *w, double pmax) {
  const double *m = w->mbc.mass;
  int n = w->m.nverts;
  if (w->mbc.held) {
    if (w->mbc.done >= 1 - 1e-3) return 0;
    w->mbc.rho = 1e6;
    ipc_mbc_hold(w, 0);
    return 1;
  }
  double sq = 0;
  for (int i = 0; i < n; ++i)
    if (ipc_mbc_vertex(w, i))
      for (int d = 0; d < 3; ++d) {
        double e = w->s.x[3 * i + d] - w->pre.target[3 * i + d];
        sq += e * e;
      }
  w->mbc.done = 1 - sqrt(sq / w->mbc.dir2);
  if (w->mbc.done > 1 - 1e-3) {
    ipc_mbc_hold(w, 1);
    return 1;
  }
  int stiffer = 0;
  if (w->mbc.done < w->mbc.start && w->mbc.rho < 1e8) {
    stiffer = 1;
  } else if (pmax < 1e-2 * w->m.bbox_diag * w->h) {
    if (w->mbc.done < 0.99 && w->mbc.rho < 1e8) {
      stiffer = 1;
    } else {
      for (int i = 0; i < n; ++i)
        if (ipc_mbc_vertex(w, i))
          for (int d = 0; d < 3; ++d)
            w->mbc.pull[3 * i + d] -=
                w->mbc.rho * m[i] * (w->s.x[3 * i + d] - w->pre.target[3 * i + d]);
      return 1;
    }
  }
  if (!stiffer) return 0;
  w->mbc.rho *= 2;
  ipc_mbc_hold(w, 0);
  return 1;
}

/* 1 when the move x -> xe is collision-free, ends at least 1e-4 dhat from every other
   primitive (closer, the barrier's curvature would swamp the Newton system) and keeps every
   tet valid */
static int placement_ok(ipc_world *w, ipcc_step_stats *st) {
  if (ipc_newton_swept_max_step(w, st, 0.0) < 1.0) return 0;
  if (!isfinite(ipc_elastic_energy(w, w->xe))) return 0;
  ipc_broad_phase(&w->cand, &w->m.surface, w->xe, NULL, 1e-4 * w->dhat);
  double d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->xe);
  return d2 >= 1e-8 * w->dhat * w->dhat;
}

/* places the scripted vertices that are not fixed yet (obstacles_only: those of kinematic
   obstacles, mass 0) on their targets if placement_ok; then fixes them. returns 1 on
   success (also when nothing had to move). */
int ipc_place_scripted(ipc_world *w, ipcc_step_stats *st, int obstacles_only) {
  const ipc_model *m = &w->m;
  int n = m->nverts, any = 0;
  memcpy(w->xe, w->s.x, 3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    if (!w->pre.scripted[i] || w->fixed[i] || (obstacles_only && m->mass[i] > 0)) continue;
    for (int d = 0; d < 3; ++d) w->xe[3 * i + d] = w->pre.target[3 * i + d];
    any = 1;
  }
  if (any) {
    if (!placement_ok(w, st)) return 0;
    memcpy(w->s.x, w->xe, 3 * (size_t)n * sizeof(double));
  }
  for (int i = 0; i < n; ++i)
    if (w->pre.scripted[i] && !w->fixed[i] && !(obstacles_only && m->mass[i] > 0)) {
      w->fixed[i] = 1;
      w->penalty[i] = 0;
    }
  return 1;
}

/* places each scripted affine body not fixed yet on its script's q (its vertices on J_i q,
   exactly their targets) when placement_ok, one body at a time; then fixes it. returns 1
   when every such body is placed */
int ipc_place_affine_scripted(ipc_world *w, ipcc_step_stats *st) {
  int n = w->m.nverts, all = 1;
  for (int a = 0; a < w->rest.naff; ++a) {
    if (!w->pre.aff_scripted[a] || w->aff_fixed[a]) continue;
    double *q = w->s.q + 12 * (size_t)a, *qs = w->pre.qs + 12 * (size_t)a;
    memcpy(w->xe, w->s.x, 3 * (size_t)n * sizeof(double));
    memcpy(w->aqe, w->s.q, 12 * (size_t)w->rest.naff * sizeof(double));
    memcpy(w->aqe + 12 * (size_t)a, qs, 12 * sizeof(double));
    ipc_affine_world_positions(w, w->aqe, w->xe);
    if (memcmp(q, qs, 12 * sizeof(double)) != 0 && !placement_ok(w, st)) {
      all = 0;
      continue;
    }
    memcpy(w->s.x, w->xe, 3 * (size_t)n * sizeof(double));
    memcpy(q, qs, 12 * sizeof(double));
    w->aff_fixed[a] = 1;
    w->aff_penalty[a] = 0;
  }
  return all;
}

/* 1 when vertex i has a script it does not follow yet: a scripted vertex not fixed, or a
   vertex of a scripted affine body not placed */
int ipc_script_unplaced(const ipc_world *w, int i) {
  if (!w->pre.scripted[i]) return 0;
  int a = w->rest.naff > 0 ? w->rest.vert_aff[i] : -1;
  return a < 0 ? !w->fixed[i] : !w->aff_fixed[a];
}

/* IPC's scripted move at a step's start (AnimScripter::stepAnimScript), for the scripted
   vertices of deformable bodies on IPC's Newton path: they move towards their targets by the
   fraction its CCD allows (ipc_ipc_script_step_bound), halved while a tet would invert or the
   move would not be collision-free, and are held there (w->mbc). Nothing to move: held on
   their targets and w->mbc stays off */
void ipc_mbc_begin(ipc_world *w, ipcc_step_stats *st) {
  int n = w->m.nverts;
  double dir2 = 0;
  memcpy(w->xe, w->s.x, 3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i)
    if (ipc_mbc_vertex(w, i)) {
      double e2 = 0;
      for (int d = 0; d < 3; ++d) {
        double e = w->pre.target[3 * i + d] - w->s.x[3 * i + d];
        w->xe[3 * i + d] = w->s.x[3 * i + d] + e;
        e2 += e * e;
      }
      dir2 += e2;
    }
  memset(w->mbc.pull, 0, 3 * (size_t)n * sizeof(double));
  w->mbc.on = dir2 > 0;
  w->mbc.rho = 0;
  w->mbc.done = 1;
  if (w->mbc.on) {
    double t0 = ipc_now();
    /* IPC's CTCD (slackness 0.5) stops a pair once it comes within half its current
       distance d0: it has closed by d0 / 2 <= its primitives' largest moves by then, so each
       vertex box grows by its own move (IPC's spatial hash finds such pairs by its voxels) */
    double *grow = IPC_NEW(double, (size_t)n);
    for (int i = 0; i < n; ++i) {
      const double *a = w->s.x + 3 * (size_t)i, *b = w->xe + 3 * (size_t)i;
      grow[i] = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                     (b[2] - a[2]) * (b[2] - a[2]));
    }
    ipc_broad_phase_passive(&w->cand, &w->m.surface, w->s.x, w->xe, 0.0, grow,
                            w->m.surface.vert_obstacle);
    /* only the pairs that can close by half their gap matter */
    ipc_candidates_narrow_reach(&w->cand, &w->m.surface, w->s.x, w->xe, 0.0,
                                ipc_ctcd_script_reach(), NULL);
    ipc_free(grow);
    st->t_broad_phase += ipc_now() - t0;
    t0 = ipc_now();
    double alpha = ipc_ipc_script_step_bound(&w->cm, &w->cand, w->s.x, w->xe, w->pre.scripted);
    st->t_ccd += ipc_now() - t0;
    memcpy(w->p, w->xe, 3 * (size_t)n * sizeof(double)); /* the targets' end of the move */
    for (int k = 0; k < 60; ++k, alpha *= 0.5) {
      for (int i = 0; i < 3 * n; ++i) w->xe[i] = w->s.x[i] + alpha * (w->p[i] - w->s.x[i]);
      if (isfinite(ipc_elastic_energy(w, w->xe)) &&
          (alpha == 0 || ipc_ccd_max_step(&w->cm, &w->cand, w->s.x, w->xe) >= 1.0))
        break;
    }
    memcpy(w->s.x, w->xe, 3 * (size_t)n * sizeof(double));
    w->mbc.done = w->mbc.start = alpha;
    if (w->log_newton)
      fprintf(stderr, "ipcc trace: step %d scripted move %.9g of the way\n", w->s.step + 1, alpha);
    w->mbc.dir2 = dir2;
  }
  ipc_mbc_hold(w, 1);
}
