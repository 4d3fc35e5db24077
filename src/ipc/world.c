/* the IPC time step (Li et al. 2020): each step minimises the incremental potential
     E(x) = 1/2 |x - xt|_M^2 + c h^2 Psi(x) + B(x) + D(x) [+ 1/2 sum_k w_k |x_k - xhat_k|^2]
            [+ 1/2 (x - xn)^T C (x - xn), Rayleigh damping (damping.h)]
   with xt the inertial prediction, c = 1 (implicit Euler) or beta (Newmark), Psi the
   elastic energy, B the barrier (contacts.c) and the bracket the penalty that pulls
   scripted vertices to their targets when they cannot be placed there directly, plus the
   lagged friction potential D(x) (friction.c) when any surface has friction.
   projected Newton (newton.c) minimises it; the line search is CCD-filtered, so no
   accepted iterate intersects. */
#include "core/error.h"
#include "ipc/world_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"
#include "elastic/elasticity.h"
#include "elastic/model_rest.h"
#include "geometry/intersect_surface.h"
#include "ipc/damping.h"
#include "ipc/kappa.h"
#include "linalg/mpi_run.h"

static const double newmark_beta = IPC_NEWMARK_BETA, newmark_gamma = IPC_NEWMARK_GAMMA;

static double mean_mass(const ipc_model *m) {
  double s = 0;
  int n = 0;
  for (int i = 0; i < m->nverts; ++i)
    if (m->mass[i] > 0) {
      s += m->mass[i];
      ++n;
    }
  return n ? s / n : 1.0;
}

/* twice the area of a triangle with edge lengths l (Kahan's formula, as libigl's doublearea) */
static double double_area(double l0, double l1, double l2) {
  double a = fmax(l0, fmax(l1, l2)), c = fmin(l0, fmin(l1, l2)), b = l0 + l1 + l2 - a - c;
  double q = (a + (b + c)) * (c - (a - b)) * (c + (a - b)) * (a + (b - c));
  return q > 0 ? 0.5 * sqrt(q) : 0.0;
}

/* the masses the scripted vertices carry under IPC's moving boundary conditions (w->mbc.mass):
   a deformable vertex its own, a node of an IPC codimensional shape (ipc_body.ipc_codim_mass)
   the lumped mass IPC's Mesh.cpp gives it, the rest 0 */
static void mbc_masses(ipc_world *w) {
  const ipc_model *m = &w->m;
  double *mm = w->mbc.mass;
  for (int i = 0; i < m->nverts; ++i) mm[i] = m->mass[i];
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (!bd->ipc_codim_mass) continue;
    const double *x = m->x0;
    for (int f = bd->f0; f < bd->f0 + bd->nf; ++f) {
      const int *t = m->surface.faces + 3 * (size_t)f;
      double l[3];
      for (int k = 0; k < 3; ++k) {
        const double *p = x + 3 * (size_t)t[(k + 1) % 3], *q = x + 3 * (size_t)t[(k + 2) % 3];
        l[k] = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                    (p[2] - q[2]) * (p[2] - q[2]));
      }
      /* a corner: its Voronoi area (libigl's massmatrix, as IPC computes it; a quarter and
         eighths of the area on an obtuse triangle) times the mean edge length / 3 (IPC's
         thickness) */
      double dbl = double_area(l[0], l[1], l[2]), cs[3], bary[3], q[3], sum = 0;
      for (int k = 0; k < 3; ++k) {
        const double la = l[k], lb = l[(k + 1) % 3], lc = l[(k + 2) % 3];
        cs[k] = (lc * lc + lb * lb - la * la) / (lb * lc * 2.0);
        bary[k] = cs[k] * la;
        sum += bary[k];
      }
      for (int k = 0; k < 3; ++k) bary[k] = bary[k] / sum * dbl * 0.5;
      for (int k = 0; k < 3; ++k) q[k] = (bary[(k + 1) % 3] + bary[(k + 2) % 3]) * 0.5;
      for (int o = 0; o < 3; ++o)
        if (cs[o] < 0)
          for (int k = 0; k < 3; ++k) q[k] = (k == o ? 0.25 : 0.125) * dbl;
      const double thick = (l[0] + l[1] + l[2]) / 3.0 / 3.0;
      for (int k = 0; k < 3; ++k) mm[t[k]] += bd->density * q[k] * thick;
    }
    for (int s = bd->s0; s < bd->s0 + bd->ns; ++s) {
      const int *e = m->segs + 2 * (size_t)s;
      const double *p = x + 3 * (size_t)e[0], *q = x + 3 * (size_t)e[1];
      double l = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                      (p[2] - q[2]) * (p[2] - q[2]));
      for (int k = 0; k < 2; ++k)
        mm[e[k]] += bd->density * l * l * l * 3.14159265358979323846 / 12.0;
    }
    if (bd->nf == 0 && bd->ns == 0) /* points: the mean node mass */
      for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) mm[i] = w->mean_mass;
  }
}

