/* driving a world from outside (ipcc/world_unified.h), in both modes: velocities and forces
   set between steps, positions set (and refused when they intersect or touch), the contact
   list of a body at rest, state snapshots that branch a run bit for bit, and bad input */
#define _XOPEN_SOURCE 700 /* mkstemp, realpath, fdopen */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "test.h"

static const char *mode_name(ipcc_mode mode) {
  return mode == IPCC_MODE_IPC ? "ipc" : "lcp";
}

/* one unit cube (scenes/meshes/cube.msh) translated by (0, y, 0), with the given gravity,
   optionally on the plane y = 0 (friction mu against it) and as an affine body */
static ipcc_world *cube_world(ipcc_mode mode, double y, const double g[3], int plane, double mu,
                              int affine, ipcc_error *err) {
  ipcc_scene_def def = ipcc_default_scene_def();
  ipcc_body_def body = ipcc_default_body_def();
  ipcc_plane_def pl = {{0, 0, 0}, {0, 1, 0}, mu, 0};
  body.mesh = (char *)"scenes/meshes/cube.msh";
  body.translation[1] = y;
  body.friction = mu;
  body.affine = affine;
  def.bodies = &body;
  def.nbodies = 1;
  def.planes = plane ? &pl : NULL;
  def.nplanes = plane ? 1 : 0;
  def.time_step = 0.01;
  for (int d = 0; d < 3; ++d) def.gravity[d] = g[d];
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  if (mu > 0) ld.friction = IPCC_LCP_FRICTION_BOX;
  ipcc_world *w = ipcc_world_new(&def, mode, &ld, err);
  CHECK_MSG(w != NULL, "%s: %s", mode_name(mode), err->msg);
  return w;
}

/* scenes/two_cubes.json in the given mode (young > 0: both cubes' Young's modulus) */
static ipcc_world *two_cubes(ipcc_mode mode, double young, ipcc_error *err) {
  ipcc_scene_def def;
  CHECK(ipcc_scene_load("scenes/two_cubes.json", &def, err) == IPCC_OK);
  for (int b = 0; b < def.nbodies && young > 0; ++b) def.bodies[b].young = young;
  ipcc_world *w = ipcc_world_new(&def, mode, NULL, err);
  ipcc_scene_def_free(&def);
  CHECK_MSG(w != NULL, "%s: %s", mode_name(mode), err->msg);
  return w;
}

static const double zero_g[3] = {0, 0, 0}, earth_g[3] = {0, -9.81, 0};

static double mean_of(const double *a, int n, int d) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[3 * i + d];
  return s / n;
}

/* velocities set -> the next step moves the body by h v (no gravity, nothing touching) */
static void velocities(ipcc_mode mode, int affine) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 1.0, zero_g, 0, 0, affine, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  double *v = calloc(3 * (size_t)n, sizeof(double)), *x0 = malloc(3 * (size_t)n * sizeof(double));
  memcpy(x0, ipcc_world_positions(w), 3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    v[3 * i] = 1.5;
    v[3 * i + 2] = -0.5;
  }
  CHECK(ipcc_world_set_velocities(w, v, n, &err) == IPCC_OK);
  CHECK(memcmp(ipcc_world_velocities(w), v, 3 * (size_t)n * sizeof(double)) == 0 || affine);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  const double *x = ipcc_world_positions(w);
  for (int i = 0; i < n; ++i) {
    CHECK_NEAR(x[3 * i] - x0[3 * i], 0.015, 1e-8);
    CHECK_NEAR(x[3 * i + 1] - x0[3 * i + 1], 0.0, 1e-8);
    CHECK_NEAR(x[3 * i + 2] - x0[3 * i + 2], -0.005, 1e-8);
  }
  CHECK_NEAR(mean_of(ipcc_world_velocities(w), n, 0), 1.5, 1e-6);
  free(v);
  free(x0);
  ipcc_world_destroy(w);
}

/* a constant force m_i a on every vertex of a free body: x_k = x_0 + h^2 a k (k + 1) / 2 and
   v_k = k h a under implicit Euler (both modes), and the same run as gravity a gives */
