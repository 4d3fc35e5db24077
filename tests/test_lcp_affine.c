/* affine bodies in LCP mode (src/lcp/lcp_affine.c, issue 13), against what the field expects:
   - an affine block on a slope of atan(mu) + 1 deg slides at g (sin - mu cos), at atan(mu) -
     1 deg it sticks (cone friction, both couplings)
   - a stack of three affine cubes on a plane stays at rest and its energy does not grow
   - a free-spinning affine body stays orthogonal and keeps its angular momentum
   - a very stiff tet cube (E 1e9 Pa) and the same cube affine, dropped spinning onto a plane,
     follow the same centre-of-mass path
   - an affine cube on a deformable one, in both couplings, stays on top, intersection-free
   - scripted affine bodies follow their scripts exactly and push what is in their way */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fit_accel.h"
#include "grid_cube.h"
#include "lcp/lcp_world.h"
#include "lcp/lcp_world_internal.h"
#include "test.h"

static const double pi = 3.14159265358979323846, grav = 9.81;

static const char *cube = "scenes/meshes/cube.msh";

/* a scene of nb unit cubes (affine unless young > 0, then deformable with that modulus) at the
   given translations over the ground y = 0, friction mu, step h */
static ipcc_scene_def scene(int nb, const double (*at)[3], const double *young, double mu, double h,
                            const char *mesh) {
  ipcc_scene_def d = ipcc_default_scene_def();
  d.time_step = h;
  d.nbodies = nb;
  d.bodies = calloc((size_t)nb, sizeof *d.bodies);
  for (int b = 0; b < nb; ++b) {
    ipcc_body_def *bd = &d.bodies[b];
    *bd = ipcc_default_body_def();
    bd->mesh = (char *)mesh;
    memcpy(bd->translation, at[b], sizeof bd->translation);
    bd->affine = young[b] <= 0;
    bd->young = young[b] > 0 ? young[b] : 1e8;
    bd->poisson = 0.3;
    bd->friction = mu;
  }
  d.nplanes = 1;
  d.planes = calloc(1, sizeof *d.planes);
  d.planes[0].normal[1] = 1;
  d.planes[0].friction = mu;
  return d;
}

static void scene_free(ipcc_scene_def *d) {
  free(d->bodies);
  free(d->planes);
}

static ipc_lcp_world *create(const ipcc_scene_def *sc, const ipcc_lcp_world_def *d) {
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(sc, d, &err);
  CHECK_MSG(w != NULL, "world: %s", err.msg);
  return w;
}

/* one step, checked successful and intersection-free */
static int step(ipc_lcp_world *w, ipcc_lcp_step_stats *st) {
  ipcc_error err;
  char what[256];
  if (ipc_lcp_world_step(w, st, &err) != IPCC_OK) {
    CHECK_MSG(0, "step: %s", err.msg);
    return 0;
  }
  int ok = ipc_lcp_world_intersection_free(w, what, sizeof what);
  CHECK_MSG(ok, "intersecting state at step %d: %s", st->step, what);
  return ok;
}

/* centre of mass of body b from the lumped vertex masses (an affine body: A cbar + p with
   cbar the lumped rest centre, so it moves rigidly with the body) */
static void body_com(const ipc_lcp_world *w, int b, double c[3]) {
  const ipc_body *bd = &w->m.bodies[b];
  double ms = 0;
  c[0] = c[1] = c[2] = 0;
  for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
    ms += w->m.mass[i];
    for (int d = 0; d < 3; ++d) c[d] += w->m.mass[i] * w->s.x[3 * i + d];
  }
  for (int d = 0; d < 3; ++d) c[d] /= ms;
}

/* an affine unit cube on the ground with gravity tilted by theta about z (a slope of theta),
   cone friction mu, for 1 s: the downhill slip of its centre and the acceleration fitted over
   [0.2, 1] s */
