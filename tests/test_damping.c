/* Rayleigh stiffness damping (src/ipc/damping.c, IPC's dampingStiff / dampingRatio):
   - derivatives: the energy's gradient and the gradient's Jacobian match central finite
     differences of the energy and gradient, and the Jacobian is the assembled blocks C
   - a bar (scenes/meshes/cube.msh stretched to 1 x 3 x 1) with its bottom face held and an
     initial sideways velocity vibrates; with Newmark (energy-conserving) it keeps its energy
     undamped and loses most of it damped
   - a free cube translating loses nothing to damping: K annihilates translations */
#include <math.h>
#include <stdlib.h> /* rand */
#include <string.h>

#include "ipc/damping.h"
#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "test.h"

static ipc_world *bar_world(double beta, ipcc_time_integrator integ, int hold, double vx,
                            double vy) {
  static ipcc_dirichlet_def hold_def;
  ipcc_scene_def def = ipcc_default_scene_def();
  ipcc_body_def body = ipcc_default_body_def();
  body.mesh = (char *)"scenes/meshes/cube.msh";
  body.scale[1] = 3.0;
  body.velocity[0] = vx;
  body.velocity[1] = vy;
  memset(&hold_def, 0, sizeof hold_def);
  hold_def.region.box_min[0] = hold_def.region.box_min[2] = -0.1;
  hold_def.region.box_max[0] = hold_def.region.box_max[2] = 1.1;
  hold_def.region.box_min[1] = -0.1;
  hold_def.region.box_max[1] = 0.1;
  hold_def.t_end = INFINITY;
  if (hold) {
    body.dirichlet = &hold_def;
    body.ndirichlet = 1;
  }
  def.bodies = &body;
  def.nbodies = 1;
  def.gravity[1] = 0;
  def.time_step = 0.01;
  def.integrator = integ;
  def.newton_tol = 1e-8;
  def.newton_max_iterations = 100;
  def.damping_stiffness = beta;
  ipcc_error err;
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  return w;
}

static double frand(void) {
  return rand() / (double)RAND_MAX - 0.5;
}

static void derivatives(void) {
  ipc_world *w = bar_world(0.05, IPCC_IMPLICIT_EULER, 0, 0, 0);
  if (!w) return;
  enum { N = 24 }; /* cube.msh: 8 vertices */
  CHECK(w->m.nverts == 8);
  if (w->m.nverts != 8) {
    ipc_world_destroy(w);
    return;
  }
  srand(7);
  /* C at a deformed state, displacements from another one */
  for (int i = 0; i < N; ++i) w->s.x[i] += 0.05 * frand();
  ipc_damping_update(w);
  for (int i = 0; i < N; ++i) w->xn[i] = w->s.x[i] + 0.05 * frand();
  static double x[N], g[N], gp[N], gm[N], H[N * N];
  for (int i = 0; i < N; ++i) x[i] = w->s.x[i] + 0.1 * frand();
  ipc_damping_gradient(w, x, g);
  /* assembled C */
  for (int t = 0; t < w->m.ntets; ++t) {
    const int *tt = w->m.tets + 4 * t;
    for (int a = 0; a < 12; ++a)
      for (int b = 0; b < 12; ++b)
        H[(3 * tt[a / 3] + a % 3) * N + 3 * tt[b / 3] + b % 3] += w->damp_H[144 * t + 12 * a + b];
  }
  double eps = 1e-6, gscale = 0, worst_g = 0, worst_H = 0, hscale = 0;
  for (int i = 0; i < N; ++i) gscale = fmax(gscale, fabs(g[i]));
  for (int i = 0; i < N * N; ++i) hscale = fmax(hscale, fabs(H[i]));
  CHECK(gscale > 0 && hscale > 0);
  for (int j = 0; j < N; ++j) {
    double keep = x[j];
    x[j] = keep + eps;
    double ep = ipc_damping_energy(w, x);
    memset(gp, 0, sizeof gp);
    ipc_damping_gradient(w, x, gp);
    x[j] = keep - eps;
    double em = ipc_damping_energy(w, x);
    memset(gm, 0, sizeof gm);
    ipc_damping_gradient(w, x, gm);
    x[j] = keep;
    worst_g = fmax(worst_g, fabs((ep - em) / (2 * eps) - g[j]));
    for (int i = 0; i < N; ++i)
      worst_H = fmax(worst_H, fabs((gp[i] - gm[i]) / (2 * eps) - H[i * N + j]));
  }
  CHECK_MSG(worst_g <= 1e-6 * gscale, "gradient vs FD: %g (scale %g)", worst_g, gscale);
  CHECK_MSG(worst_H <= 1e-6 * hscale, "Hessian vs FD: %g (scale %g)", worst_H, hscale);
  /* C is symmetric positive semi-definite per block: d^T C d >= 0 */
  CHECK(ipc_damping_energy(w, x) >= 0);
  ipc_world_destroy(w);
}

/* energy after step 1 and after `steps` steps */
static void bar_energy(double beta, int steps, double *e1, double *e_end) {
  ipc_world *w = bar_world(beta, IPCC_NEWMARK, 1, 1.0, 0);
  *e1 = *e_end = NAN;
  if (!w) return;
  for (int s = 1; s <= steps; ++s) {
    ipcc_step_stats st;
    ipcc_error err;
    ipcc_status rc = ipc_world_step(w, &st, &err);
    CHECK_MSG(rc == IPCC_OK, "step %d: %s", s, err.msg);
    if (rc != IPCC_OK) break;
    if (s == 1) *e1 = st.energy;
    *e_end = st.energy;
  }
  ipc_world_destroy(w);
}

static void vibrating_bar(void) {
  double u1, u_end, d1, d_end;
  bar_energy(0.0, 150, &u1, &u_end);
  bar_energy(0.1, 150, &d1, &d_end);
  CHECK_MSG(fabs(u_end - u1) <= 0.02 * u1, "undamped: %g -> %g", u1, u_end);
  CHECK_MSG(d_end < 0.6 * d1, "damped: %g -> %g", d1, d_end);
}

static void rigid_translation(void) {
  ipc_world *w = bar_world(1.0, IPCC_IMPLICIT_EULER, 0, 0.7, -0.4);
  if (!w) return;
  int n = ipc_world_vertex_count(w);
  for (int s = 1; s <= 20; ++s) {
    ipcc_step_stats st;
    ipcc_error err;
    CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
  }
  const double *v = ipc_world_velocities(w);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = fmax(worst, fmax(fabs(v[3 * i] - 0.7), fabs(v[3 * i + 1] + 0.4)));
  CHECK_MSG(worst < 1e-9, "velocity change %g", worst);
  ipc_world_destroy(w);
}

int main(void) {
  derivatives();
  vibrating_bar();
  rigid_translation();
  TEST_MAIN_END();
}
