/* the two time integrators of the IPC world (src/ipc/world.c) on a free unit cube
   (scenes/meshes/cube.msh, 8 vertices), no contact:
   - free fall under gravity: Newmark (beta 1/4, gamma 1/2) is exact for a constant
     acceleration, so x(t) = x0 + v0 t + g t^2 / 2 to round-off from t = 0 (the world
     starts Newmark from a0 = g - M^-1 grad Psi(x0)); implicit Euler has the known O(h) error
     x_n = x0 + v0 t + g t^2 / 2 + g h t / 2, exactly
   - undamped oscillation (no gravity): the cube set breathing by an initial velocity
     field, or stretched 5% and released, keeps its kinetic + elastic energy within 0.5%
     over ~10 periods with Newmark, and loses most of it with implicit Euler
   - convergence in h at a fixed time: halving h divides the Newmark position change by
     ~4 (second order), implicit Euler's by ~2 at most */
#include <math.h>
#include <string.h>

#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "test.h"

static const double grav = -9.80665;

/* the unit cube, alone, with a tight Newton tolerance; NULL (a failed check) on error */
static ipc_world *cube_world(ipcc_time_integrator integ, double h, double gy, const double v0[3]) {
  ipcc_scene_def def = ipcc_default_scene_def();
  ipcc_body_def body = ipcc_default_body_def();
  body.mesh = (char *)"scenes/meshes/cube.msh";
  memcpy(body.velocity, v0, sizeof body.velocity);
  def.bodies = &body;
  def.nbodies = 1;
  def.gravity[1] = gy;
  def.time_step = h;
  def.integrator = integ;
  def.newton_tol = 1e-7;
  def.newton_max_iterations = 100;
  ipcc_error err;
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  return w;
}

/* one step that must succeed and converge */
static void step(ipc_world *w, ipcc_step_stats *st) {
  ipcc_error err;
  ipcc_status s = ipc_world_step(w, st, &err);
  CHECK_MSG(s == IPCC_OK, "step %d: %s", ipc_world_step_count(w), err.msg);
  CHECK(!st->newton_capped);
}

/* largest |x - (x0 + v0 t + g t^2 / 2 + extra)| over all coordinates, with g along y */
static double fall_error(const double *x, const double *x0, const double *v0, double t,
                         double extra, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) {
      double ref = x0[3 * i + j] + v0[3 * i + j] * t + (j == 1 ? 0.5 * grav * t * t + extra : 0);
      e = fmax(e, fabs(x[3 * i + j] - ref));
    }
  return e;
}

static void free_fall(void) {
  const double v0[3] = {0.3, 2.0, -0.1}, h = 0.05;
  const int nsteps = 20;
  /* implicit Euler: x_n = xt exactly, which lags the true parabola by g h t / 2 */
  {
    ipc_world *w = cube_world(IPCC_IMPLICIT_EULER, h, grav, v0);
    if (!w) return;
    int n = ipc_world_vertex_count(w);
    double x0[24], vv0[24];
    CHECK(n == 8);
    memcpy(x0, ipc_world_positions(w), sizeof x0);
    for (int i = 0; i < 24; ++i) vv0[i] = v0[i % 3];
    double worst = 0, lag = 0;
    for (int s = 1; s <= nsteps; ++s) {
      ipcc_step_stats st;
      step(w, &st);
      double t = s * h;
      worst = fmax(worst, fall_error(ipc_world_positions(w), x0, vv0, t, grav * h * t / 2, n));
      lag = fall_error(ipc_world_positions(w), x0, vv0, t, 0, n);
      const double *v = ipc_world_velocities(w);
      for (int i = 0; i < n; ++i) CHECK_NEAR(v[3 * i + 1], v0[1] + grav * t, 1e-11);
    }
    CHECK_MSG(worst < 1e-11, "implicit Euler free fall: %.3g off x0 + v0 t + g t^2/2 + g h t/2",
              worst);
    /* the O(h) error is there: g h T / 2 = 0.245 m at T = 1 s */
    CHECK_NEAR(lag, fabs(grav) * h * (nsteps * h) / 2, 1e-11);
    ipc_world_destroy(w);
  }
  /* Newmark: the exact parabola from t = 0 */
  {
    ipc_world *w = cube_world(IPCC_NEWMARK, h, grav, v0);
    if (!w) return;
    int n = ipc_world_vertex_count(w);
    ipcc_step_stats st;
    double x1[24], v1[24];
    memcpy(x1, ipc_world_positions(w), sizeof x1);
    memcpy(v1, ipc_world_velocities(w), sizeof v1);
    double worst = 0, worst_v = 0;
    for (int s = 1; s <= nsteps; ++s) {
      step(w, &st);
      double tau = s * h;
      worst = fmax(worst, fall_error(ipc_world_positions(w), x1, v1, tau, 0, n));
      const double *v = ipc_world_velocities(w);
      for (int i = 0; i < 3 * n; ++i)
        worst_v = fmax(worst_v, fabs(v[i] - (v1[i] + (i % 3 == 1 ? grav * tau : 0))));
    }
    CHECK_MSG(worst < 1e-11, "Newmark free fall: %.3g off the parabola", worst);
    CHECK_MSG(worst_v < 1e-11, "Newmark free fall: velocity %.3g off v1 + g t", worst_v);
    ipc_world_destroy(w);
  }
}