static void slope(ipcc_lcp_coupling cpl, double mu, double theta, double *slip, double *accel) {
  static const double at[1][3] = {{0, 0, 0}};
  const double young[1] = {0}, h = 0.01, th = theta * pi / 180;
  ipcc_scene_def sc = scene(1, at, young, mu, h, cube);
  sc.gravity[0] = grav * sin(th);
  sc.gravity[1] = -grav * cos(th);
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  d.friction = IPCC_LCP_FRICTION_CONE;
  d.coupling = cpl;
  d.tol = 1e-10;
  d.max_iter = 5000;
  *slip = *accel = NAN;
  ipc_lcp_world *w = create(&sc, &d);
  scene_free(&sc);
  if (!w) return;
  CHECK(w->rest.naff == 1);
  double c0[3], ts[128], ss[128];
  int n = 0;
  body_com(w, 0, c0);
  for (int k = 1; k <= 100; ++k) {
    ipcc_lcp_step_stats st;
    if (!step(w, &st)) break;
    CHECK_MSG(st.min_distance > -1e-6, "slope: penetration %g m", -st.min_distance);
    double c[3];
    body_com(w, 0, c);
    *slip = c[0] - c0[0];
    if (k >= 20) {
      ts[n] = k * h;
      ss[n++] = *slip;
    }
  }
  *accel = fit_accel(ts, ss, n);
  ipc_lcp_world_destroy(w);
}

static void test_slope(void) {
  const double mu = 0.5, crit = atan(mu) * 180 / pi;
  for (int c = 0; c < 2; ++c) {
    ipcc_lcp_coupling cpl = c ? IPCC_LCP_LUMPED : IPCC_LCP_COUPLED;
    const char *name = c ? "lumped" : "coupled";
    double slip, accel;
    slope(cpl, mu, crit - 1, &slip, &accel);
    printf("affine slope %s %.4f deg: slip after 1 s %.3g m\n", name, crit - 1, slip);
    CHECK_MSG(fabs(slip) < 1e-6, "%s: the block slid %g m below the friction angle", name, slip);
    slope(cpl, mu, crit + 1, &slip, &accel);
    double th = (crit + 1) * pi / 180, a = grav * (sin(th) - mu * cos(th));
    printf("affine slope %s %.4f deg: acceleration %.6g m/s^2, analytic %.6g (%.3f%%)\n", name,
           crit + 1, accel, a, 100 * (accel - a) / a);
    CHECK_MSG(fabs(accel - a) < 0.01 * a, "%s: acceleration %g, analytic %g", name, accel, a);
  }
}

/* three affine unit cubes stacked on the ground, 0.5 mm apart and shifted sideways, cone
   friction 0.5: settled for 1 s, then over the next second every centre moves less than
   1e-5 m, the gaps stay within the contact gap and the energy does not grow (measured: it
   varies by 3e-5 J of 44,230 J, the PGS tolerance; bound 1e-8 relative) */
static void test_stack(void) {
  static const double at[3][3] = {{0, 0.0005, 0}, {0.1, 1.001, 0.05}, {-0.05, 2.0015, 0.1}};
  const double young[3] = {0, 0, 0};
  ipcc_scene_def sc = scene(3, at, young, 0.5, 0.01, cube);
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  d.friction = IPCC_LCP_FRICTION_CONE;
  ipc_lcp_world *w = create(&sc, &d);
  scene_free(&sc);
  if (!w) return;
  CHECK(w->rest.naff == 3);
  ipcc_lcp_step_stats st;
  int ok = 1;
  for (int k = 0; k < 100 && ok; ++k) ok = step(w, &st);
  double c0[3][3], e0 = st.energy, emax = -INFINITY, emin = INFINITY, move = 0, mind = INFINITY;
  for (int b = 0; b < 3; ++b) body_com(w, b, c0[b]);
  for (int k = 0; k < 100 && ok; ++k) {
    ok = step(w, &st);
    emax = fmax(emax, st.energy);
    emin = fmin(emin, st.energy);
    mind = fmin(mind, st.min_distance);
  }
  double below = 0, gap[3];
  for (int b = 0; b < 3; ++b) {
    double c[3], dd = 0;
    body_com(w, b, c);
    for (int k = 0; k < 3; ++k) dd += (c[k] - c0[b][k]) * (c[k] - c0[b][k]);
    move = fmax(move, sqrt(dd));
    gap[b] = c[1] - 0.5 - below;
    below = c[1] + 0.5;
  }
  printf(
      "affine stack (LCP): centre move over the second second %.3g m, gaps %.3g %.3g %.3g m "
      "(contact gap %g), energy %.10g then in [%.10g, %.10g] J, min distance %.3g m\n",
      move, gap[0], gap[1], gap[2], w->gap, e0, emin, emax, mind);
  CHECK(ok);
  CHECK(move < 1e-5);
  for (int b = 0; b < 3; ++b) CHECK_MSG(fabs(gap[b]) < w->gap, "gap under cube %d: %g", b, gap[b]);
  CHECK_MSG(emax <= e0 + 1e-8 * fabs(e0), "energy grew from %.12g to %.12g J", e0, emax);
  CHECK(mind > -1e-6);
  ipc_lcp_world_destroy(w);
}