/* Newmark's starting acceleration from the equation of motion at t = 0 for the free
   vertices: a0 = g + Neumann - M^-1 grad Psi(x0) (contact forces left out: the start
   touches nothing, and kappa is chosen on the first step); 0 for kinematic vertices */
static void newmark_initial_acceleration(ipc_world *w) {
  const ipc_model *m = &w->m;
  int n = m->nverts;
  double *f = IPC_NEW0(double, 3 * (size_t)n + 1);
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt == 0) continue;
    ipc_tets_derivatives((ipc_material_model)w->rest.tet_model[bd->t0], bd->mu, bd->lambda, bd->nt,
                         m->tets + 4 * (size_t)bd->t0, w->rest.DmInv + 9 * (size_t)bd->t0,
                         w->rest.vol + bd->t0, w->s.x, NULL, w->tet_g + 12 * (size_t)bd->t0, NULL,
                         0);
    for (int t = bd->t0; t < bd->t0 + bd->nt; ++t)
      for (int k = 0; k < 4; ++k)
        for (int d = 0; d < 3; ++d)
          f[3 * m->tets[4 * t + k] + d] -= w->tet_g[12 * (size_t)t + 3 * k + d];
  }
  for (int k = 0; k < m->nneumann; ++k) {
    const ipc_neumann *nb = &m->neumann[k];
    if (!(0.0 >= nb->t_begin && 0.0 < nb->t_end)) continue;
    for (int i = 0; i < nb->nverts; ++i)
      for (int d = 0; d < 3; ++d)
        f[3 * nb->verts[i] + d] += m->mass[nb->verts[i]] * nb->acceleration[d];
  }
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      w->s.a[3 * i + d] = m->mass[i] > 0 ? m->params.gravity[d] + f[3 * i + d] / m->mass[i] : 0.0;
  ipc_free(f);
}

/* Rayleigh damping beta K whose forces on a rigid motion, zero in exact arithmetic, would
   show through rounding: K's rows cancel on a translation or rotation only to about 1e-16 of
   their size, so a damping term beta h (lambda + 2 mu) / (rho l^2) (l = a tet's volume^(1/3);
   the damping stiffness over the inertia of the tet) above 1e10 moves rigid motions by more
   than 1e-6 of themselves (1e16 s froze a falling cube). The affine bodies' strain damping
   likewise with kappa_A and the body's size. Returns the largest beta that keeps the ratio at
   1e10, or INFINITY, and the body that bounds it */
static double damping_limit(const ipc_world *w, int *which) {
  const ipc_model *m = &w->m;
  double best = INFINITY;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->obstacle || !(bd->density > 0)) continue;
    double stiff = bd->affine ? bd->affine_stiffness : bd->lambda + 2 * bd->mu, l2 = INFINITY;
    if (!(stiff > 0)) continue;
    if (bd->affine) {
      double vol = 0;
      for (int t = bd->t0; t < bd->t0 + bd->nt; ++t) vol += w->rest.vol[t];
      l2 = vol > 0 ? cbrt(vol) * cbrt(vol) : INFINITY;
    } else {
      for (int t = bd->t0; t < bd->t0 + bd->nt; ++t)
        l2 = fmin(l2, cbrt(w->rest.vol[t]) * cbrt(w->rest.vol[t]));
    }
    if (!(l2 < INFINITY)) continue;
    double beta = 1e10 * bd->density * l2 / (w->h * stiff);
    if (beta < best) {
      best = beta;
      *which = b;
    }
  }
  return best;
}

static ipcc_world *ipc_alloc(void) {
  ipc_world *w = IPC_NEW0(ipc_world, 1);
  w->world = (ipcc_world){&ipcc_strategy_ipc, w, &w->m, &w->rest, &w->s, &w->pre, NULL};
  return &w->world;
}

