/* friction in the IPC integrator on the scenes of scenes/ (src/ipc/friction.c, world.c):
   - a block on a slope tilted by theta, coefficient mu = 0.5, as an analytic plane and as a
     two-triangle obstacle mesh: at theta = atan(mu) - 1 deg it sticks (slip over one second
     below eps_v x 1 s; the creep speed is the mollified model's r eps_v, r = 1 - sqrt(1 -
     tan(theta)/mu)); at atan(mu) + 1 deg it slides with acceleration g (sin - mu cos) within 2%
   - static 0.5 / kinetic 0.3: sticks where tan(theta) < 0.5 and slides at the kinetic rate
   - two leaning slabs (a house of cards) stand still with friction and collapse without it
   - a cube thrown sideways and spinning comes to rest with friction, not without
   - a unit cube dropped from 0.1 mm above dhat onto the ground sliding at 2 m/s, mu 0.3, dt
     0.01, Newton tolerance 1e-4: decelerates at mu g, stops after v^2 / (2 mu g) and stays
     flat (with the default tolerance 1e-2 it hops, tips 2.9 degrees and stops after 0.16 m,
     as the original IPC does at that tolerance: README, Friction)
   every state is checked intersection-free, and in the last two scenes every step's final
   friction set against a re-lag with a broad phase of its own */
#include <math.h>
#include <string.h>

#include "fit_accel.h"
#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "scene_text.h"
#include "test.h"

static const double deg = 3.14159265358979323846 / 180.0, grav = 9.80665;

/* center of mass of body b */
static void body_com(const ipc_world *w, int b, double c[3]) {
  const ipc_body *bd = &w->m.bodies[b];
  double ms = 0;
  c[0] = c[1] = c[2] = 0;
  for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
    ms += w->m.mass[i];
    for (int d = 0; d < 3; ++d) c[d] += w->m.mass[i] * w->s.x[3 * i + d];
  }
  for (int d = 0; d < 3; ++d) c[d] /= ms;
}

/* loads a scene; 0 (a failed check) on error */
static int load(const char *path, ipcc_scene_def *def) {
  ipcc_error err;
  int ok = ipcc_scene_load(path, def, &err) == IPCC_OK;
  CHECK_MSG(ok, "%s", err.msg);
  return ok;
}

/* the block of scenes/incline_*.json on a slope of theta degrees for one second: returns the
   slip along the slope over the second, the fitted acceleration over [0.3, 1] s and the slip
   speed of the last step */
static void incline(const char *scene, double theta, double mu_s, double mu_k, double *slip,
                    double *accel, double *creep) {
  ipcc_scene_def def;
  *slip = *accel = *creep = NAN;
  if (!load(scene, &def)) return;
  double t = theta * deg, n[3] = {sin(t), cos(t), 0}, down[3] = {cos(t), -sin(t), 0};
  double gap = 0.9 * def.dhat;
  def.bodies[0].rotation[2] = -theta;
  def.bodies[0].translation[0] = gap * n[0];
  def.bodies[0].translation[1] = gap * n[1];
  def.bodies[0].friction = mu_k;
  def.bodies[0].friction_static = mu_s;
  if (def.nplanes) {
    memcpy(def.planes[0].normal, n, sizeof n);
    def.planes[0].friction = mu_k;
    def.planes[0].friction_static = mu_s;
  } else {
    def.bodies[1].rotation[2] = -theta;
    def.bodies[1].translation[0] = -10 * cos(t);
    def.bodies[1].translation[1] = 10 * sin(t);
    def.bodies[1].friction = mu_k;
    def.bodies[1].friction_static = mu_s;
  }
  ipcc_error err;
  ipc_world *w = ipc_world_create(&def, &err);
  ipcc_scene_def_free(&def);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  int steps = (int)lround(1.0 / w->h);
  double c0[3], ts[128], ss[128];
  int nfit = 0, free_ok = 1;
  body_com(w, 0, c0);
  for (int k = 1; k <= steps; ++k) {
    ipcc_step_stats st;
    CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
    /* re-lagged once unless the Newton direction with the new lag is already converged */
    CHECK(st.friction_iterations >= 1 && st.friction_iterations <= 2);
    CHECK(st.friction_contacts >= 4);
    free_ok &= ipc_world_intersection_free(w, NULL, 0);
    double c[3];
    body_com(w, 0, c);
    double s = (c[0] - c0[0]) * down[0] + (c[1] - c0[1]) * down[1] + (c[2] - c0[2]) * down[2];
    if (k * w->h >= 0.3 - 1e-9 && nfit < 128) {
      ts[nfit] = k * w->h;
      ss[nfit++] = s;
    }
    *slip = s;
    *creep = st.max_slip_speed;
  }
  CHECK_MSG(free_ok, "%s: an intersecting state", scene);
  *accel = fit_accel(ts, ss, nfit);
  ipc_world_destroy(w);
}