/* angular momentum about the origin of affine body a: the integral of rho x cross v with
   x = p + A xbar, v = pdot + Adot xbar, from the volume moments (m, c, S) */
static void angular_momentum(const ipc_lcp_world *w, int a, double L[3]) {
  const ipc_affine_moments *mom = &w->rest.aff_mom[a];
  const double *q = w->s.q + 12 * (size_t)a, *qd = w->s.qd + 12 * (size_t)a;
  double mx[4][4]; /* integral of rho w_j w_k, w = (1, xbar) */
  mx[0][0] = mom->mass;
  for (int j = 0; j < 3; ++j) {
    mx[0][j + 1] = mx[j + 1][0] = mom->first[j];
    for (int k = 0; k < 3; ++k) mx[j + 1][k + 1] = mom->second[3 * j + k];
  }
  L[0] = L[1] = L[2] = 0;
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) {
      const double *u = q + 3 * j, *v = qd + 3 * k;
      L[0] += mx[j][k] * (u[1] * v[2] - u[2] * v[1]);
      L[1] += mx[j][k] * (u[2] * v[0] - u[0] * v[2]);
      L[2] += mx[j][k] * (u[0] * v[1] - u[1] * v[0]);
    }
}

/* ||A A^T - I||_F of affine body a */
static double orth_error(const ipc_lcp_world *w, int a) {
  const double *A = w->s.q + 12 * (size_t)a + 3; /* columns of A */
  double s = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double e = -(i == j);
      for (int k = 0; k < 3; ++k) e += A[3 * k + i] * A[3 * k + j];
      s += e * e;
    }
  return sqrt(s);
}

/* the unit cube centred at the origin without gravity or contact, spinning at (0, 2, 1) rad/s
   for 1 s at step h (IPC mode's test, tests/test_affine_world.c): implicit Euler changes L by
   O(|L| (h omega)^2) per step, so by about T h omega^2 over T; A is put back on its polar
   rotation at the end of every step (src/lcp/lcp_affine.c), so ||A A^T - I||_F stays at
   rounding level. Returns |L - L0| / |L0| and the largest ||A A^T - I||_F in orth */
static double spin(double h, double *orth) {
  static const double at[1][3] = {{-0.5, -0.5, -0.5}};
  const double young[1] = {0};
  ipcc_scene_def sc = scene(1, at, young, 0, h, cube);
  sc.nplanes = 0;
  sc.gravity[0] = sc.gravity[1] = sc.gravity[2] = 0;
  sc.bodies[0].young = 1e6;
  sc.bodies[0].angular_velocity[1] = 2;
  sc.bodies[0].angular_velocity[2] = 1;
  ipc_lcp_world *w = create(&sc, NULL);
  scene_free(&sc);
  *orth = INFINITY;
  if (!w) return INFINITY;
  double L0[3], L[3], d = 0;
  angular_momentum(w, 0, L0);
  ipcc_lcp_step_stats st;
  int ok = 1, n = (int)lround(1.0 / h);
  *orth = 0;
  for (int k = 0; k < n && ok; ++k) {
    ok = step(w, &st);
    CHECK(st.contacts == 0);
    *orth = fmax(*orth, orth_error(w, 0));
  }
  angular_momentum(w, 0, L);
  for (int i = 0; i < 3; ++i) d += (L[i] - L0[i]) * (L[i] - L0[i]);
  ipc_lcp_world_destroy(w);
  return ok ? sqrt(d / (L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2])) : INFINITY;
}

