/* affine bodies in the LCP step (docs/affine-integration.md, docs/lcp-mode.md): body a has
   the state q_a = (p, A e1, A e2, A e3) (affine/affine.h) and its vertices move as
   x_i = J_i q_a, J_i = w_i^T (x) I3 with w_i = (1, xbar_i), xbar_i the vertex's initial
   position relative to the body's initial centre of mass (so q starts at (centre, I)). Its
   velocity state is qdot_a; the vertices carry no DOF of the sparse system.
   Rest coordinates about the centre keep M4 = [m c^T; c S] well conditioned: about the
   world origin a ball of r 0.18 m standing 10 m up has S ~ m 100 m^2 against its own
   m r^2 / 5 ~ m 0.0065 m^2, and with kappa h^2 on top the 12x12 system lost enough digits
   that a 30-ball column pumped energy into the stretch of A (kinetic energy 9 -> 20 J,
   orthogonality energy alternating 1 J / 2e4 J in steps 23-34).

   Unconstrained velocity, linearly implicit like the deformable bodies: one Newton step of
   the incremental potential 1/2 |q - qt|_M^2 + h^2 E_orth(q), qt = q + h qdot + h^2 M^-1 f,
     A_a (q* - q0) = -(M (q0 - qt) + h^2 grad E_orth(q0)),   A_a = M + h^2 K_orth(q0),
     qdot* = (q* - q) / h,
   M = M4 (x) I3 the exact mass matrix, f the generalized gravity and Neumann loads, K_orth the
   PSD-projected Hessian of the orthogonality potential kappa V ||A A^T - I||_F^2 (keeps A near a
   rotation). The step starts from q0 = qt with A replaced by its nearest rotation (as IPC mode's
   Newton start, docs/affine-integration.md), not from q: q + h qdot leaves the rotations by O(h^2
   omega^2), and the stiff potential linearised there has a tangential stiffness (its gradient over
   the radius) that stopped a spinning body within a few steps (measured: kinetic energy 71 -> 10 J
   in 2 steps at 3 rad/s, h 0.01, kappa 1e8). From the rotation the gradient vanishes and K has no
   stiffness along rotations; the spin then loses only implicit Euler's O(h omega^2) per unit time.
   A_a = L L^T (dense 12x12 Cholesky). A contact row r touching the body has the 12-vector
   g = sum_i w_ri (w_i (x) d_r) over its vertices i on the body; with g' = L^-1 g the body's
   part of W = J A^-1 J^T is g'_r . g'_s, so the contact solve sees 12 columns per body with
   unit inverse mass (lcp_solve.c), and an impulse y' = sum_r g'_r z_r changes the velocity
   by qdot += L^-T y'. Then q += h qdot, A is put back on its polar rotation (p keeping the
   centre of mass), and x = J q.

   Why the projection: q + h qdot with a spin omega leaves the rotations by h^2 omega^2
   (second order; K has no stiffness along rotations, so the step cannot see it), which the
   stiff potential prices at kappa V (h omega)^4: after an impact of the 30-ball column
   (stacking_spheres_affine.json) one ball spun at ~2 rad/s and held 171 J of orthogonality
   energy against 0.15 J of work by its impulses (1/2 dqdot^T A_a dqdot), and the stats
   energy jumped between 1.6e3 and 3e5 J from step to step. The next step starts from the
   polar rotation anyway, so that energy was never felt, only reported; projected at the end
   of the step, x moves by at most h^2 omega^2 r (16 um for 2 rad/s on r 0.18 m, h 0.005),
   far inside the contact skin. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/lcp_world_internal.h"

void ipc_lcp_affine_map(ipc_lcp_world *w) {
  for (int a = 0; a < w->rest.naff; ++a) {
    ipc_rest_map_body(&w->rest, &w->m, a, w->s.q + 12 * (size_t)a, w->s.x);
    ipc_rest_map_body(&w->rest, &w->m, a, w->s.qd + 12 * (size_t)a, w->s.v);
  }
}

void ipc_lcp_affine_init(ipc_lcp_world *w) {
  int na = w->rest.naff;
  if (na == 0) return;
  w->aff_loc = IPC_NEW(int, na);
  double **arrays[] = {&w->aqd_star, &w->adqd};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k)
    *arrays[k] = IPC_NEW0(double, 12 * (size_t)na);
  w->aL = IPC_NEW0(double, 144 * (size_t)na);
  for (int a = 0; a < na; ++a) w->aff_loc[a] = -1;
  ipc_rest_affine_start(&w->rest, &w->m, w->s.x, w->s.v, w->s.q, w->s.qd);
}

void ipc_lcp_affine_free(ipc_lcp_world *w) {
  ipc_free(w->aff_loc);
  double *arrays[] = {w->aqd_star, w->adqd, w->aL};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) ipc_free(arrays[k]);
}

/* in-place Cholesky A = L L^T of the symmetric n x n A (row-major; L in the lower triangle,
   the upper one zeroed); 0 when A is not numerically positive definite */