/* the IPC strategy's workspace of a world whose model, rest data, state and prescription are
   built (core/world.c); its checks: damping, the start state (intersection-free, not
   touching), the friction slip threshold */
static ipcc_status ipc_init(ipcc_world *world, const ipcc_scene_def *def, const void *options,
                            ipcc_error *err) {
  (void)options;
  ipc_world *w = world->ws;
  ipc_model *m = &w->m;
  int n = m->nverts;
  w->h = def->time_step;
  w->dhat = def->dhat_absolute ? def->dhat : def->dhat * m->bbox_diag;
  w->c_elastic = def->integrator == IPCC_NEWMARK ? newmark_beta : 1.0;
  w->xn = IPC_NEW(double, 3 * (size_t)n);
  w->xt = IPC_NEW(double, 3 * (size_t)n);
  w->xe = IPC_NEW(double, 3 * (size_t)n);
  w->penalty = IPC_NEW0(double, n);
  w->mbc.pull = IPC_NEW0(double, 3 * (size_t)n);
  w->mbc.mass = IPC_NEW0(double, (size_t)n + 1);
  w->fixed = IPC_NEW0(unsigned char, n);
  w->tet_g = IPC_NEW(double, 12 * (size_t)m->ntets + 1);
  w->tet_H = IPC_NEW(double, 144 * (size_t)m->ntets + 1);
  if (def->damping_stiffness > 0) w->damp_H = IPC_NEW0(double, 144 * (size_t)m->ntets + 1);
  ipc_affine_world_init(w, def);
  int stiff_body = -1;
  double beta_max = def->damping_stiffness > 0 ? damping_limit(w, &stiff_body) : INFINITY;
  if (def->damping_stiffness > beta_max) {
    char at[1200];
    const char *path = def->path ? def->path : "(scene)";
    if (def->source_line_damping > 0)
      snprintf(at, sizeof at, "%s:%d: damping (beta", path, def->source_line_damping);
    else
      snprintf(at, sizeof at, "%s: damping.stiffness (beta", path);
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s = %.3g s) is too large for body '%s' (at most %.3g s): its damping "
                         "forces would outweigh the body's inertia by over 1e10, and rounding "
                         "alone would then damp (or freeze) rigid motions, which damping leaves "
                         "free",
                         at, def->damping_stiffness, m->bodies[stiff_body].name, beta_max);
  }
  /* Newton direction and gradient over the system's vertices (pseudo-vertices included) */
  w->p = IPC_NEW0(double, 3 * (size_t)w->nsys);
  w->g = IPC_NEW0(double, 3 * (size_t)w->nsys);

  ipc_contact_model_init(&w->cm, m, w->dhat);
  if (def->integrator == IPCC_NEWMARK) {
    newmark_initial_acceleration(w);
    ipc_affine_world_initial_acceleration(w);
  }

  /* the start state must be intersection-free and not touching; the rest shapes of affine
     bodies too (checked here only: their maps keep them so while det A > 0) */
  ipc_intersection hit;
  unsigned char *rigid = w->m.surface.vert_rigid;
  w->m.surface.vert_rigid = NULL;
  int hits = ipc_surface_first_intersection(&m->surface, w->s.x, &hit);
  w->m.surface.vert_rigid = rigid;
  char what[256];
  if (hits) ipc_intersection_describe(what, sizeof what, &m->surface, &hit);
  if (hits || !ipc_model_no_containment(m, w->s.x, what, sizeof what))
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: the initial state intersects: %s",
                         def->path ? def->path : "(scene)", what);
  ipc_broad_phase(&w->cand, &m->surface, w->s.x, NULL, w->dhat);
  double d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
  if (d2 < 0)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: the initial state has touching surfaces (zero distance) or a vertex "
                         "on or behind a plane; separate them",
                         def->path ? def->path : "(scene)");
  w->min_d2 = d2;

  w->mean_mass = mean_mass(m);
  mbc_masses(w);
  ipc_kappa_bounds(&w->kappa_min, &w->kappa_max, m->bbox_diag, w->dhat, w->mean_mass);
  w->dhat0 = w->dhat;
  w->kappa = def->kappa > 0 ? def->kappa : 0.0; /* 0: chosen at every step's start */
  w->solver = ipc_newton_solver_create(w->nsys);
  ipc_friction_init(&w->fric, def->epsv_absolute ? def->epsv : def->epsv * m->bbox_diag, w->h);
  w->fric.plane_quadratic = m->params.plane_friction_quadratic;
  const char *trace = getenv("IPCC_TRACE");
  w->log_newton = trace ? (atoi(trace) > 1 ? 2 : 1) : 0; /* 2: the contacts too */
  for (int b = 0; b < m->nbodies; ++b) w->solve_friction |= m->bodies[b].friction > 0;
  for (int p = 0; p < m->nplanes; ++p) w->solve_friction |= m->planes[p].friction > 0;
  /* friction is mollified below the slip eps_v h per step; below the rounding of positions the
     mollifier's curvature (1 / (eps_v h)) overflows the Newton system some steps later */
  double slip = w->fric.eps_v * w->h;
  if (w->solve_friction && !(slip >= 1e-12 * m->bbox_diag)) {
    char at[1200];
    const char *path = def->path ? def->path : "(scene)";
    if (def->source_line_epsv > 0)
      snprintf(at, sizeof at, "%s:%d: epsv", path, def->source_line_epsv);
    else
      snprintf(at, sizeof at, "%s: key 'contact.epsv'", path);
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %g gives a friction slip threshold of %g m per step, below the "
                         "rounding of positions (1e-12 of the %g m bounding-box diagonal); "
                         "expected a slip speed of at least %g m/s",
                         at, def->epsv, slip, m->bbox_diag, 1e-12 * m->bbox_diag / w->h);
  }
  return IPCC_OK;
}