static void test_spin(void) {
  const double om2 = 5.0;
  double orth[2], rel[2] = {spin(0.01, &orth[0]), spin(0.005, &orth[1])};
  printf(
      "affine spin (LCP): |L - L0| / |L0| over 1 s = %.4g (h 0.01), %.4g (h 0.005); "
      "max ||A A^T - I||_F %.3g, %.3g\n",
      rel[0], rel[1], orth[0], orth[1]);
  CHECK(rel[0] <= 1.25 * 0.01 * om2);
  CHECK(rel[1] <= 1.25 * 0.005 * om2);
  CHECK(rel[1] / rel[0] > 0.4 && rel[1] / rel[0] < 0.65);
  CHECK(orth[0] <= 1e-12 && orth[1] <= 1e-12);
}

/* the generated cube 0.5 m above a frictionless ground, spinning at 3 rad/s about the
   vertical, dropped for 0.5 s at h 0.005 (coupled): affine, or deformable with E 1e9 Pa;
   the lumped centre of mass after every step into c (3 x 100) */
static int drop(const char *mesh, int affine, double *c) {
  static const double at[1][3] = {{-0.5, 0.5, -0.5}};
  const double young[1] = {affine ? 0 : 1e9};
  ipcc_scene_def sc = scene(1, at, young, 0, 0.005, mesh);
  sc.bodies[0].angular_velocity[1] = 3;
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  d.tol = 1e-10;
  d.max_iter = 5000;
  ipc_lcp_world *w = create(&sc, &d);
  scene_free(&sc);
  if (!w) return 0;
  int ok = 1;
  for (int k = 0; k < 100 && ok; ++k) {
    ipcc_lcp_step_stats st;
    ok = step(w, &st);
    body_com(w, 0, c + 3 * k);
  }
  ipc_lcp_world_destroy(w);
  return ok;
}

/* before the landing both centres follow the same linearly implicit recurrence (internal
   forces sum to zero), so they agree to round-off; without friction every contact impulse is
   vertical; after the landing they differ by the tet cube's elastic response */
static void test_stiff_vs_affine(void) {
  char dir[] = "/tmp/ipcc_lcpaff_XXXXXX", mesh[64];
  if (!mkdtemp(dir)) return;
  snprintf(mesh, sizeof mesh, "%s/cube.msh", dir);
  CHECK(write_grid_cube(mesh));
  enum { N = 100 };
  double ca[3 * N], cd[3 * N];
  int oka = drop(mesh, 1, ca), okd = drop(mesh, 0, cd);
  remove(mesh);
  rmdir(dir);
  CHECK(oka && okd);
  double before = 0, after = 0, side = 0;
  for (int k = 0; k < N; ++k) {
    double d = 0;
    for (int i = 0; i < 3; ++i)
      d += (ca[3 * k + i] - cd[3 * k + i]) * (ca[3 * k + i] - cd[3 * k + i]);
    if ((k + 1) * 0.005 < 0.3) before = fmax(before, sqrt(d));
    after = fmax(after, sqrt(d));
    for (int i = 0; i < 3; i += 2)
      side = fmax(side, fmax(fabs(ca[3 * k + i] - ca[i]), fabs(cd[3 * k + i] - cd[i])));
  }
  printf(
      "stiff tet vs affine (LCP): centres apart by at most %.3g m before the landing, %.4g m "
      "over 0.5 s; sideways drift %.3g m; final heights %.5f %.5f m\n",
      before, after, side, ca[3 * N - 2], cd[3 * N - 2]);
  CHECK(before < 1e-9);
  CHECK(side < 1e-6);
  CHECK(after < 0.01 * 0.5);
  CHECK(fabs(ca[3 * N - 2] - 0.5) < 1e-3); /* the affine cube rests on the ground */
}

