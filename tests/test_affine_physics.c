/* physics of affine bodies in the IPC world (issue 13), against what the field expects:
   - an affine block on the incline of tests/test_friction_world.c (mu 0.5, eps_v 1e-2 m/s,
     h 0.01, Newton tolerance 1e-6): slides at g (sin - mu cos) at atan(mu) + 1 deg, sticks
     at atan(mu) - 1 deg
   - a stack of three affine cubes on a plane stays at rest
   - a very stiff deformable cube (E 1e9 Pa) and the same cube affine, dropped spinning onto
     a plane, follow the same centre-of-mass trajectory; the wall time of each is printed
   - the same box affine from its tet mesh and from its closed surface alone (OBJ): equal
     moments and trajectories
   every state is checked intersection-free */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fit_accel.h"
#include "grid_cube.h"
#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "scene_text.h"
#include "test.h"

static const double deg = 3.14159265358979323846 / 180.0, grav = 9.80665;

/* centre of mass of body b from the lumped vertex masses: for an affine body it is
   A cbar + p with cbar the lumped rest centre, so it moves rigidly with the body */
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

static int load(const char *path, ipcc_scene_def *def) {
  ipcc_error err;
  int ok = ipcc_scene_load(path, def, &err) == IPCC_OK;
  CHECK_MSG(ok, "%s", err.msg);
  return ok;
}

static ipc_world *create(ipcc_scene_def *def) {
  ipcc_error err;
  ipc_world *w = ipc_world_create(def, &err);
  CHECK_MSG(w != NULL, "world: %s", err.msg);
  ipcc_scene_def_free(def);
  return w;
}

/* one step, checked successful and intersection-free */
static int step(ipc_world *w, ipcc_step_stats *st) {
  ipcc_error err;
  char what[256];
  if (ipc_world_step(w, st, &err) != IPCC_OK) {
    CHECK_MSG(0, "step: %s", err.msg);
    return 0;
  }
  int ok = ipc_world_intersection_free(w, what, sizeof what);
  CHECK_MSG(ok, "intersecting state: %s", what);
  return ok;
}

/* scenes/incline_plane.json with its block affine on a slope of theta degrees for 1 s: the
   slip along the slope, the acceleration fitted over [0.3, 1] s (past the landing
   transient) and the slip speed of the last step */