static void check_incline(const char *scene) {
  const double mu = 0.5, epsv = 1e-2; /* epsv as in the scene files (absolute, m/s) */
  double below = atan(mu) / deg - 1, above = atan(mu) / deg + 1;
  double slip, accel, creep;
  incline(scene, below, mu, mu, &slip, &accel, &creep);
  /* sticking: the mollified model creeps at r eps_v with 2r - r^2 = tan(theta)/mu */
  double r = 1 - sqrt(1 - tan(below * deg) / mu);
  fprintf(stderr,
          "%s, theta %.4f deg: slip after 1 s %.4g m (limit %.4g), creep %.5g m/s (model %.5g)\n",
          scene, below, slip, epsv * 1.0, creep, r * epsv);
  CHECK_MSG(fabs(slip) < epsv * 1.0, "%s: the block slid %g m at %g deg", scene, slip, below);
  CHECK_MSG(fabs(creep - r * epsv) < 0.02 * r * epsv, "%s: creep %g, model %g", scene, creep,
            r * epsv);
  incline(scene, above, mu, mu, &slip, &accel, &creep);
  double a = grav * (sin(above * deg) - mu * cos(above * deg));
  fprintf(stderr, "%s, theta %.4f deg: acceleration %.6g m/s^2, analytic %.6g (%.3f%%)\n", scene,
          above, accel, a, 100 * (accel - a) / a);
  CHECK_MSG(fabs(accel - a) < 0.02 * a, "%s: acceleration %g, analytic %g", scene, accel, a);
}

/* max displacement and max drop (in y) of any vertex of the bodies over the run, and the
   largest vertex speed of the last step */
/* the friction set a step that ends with contacts ends with (lagged at the last solve's own
   contacts, world.c) is the one a re-lag with its own broad phase finds at the same state:
   the same contacts, bit for bit, in any order (a step that ends without contacts keeps the
   set it was solved with). Returns the number of friction contacts */
static int check_end_lag(const ipc_world *w, const char *scene, int step) {
  if (w->contacts.n == 0) return (int)w->fric.n;
  ipc_friction f;
  ipc_friction_init(&f, w->fric.eps_v, w->fric.h);
  f.plane_quadratic = w->fric.plane_quadratic;
  ipc_friction_update(&f, &w->cm, w->s.x, w->kappa);
  int same = f.n == w->fric.n;
  for (size_t i = 0; i < f.n && same; ++i) {
    int found = 0;
    for (size_t j = 0; j < w->fric.n && !found; ++j)
      found = memcmp(&f.c[i], &w->fric.c[j], sizeof f.c[i]) == 0;
    same = found;
  }
  CHECK_MSG(same,
            "%s step %d: the friction set at the step's end (%zu contacts) is not a re-lag's "
            "(%zu)",
            scene, step, w->fric.n, f.n);
  ipc_friction_free(&f);
  return (int)w->fric.n;
}