static void constant_force(ipcc_mode mode, int affine) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 1.0, zero_g, 0, 0, affine, &err);
  ipcc_world *gw = cube_world(mode, 1.0, (const double[3]){0.3, 2.0, -1.0}, 0, 0, affine, &err);
  CHECK_MSG(w && gw, "%s: %s", mode_name(mode), err.msg);
  if (!w || !gw) return;
  const double a[3] = {0.3, 2.0, -1.0}, h = 0.01;
  int n = ipcc_world_vertex_count(w), steps = 10;
  const double *m = ipcc_world_masses(w);
  double *f = malloc(3 * (size_t)n * sizeof(double)), c0[3];
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) f[3 * i + d] = m[i] * a[d];
  for (int d = 0; d < 3; ++d) c0[d] = mean_of(ipcc_world_positions(w), n, d);
  CHECK(ipcc_world_set_forces(w, f, n, &err) == IPCC_OK);
  for (int k = 0; k < steps; ++k) {
    CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
    CHECK(ipcc_world_step(gw, NULL, &err) == IPCC_OK);
  }
  const double *x = ipcc_world_positions(w), *xg = ipcc_world_positions(gw);
  for (int d = 0; d < 3; ++d) {
    double expect = c0[d] + h * h * a[d] * steps * (steps + 1) / 2.0;
    CHECK_NEAR(mean_of(x, n, d), expect, 1e-8);
    CHECK_NEAR(mean_of(ipcc_world_velocities(w), n, d), steps * h * a[d], 1e-6);
  }
  for (int i = 0; i < 3 * n; ++i) CHECK_NEAR(x[i], xg[i], 1e-9);
  /* removed: the body keeps its velocity */
  CHECK(ipcc_world_set_forces(w, NULL, 0, &err) == IPCC_OK);
  double v0 = mean_of(ipcc_world_velocities(w), n, 1);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  CHECK_NEAR(mean_of(ipcc_world_velocities(w), n, 1), v0, 1e-6);
  free(f);
  ipcc_world_destroy(w);
  ipcc_world_destroy(gw);
}

/* IPC: the force's term in the incremental potential, -c h^2 f.x, against finite differences,
   and the gradient's change by it */
static void force_gradient(void) {
  ipcc_error err;
  ipcc_world *uw = cube_world(IPCC_MODE_IPC, 1.0, earth_g, 0, 0, 0, &err);
  if (!uw) return;
  ipc_world *w = uw->ws;
  int n = ipcc_world_vertex_count(uw);
  double *f = malloc(3 * (size_t)n * sizeof(double));
  for (int i = 0; i < 3 * n; ++i) f[i] = 50.0 * sin(1.0 + i);
  CHECK(ipcc_world_set_forces(uw, f, n, &err) == IPCC_OK);
  CHECK(ipcc_world_step(uw, NULL, &err) == IPCC_OK);
  /* the potential of the step just taken (its prediction holds the forces) at x */
  ipc_newton_potential_gradient(w);
  double *g = malloc(3 * (size_t)n * sizeof(double));
  memcpy(g, w->g, 3 * (size_t)n * sizeof(double));
  double hh = 1e-6, worst = 0, scale = 0;
  for (int k = 0; k < 3 * n; ++k) {
    double xk = w->s.x[k];
    w->s.x[k] = xk + hh;
    double ep = ipc_newton_potential_gradient(w);
    w->s.x[k] = xk - hh;
    double em = ipc_newton_potential_gradient(w);
    w->s.x[k] = xk;
    worst = fmax(worst, fabs((ep - em) / (2 * hh) - g[k]));
    scale = fmax(scale, fabs(g[k]));
  }
  CHECK_MSG(worst <= 1e-5 * fmax(scale, 1.0), "finite differences off by %g (gradient %g)", worst,
            scale);
  /* without the forces in the prediction the gradient is larger by c h^2 f */
  double ch2 = w->c_elastic * w->h * w->h;
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) w->xt[3 * i + d] -= ch2 * f[3 * i + d] / w->m.mass[i];
  ipc_newton_potential_gradient(w);
  for (int k = 0; k < 3 * n; ++k) CHECK_NEAR(w->g[k] - g[k], ch2 * f[k], 1e-9);
  free(f);
  free(g);
  ipcc_world_destroy(uw);
}