static void incline(double theta, double *slip, double *accel, double *creep) {
  ipcc_scene_def def;
  *slip = *accel = *creep = NAN;
  if (!load("scenes/incline_plane.json", &def)) return;
  double t = theta * deg, n[3] = {sin(t), cos(t), 0}, down[3] = {cos(t), -sin(t), 0};
  double gap = 0.9 * def.dhat;
  def.bodies[0].affine = 1;
  def.bodies[0].rotation[2] = -theta;
  def.bodies[0].translation[0] = gap * n[0];
  def.bodies[0].translation[1] = gap * n[1];
  memcpy(def.planes[0].normal, n, sizeof n);
  ipc_world *w = create(&def);
  if (!w) return;
  CHECK(w->rest.naff == 1);
  int steps = (int)lround(1.0 / w->h), nfit = 0;
  double c0[3], ts[128], ss[128];
  body_com(w, 0, c0);
  for (int k = 1; k <= steps; ++k) {
    ipcc_step_stats st;
    if (!step(w, &st)) break;
    CHECK(st.friction_contacts >= 4);
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
  *accel = fit_accel(ts, ss, nfit);
  ipc_world_destroy(w);
}

/* the scene's Newton tolerance 1e-6 (of the bbox diagonal per second) bounds the velocity
   error of a solve by about 1.7e-6 m/s, far below the 0.19 m/s^2 x 0.01 s = 1.9e-3 m/s the
   slide gains per step; the default 1e-2 would be 1.7e-2 m/s, larger than the signal and
   larger than eps_v, so it could neither resolve the acceleration nor the sticking creep */
static void test_incline(void) {
  const double mu = 0.5, epsv = 1e-2;
  double below = atan(mu) / deg - 1, above = atan(mu) / deg + 1, slip, accel, creep;
  incline(below, &slip, &accel, &creep);
  double r = 1 - sqrt(1 - tan(below * deg) / mu);
  fprintf(stderr,
          "affine incline %.4f deg: slip after 1 s %.4g m (limit %.4g), creep %.5g m/s "
          "(model r eps_v %.5g)\n",
          below, slip, epsv * 1.0, creep, r * epsv);
  CHECK_MSG(fabs(slip) < epsv * 1.0, "the block slid %g m at %g deg", slip, below);
  CHECK_MSG(fabs(creep - r * epsv) < 0.02 * r * epsv, "creep %g, model %g", creep, r * epsv);
  incline(above, &slip, &accel, &creep);
  double a = grav * (sin(above * deg) - mu * cos(above * deg));
  fprintf(stderr, "affine incline %.4f deg: acceleration %.6g m/s^2, analytic %.6g (%.3f%%)\n",
          above, accel, a, 100 * (accel - a) / a);
  CHECK_MSG(fabs(accel - a) < 0.01 * a, "acceleration %g, analytic %g", accel, a);
}

/* the world of a JSON scene text (scene_text.h: @CUBE@ is scenes/meshes/cube.msh) */
static ipc_world *make_world(const char *json) {
  ipcc_scene_def def;
  ipcc_error err;
  if (scene_text_load(json, &def, &err) != IPCC_OK) {
    CHECK_MSG(0, "scene: %s", err.msg);
    return NULL;
  }
  return create(&def);
}

/* three unit cubes stacked on the ground, each dhat/2 above the one below and shifted
   sideways, with the default Newton tolerance; settled for 1 s, then over the next second
   every centre must move less than dhat/100 (measured: not at all, the first Newton
   direction at rest is below the tolerance), and every gap between the cubes and the
   ground stays in (0, dhat) */
static void test_stack(void) {
  ipc_world *w = make_world(
      "{\"time_step\": 0.01, \"duration\": 2, \"gravity\": [0, -9.80665, 0],"
      " \"contact\": {\"dhat\": 0.001, \"dhat_absolute\": true, \"epsv\": 0.001,"
      " \"epsv_absolute\": true},"
      " \"bodies\": ["
      "{\"mesh\": \"@CUBE@\", \"translation\": [0, 0.0005, 0], \"affine\": true,"
      " \"friction\": 0.5},"
      "{\"mesh\": \"@CUBE@\", \"translation\": [0.1, 1.001, 0.05], \"affine\": true,"
      " \"friction\": 0.5},"
      "{\"mesh\": \"@CUBE@\", \"translation\": [-0.05, 2.0015, 0.1], \"affine\": true,"
      " \"friction\": 0.5}],"
      " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0], \"friction\": 0.5}]}");
  if (!w) return;
  CHECK(w->rest.naff == 3);
  int n = (int)lround(1.0 / w->h), done = 1;
  ipcc_step_stats st;
  for (int k = 0; k < n && done; ++k) done = step(w, &st);
  double c0[3][3], move = 0;
  for (int b = 0; b < 3; ++b) body_com(w, b, c0[b]);
  for (int k = 0; k < n && done; ++k) done = step(w, &st);
  for (int b = 0; b < 3; ++b) {
    double c[3], d = 0;
    body_com(w, b, c);
    for (int k = 0; k < 3; ++k) d += (c[k] - c0[b][k]) * (c[k] - c0[b][k]);
    move = fmax(move, sqrt(d));
  }
  double gap[3], below = 0;
  for (int b = 0; b < 3; ++b) {
    double c[3];
    body_com(w, b, c);
    gap[b] = c[1] - 0.5 - below;
    below = c[1] + 0.5;
    CHECK_MSG(gap[b] > 0 && gap[b] < w->dhat, "gap under cube %d: %g", b, gap[b]);
  }
  fprintf(stderr,
          "affine stack: largest centre move over the second second %.3g m (dhat %g), gaps %.3g "
          "%.3g %.3g m\n",
          move, w->dhat, gap[0], gap[1], gap[2]);
  CHECK(done);
  CHECK(move < 0.01 * w->dhat);
  ipc_world_destroy(w);
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the generated cube, its bottom 0.5 m above a frictionless ground, spinning at 3 rad/s
   about the vertical, dropped for 0.5 s (h 0.005, Newton tolerance 1e-5 so that inexact
   solves stay far below the compared millimetres): affine, or deformable with E = 1e9 Pa.
   Fills the centre of mass after every step (c: 3 x steps) and returns the wall time of
   the steps (the intersection checks not counted), NAN on failure */
static double drop(const char *mesh, int affine, double *c, int *steps) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"time_step\": 0.005, \"duration\": 0.5, \"gravity\": [0, -9.80665, 0],"
           " \"contact\": {\"dhat\": 0.001, \"dhat_absolute\": true},"
           " \"newton\": {\"tolerance\": 1e-5},"
           " \"bodies\": [{\"mesh\": \"%s\", \"translation\": [-0.5, 0.5, -0.5],"
           " \"angular_velocity\": [0, 3, 0], \"affine\": %s,"
           " \"material\": {\"density\": 1000, \"young\": 1e9, \"poisson\": 0.3}}],"
           " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}",
           mesh, affine ? "true" : "false");
  ipc_world *w = make_world(json);
  if (!w) return NAN;
  *steps = (int)lround(0.5 / w->h);
  double t = 0;
  int its = 0;
  for (int k = 0; k < *steps; ++k) {
    double t0 = seconds();
    ipcc_step_stats st;
    ipcc_error err;
    if (ipc_world_step(w, &st, &err) != IPCC_OK) {
      CHECK_MSG(0, "step %d: %s", k + 1, err.msg);
      t = NAN;
      break;
    }
    t += seconds() - t0;
    its += st.newton_iterations;
    CHECK(ipc_world_intersection_free(w, NULL, 0));
    body_com(w, 0, c + 3 * k);
  }
  fprintf(stderr, "%s cube drop: %d Newton iterations, %.3g s\n",
          affine ? "affine" : "deformable E 1e9", its, t);
  ipc_world_destroy(w);
  return t;
}