static void ipc_release(ipcc_world *world) {
  ipc_world *w = world->ws;
  ipc_newton_solver_destroy(w->solver);
  ipc_candidates_free(&w->cand);
  ipc_candidates_free(&w->cand_wide);
  ipc_contact_set_free(&w->contacts);
  ipc_contact_model_free(&w->cm);
  ipc_friction_free(&w->fric);
  double *arrays[] = {w->xn,    w->xt,    w->xe,     w->p,        w->g,       w->penalty,
                      w->tet_g, w->tet_H, w->damp_H, w->mbc.pull, w->mbc.mass};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) ipc_free(arrays[i]);
  ipc_free(w->fixed);
  ipc_affine_world_free(w);
}

/* inertial prediction xt = xn + h v + c h^2 (g + neumann) (+ Newmark's a term) */
static void predict(ipc_world *w, double t) {
  const ipc_model *m = &w->m;
  int n = m->nverts;
  double h = w->h, ch2 = w->c_elastic * h * h;
  int newmark = m->params.integrator == IPCC_NEWMARK;
  for (int i = 0; i < 3 * n; ++i) {
    w->xt[i] = w->s.x[i] + h * w->s.v[i] + ch2 * m->params.gravity[i % 3];
    if (newmark) w->xt[i] += h * h * (0.5 - newmark_beta) * w->s.a[i];
  }
  for (int k = 0; k < m->nneumann; ++k) {
    const ipc_neumann *nb = &m->neumann[k];
    if (!(t >= nb->t_begin && t < nb->t_end)) continue;
    for (int i = 0; i < nb->nverts; ++i)
      for (int j = 0; j < 3; ++j) w->xt[3 * nb->verts[i] + j] += ch2 * nb->acceleration[j];
  }
  /* external forces set from outside: 1/2 |x - xt - c h^2 M^-1 f|_M^2 is the inertia term
     minus c h^2 f.x (plus a constant), the force's work in the incremental potential */
  const double *f = w->world.force;
  if (f)
    for (int i = 0; i < n; ++i)
      if (m->mass[i] > 0)
        for (int j = 0; j < 3; ++j) w->xt[3 * i + j] += ch2 * f[3 * i + j] / m->mass[i];
  /* on IPC's Newton path its Dirichlet vertices (the scripted vertices of deformable bodies and
     shapes) predict no motion: IPC's computeXTilta sets their xTilta to the last positions. It
     acts while its moving boundary conditions let them go (inertia against the penalty) */
  if (m->params.ipc_newton_path)
    for (int i = 0; i < n; ++i)
      if (w->pre.scripted[i] && !(w->rest.naff > 0 && w->rest.vert_aff[i] >= 0))
        for (int j = 0; j < 3; ++j) w->xt[3 * i + j] = w->s.x[3 * i + j];
}