/* a cube at rest on the plane y = 0: its contacts are against the plane, along +y, within the
   contact distance, and their normal forces carry its weight */
static void resting_contacts(ipcc_mode mode, double mu) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 0.0005, earth_g, 1, mu, 0, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  for (int k = 0; k < 150; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  double M = 0;
  for (int i = 0; i < n; ++i) M += ipcc_world_masses(w)[i];
  int nc = ipcc_world_contacts(w, NULL, 0);
  CHECK_MSG(nc >= 3, "%s: %d contacts", mode_name(mode), nc);
  ipcc_contact *c = calloc((size_t)nc + 1, sizeof *c);
  CHECK(ipcc_world_contacts(w, c, nc) == nc);
  double sum = 0, dist = ipcc_world_contact_distance(w), fric[3] = {0, 0, 0}, fabs_sum = 0;
  for (int k = 0; k < nc; ++k) {
    CHECK(c[k].kind == IPCC_CONTACT_VERTEX_PLANE && c[k].plane == 0);
    CHECK(c[k].body[0] == 0 && c[k].body[1] == -1);
    CHECK(c[k].vertex[0] >= 0 && c[k].vertex[0] < n && c[k].vertex[1] == -1);
    CHECK_NEAR(c[k].normal[1], 1.0, 1e-12);
    CHECK_MSG(c[k].distance < dist && (mode == IPCC_MODE_LCP || c[k].distance > 0),
              "%s: distance %g, contact distance %g", mode_name(mode), c[k].distance, dist);
    CHECK_NEAR(c[k].point[1][1], 0.0, 1e-12);
    CHECK_NEAR(c[k].point[0][1], c[k].distance, 1e-12);
    CHECK(c[k].normal_force >= 0);
    sum += c[k].normal_force;
    for (int d = 0; d < 3; ++d) {
      fric[d] += c[k].friction_force[d];
      fabs_sum += fabs(c[k].friction_force[d]);
    }
    CHECK_NEAR(c[k].friction_force[1], 0.0, 1e-9); /* tangential */
  }
  CHECK_MSG(fabs(sum - M * 9.81) <= 0.02 * M * 9.81, "%s: normal forces %g, weight %g",
            mode_name(mode), sum, M * 9.81);
  /* at rest the friction forces nearly cancel (they hold the corners of the squashed cube,
     whose six-tet mesh is not symmetric: about 0.6% of the weight is left in x and z in both
     modes while it settles); none without friction */
  CHECK_MSG(fabs(fric[0]) + fabs(fric[2]) <= 0.02 * M * 9.81, "%s: net friction %g %g at rest",
            mode_name(mode), fric[0], fric[2]);
  CHECK(mu > 0 || fabs_sum == 0);
  /* a count smaller than the list: only cap entries written */
  ipcc_contact one[2];
  memset(one, 0x5a, sizeof one);
  CHECK(ipcc_world_contacts(w, one, 1) == nc);
  CHECK(one[1].kind == 0x5a5a5a5a);
  free(c);
  ipcc_world_destroy(w);
}

/* two_cubes stacked on the ground by ipcc_world_set_positions and left to settle: the
   contacts between the cubes carry the upper one's weight, those with the ground both (the
   upper cube shifted by 0.2 in x and z, its corners off the lower one's edges) */