/* an affine cube dropped onto a deformable one (E 1e6 Pa) on the ground, in both couplings:
   every state intersection-free, the affine cube ends resting on the other (centres about
   1 m apart, less the few cm the soft cube is squeezed) */
static void test_mixed(void) {
  static const double at[2][3] = {{0, 0.001, 0}, {0.2, 1.1, 0.1}};
  const double young[2] = {1e6, 0};
  for (int c = 0; c < 2; ++c) {
    ipcc_scene_def sc = scene(2, at, young, 0.5, 0.01, cube);
    ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
    d.friction = IPCC_LCP_FRICTION_CONE;
    d.coupling = c ? IPCC_LCP_LUMPED : IPCC_LCP_COUPLED;
    ipc_lcp_world *w = create(&sc, &d);
    scene_free(&sc);
    if (!w) continue;
    CHECK(w->rest.naff == 1);
    ipcc_lcp_step_stats st = {0};
    int ok = 1;
    double mind = INFINITY, e_prev = 0;
    for (int k = 0; k < 150 && ok; ++k) {
      e_prev = st.energy;
      ok = step(w, &st);
      mind = fmin(mind, st.min_distance);
    }
    double ca[3], cd[3];
    body_com(w, 0, cd);
    body_com(w, 1, ca);
    printf(
        "mixed affine on deformable (LCP %s): centres at %.5f and %.5f m, energy change in "
        "the last step %.3g J, min distance %.3g m\n",
        c ? "lumped" : "coupled", ca[1], cd[1], st.energy - e_prev, mind);
    CHECK(ok);
    CHECK(mind > -1e-3);
    CHECK(ca[1] - cd[1] > 0.95 && ca[1] - cd[1] < 1.0 + w->gap);
    CHECK(fabs(st.energy - e_prev) < 1e-3 * fabs(st.energy)); /* at rest by the end */
    ipc_lcp_world_destroy(w);
  }
}

/* world of a JSON scene text (meshes relative to the source tree) */
static ipc_lcp_world *world_of_json(const char *json) {
  char dir[] = "/tmp/ipcc_lcpjs_XXXXXX", file[64];
  if (!mkdtemp(dir)) return NULL;
  snprintf(file, sizeof file, "%s/s.json", dir);
  FILE *f = fopen(file, "w");
  if (!f) return NULL;
  fputs(json, f);
  fclose(f);
  ipcc_scene_def sc;
  ipcc_error err;
  int loaded = ipcc_scene_load(file, &sc, &err) == IPCC_OK;
  remove(file);
  rmdir(dir);
  CHECK_MSG(loaded, "%s", err.msg);
  if (!loaded) return NULL;
  ipc_lcp_world *w = create(&sc, NULL);
  ipcc_scene_def_free(&sc);
  return w;
}

/* a whole-body script makes an affine body a kinematic mover: one cube pushed at 0.5 m/s
   along x into a free affine cube 1 cm ahead on a frictionless ground, another spinning at
   2 rad/s about its vertical axis far away; for 0.5 s at h 0.01 their vertices follow the
   scripts' rigid motion exactly and the pushed cube is carried ahead of the pusher (measured:
   0.52 m/s, 2 cm ahead) */