/* kinetic + elastic + gravitational potential energy of the current state; affine bodies
   from their exact mass matrices (their lumped vertex masses only approximate them) */
static double total_energy(ipc_world *w) {
  return ipc_state_mechanical_energy(&w->s, &w->m, &w->rest) + ipc_elastic_energy(w, w->s.x);
}

/* dhat for the step's solves: sets the contact model's and kappa's bounds with it */
static void set_dhat(ipc_world *w, double dhat) {
  w->dhat = dhat;
  w->cm.dhat = dhat;
  ipc_kappa_bounds(&w->kappa_min, &w->kappa_max, w->m.bbox_diag, dhat, w->mean_mass);
}

/* the Newton solves of one step, as IPC's fullyImplicit_IP runs them: the first with kappa
   chosen and friction lagged at the step's start; after each solve that ends with contacts,
   friction is re-lagged at the solution (scenes with friction), and the solve repeats while
   either continuation asks for it:
   - friction: up to friction_iterations solves in all (<= 0: up to 20, IPC's "until
     converged"), until the Newton direction with the re-lagged friction is within the
     tolerance (IPC's test) or the lagged force changed by less than friction_tolerance;
   - dhat (dhat_target below dhat): while some contact is farther than dhat_target, dhat
     halves (not below dhat_target) and kappa is chosen again; never while a pair is closer
     than kappa's watch distance (IPC's tiny-distance fail-safe, which ends the step) */
static ipcc_status step_solves(ipc_world *w, ipcc_step_stats *st, ipcc_error *err) {
  const ipc_model *m = &w->m;
  double target =
      m->params.dhat_target > 0
          ? (m->params.dhat_absolute ? m->params.dhat_target : m->params.dhat_target * m->bbox_diag)
          : w->dhat0;
  double dw = ipc_kappa_watch_distance(m->bbox_diag);
  int max_solves = m->params.friction_iterations > 0 ? m->params.friction_iterations : 20;
  double ftol = m->params.friction_tolerance * m->bbox_diag;
  int solves = 0, had = 0;
  ipcc_status status;
  for (;;) {
    status = ipc_newton_step(w, st, err);
    ++solves;
    had |= w->fric.n > 0;
    if (status != IPCC_OK || w->contacts.n == 0) break;
    double dmax2 = 0;
    for (size_t k = 0; k < w->contacts.n; ++k) dmax2 = fmax(dmax2, w->contacts.c[k].d2);
    int shrink = w->dhat > target && dmax2 >= target * target;
    int relag = 0;
    if (w->solve_friction && (solves < max_solves || shrink || !w->contacts_at_x)) {
      double change = ipc_friction_relag(&w->fric, &w->cm, w->s.x, w->xn, w->kappa, m->mass);
      had |= w->fric.n > 0;
      relag = solves < max_solves && !(ftol > 0 && change <= ftol);
    } else if (w->solve_friction) {
      /* the last solve of the step: the set re-lagged at its end serves no solve (the next
         step lags afresh) but the step's statistics and the contacts query, so it is lagged
         at the solve's last contacts, without a broad phase or the force's change */
      ipc_friction_update_from(&w->fric, &w->cm, w->s.x, w->kappa, &w->contacts);
      had |= w->fric.n > 0;
    }
    if (shrink && w->min_d2 < dw * dw) break;
    if (relag) {
      int c = ipc_newton_direction_converged(w, st, err);
      if (c < 0) return IPCC_ERR_SIM;
      relag = !c;
    }
    if (!relag && !shrink) break;
    if (shrink) {
      set_dhat(w, fmax(w->dhat / sqrt(2.0), target));
      ipc_newton_choose_kappa(w, st);
      ++st->dhat_halvings;
    }
    st->dirichlet_unmet = 0;
  }
  st->friction_iterations = had ? solves : 0;
  st->friction_contacts = (int)w->fric.n;
  st->max_slip_speed = ipc_friction_max_slip(&w->fric, w->s.x, w->xn) / w->h;
  return status;
}