/* kinetic + elastic energy (no gravity in these worlds) */
static double energy(const ipc_world *w) {
  double k = 0;
  for (int i = 0; i < 3 * w->m.nverts; ++i) k += 0.5 * w->m.mass[i / 3] * w->s.v[i] * w->s.v[i];
  return k + ipc_elastic_energy(w, w->s.x);
}

enum { BREATHE, STRETCH };

/* sets the cube oscillating along x: a velocity field 1/s * (x - 0.5) from the rest shape,
   or a 5% stretch released at rest */
static void excite(ipc_world *w, int how) {
  for (int i = 0; i < w->m.nverts; ++i) {
    double *x = w->s.x + 3 * i;
    if (how == BREATHE)
      w->s.v[3 * i] = x[0] - 0.5;
    else
      x[0] = 0.5 + 1.05 * (x[0] - 0.5);
  }
}

static void oscillation_energy(void) {
  const double zero[3] = {0, 0, 0}, h = 0.01;
  const int nsteps = 300; /* ~10 periods */
  for (int how = BREATHE; how <= STRETCH; ++how) {
    double kept[2] = {0, 0}, dev_nm = 0;
    for (int integ = IPCC_IMPLICIT_EULER; integ <= IPCC_NEWMARK; ++integ) {
      ipc_world *w = cube_world((ipcc_time_integrator)integ, h, 0, zero);
      if (!w) return;
      excite(w, how);
      double e0 = energy(w);
      CHECK(e0 > 10);
      ipcc_step_stats st;
      /* the stretch is applied after the world took a0 from the rest shape: the state is
         consistent with the equations of motion from the first step on */
      if (how == STRETCH && integ == IPCC_NEWMARK) {
        step(w, &st);
        e0 = st.energy;
      }
      for (int s = ipc_world_step_count(w); s < nsteps; ++s) {
        step(w, &st);
        CHECK_NEAR(st.energy, energy(w), 1e-12);
        if (integ == IPCC_NEWMARK) dev_nm = fmax(dev_nm, fabs(st.energy / e0 - 1));
      }
      kept[integ] = st.energy / e0;
      ipc_world_destroy(w);
    }
    CHECK_MSG(dev_nm < 5e-3, "%s: Newmark energy drifted by %.3g", how ? "stretch" : "breathe",
              dev_nm);
    CHECK_MSG(kept[IPCC_IMPLICIT_EULER] < 0.5, "%s: implicit Euler kept %.3g of the energy",
              how ? "stretch" : "breathe", kept[IPCC_IMPLICIT_EULER]);
  }
}

/* position change at T = 0.2 s between h and h/2, for h = 0.02, 0.01, 0.005 */
static void position_changes(ipcc_time_integrator integ, double d[3]) {
  const double zero[3] = {0, 0, 0}, T = 0.2;
  double xs[4][24];
  for (int k = 0; k < 4; ++k) {
    double h = 0.02 / (1 << k);
    ipc_world *w = cube_world(integ, h, 0, zero);
    if (!w) return;
    excite(w, BREATHE);
    int nsteps = (int)lround(T / h);
    ipcc_step_stats st;
    for (int s = 0; s < nsteps; ++s) step(w, &st);
    memcpy(xs[k], ipc_world_positions(w), sizeof xs[k]);
    ipc_world_destroy(w);
  }
  for (int k = 0; k < 3; ++k) {
    d[k] = 0;
    for (int i = 0; i < 24; ++i) d[k] = fmax(d[k], fabs(xs[k][i] - xs[k + 1][i]));
  }
}

static void convergence_order(void) {
  double nm[3] = {0}, ie[3] = {0};
  position_changes(IPCC_NEWMARK, nm);
  position_changes(IPCC_IMPLICIT_EULER, ie);
  for (int k = 0; k < 2; ++k) {
    double r = nm[k] / nm[k + 1];
    CHECK_MSG(r > 3.5 && r < 4.6, "Newmark: halving h divided the change by %.3f, not ~4", r);
    double ri = ie[k] / ie[k + 1];
    CHECK_MSG(ri < 2.5, "implicit Euler: halving h divided the change by %.3f", ri);
  }
  fprintf(stderr, "position change ratios: Newmark %.3f %.3f, implicit Euler %.3f %.3f\n",
          nm[0] / nm[1], nm[1] / nm[2], ie[0] / ie[1], ie[1] / ie[2]);
}

int main(void) {
  free_fall();
  oscillation_energy();
  convergence_order();
  TEST_MAIN_END();
}