static void run_scene(const char *scene, int frictionless, int steps, double *move, double *drop,
                      double *speed) {
  ipcc_scene_def def;
  *move = *drop = *speed = NAN;
  if (!load(scene, &def)) return;
  if (frictionless) {
    for (int b = 0; b < def.nbodies; ++b)
      def.bodies[b].friction = def.bodies[b].friction_static = 0;
    for (int p = 0; p < def.nplanes; ++p)
      def.planes[p].friction = def.planes[p].friction_static = 0;
  }
  ipcc_error err;
  ipc_world *w = ipc_world_create(&def, &err);
  ipcc_scene_def_free(&def);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  int n = w->m.nverts, free_ok = 1, fric = 0;
  for (int k = 0; k < steps; ++k) {
    ipcc_step_stats st;
    CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
    free_ok &= ipc_world_intersection_free(w, NULL, 0);
    if (st.friction_contacts > fric) fric = st.friction_contacts;
    if (!frictionless) CHECK(check_end_lag(w, scene, k + 1) == st.friction_contacts);
  }
  CHECK_MSG(free_ok, "%s: an intersecting state", scene);
  CHECK_MSG(frictionless ? fric == 0 : fric > 0, "%s: %d friction contacts", scene, fric);
  *move = *drop = *speed = 0;
  for (int i = 0; i < n; ++i) {
    const double *x = w->s.x + 3 * i, *x0 = w->m.x0 + 3 * i, *v = w->s.v + 3 * i;
    double d0 = x[0] - x0[0], d1 = x[1] - x0[1], d2 = x[2] - x0[2];
    *move = fmax(*move, sqrt(d0 * d0 + d1 * d1 + d2 * d2));
    *drop = fmax(*drop, -d1);
    *speed = fmax(*speed, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  ipc_world_destroy(w);
}

/* the sliding cube: centre-of-mass x and x-velocity at 0.1 s and 0.5 s, distance travelled
   when at rest (NAN if still moving after 1 s), largest tilt of the cube's vertical edge */
static void sliding_cube(double x[2], double v[2], double *travel, double *tilt_deg) {
  const char *json =
      "{\"time_step\": 0.01, \"duration\": 1.0, \"newton\": {\"tolerance\": 1e-4},"
      " \"contact\": {\"dhat\": 0.001, \"dhat_absolute\": true, \"epsv\": 0.01,"
      " \"epsv_absolute\": true},"
      " \"bodies\": [{\"mesh\": \"@CUBE@\", \"translation\": [0, 0.0011, 0],"
      " \"velocity\": [2, 0, 0], \"friction\": 0.3, \"material\": {\"model\": \"neo_hookean\","
      " \"density\": 1000, \"young\": 1e8, \"poisson\": 0.3}}],"
      " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0], \"friction\": 0.3}]}";
  ipcc_scene_def def;
  ipcc_error err;
  *travel = *tilt_deg = NAN;
  int ok = scene_text_load(json, &def, &err) == IPCC_OK;
  CHECK_MSG(ok, "%s", err.msg);
  if (!ok) return;
  ipc_world *w = ipc_world_create(&def, &err);
  ipcc_scene_def_free(&def);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  CHECK(w->m.nverts == 8);
  double c0[3], c[3];
  body_com(w, 0, c0);
  int free_ok = 1, rest = 0;
  *tilt_deg = 0;
  for (int k = 1; k <= 100; ++k) {
    ipcc_step_stats st;
    CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
    free_ok &= ipc_world_intersection_free(w, NULL, 0);
    body_com(w, 0, c);
    const ipc_body *bd = &w->m.bodies[0];
    double vx = 0, ms = 0;
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i)
      vx += w->m.mass[i] * w->s.v[3 * i], ms += w->m.mass[i];
    vx /= ms;
    if (k == 10 || k == 50) x[k / 50] = c[0] - c0[0], v[k / 50] = vx;
    if (!rest && k > 1 && fabs(vx) < 1e-3) rest = 1, *travel = c[0] - c0[0];
    /* cube.msh: vertices 0-3 the bottom face, 4-7 the top; vertex 4 is above vertex 0 */
    const double *b = w->s.x, *t = w->s.x + 12;
    *tilt_deg = fmax(*tilt_deg, fabs(atan2(t[0] - b[0], t[1] - b[1])) / deg);
  }
  CHECK_MSG(free_ok, "the sliding cube: an intersecting state");
  ipc_world_destroy(w);
}

int main(void) {
  /* the sliding cube: Coulomb's v^2 / (2 mu g) = 0.680 m, in implicit Euler steps h sum v_k =
     v^2 / (2 mu g) - v h / 2, plus the first step, which has no lagged contact and slides freely
     (v h): 0.690 m. Measured: a = 2.942 m/s^2, rest after 0.688 m at 0.70 s, tilt 0.006
     degrees (the original IPC on the same cube as a script, nu 0.4, tol 1e-5 m: 0.687 m) */
  {
    double x[2], v[2], travel, tilt;
    sliding_cube(x, v, &travel, &tilt);
    double a = (v[0] - v[1]) / 0.4, coulomb = 4.0 / (2 * 0.3 * grav) + 2.0 * 0.01 / 2;
    fprintf(stderr,
            "sliding cube: a = %.4f m/s^2 (mu g %.4f), travel %.4f m (Coulomb %.4f), tilt "
            "%.3g deg\n",
            a, 0.3 * grav, travel, coulomb, tilt);
    CHECK_MSG(fabs(a / (0.3 * grav) - 1) < 0.01, "deceleration %g, mu g %g", a, 0.3 * grav);
    CHECK_MSG(fabs(travel - coulomb) < 0.01 * coulomb, "travel %g m", travel);
    CHECK_MSG(tilt < 0.05, "tilted %g degrees", tilt);
  }
  check_incline("scenes/incline_plane.json");
  check_incline("scenes/incline_obstacle.json");
  /* static 0.5, kinetic 0.3: sticks below atan(0.5), slides at the kinetic rate above */
  {
    double below = atan(0.5) / deg - 1, above = atan(0.5) / deg + 1;
    double slip, accel, creep;
    incline("scenes/incline_plane.json", below, 0.5, 0.3, &slip, &accel, &creep);
    fprintf(stderr, "static 0.5 kinetic 0.3, theta %.4f: slip %.4g m\n", below, slip);
    CHECK_MSG(fabs(slip) < 1e-2, "static friction: slid %g m", slip);
    incline("scenes/incline_plane.json", above, 0.5, 0.3, &slip, &accel, &creep);
    double a = grav * (sin(above * deg) - 0.3 * cos(above * deg));
    fprintf(stderr, "static 0.5 kinetic 0.3, theta %.4f: acceleration %.6g, analytic %.6g\n", above,
            accel, a);
    CHECK_MSG(fabs(accel - a) < 0.02 * a, "kinetic friction: acceleration %g, analytic %g", accel,
              a);
  }
  /* a house of cards: stands with friction, falls without */
  {
    double move, drop, speed;
    run_scene("scenes/card_frame.json", 0, 100, &move, &drop, &speed);
    fprintf(stderr, "card frame with friction: max move %.3g m, speed %.3g m/s\n", move, speed);
    CHECK_MSG(move < 2e-3 && speed < 1e-2, "card frame moved %g m (speed %g)", move, speed);
    run_scene("scenes/card_frame.json", 1, 100, &move, &drop, &speed);
    fprintf(stderr, "card frame without friction: drop %.3g m\n", drop);
    CHECK_MSG(drop > 0.3, "frictionless card frame dropped only %g m", drop);
  }
  /* thrown and spinning: comes to rest with friction only */
  {
    double move, drop, speed;
    run_scene("scenes/spinning_cube.json", 0, 150, &move, &drop, &speed);
    fprintf(stderr, "spinning cube with friction: final speed %.3g m/s after %.3g m\n", speed,
            move);
    CHECK_MSG(speed < 1e-2, "the cube still moves at %g m/s", speed);
    run_scene("scenes/spinning_cube.json", 1, 150, &move, &drop, &speed);
    fprintf(stderr, "spinning cube without friction: final speed %.3g m/s\n", speed);
    CHECK_MSG(speed > 2.5, "the frictionless cube slowed to %g m/s", speed);
  }
  TEST_MAIN_END();
}