/* in free fall the centre of mass follows the same implicit Euler recurrence in both
   bodies (internal forces sum to zero; the affine inertia is linear in q), so the paths
   agree to round-off until the first contact; without friction every contact force is
   vertical, so the centres stay on their vertical line. After the landing they differ by
   the deformable cube's elastic rebound, which implicit Euler at h omega ~ 15 for the
   cube's first mode (c / L ~ 1000 /s) mostly damps: measured 1.3 mm, bound 1% of the
   0.5 m drop height */
static void test_stiff_vs_affine(void) {
  char dir[] = "/tmp/ipcc_affgrid_XXXXXX", mesh[64];
  if (!mkdtemp(dir)) return;
  snprintf(mesh, sizeof mesh, "%s/cube.msh", dir);
  CHECK(write_grid_cube(mesh));
  enum { N = 100 };
  double ca[3 * N], cd[3 * N];
  int n = 0;
  double ta = drop(mesh, 1, ca, &n);
  CHECK(n == N);
  double td = drop(mesh, 0, cd, &n);
  CHECK(n == N);
  remove(mesh);
  rmdir(dir);
  double before = 0, after = 0, side = 0;
  for (int k = 0; k < N; ++k) {
    double d = 0;
    for (int i = 0; i < 3; ++i)
      d += (ca[3 * k + i] - cd[3 * k + i]) * (ca[3 * k + i] - cd[3 * k + i]);
    /* the bottom reaches dhat 0.5 - 0.001 m below its start at t = 0.319 s */
    if ((k + 1) * 0.005 < 0.3) before = fmax(before, sqrt(d));
    after = fmax(after, sqrt(d));
    for (int i = 0; i < 3; i += 2)
      side = fmax(side, fmax(fabs(ca[3 * k + i] - ca[i]), fabs(cd[3 * k + i] - cd[i])));
  }
  fprintf(stderr,
          "stiff tet vs affine: centres apart by at most %.3g m before the landing, %.4g m over "
          "0.5 s; sideways drift %.3g m; wall time affine %.3g s, deformable %.3g s\n",
          before, after, side, ta, td);
  CHECK(before < 1e-9);
  CHECK(side < 1e-9);
  CHECK(after < 0.01 * 0.5);
}