/* the IPC strategy's step (record: ipcc_step_stats) */
static ipcc_status ipc_step(ipcc_world *world, void *record, ipcc_error *err) {
  ipc_world *w = world->ws;
  ipcc_step_stats *st = record;
  ipc_model *m = &w->m;
  int n = m->nverts;
  double t0 = ipc_now();
  memset(st, 0, sizeof *st);
  st->ccd_alpha_min = 1.0;
  memcpy(w->xn, w->s.x, 3 * (size_t)n * sizeof(double));
  if (ipc_prescribe(&w->pre, m, &w->rest, w->s.center, w->h, w->s.time, w->s.step, w->s.x, w->s.q,
                    err) != IPCC_OK)
    return IPCC_ERR_INPUT;
  predict(w, w->s.time);
  ipc_affine_world_predict(w, w->s.time);
  ipc_damping_update(w);
  /* every step starts from the scene's dhat and kappa's start value (IPC's fullyImplicit_IP) */
  if (w->dhat != w->dhat0) set_dhat(w, w->dhat0);
  if (m->params.kappa <= 0) w->kappa = m->params.kappa_initial;
  w->step_begin = 1;

  /* every rank runs the step's solves: their loops over pairs and tets are split among the
     MPI ranks (linalg/mpi_run.h; nothing changes on one rank) */
  ipc_mpi_split_scope(1);
  ipcc_status status = step_solves(w, st, err);
  ipc_mpi_split_scope(0);

  /* velocities (and Newmark acceleration) from the new positions */
  double h = w->h;
  if (m->params.integrator == IPCC_NEWMARK) {
    for (int i = 0; i < 3 * n; ++i) {
      double xhat = w->xn[i] + h * w->s.v[i] + h * h * (0.5 - newmark_beta) * w->s.a[i];
      double anew = (w->s.x[i] - xhat) / (newmark_beta * h * h);
      w->s.v[i] += h * ((1 - newmark_gamma) * w->s.a[i] + newmark_gamma * anew);
      w->s.a[i] = anew;
    }
  } else {
    for (int i = 0; i < 3 * n; ++i) w->s.v[i] = (w->s.x[i] - w->xn[i]) / h;
  }
  ipc_affine_world_velocities(w); /* from q; J_i qdot (and J_i qddot) on affine vertices */
  w->s.time += h;
  w->s.step++;
  st->step = w->s.step;
  st->time = w->s.time;
  st->kappa = w->kappa;
  st->contacts = (int)w->contacts.n;
  /* exact when a pair is within dhat (the broad phase finds all such pairs); otherwise
     only 'at least dhat' is known, reported as null */
  st->min_distance = w->min_d2 < w->dhat * w->dhat ? sqrt(w->min_d2) : INFINITY;
  st->energy = total_energy(w);
  st->t_total = ipc_now() - t0;
  w->drive_stale = 0;
  return status;
}

/* after x or v was set from outside: the contacts at the new x, refused (IPCC_ERR_INPUT) when
   two surfaces touch or a vertex is on or behind a plane, as creation refuses them */
static ipcc_status ipc_state_changed(ipcc_world *world, int positions, ipcc_error *err) {
  ipc_world *w = world->ws;
  w->drive_stale = 1;
  if (!positions) return IPCC_OK;
  ipc_broad_phase(&w->cand, &w->m.surface, w->s.x, NULL, w->dhat);
  double d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
  if (d2 < 0)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "ipcc_world_set_positions: the new state has touching surfaces (zero "
                         "distance) or a vertex on or behind a plane; separate them");
  w->min_d2 = d2;
  return IPCC_OK;
}

/* the friction force of the lagged contact fc at x on its first side (weights > 0) into F */
static void friction_force(const ipc_world *w, const ipc_friction_contact *fc, double scale,
                           double F[3]) {
  double g[12] = {0};
  ipc_friction_contact_local(fc, w->s.x, w->xn, w->fric.eps_v * w->fric.h, 0, g, NULL);
  F[0] = F[1] = F[2] = 0;
  for (int j = 0; j < fc->nv; ++j)
    if (fc->w[j] > 0)
      for (int d = 0; d < 3; ++d) F[d] -= scale * g[3 * j + d];
}

static int has_vertex(const int *v, int n, int id) {
  for (int k = 0; k < n; ++k)
    if (v[k] == id) return 1;
  return 0;
}

/* 1 when the lagged contact fc joins the same primitives as c with its first side on c's
   first (-1: on c's second), else 0 */