static int cholesky(int n, double *A) {
  for (int j = 0; j < n; ++j) {
    double d = A[(n + 1) * j];
    for (int k = 0; k < j; ++k) d -= A[n * j + k] * A[n * j + k];
    if (!(d > 0.0) || !isfinite(d)) return 0;
    A[(n + 1) * j] = sqrt(d);
    for (int i = j + 1; i < n; ++i) {
      double s = A[n * i + j];
      for (int k = 0; k < j; ++k) s -= A[n * i + k] * A[n * j + k];
      A[n * i + j] = s / A[(n + 1) * j];
      A[n * j + i] = 0.0;
    }
  }
  return 1;
}

void ipc_lcp_affine_forward(const ipc_lcp_world *w, int a, double g[12]) {
  const double *L = w->aL + 144 * (size_t)a;
  for (int i = 0; i < 12; ++i) {
    double s = g[i];
    for (int k = 0; k < i; ++k) s -= L[12 * i + k] * g[k];
    g[i] = s / L[13 * i];
  }
}

void ipc_lcp_affine_backward(const ipc_lcp_world *w, int a, double y[12]) {
  const double *L = w->aL + 144 * (size_t)a;
  for (int i = 11; i >= 0; --i) {
    double s = y[i];
    for (int k = i + 1; k < 12; ++k) s -= L[12 * k + i] * y[k];
    y[i] = s / L[13 * i];
  }
}

/* qt with A projected onto the rotations (polar factor) and p moved so that the centre of
   mass stays (the linearisation point of a step from the prediction qt, and the end of a
   step); qt itself when A has no polar factor (det <= 0) */
static void start(const ipc_affine_moments *mom, const double qt[12], double q0[12]) {
  double R[9], t[12];
  memcpy(t, qt, sizeof t); /* q0 may alias qt */
  memcpy(q0, t, sizeof t);
  if (ipc_affine_polar(t + 3, R) != 0) return;
  memcpy(q0 + 3, R, sizeof R);
  for (int j = 0; j < 3; ++j) /* p + A cbar unchanged: cbar = first / mass */
    for (int i = 0; i < 3; ++i)
      q0[i] += (t[3 + 3 * j + i] - R[3 * j + i]) * mom->first[j] / mom->mass;
}