/* writes the surface of the generated cube (write_grid_cube's GRID^3 cells) as an OBJ: the
   lattice points on the boundary, each face's GRID x GRID squares split in two triangles,
   counter-clockwise seen from outside */
static int write_grid_cube_surface(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  enum { N = GRID + 1 };
  int id[N][N][N], next = 1;
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        int on = i == 0 || j == 0 || k == 0 || i == GRID || j == GRID || k == GRID;
        id[i][j][k] = on ? next++ : 0;
        if (on)
          fprintf(f, "v %.17g %.17g %.17g\n", (double)i / GRID, (double)j / GRID, (double)k / GRID);
      }
  for (int a = 0; a < 3;
       ++a) /* the faces normal to axis a; (b, c) = the next axes, e_b x e_c = e_a */
    for (int side = 0; side <= GRID; side += GRID)
      for (int u = 0; u < GRID; ++u)
        for (int v = 0; v < GRID; ++v) {
          int q[4][2] = {{u, v}, {u + 1, v}, {u + 1, v + 1}, {u, v + 1}}, c[4];
          for (int r = 0; r < 4; ++r) {
            int p[3];
            p[a] = side;
            p[(a + 1) % 3] = q[r][0];
            p[(a + 2) % 3] = q[r][1];
            c[r] = id[p[0]][p[1]][p[2]];
          }
          if (side == GRID)
            fprintf(f, "f %d %d %d\nf %d %d %d\n", c[0], c[1], c[2], c[0], c[2], c[3]);
          else
            fprintf(f, "f %d %d %d\nf %d %d %d\n", c[0], c[2], c[1], c[0], c[3], c[2]);
        }
  return fclose(f) == 0;
}

/* the generated cube stretched to a box (scale 0.6 x 0.3 x 0.2 m, turned 20, 30, 40 deg),
   affine, as the tet mesh or as its surface only (OBJ): spinning and moving sideways, dropped
   0.3 m onto a plane with friction 0.4 for 0.6 s (h 0.005). Fills the world's moments of the
   body, the centre of mass after every step (c: 3 x steps) and the final A; returns the
   steps done (every state intersection-free) */