static void test_scripted(void) {
  char cwd[4096], json[4096];
  if (!getcwd(cwd, sizeof cwd)) return;
  snprintf(json, sizeof json,
           "{\"time_step\": 0.01, \"gravity\": [0, -9.81, 0], \"bodies\": ["
           "{\"mesh\": \"%s/%s\", \"affine\": true, \"translation\": [0, 0.001, 0],"
           " \"dirichlet\": [{\"box\": [[-0.1, -0.1, -0.1], [1.1, 1.1, 1.1]],"
           " \"velocity\": [0.5, 0, 0]}]},"
           "{\"mesh\": \"%s/%s\", \"affine\": true, \"translation\": [1.01, 0.001, 0]},"
           "{\"mesh\": \"%s/%s\", \"affine\": true, \"translation\": [10, 0.001, 0],"
           " \"dirichlet\": [{\"box\": [[-0.1, -0.1, -0.1], [1.1, 1.1, 1.1]],"
           " \"angular_velocity\": [0, 2, 0]}]}],"
           " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}",
           cwd, cube, cwd, cube, cwd, cube);
  ipc_lcp_world *w = world_of_json(json);
  if (!w) return;
  CHECK(w->rest.naff == 3);
  int n = w->m.nverts, ok = 1;
  double *x0 = malloc(sizeof(double) * 3 * (size_t)n), err_push = 0, err_spin = 0;
  memcpy(x0, w->s.x, sizeof(double) * 3 * (size_t)n);
  ipcc_lcp_step_stats st;
  for (int k = 1; k <= 50 && ok; ++k) {
    ok = step(w, &st);
    double t = k * w->h, c = cos(2 * t), s = sin(2 * t);
    const ipc_body *b0 = &w->m.bodies[0], *b2 = &w->m.bodies[2];
    for (int i = b0->v0; i < b0->v0 + b0->nv; ++i)
      for (int d = 0; d < 3; ++d)
        err_push = fmax(err_push, fabs(w->s.x[3 * i + d] - x0[3 * i + d] - (d == 0 ? 0.5 * t : 0)));
    for (int i = b2->v0; i < b2->v0 + b2->nv; ++i) { /* about the centre (10.5, 0.501, 0.5) */
      double rx = x0[3 * i] - 10.5, rz = x0[3 * i + 2] - 0.5;
      double ex[3] = {10.5 + c * rx + s * rz, x0[3 * i + 1], 0.5 - s * rx + c * rz};
      for (int d = 0; d < 3; ++d) err_spin = fmax(err_spin, fabs(w->s.x[3 * i + d] - ex[d]));
    }
  }
  double cp[3], cf[3];
  body_com(w, 0, cp);
  body_com(w, 1, cf);
  printf(
      "scripted affine movers (LCP): push path error %.3g m, spin path error %.3g m; pushed "
      "cube %.4f m ahead of the pusher, moving at %.4f m/s\n",
      err_push, err_spin, cf[0] - cp[0], w->s.qd[12]);
  CHECK(ok);
  CHECK(err_push < 1e-12 && err_spin < 1e-12);
  CHECK(cf[0] - cp[0] > 1 - 1e-3 && cf[0] - cp[0] < 1 + w->gap);
  /* carried at the pusher's speed, a little more from the push out to the contact skin
     (0.1 x the contact gap) on the frictionless ground */
  CHECK(w->s.qd[12] > 0.5 - 1e-6 && w->s.qd[12] < 0.55);
  free(x0);
  ipc_lcp_world_destroy(w);
}

/* a Neumann load on the top face of a free affine cube (no gravity, no contact): the centre
   of mass (q's p: LCP mode measures rest coordinates from it) moves as the resultant of the
   forces m_i a on the loaded vertices dictates (linearly implicit Euler from rest:
   x_n = h^2 a_c n (n + 1) / 2), and the off-centre push turns the body */