ipcc_status ipc_lcp_affine_free_velocity(ipc_lcp_world *w, ipcc_error *err) {
  double h = w->h;
  if (w->rest.naff == 0) return IPCC_OK;
  /* the Neumann loads active now as generalized forces: sum m_i J_i^T a over the loaded
     vertices of each body (the forces m_i a a deformable body's vertices get) */
  double *fn = IPC_NEW0(double, 12 * (size_t)w->rest.naff);
  ipc_model_affine_neumann(&w->m, w->rest.vert_aff, w->rest.aff_origin, w->s.time, fn);
  /* external forces set from outside: sum_i J_i^T f_i */
  if (w->world.force) ipc_rest_affine_forces(&w->rest, &w->m, w->world.force, fn);
  for (int a = 0; a < w->rest.naff; ++a) {
    const ipc_body *bd = &w->m.bodies[w->rest.aff_body[a]];
    const ipc_affine_moments *mom = &w->rest.aff_mom[a];
    const double *q = w->s.q + 12 * (size_t)a;
    double *qd = w->s.qd + 12 * (size_t)a, *qs = w->aqd_star + 12 * (size_t)a;
    if (w->pre.aff_scripted[a]) { /* a kinematic mover: its vertices are prescribed */
      for (int k = 0; k < 12; ++k) qd[k] = qs[k] = (w->pre.qs[12 * (size_t)a + k] - q[k]) / h;
      continue;
    }
    double f[12], qt[12], q0[12], g[12], H[144], *L = w->aL + 144 * (size_t)a;
    ipc_affine_uniform_force(mom, w->m.params.gravity, f);
    for (int k = 0; k < 12; ++k) f[k] += fn[12 * (size_t)a + k];
    ipc_affine_predict(mom, q, qd, h, f, qt);
    start(mom, qt, q0);
    ipc_affine_orth_gradient(q0, bd->affine_stiffness, mom->volume, g);
    for (int k = 0; k < 12; ++k) qs[k] = q0[k] - qt[k];
    ipc_affine_mass_mul(mom, qs, qs);
    for (int k = 0; k < 12; ++k) qs[k] = -(qs[k] + h * h * g[k]);
    ipc_affine_orth_hessian_psd(q0, bd->affine_stiffness, mom->volume, H);
    ipc_affine_mass_matrix(mom, L);
    for (int k = 0; k < 144; ++k) L[k] += h * h * H[k];
    if (!cholesky(12, L)) {
      ipc_free(fn);
      return ipc_error_set(err, IPCC_ERR_SIM,
                           "step %d: affine body '%s': M + h^2 K could not be factored",
                           w->s.step + 1, bd->name);
    }
    ipc_lcp_affine_forward(w, a, qs);
    ipc_lcp_affine_backward(w, a, qs);
    for (int k = 0; k < 12; ++k) qs[k] = (q0[k] + qs[k] - q[k]) / h;
    ipc_rest_map_body(&w->rest, &w->m, a, qs, w->vstar);
  }
  ipc_free(fn);
  return IPCC_OK;
}

void ipc_lcp_affine_advance(ipc_lcp_world *w) {
  for (int a = 0; a < w->rest.naff; ++a) {
    double *q = w->s.q + 12 * (size_t)a, *qd = w->s.qd + 12 * (size_t)a;
    if (w->pre.aff_scripted[a]) { /* exactly on the script's path */
      memcpy(q, w->pre.qs + 12 * (size_t)a, 12 * sizeof(double));
    } else {
      for (int k = 0; k < 12; ++k) {
        qd[k] = w->aqd_star[12 * (size_t)a + k] + w->adqd[12 * (size_t)a + k];
        q[k] += w->h * qd[k];
      }
      start(&w->rest.aff_mom[a], q, q); /* back onto the rotations (below) */
    }
    ipc_rest_map_body(&w->rest, &w->m, a, q, w->s.x);
    ipc_rest_map_body(&w->rest, &w->m, a, qd, w->s.v);
  }
}

void ipc_lcp_affine_displace(ipc_lcp_world *w) {
  for (int a = 0; a < w->rest.naff; ++a) {
    double *q = w->s.q + 12 * (size_t)a;
    const double *dq = w->adqd + 12 * (size_t)a;
    int moved = 0;
    for (int k = 0; k < 12; ++k) moved |= dq[k] != 0;
    if (w->pre.aff_scripted[a] || !moved) continue;
    for (int k = 0; k < 12; ++k) q[k] += w->h * dq[k];
    start(&w->rest.aff_mom[a], q, q);
    ipc_rest_map_body(&w->rest, &w->m, a, q, w->s.x);
  }
}