static int box_drop(const char *mesh, ipc_affine_moments *mom, double *c, double Aend[9]) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"time_step\": 0.005, \"duration\": 0.6, \"gravity\": [0, -9.80665, 0],"
           " \"contact\": {\"dhat\": 0.001, \"dhat_absolute\": true, \"epsv\": 0.001,"
           " \"epsv_absolute\": true},"
           " \"newton\": {\"tolerance\": 1e-6},"
           " \"bodies\": [{\"mesh\": \"%s\", \"translation\": [0, 0.5, 0],"
           " \"scale\": [0.6, 0.3, 0.2], \"rotation\": [20, 30, 40], \"friction\": 0.4,"
           " \"velocity\": [0.5, 0, 0], \"angular_velocity\": [1, 4, -2], \"affine\": true,"
           " \"material\": {\"density\": 1500, \"young\": 1e8}}],"
           " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0], \"friction\": 0.4}]}",
           mesh);
  ipc_world *w = make_world(json);
  if (!w) return 0;
  *mom = w->rest.aff_mom[0];
  double lumped = 0; /* the vertex masses (by volume for tets, by area for a surface) */
  for (int i = 0; i < w->m.nverts; ++i) lumped += w->m.mass[i];
  CHECK_NEAR(lumped, mom->mass, 1e-12);
  int steps = (int)lround(0.6 / w->h), k = 0;
  for (; k < steps; ++k) {
    ipcc_step_stats st;
    if (!step(w, &st)) break;
    /* the centre of mass A cbar + p from the exact moments (cbar = first / mass) */
    const double *q = w->s.q;
    for (int i = 0; i < 3; ++i) {
      c[3 * k + i] = q[i];
      for (int j = 0; j < 3; ++j) c[3 * k + i] += q[3 + 3 * j + i] * mom->first[j] / mom->mass;
    }
  }
  memcpy(Aend, w->s.q + 3, 9 * sizeof(double));
  ipc_world_destroy(w);
  return k;
}

/* an affine body given only by its closed surface has the moments of its tet version (the
   divergence theorem against the sum over tets) and follows the same trajectory: identical
   to round-off in flight, and through the landing, sliding and tumbling on a plane with
   friction within the contact model's scale (the barrier stiffness bound scales with the mean
   vertex mass, which differs: the tet mesh has interior vertices) */
static void test_surface_vs_tet(void) {
  char dir[] = "/tmp/ipcc_affsurf_XXXXXX", msh[64], obj[64];
  if (!mkdtemp(dir)) return;
  snprintf(msh, sizeof msh, "%s/cube.msh", dir);
  snprintf(obj, sizeof obj, "%s/cube.obj", dir);
  CHECK(write_grid_cube(msh) && write_grid_cube_surface(obj));
  enum { N = 120 };
  double ct[3 * N], cs[3 * N], At[9], As[9];
  ipc_affine_moments mt, ms;
  int nt = box_drop(msh, &mt, ct, At), ns = box_drop(obj, &ms, cs, As);
  remove(msh);
  remove(obj);
  rmdir(dir);
  CHECK(nt == N && ns == N);
  if (nt != N || ns != N) return;
  CHECK_NEAR(ms.volume, 0.6 * 0.3 * 0.2, 1e-12);
  CHECK_NEAR(ms.volume, mt.volume, 1e-12);
  CHECK_NEAR(ms.mass, mt.mass, 1e-12);
  for (int i = 0; i < 3; ++i) CHECK_NEAR(ms.first[i], mt.first[i], 1e-12);
  for (int i = 0; i < 9; ++i) CHECK_NEAR(ms.second[i], mt.second[i], 1e-12);
  double before = 0, after = 0, dA = 0, fall = ct[1] - ct[3 * (N - 1) + 1];
  for (int k = 0; k < N; ++k) {
    double d = 0;
    for (int i = 0; i < 3; ++i)
      d += (ct[3 * k + i] - cs[3 * k + i]) * (ct[3 * k + i] - cs[3 * k + i]);
    if ((k + 1) * 0.005 < 0.15) before = fmax(before, sqrt(d));
    after = fmax(after, sqrt(d));
  }
  for (int i = 0; i < 9; ++i) dA = fmax(dA, fabs(At[i] - As[i]));
  fprintf(stderr,
          "surface vs tet affine box: mass %.6g kg both; centres apart by %.3g m in flight, "
          "%.3g m over 0.6 s (fall %.3g m); final A apart by %.3g\n",
          ms.mass, before, after, fall, dA);
  CHECK(before < 1e-9);
  CHECK(fall > 0.2);
  CHECK(after < 1e-3);
  CHECK(dA < 5e-3);
}

int main(void) {
  test_surface_vs_tet();
  test_incline();
  test_stack();
  test_stiff_vs_affine();
  TEST_MAIN_END();
}