static void stacked_contacts(ipcc_mode mode) {
  ipcc_error err;
  /* stiffer than the scene's 1e5 Pa, whose cubes oscillate for seconds */
  ipcc_world *w = two_cubes(mode, 1e8, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w); /* upper: 0..7 at y in [3, 4]; lower: 8..15 in [1, 2] */
  size_t bytes = 3 * (size_t)n * sizeof(double);
  double *x = malloc(bytes), gap = 0.5 * ipcc_world_contact_distance(w);
  memcpy(x, ipcc_world_positions(w), bytes);
  for (int i = 0; i < n; ++i) x[3 * i + 1] -= i < 8 ? 2.0 - 2 * gap : 1.0 - gap;
  for (int i = 0; i < 8; ++i) x[3 * i] += 0.2, x[3 * i + 2] += 0.2; /* corners not on edges */
  CHECK_MSG(ipcc_world_set_positions(w, x, n, &err) == IPCC_OK, "%s", err.msg);
  for (int k = 0; k < 80; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  const double *m = ipcc_world_masses(w);
  double mu = 0, ml = 0;
  for (int i = 0; i < n; ++i) *(i < 8 ? &mu : &ml) += m[i];
  int nc = ipcc_world_contacts(w, NULL, 0);
  ipcc_contact *c = calloc((size_t)nc + 1, sizeof *c);
  ipcc_world_contacts(w, c, nc);
  double between = 0, ground = 0;
  for (int k = 0; k < nc; ++k) {
    if (c[k].body[1] < 0) {
      ground += c[k].normal_force;
      continue;
    }
    /* side 0 is the upper cube's when the normal points up */
    CHECK((c[k].normal[1] > 0) == (c[k].body[0] == 0));
    between += c[k].normal_force;
    CHECK_MSG(fabs(c[k].distance) < ipcc_world_contact_distance(w), "%s: distance %g",
              mode_name(mode), c[k].distance);
  }
  double g = 9.80665;
  CHECK_MSG(fabs(between - mu * g) <= 0.03 * mu * g, "%s: between the cubes %g, upper weight %g",
            mode_name(mode), between, mu * g);
  CHECK_MSG(fabs(ground - (mu + ml) * g) <= 0.03 * (mu + ml) * g, "%s: ground %g, weight %g",
            mode_name(mode), ground, (mu + ml) * g);
  free(c);
  free(x);
  ipcc_world_destroy(w);
}

/* IPC: a cube pushed sideways on a plane with friction: the friction force opposes the slip */
static void sliding_friction(void) {
  ipcc_error err;
  ipcc_world *w = cube_world(IPCC_MODE_IPC, 0.0005, earth_g, 1, 0.5, 0, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  for (int k = 0; k < 20; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  double *v = malloc(3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) v[3 * i] = 1.0, v[3 * i + 1] = v[3 * i + 2] = 0;
  CHECK(ipcc_world_set_velocities(w, v, n, &err) == IPCC_OK);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  int nc = ipcc_world_contacts(w, NULL, 0);
  ipcc_contact *c = calloc((size_t)nc + 1, sizeof *c);
  ipcc_world_contacts(w, c, nc);
  double fx = 0, fn = 0;
  for (int k = 0; k < nc; ++k) {
    fx += c[k].friction_force[0];
    fn += c[k].normal_force;
  }
  CHECK_MSG(fx < -0.3 * fn && fx >= -0.5 * fn * 1.05, "friction %g, normal %g", fx, fn);
  free(c);
  free(v);
  ipcc_world_destroy(w);
}

/* two_cubes: step 8, snapshot, step 8, restore, step 8 again: the same positions and
   velocities bit for bit; a copy restores as well; another mode's snapshot is refused */
static void snapshots(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = two_cubes(mode, 0, &err);
  ipcc_world *other = two_cubes(mode == IPCC_MODE_IPC ? IPCC_MODE_LCP : IPCC_MODE_IPC, 0, &err);
  if (!w || !other) return;
  int n = ipcc_world_vertex_count(w);
  size_t bytes = 3 * (size_t)n * sizeof(double);
  for (int k = 0; k < 50; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  ipcc_state *s = ipcc_state_create(w, &err);
  CHECK_MSG(s != NULL, "%s", err.msg);
  if (!s) return;
  ipcc_state *s2 = ipcc_state_copy(s, &err);
  size_t nb = 0;
  CHECK(ipcc_state_data(s, &nb) != NULL && nb > bytes);
  int steps = ipcc_world_step_count(w);
  double t = ipcc_world_time(w);
  double *x1 = malloc(bytes), *v1 = malloc(bytes);
  for (int k = 0; k < 20; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  memcpy(x1, ipcc_world_positions(w), bytes);
  memcpy(v1, ipcc_world_velocities(w), bytes);
  for (int r = 0; r < 2; ++r) {
    CHECK_MSG(ipcc_state_restore(w, r ? s2 : s, &err) == IPCC_OK, "%s", err.msg);
    CHECK(ipcc_world_step_count(w) == steps && ipcc_world_time(w) == t);
    for (int k = 0; k < 20; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
    CHECK_MSG(memcmp(x1, ipcc_world_positions(w), bytes) == 0, "%s: restore %d: positions differ",
              mode_name(mode), r);
    CHECK(memcmp(v1, ipcc_world_velocities(w), bytes) == 0);
  }
  /* into a world of the other mode: refused, that world unchanged */
  double *xo = malloc(bytes);
  memcpy(xo, ipcc_world_positions(other), bytes);
  CHECK(ipcc_state_restore(other, s, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "mode") != NULL, "%s", err.msg);
  CHECK(memcmp(xo, ipcc_world_positions(other), bytes) == 0);
  ipcc_state_free(s);
  ipcc_state_free(s2);
  ipcc_state_free(NULL);
  free(x1);
  free(v1);
  free(xo);
  ipcc_world_destroy(w);
  ipcc_world_destroy(other);
}

/* set positions: accepted (contacts follow) or refused (the world unchanged) */
static void positions(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = two_cubes(mode, 0, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w); /* upper: 0..7 at y in [3, 4]; lower: 8..15 in [1, 2] */
  size_t bytes = 3 * (size_t)n * sizeof(double);
  double *x = malloc(bytes), *keep = malloc(bytes);
  memcpy(keep, ipcc_world_positions(w), bytes);
  /* the upper cube moved into the lower one: refused */
  memcpy(x, keep, bytes);
  for (int i = 0; i < 8; ++i) x[3 * i + 1] -= 1.5;
  CHECK(ipcc_world_set_positions(w, x, n, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "ipcc_world_set_positions: the new state intersects") != NULL, "%s",
            err.msg);
  CHECK(memcmp(keep, ipcc_world_positions(w), bytes) == 0);
  /* the upper cube put down onto the lower one's top (touching): refused in IPC mode */
  double lo = INFINITY, top = -INFINITY;
  for (int i = 0; i < 8; ++i) lo = fmin(lo, keep[3 * i + 1]);
  for (int i = 8; i < 16; ++i) top = fmax(top, keep[3 * i + 1]);
  memcpy(x, keep, bytes);
  for (int i = 0; i < 8; ++i) x[3 * i + 1] += top - lo;
  ipcc_status st = ipcc_world_set_positions(w, x, n, &err);
  if (mode == IPCC_MODE_IPC) {
    CHECK(st == IPCC_ERR_INPUT);
    CHECK(memcmp(keep, ipcc_world_positions(w), bytes) == 0);
  }
  /* just above it (within the contact distance): accepted, a contact between the bodies */
  double gap = 0.5 * ipcc_world_contact_distance(w);
  memcpy(x, keep, bytes);
  for (int i = 0; i < 8; ++i) x[3 * i + 1] += top - lo + gap;
  CHECK_MSG(ipcc_world_set_positions(w, x, n, &err) == IPCC_OK, "%s", err.msg);
  CHECK(memcmp(x, ipcc_world_positions(w), bytes) == 0);
  int nc = ipcc_world_contacts(w, NULL, 0);
  ipcc_contact *c = calloc((size_t)nc + 1, sizeof *c);
  ipcc_world_contacts(w, c, nc);
  int between = 0;
  for (int k = 0; k < nc; ++k) {
    if (c[k].body[1] < 0) continue;
    ++between;
    CHECK(c[k].body[0] != c[k].body[1]);
    CHECK_NEAR(fabs(c[k].normal[1]), 1.0, 1e-9);
    CHECK_NEAR(fabs(c[k].distance), gap, 1e-9);
    CHECK_NEAR(fabs(c[k].point[0][1] - c[k].point[1][1]), gap, 1e-9);
  }
  CHECK_MSG(between > 0, "%s: no contact between the cubes", mode_name(mode));
  free(c);
  /* a step from there runs */
  CHECK_MSG(ipcc_world_step(w, NULL, &err) == IPCC_OK, "%s", err.msg);
  free(x);
  free(keep);
  ipcc_world_destroy(w);
}

/* an affine cube set to a rotated and moved pose: its vertices there exactly (the pose is an
   affine map of the rest shape), and a step from it runs */
static void affine_positions(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 1.0, earth_g, 1, 0, 1, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  size_t bytes = 3 * (size_t)n * sizeof(double);
  double *x = malloc(bytes), c = cos(0.3), s = sin(0.3);
  const double *x0 = ipcc_world_positions(w);
  for (int i = 0; i < n; ++i) { /* about y by 0.3 rad, then up 0.5 m */
    x[3 * i] = c * x0[3 * i] + s * x0[3 * i + 2] + 0.1;
    x[3 * i + 1] = x0[3 * i + 1] + 0.5;
    x[3 * i + 2] = -s * x0[3 * i] + c * x0[3 * i + 2];
  }
  CHECK_MSG(ipcc_world_set_positions(w, x, n, &err) == IPCC_OK, "%s", err.msg);
  for (int i = 0; i < 3 * n; ++i) CHECK_NEAR(ipcc_world_positions(w)[i], x[i], 1e-12);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  /* falling: the rotation kept */
  const double *y = ipcc_world_positions(w);
  CHECK_NEAR((y[3] - y[0]) - (x[3] - x[0]), 0.0, 1e-9);
  CHECK(y[1] < x[1]);
  free(x);
  ipcc_world_destroy(w);
}

/* every setter rejects what does not fit, with a message naming it, the world unchanged */
static void bad_input(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 1.0, earth_g, 1, 0, 0, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  size_t bytes = 3 * (size_t)n * sizeof(double);
  double *a = malloc(bytes), *keep = malloc(bytes);
  memcpy(keep, ipcc_world_positions(w), bytes);
  ipcc_status (*set[3])(ipcc_world *, const double *, int, ipcc_error *) = {
      ipcc_world_set_positions, ipcc_world_set_velocities, ipcc_world_set_forces};
  const char *names[3] = {"ipcc_world_set_positions", "ipcc_world_set_velocities",
                          "ipcc_world_set_forces"};
  for (int s = 0; s < 3; ++s) {
    memcpy(a, keep, bytes);
    CHECK(set[s](w, a, n - 1, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, names[s]) && strstr(err.msg, "vertices given"), "%s", err.msg);
    CHECK(set[s](w, a, -3, &err) == IPCC_ERR_INPUT);
    CHECK(set[s](w, a, n + 1, NULL) == IPCC_ERR_INPUT);
    a[3 * 5 + 1] = NAN;
    CHECK(set[s](w, a, n, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "vertex 5: y = nan is not finite"), "%s", err.msg);
    a[3 * 5 + 1] = keep[3 * 5 + 1];
    a[3 * 2] = -INFINITY;
    CHECK(set[s](w, a, n, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "vertex 2: x = -inf is not finite"), "%s", err.msg);
  }
  CHECK(memcmp(keep, ipcc_world_positions(w), bytes) == 0);
  for (int i = 0; i < 3 * n; ++i) CHECK(ipcc_world_velocities(w)[i] == 0);
  CHECK(w->force == NULL);
  /* a vertex below the plane: refused in IPC mode (LCP allows overlaps at contacts) */
  memcpy(a, keep, bytes);
  a[1] = -0.1;
  if (mode == IPCC_MODE_IPC) {
    CHECK(ipcc_world_set_positions(w, a, n, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "plane"), "%s", err.msg);
    CHECK(memcmp(keep, ipcc_world_positions(w), bytes) == 0);
  }
  CHECK(ipcc_world_vertex_body(w, -1) == -1 && ipcc_world_vertex_body(w, n) == -1);
  CHECK(ipcc_world_vertex_body(w, 0) == 0);
  CHECK(ipcc_world_mode(w) == mode);
  free(a);
  free(keep);
  ipcc_world_destroy(w);
  /* an unknown mode */
  ipcc_scene_def def;
  CHECK(ipcc_scene_load("scenes/two_cubes.json", &def, &err) == IPCC_OK);
  CHECK(ipcc_world_new(&def, (ipcc_mode)7, NULL, &err) == NULL);
  CHECK_MSG(strstr(err.msg, "mode 7"), "%s", err.msg);
  ipcc_scene_def_free(&def);
}

/* targets for the next step: every vertex of a free cube moved by (0.01, 0, 0) ends there
   with the velocity 1 m/s, then moves on freely; bad targets refused */
static void targets(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 1.0, zero_g, 0, 0, 0, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  int *ids = malloc(sizeof(int) * (size_t)n);
  double *t = malloc(3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    ids[i] = n - 1 - i;
    for (int d = 0; d < 3; ++d) t[3 * i + d] = ipcc_world_positions(w)[3 * ids[i] + d];
    t[3 * i] += 0.01;
  }
  CHECK(ipcc_world_set_targets(w, ids, n, t, &err) == IPCC_OK);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  const double *x = ipcc_world_positions(w);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) CHECK_NEAR(x[3 * ids[i] + d], t[3 * i + d], 1e-12);
  CHECK_NEAR(mean_of(ipcc_world_velocities(w), n, 0), 1.0, 1e-9);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  for (int i = 0; i < n; ++i) CHECK_NEAR(x[3 * ids[i]], t[3 * i] + 0.01, 1e-8);
  /* bad input: nothing set */
  int bad_id[1] = {n};
  double nan_t[3] = {0, NAN, 0};
  CHECK(ipcc_world_set_targets(w, bad_id, 1, t, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "ipcc_world_set_targets: verts[0]"), "%s", err.msg);
  CHECK(ipcc_world_set_targets(w, ids, 1, nan_t, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "not finite"), "%s", err.msg);
  CHECK(ipcc_world_set_targets(w, ids, -1, t, &err) == IPCC_ERR_INPUT);
  CHECK(ipcc_world_set_targets(w, NULL, 2, t, &err) == IPCC_ERR_INPUT);
  CHECK(ipcc_world_set_targets(w, NULL, 0, NULL, &err) == IPCC_OK);
  ipcc_world_destroy(w);
  /* a vertex of an affine body */
  w = cube_world(mode, 1.0, zero_g, 0, 0, 1, &err);
  if (w) {
    CHECK(ipcc_world_set_targets(w, ids, 1, t, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "affine body"), "%s", err.msg);
    ipcc_world_destroy(w);
  }
  free(ids);
  free(t);
}

/* snapshots of an affine body sliding with friction on a plane, both modes */
static void snapshots_affine(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = cube_world(mode, 0.001, earth_g, 1, 0.3, 1, &err);
  if (!w) return;
  int n = ipcc_world_vertex_count(w);
  size_t bytes = 3 * (size_t)n * sizeof(double);
  double *v = calloc(3 * (size_t)n, sizeof(double)), *x1 = malloc(bytes);
  /* settled first (a start within dhat is pushed out by the barrier, and friction with it) */
  for (int k = 0; k < 40; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  for (int i = 0; i < n; ++i) v[3 * i] = 2.0;
  CHECK(ipcc_world_set_velocities(w, v, n, &err) == IPCC_OK);
  for (int k = 0; k < 10; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  ipcc_state *s = ipcc_state_create(w, &err);
  for (int k = 0; k < 10; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  memcpy(x1, ipcc_world_positions(w), bytes);
  CHECK(s && ipcc_state_restore(w, s, &err) == IPCC_OK);
  for (int k = 0; k < 10; ++k) CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  CHECK_MSG(memcmp(x1, ipcc_world_positions(w), bytes) == 0, "%s: affine branch differs",
            mode_name(mode));
  /* it slid, and friction slowed it (LCP: by mu g t = 0.59 m/s; IPC's affine cube rocks onto
     its leading edge and slows faster, to about 0.1 m/s) */
  double vx = mean_of(ipcc_world_velocities(w), n, 0);
  CHECK_MSG(vx > 0 && vx < 2.0 - 0.3 * 9.81 * 0.2 * 0.7, "%s: vx %g", mode_name(mode), vx);
  ipcc_state_free(s);
  free(v);
  free(x1);
  ipcc_world_destroy(w);
}

/* the handles' unified world is the same world */
static void handles(void) {
  ipcc_error err;
  ipc_world *w = ipc_world_load("scenes/two_cubes.json", 0, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  ipcc_world *u = ipc_world_unified(w);
  CHECK(ipcc_world_mode(u) == IPCC_MODE_IPC);
  CHECK(ipcc_world_positions(u) == ipc_world_positions(w));
  ipcc_step_stats st;
  CHECK(ipcc_world_step(u, &st, &err) == IPCC_OK && st.step == 1);
  CHECK(ipc_world_step_count(w) == 1);
  ipc_world_destroy(w);
}

/* ipcc_world_load: the mode from the argument or the scene, the LCP options as `ipcc run`
   reads them (scene, then overrides), and the accessors of either mode */
static void loaded(void) {
  ipcc_error err;
  ipcc_world *w = ipcc_world_load("scenes/two_cubes.json", 0, IPCC_MODE_SCENE, NULL, NULL, 0, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  CHECK(ipcc_world_mode(w) == IPCC_MODE_IPC); /* no "mode" key */
  CHECK(ipcc_world_body_count(w) == 2 && ipcc_world_plane_count(w) == 1);
  ipcc_body_info b;
  CHECK(ipcc_world_body(w, 1, &b) == 0 && !strcmp(b.name, "lower") && b.vertex_begin == 8);
  CHECK(ipcc_world_body(w, 2, &b) == -1);
  double p[3], nrm[3];
  CHECK(ipcc_world_plane(w, 0, p, nrm) == 0 && nrm[1] == 1.0);
  int nt = 0;
  CHECK(ipcc_world_surface_triangles(w, &nt) != NULL && nt == 24);
  CHECK(ipcc_world_scene_steps(w) == 80 && ipcc_world_intersection_free(w, NULL, 0));
  ipcc_world_destroy(w);

  const char *keys[] = {"gap", "friction"}, *values[] = {"0.02", "box"};
  w = ipcc_world_load("scenes/two_cubes.json", 0, IPCC_MODE_LCP, keys, values, 2, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (w) {
    CHECK(ipcc_world_mode(w) == IPCC_MODE_LCP && ipcc_world_contact_distance(w) == 0.02);
    CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
    ipcc_world_destroy(w);
  }
  /* a scene's own "mode" and "lcp" */
  char path[] = "/tmp/ipcc-test-load-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  FILE *f = fdopen(fd, "w");
  char *mesh = realpath("scenes/meshes/cube.msh", NULL);
  fprintf(f, "{\"mode\": \"lcp\", \"lcp\": {\"gap\": 0.03}, \"bodies\": [{\"mesh\": \"%s\"}]}",
          mesh ? mesh : "");
  free(mesh);
  fclose(f);
  w = ipcc_world_load(path, 0, IPCC_MODE_SCENE, NULL, NULL, 0, &err);
  CHECK_MSG(w && ipcc_world_mode(w) == IPCC_MODE_LCP && ipcc_world_contact_distance(w) == 0.03,
            "%s", w ? "" : err.msg);
  ipcc_world_destroy(w);
  /* refused: a bad option, options for a world in IPC mode, a bad mode */
  const char *bad[] = {"simplex"};
  CHECK(!ipcc_world_load(path, 0, IPCC_MODE_LCP, keys, bad, 1, &err) &&
        err.status == IPCC_ERR_INPUT && strstr(err.msg, "gap"));
  CHECK(!ipcc_world_load(path, 0, IPCC_MODE_IPC, keys, values, 1, &err) &&
        strstr(err.msg, "IPC mode") && strstr(err.msg, path));
  CHECK(!ipcc_world_load(path, 0, 7, NULL, NULL, 0, &err) && strstr(err.msg, "mode 7"));
  CHECK(!ipcc_world_load("scenes/missing.json", 0, IPCC_MODE_SCENE, NULL, NULL, 0, &err) &&
        strstr(err.msg, "missing.json"));
  remove(path);
}

int main(void) {
  for (int m = 0; m < 2; ++m) {
    ipcc_mode mode = (ipcc_mode)m;
    velocities(mode, 0);
    velocities(mode, 1);
    constant_force(mode, 0);
    constant_force(mode, 1);
    resting_contacts(mode, 0);
    snapshots(mode);
    positions(mode);
    bad_input(mode);
    targets(mode);
    snapshots_affine(mode);
    stacked_contacts(mode);
    affine_positions(mode);
  }
  resting_contacts(IPCC_MODE_IPC, 0.5);
  resting_contacts(IPCC_MODE_LCP, 0.5);
  force_gradient();
  sliding_friction();
  handles();
  loaded();
  TEST_MAIN_END();
}