static void test_neumann(void) {
  static const double at[1][3] = {{0, 1, 0}};
  const double young[1] = {0};
  ipcc_scene_def sc = scene(1, at, young, 0, 0.01, cube);
  sc.nplanes = 0;
  sc.gravity[0] = sc.gravity[1] = sc.gravity[2] = 0;
  ipcc_neumann_def nd;
  memset(&nd, 0, sizeof nd);
  for (int d = 0; d < 3; ++d) nd.region.box_min[d] = -1, nd.region.box_max[d] = 2;
  nd.region.box_min[1] = 0.9; /* the top face (relative box) */
  nd.acceleration[0] = 2;
  nd.t_begin = 0;
  nd.t_end = 0.095;
  sc.bodies[0].nneumann = 1;
  sc.bodies[0].neumann = &nd;
  ipc_lcp_world *w = create(&sc, NULL);
  scene_free(&sc);
  if (!w) return;
  double total = 0, loaded = 0, c0[3], worst = 0, h = 0.01;
  const ipc_body *bd = &w->m.bodies[0];
  for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
    total += w->m.mass[i];
    if (w->s.x[3 * i + 1] > 1.9) loaded += w->m.mass[i];
  }
  double ac = 2.0 * loaded / total;
  memcpy(c0, w->s.q, sizeof c0);
  ipcc_lcp_step_stats st;
  for (int n = 1; n <= 20 && step(w, &st); ++n) {
    int m = n < 10 ? n : 10; /* loaded in steps 1..10 */
    double want = h * h * ac * (m * (m + 1) / 2.0 + (double)(n - m) * m);
    worst = fmax(worst, fabs(w->s.q[0] - c0[0] - want) / want);
    CHECK(fabs(w->s.q[1] - c0[1]) < 1e-12 && fabs(w->s.q[2] - c0[2]) < 1e-12);
  }
  double turned = fabs(w->s.q[4]) + fabs(w->s.q[6]);
  fprintf(stderr, "neumann: centre of mass within %.2e of the resultant's push, A turned %.3g\n",
          worst, turned);
  CHECK_MSG(loaded > 0 && loaded < total, "loaded mass %g of %g", loaded, total);
  CHECK_MSG(worst < 1e-9, "centre of mass off by %g (relative)", worst);
  CHECK_MSG(turned > 1e-3, "an off-centre push did not turn the body (%g)", turned);
  ipc_lcp_world_destroy(w);
}

/* an obstacle plate starting 1 m above a cube at 300 m/s (3 m per step of 0.01 s): the contacts
   must be sought with the plate's velocity of the step it starts moving in, not the rest of
   the step before (it passed through a free cube untouched), so the plate carries the cube
   along; against a pinned cube, which no impulse moves, the crossing is reported as
   prescribed_overlap */
static void test_fast_obstacle(void) {
  char cwd[4096], json[8192];
  if (!getcwd(cwd, sizeof cwd)) return;
  for (int pinned = 0; pinned < 2; ++pinned) {
    snprintf(json, sizeof json,
             "{\"time_step\": 0.01, \"gravity\": [0, 0, 0], \"bodies\": ["
             "{\"mesh\": \"%s/%s\", \"affine\": true%s},"
             "{\"mesh\": \"%s/scenes/meshes/plane.obj\", \"obstacle\": true, \"scale\": 3,"
             " \"translation\": [-1, 2, -1], \"velocity\": [0, -300, 0]}]}",
             cwd, cube,
             pinned ? ", \"dirichlet\": [{\"box\": [[-0.1, -0.1, -0.1], [1.1, 1.1, 1.1]],"
                      " \"velocity\": [0, 0, 0]}]"
                    : "",
             cwd);
    ipc_lcp_world *w = world_of_json(json);
    if (!w) return;
    ipcc_lcp_step_stats st;
    ipcc_error err;
    int overlap_steps = 0, ok = 1;
    for (int k = 0; k < 5 && ok; ++k) {
      ok = ipc_lcp_world_step(w, &st, &err) == IPCC_OK;
      CHECK_MSG(ok, "step: %s", err.msg);
      overlap_steps += st.prescribed_overlap > 0;
    }
    double c[3];
    body_com(w, 0, c);
    double plate_y = w->s.x[3 * w->m.bodies[1].v0 + 1];
    printf(
        "plate at 300 m/s onto a %s affine cube: plate at y %.3f, cube centre at y %.3f, "
        "%d steps with prescribed overlap\n",
        pinned ? "pinned" : "free", plate_y, c[1], overlap_steps);
    if (pinned) {
      CHECK(fabs(c[1] - 0.5) < 1e-12); /* the pin holds */
      CHECK(overlap_steps > 0);        /* and the crossing is said */
    } else {
      CHECK(c[1] < plate_y - 0.5 + 1e-2); /* under the plate, carried along */
      CHECK(c[1] < -10);
      CHECK(overlap_steps == 0);
    }
    ipc_lcp_world_destroy(w);
  }
}

int main(void) {
  test_neumann();
  test_slope();
  test_stack();
  test_spin();
  test_stiff_vs_affine();
  test_mixed();
  test_scripted();
  test_fast_obstacle();
  TEST_MAIN_END();
}