static int friction_matches(const ipc_contact *c, const ipc_friction_contact *fc) {
  int ns = ipc_contact_first_side(c), np = ipc_contact_vertices(c);
  for (int o = 1; o >= -1; o -= 2) {
    int ok = 1, pos = 0, neg = 0;
    for (int j = 0; j < fc->nv && ok; ++j) {
      if (fc->w[j] == 0) continue;
      int first = (fc->w[j] > 0) == (o > 0);
      pos += fc->w[j] > 0;
      neg += fc->w[j] < 0;
      ok = first ? has_vertex(c->v, ns, fc->v[j]) : has_vertex(c->v + ns, np - ns, fc->v[j]);
    }
    if (ok && pos + neg > 0 && (c->kind == IPC_CONTACT_PLANE) == (neg == 0 || pos == 0)) return o;
  }
  return 0;
}

/* the contacts within dhat at the current x, forces from the barrier (kappa, dhat of the
   last step) and the lagged friction, per unit of the step's c h^2 */
static int ipc_contact_list(const ipcc_world *world, ipcc_contact *out, int cap) {
  const ipc_world *w = world->ws;
  ipc_candidates cand;
  ipc_contact_set cs;
  memset(&cand, 0, sizeof cand);
  memset(&cs, 0, sizeof cs);
  ipc_broad_phase(&cand, &w->m.surface, w->s.x, NULL, w->dhat);
  ipc_contacts_collect(&cs, &w->cm, &cand, w->s.x);
  double scale = 1.0 / (w->c_elastic * w->h * w->h);
  const int *vb = w->m.surface.vert_body;
  int n = (int)cs.n;
  for (int k = 0; k < n && k < cap; ++k) {
    const ipc_contact *c = &cs.c[k];
    ipcc_contact *o = &out[k];
    memset(o, 0, sizeof *o);
    int ns = ipc_contact_first_side(c), np = ipc_contact_vertices(c);
    o->kind = c->kind;
    o->plane = c->kind == IPC_CONTACT_PLANE ? c->plane : -1;
    for (int j = 0; j < 4; ++j) o->vertex[j] = j < np ? c->v[j] : -1;
    o->body[0] = vb[c->v[0]];
    o->body[1] = np > ns ? vb[c->v[ns]] : -1;
    o->distance = ipc_contact_closest_points(c, &w->cm, w->s.x, o->point[0], o->point[1]);
    for (int d = 0; d < 3; ++d)
      o->normal[d] = o->distance > 0 ? (o->point[0][d] - o->point[1][d]) / o->distance : 0.0;
    int nv, verts[4];
    double g[12], H[144], F[3] = {0, 0, 0};
    ipc_contact_local(c, &w->cm, w->s.x, w->kappa, 0, &nv, verts, g, H);
    for (int a = 0; a < nv; ++a)
      if (has_vertex(c->v, ns, verts[a]))
        for (int d = 0; d < 3; ++d) F[d] -= scale * g[3 * a + d];
    o->normal_force = F[0] * o->normal[0] + F[1] * o->normal[1] + F[2] * o->normal[2];
    if (w->drive_stale) continue;
    for (size_t f = 0; f < w->fric.n; ++f) {
      int side = friction_matches(c, &w->fric.c[f]);
      if (!side) continue;
      double Ff[3];
      friction_force(w, &w->fric.c[f], scale, Ff);
      for (int d = 0; d < 3; ++d) o->friction_force[d] += side * Ff[d];
    }
  }
  ipc_contact_set_free(&cs);
  ipc_candidates_free(&cand);
  return n;
}

static double ipc_distance(const ipcc_world *w) {
  return ((const ipc_world *)w->ws)->dhat;
}

/* in the order of ipcc_strategy's fields (core/world.h): name, affine rest origin,
   allows_penetration, record_size, state_mode, newmark, check_options, alloc, check_model,
   init, release, step, state_fields, state_tags, nstate_tags, state_apply, contact_distance
   (positional: a designated table would repeat the LCP one line for line) */
const ipcc_strategy ipcc_strategy_ipc = {"ipc",
                                         IPC_REST_WORLD_ORIGIN,
                                         0,
                                         sizeof(ipcc_step_stats),
                                         IPC_STATE_IPC,
                                         1,
                                         NULL,
                                         ipc_alloc,
                                         NULL,
                                         ipc_init,
                                         ipc_release,
                                         ipc_step,
                                         ipc_world_state_fields,
                                         ipc_world_state_tags,
                                         2,
                                         ipc_world_state_apply,
                                         ipc_distance,
                                         ipc_state_changed,
                                         ipc_contact_list};
