/* LCP time stepping (src/lcp/lcp_world.c, lcp_solve.c, contact.c, regions.c, cone.c):
   region split, solver agreement on dumped LCPs, the inclined plane with every friction
   formulation, resting contact, two deformable cubes stacking */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/matrix_market.h"
#include "lcp/cone.h"
#include "lcp/contact.h"
#include "lcp/lcp.h"
#include "lcp/lcp_world.h"
#include "lcp/lcp_world_internal.h"
#include "lcp/regions.h"
#include "test.h"

static const double pi = 3.14159265358979323846;

static const char *cube = "scenes/meshes/cube.msh";

/* a scene of nb cubes (edge s, young E) at the given translations over the ground y = 0 */
static ipcc_scene_def scene_cubes(int nb, const double (*at)[3], double s, double E, double mu,
                                  double h) {
  ipcc_scene_def d = ipcc_default_scene_def();
  d.time_step = h;
  d.nbodies = nb;
  d.bodies = calloc((size_t)nb, sizeof *d.bodies);
  for (int b = 0; b < nb; ++b) {
    ipcc_body_def *bd = &d.bodies[b];
    *bd = ipcc_default_body_def();
    bd->mesh = (char *)cube;
    bd->scale[0] = bd->scale[1] = bd->scale[2] = s;
    memcpy(bd->translation, at[b], sizeof bd->translation);
    bd->young = E;
    bd->poisson = 0.3;
    bd->friction = mu;
  }
  d.nplanes = 1;
  d.planes = calloc(1, sizeof *d.planes);
  d.planes[0].normal[1] = 1;
  d.planes[0].friction = mu;
  return d;
}

/* the defaults with the lumped coupling, which these tests were written for (the default is
   coupled) */
static ipcc_lcp_world_def lumped_def(void) {
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  d.coupling = IPCC_LCP_LUMPED;
  return d;
}

static void scene_free(ipcc_scene_def *d) {
  free(d->bodies);
  free(d->planes);
}

/* union-find regions equal the connected components found by repeated relabelling */
static void test_regions(void) {
  enum { K = 300, NV = 400 };
  int kptr[K + 1], keys[4 * K], region[K], scratch[NV], label[K];
  unsigned s = 12345;
  kptr[0] = 0;
  for (int c = 0; c < K; ++c) {
    int nv = 1 + c % 4;
    for (int k = 0; k < nv; ++k) {
      s = s * 1103515245u + 12345u;
      int v = (int)((s >> 8) % (NV + 40)) - 40; /* some negative: fixed */
      keys[kptr[c] + k] = v;
    }
    kptr[c + 1] = kptr[c] + nv;
  }
  int nreg = ipc_lcp_regions(K, kptr, keys, NV, scratch, region);
  /* reference: label propagation until nothing changes */
  for (int c = 0; c < K; ++c) label[c] = c;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int a = 0; a < K; ++a)
      for (int b = a + 1; b < K; ++b) {
        int share = 0;
        for (int i = kptr[a]; i < kptr[a + 1]; ++i)
          for (int j = kptr[b]; j < kptr[b + 1]; ++j)
            if (keys[i] >= 0 && keys[i] == keys[j]) share = 1;
        if (share && label[a] != label[b]) {
          int m = label[a] < label[b] ? label[a] : label[b];
          label[a] = label[b] = m;
          changed = 1;
        }
      }
  }
  int nref = 0;
  for (int c = 0; c < K; ++c) nref += label[c] == c;
  CHECK(nreg == nref);
  for (int a = 0; a < K; ++a)
    for (int b = a + 1; b < K; ++b) CHECK((region[a] == region[b]) == (label[a] == label[b]));
  /* numbered in the order of first contacts */
  int next = 0;
  for (int c = 0; c < K; ++c) {
    CHECK(region[c] <= next);
    if (region[c] == next) ++next;
  }
}

/* the cone residual is zero at a sliding and at a sticking solution */
static void test_cone_residual(void) {
  double mu = 0.5;
  /* sliding along +x: impulse on the disk opposite the velocity */
  double z[3] = {2, -1, 0}, w[3] = {0, 3, 0};
  CHECK(ipc_lcp_cone_residual_zw(1, &mu, z, w) < 1e-15);
  /* sticking inside the disk with zero tangential velocity */
  double z2[3] = {2, 0.3, -0.2}, w2[3] = {0, 0, 0};
  CHECK(ipc_lcp_cone_residual_zw(1, &mu, z2, w2) < 1e-15);
  /* friction along the velocity is wrong */
  double z3[3] = {2, 1, 0}, w3[3] = {0, 3, 0};
  CHECK(ipc_lcp_cone_residual_zw(1, &mu, z3, w3) > 0.5);
}

/* three cubes: two side by side on the ground, one on top of the first */
static ipcc_scene_def stack_scene(double h) {
  static const double at[3][3] = {{0, 0.001, 0}, {0.5, 0.001, 0}, {0.05, 0.2025, 0.05}};
  return scene_cubes(3, at, 0.2, 1e5, 0.0, h);
}

static void run(ipc_lcp_world *w, int steps, ipcc_lcp_step_stats *last) {
  ipcc_error err;
  for (int k = 0; k < steps; ++k) CHECK(ipc_lcp_world_step(w, last, &err) == IPCC_OK);
}

/* solving each region separately gives the unsplit solution */
static void test_split_equals_unsplit(void) {
  ipcc_scene_def sc = stack_scene(0.002);
  ipcc_lcp_world_def d = lumped_def();
  d.tol = 1e-12;
  d.max_iter = 20000;
  d.friction = IPCC_LCP_FRICTION_BOX;
  sc.bodies[0].friction = sc.bodies[1].friction = sc.bodies[2].friction = 0.4;
  sc.planes[0].friction = 0.4;
  ipcc_error err;
  ipc_lcp_world *a = ipc_lcp_world_create(&sc, &d, &err);
  d.split_regions = 0;
  ipc_lcp_world *b = ipc_lcp_world_create(&sc, &d, &err);
  CHECK(a && b);
  ipcc_lcp_step_stats sa, sb;
  int max_regions = 0, max_size = 0;
  for (int k = 0; k < 60; ++k) {
    CHECK(ipc_lcp_world_step(a, &sa, &err) == IPCC_OK);
    CHECK(ipc_lcp_world_step(b, &sb, &err) == IPCC_OK);
    if (sa.regions > max_regions) max_regions = sa.regions;
    if (sa.region_max > max_size) max_size = sa.region_max;
    CHECK(sb.regions <= 1);
    CHECK(sa.contacts == sb.contacts);
  }
  /* several regions, at least one holding more than one contact */
  CHECK_MSG(max_regions >= 3 && max_size >= 2, "regions %d, largest %d", max_regions, max_size);
  const double *xa = ipc_lcp_world_positions(a), *xb = ipc_lcp_world_positions(b);
  double diff = 0;
  for (int i = 0; i < 3 * ipc_lcp_world_vertex_count(a); ++i)
    diff = fmax(diff, fabs(xa[i] - xb[i]));
  CHECK_MSG(diff < 1e-9, "split vs unsplit positions differ by %g m", diff);
  ipc_lcp_world_destroy(a);
  ipc_lcp_world_destroy(b);
  scene_free(&sc);
}

/* LCPs dumped from the stack: pgs, pcg-pgs, amgs and lemke give the same w = Mz + q */
static void test_solvers_agree(void) {
  char dir[] = "/tmp/ipcc_lcp_dumpXXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  ipcc_scene_def sc = stack_scene(0.002);
  ipcc_lcp_world_def d = lumped_def();
  d.tol = 1e-12;
  d.max_iter = 20000;
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(&sc, &d, &err);
  ipcc_lcp_step_stats st;
  run(w, 40, &st);
  ipc_lcp_world_destroy(w);
  d.dump_dir = dir;
  w = ipc_lcp_world_create(&sc, &d, &err);
  run(w, 41, &st); /* the same trajectory; step 41 dumped with the others */
  int regions = st.regions, checked = 0, largest = 0;
  for (int r = 0; r < regions; ++r) {
    char pm[256], pq[256];
    snprintf(pm, sizeof pm, "%s/step%06d_region%04d_M.mtx", dir, 41, r);
    snprintf(pq, sizeof pq, "%s/step%06d_region%04d_q.mtx", dir, 41, r);
    ipc_mm_matrix M, q;
    if (ipc_mm_read(pm, &M, &err) != IPCC_OK || ipc_mm_read(pq, &q, &err) != IPCC_OK) {
      CHECK_MSG(0, "%s", err.msg);
      continue;
    }
    int n = M.rows;
    if (n > largest) largest = n;
    double *Md = calloc((size_t)n * n, sizeof(double)), *qd = calloc((size_t)n, sizeof(double));
    ipc_mm_to_dense(&M, Md);
    ipc_mm_to_dense(&q, qd);
    ipc_lcp_csr A;
    ipc_lcp_csr_from_dense(&A, n, n, Md);
    ipc_lcp_problem p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.M = &A;
    p.q = qd;
    double *wref = calloc((size_t)n, sizeof(double)), *z = calloc((size_t)n, sizeof(double)),
           *wz = calloc((size_t)n, sizeof(double));
    ipc_lcp_solver solvers[] = {IPC_LCP_LEMKE, IPC_LCP_PGS, IPC_LCP_PCG_PGS, IPC_LCP_AMGS};
    for (int s = 0; s < 4; ++s) {
      ipc_lcp_options o = ipc_lcp_default_options();
      o.solver = solvers[s];
      o.tol = 1e-12;
      o.max_iter = 100000;
      ipc_lcp_result res;
      ipc_lcp_solve(&p, &o, z, &res, &err);
      /* the resting stack's regions are degenerate (coplanar faces: more contacts than
         independent directions), where the splitting methods converge sublinearly */
      CHECK_MSG(res.rel_residual < 1e-5, "region %d solver %s residual %g", r,
                ipc_lcp_solver_name(solvers[s]), res.rel_residual);
      ipc_lcp_w(&p, z, wz);
      double qn = 0, dw = 0;
      for (int i = 0; i < n; ++i) qn = fmax(qn, fabs(qd[i]));
      if (s == 0) memcpy(wref, wz, sizeof(double) * (size_t)n);
      for (int i = 0; i < n; ++i) dw = fmax(dw, fabs(wz[i] - wref[i]));
      CHECK_MSG(dw <= 1e-5 * qn + 1e-12, "region %d: %s w differs from lemke by %g", r,
                ipc_lcp_solver_name(solvers[s]), dw);
    }
    ++checked;
    free(wref);
    free(z);
    free(wz);
    free(Md);
    free(qd);
    ipc_lcp_csr_free(&A);
    ipc_mm_free(&M);
    ipc_mm_free(&q);
    remove(pm);
    remove(pq);
  }
  CHECK(checked == regions && regions > 0);
  CHECK_MSG(largest >= 4, "largest dumped LCP has %d unknowns", largest);
  ipc_lcp_world_destroy(w);
  scene_free(&sc);
  /* remove every other dump */
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
}

/* a cube on the ground with gravity tilted by theta about z (the same as a plane tilted by
   theta); returns the downhill acceleration of the centre of mass over the second half and,
   in disp, the largest downhill displacement of a vertex on the ground over the whole run
   and (disp_half) over the second half (the centre of mass also moves by the block's
   elastic shear) */
static double slope(ipcc_lcp_friction f, ipcc_lcp_coupling cpl, double mu, double theta_deg,
                    double *disp, double *disp_half) {
  static const double at[1][3] = {{0, 0, 0}};
  const double h = 0.002, T = 0.4, g = 9.81, th = theta_deg * pi / 180;
  ipcc_scene_def sc = scene_cubes(1, at, 0.2, 1e8, mu, h);
  sc.gravity[0] = g * sin(th);
  sc.gravity[1] = -g * cos(th);
  ipcc_lcp_world_def d = lumped_def();
  d.friction = f;
  d.coupling = cpl;
  d.solver = f == IPCC_LCP_FRICTION_PYRAMID ? IPC_LCP_LEMKE : IPC_LCP_PGS;
  d.tol = 1e-10;
  d.max_iter = 5000;
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(&sc, &d, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return NAN;
  int n = ipc_lcp_world_vertex_count(w), steps = (int)(T / h + 0.5);
  ipcc_lcp_step_stats st;
  double v_half = 0, min_d = INFINITY;
  double *x0 = malloc(sizeof(double) * 3 * (size_t)n), *xh = malloc(sizeof(double) * 3 * (size_t)n);
  memcpy(x0, ipc_lcp_world_positions(w), sizeof(double) * 3 * (size_t)n);
  for (int k = 0; k < steps; ++k) {
    CHECK(ipc_lcp_world_step(w, &st, &err) == IPCC_OK);
    if (st.min_distance < min_d) min_d = st.min_distance;
    if (k + 1 == steps / 2) {
      v_half = 0;
      for (int i = 0; i < n; ++i) v_half += ipc_lcp_world_velocities(w)[3 * i] / n;
      memcpy(xh, ipc_lcp_world_positions(w), sizeof(double) * 3 * (size_t)n);
    }
  }
  double v_end = 0;
  *disp = *disp_half = 0;
  for (int i = 0; i < n; ++i) {
    v_end += ipc_lcp_world_velocities(w)[3 * i] / n;
    double dx = ipc_lcp_world_positions(w)[3 * i] - x0[3 * i];
    double dh = ipc_lcp_world_positions(w)[3 * i] - xh[3 * i];
    if (x0[3 * i + 1] < 1e-12 && fabs(dx) > fabs(*disp)) *disp = dx;
    if (x0[3 * i + 1] < 1e-12 && fabs(dh) > fabs(*disp_half)) *disp_half = dh;
  }
  free(x0);
  free(xh);
  CHECK_MSG(min_d > -1e-4, "slope: penetration %g m", -min_d);
  ipc_lcp_world_destroy(w);
  scene_free(&sc);
  return (v_end - v_half) / (T - (steps / 2) * h);
}

static void test_inclined_plane(void) {
  const double mu = 0.4, g = 9.81, crit = atan(mu) * 180 / pi;
  const ipcc_lcp_friction fs[] = {IPCC_LCP_FRICTION_CONE, IPCC_LCP_FRICTION_BOX,
                                  IPCC_LCP_FRICTION_PYRAMID};
  const char *names[] = {"cone", "box", "pyramid"};
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 2; ++c) {
      ipcc_lcp_coupling cpl = c ? IPCC_LCP_COUPLED : IPCC_LCP_LUMPED;
      double disp, dh, a;
      /* sticks: no slip once loaded; the coupled model also has no start-up slip (the lumped
         one slips a little in the first steps: its impulses do not reach the upper vertices
         within the step, docs/lcp-mode.md) */
      a = slope(fs[k], cpl, mu, crit - 1, &disp, &dh);
      CHECK_MSG(fabs(dh) < 1e-7 && fabs(a) < 1e-3 && fabs(disp) < (c ? 1e-5 : 1e-3),
                "%s/%s: sticks: slipped %g m (%g m in the second half), a %g", names[k],
                c ? "coupled" : "lumped", disp, dh, a);
      double stick_disp = disp, stick_dh = dh;
      double th = (crit + 1) * pi / 180;
      double expect = g * (sin(th) - mu * cos(th));
      a = slope(fs[k], cpl, mu, crit + 1, &disp, &dh);
      CHECK_MSG(disp > 0.5 * 0.5 * expect * 0.16 && fabs(a - expect) <= 0.02 * expect,
                "%s/%s: slides: a %g, expected %g, moved %g", names[k], c ? "coupled" : "lumped", a,
                expect, disp);
      printf(
          "slope %-7s %-7s: stick slip %.3g m (second half %.3g m); slide a = %.5g m/s^2, "
          "expected %.5g (%.2f%%)\n",
          names[k], c ? "coupled" : "lumped", stick_disp, stick_dh, a, expect,
          100 * (a - expect) / expect);
    }
  }
}

/* a block resting on the ground for 1 s does not sink */
static void test_resting(void) {
  static const double at[1][3] = {{0, 0, 0}};
  ipcc_scene_def sc = scene_cubes(1, at, 0.2, 1e6, 0.5, 0.005);
  ipcc_lcp_world_def d = lumped_def();
  d.friction = IPCC_LCP_FRICTION_CONE;
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(&sc, &d, &err);
  ipcc_lcp_step_stats st;
  double min_d = INFINITY, ymin = INFINITY;
  for (int k = 0; k < 200; ++k) {
    CHECK(ipc_lcp_world_step(w, &st, &err) == IPCC_OK);
    if (st.min_distance < min_d) min_d = st.min_distance;
  }
  const double *x = ipc_lcp_world_positions(w);
  for (int i = 0; i < ipc_lcp_world_vertex_count(w); ++i) ymin = fmin(ymin, x[3 * i + 1]);
  CHECK_MSG(min_d > -1e-6 && ymin > -1e-6, "resting block sank: min gap %g, lowest %g", min_d,
            ymin);
  CHECK(st.contacts == 4 && st.regions == 4);
  ipc_lcp_world_destroy(w);
  scene_free(&sc);
}

/* option parsing names the key */
static void test_options(void) {
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  ipcc_error err;
  CHECK(d.coupling == IPCC_LCP_COUPLED); /* the stable one on the shipped scenes */
  CHECK(ipcc_lcp_world_def_set(&d, "solver", "amgs", &err) == IPCC_OK && d.solver == IPC_LCP_AMGS);
  CHECK(ipcc_lcp_world_def_set(&d, "friction", "pyramid", &err) == IPCC_OK);
  CHECK(ipcc_lcp_world_def_set(&d, "friction", "cones", &err) == IPCC_ERR_INPUT &&
        strstr(err.msg, "lcp.friction"));
  CHECK(ipcc_lcp_world_def_set(&d, "omega", "2.5", &err) == IPCC_ERR_INPUT);
  CHECK(ipcc_lcp_world_def_set(&d, "colour", "red", &err) == IPCC_ERR_INPUT &&
        strstr(err.msg, "lcp.colour"));
  /* a friction problem the solver cannot take is refused at create */
  static const double at[1][3] = {{0, 0, 0}};
  ipcc_scene_def sc = scene_cubes(1, at, 0.2, 1e6, 0.5, 0.005);
  d = ipcc_default_lcp_world_def();
  d.friction = IPCC_LCP_FRICTION_CONE;
  d.solver = IPC_LCP_AMGS;
  CHECK(ipc_lcp_world_create(&sc, &d, &err) == NULL && strstr(err.msg, "lcp.solver"));
  scene_free(&sc);
  double n[3] = {0.3, -0.8, 0.52}, t1[3], t2[3];
  double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int k = 0; k < 3; ++k) n[k] /= l;
  ipc_lcp_tangents(n, t1, t2);
  CHECK_NEAR(t1[0] * n[0] + t1[1] * n[1] + t1[2] * n[2], 0, 1e-15);
  CHECK_NEAR(t2[0] * n[0] + t2[1] * n[1] + t2[2] * n[2], 0, 1e-15);
  CHECK_NEAR(t1[0] * t2[0] + t1[1] * t2[1] + t1[2] * t2[2], 0, 1e-15);
  CHECK_NEAR(t2[0] * t2[0] + t2[1] * t2[1] + t2[2] * t2[2], 1, 1e-15);
}

/* scenes/two_cubes.json (1 m cubes, E = 1e5 Pa, h = 0.025 s), upper cube above the lower
   one or shifted sideways: body-body contact holds. The penetration (smallest signed gap of
   the contacts) stays below 0.2 % of the cube size; shifted, every frame is
   intersection-free (aligned, the two top/bottom diagonals lie in one vertical plane and an
   edge grazes a triangle by ~1e-4 m in one frame); aligned, the upper cube stays above the
   lower one (shifted and frictionless, it slides off) */
static void test_two_cubes(void) {
  static const double shift[2][3] = {{0, 0, 0}, {0.4, 0, 0.3}};
  for (int k = 0; k < 2; ++k) {
    ipcc_scene_def sc;
    ipcc_error err;
    CHECK(ipcc_scene_load("scenes/two_cubes.json", &sc, &err) == IPCC_OK);
    for (int d = 0; d < 3; ++d) sc.bodies[0].translation[d] += shift[k][d];
    ipcc_lcp_world_def def = lumped_def();
    ipc_lcp_world *w = ipc_lcp_world_create(&sc, &def, &err);
    CHECK(w != NULL);
    if (!w) return;
    int steps = ipc_lcp_world_scene_steps(w), bad = 0, contacts = 0;
    double pen = 0;
    char what[256] = "";
    for (int s = 0; s < steps; ++s) {
      ipcc_lcp_step_stats st;
      CHECK(ipc_lcp_world_step(w, &st, &err) == IPCC_OK);
      if (isfinite(st.min_distance)) pen = fmax(pen, -st.min_distance);
      if (st.contacts > contacts) contacts = st.contacts;
      if (!bad && !ipc_lcp_world_intersection_free(w, what, sizeof what)) bad = s + 1;
    }
    const double *x = ipc_lcp_world_positions(w);
    const ipc_model *m = ipc_lcp_world_model(w);
    double cy[2] = {0, 0}, cnt[2] = {0, 0};
    for (int i = 0; i < m->nverts; ++i) {
      int b = m->surface.vert_body[i];
      cy[b] += x[3 * i + 1];
      cnt[b] += 1;
    }
    cy[0] /= cnt[0];
    cy[1] /= cnt[1];
    printf(
        "two cubes, shift %g %g: %d steps, %d contacts max, penetration %.3g m, first "
        "intersecting step %d, centroids y %.3f (upper) %.3f (lower)\n",
        shift[k][0], shift[k][2], steps, contacts, pen, bad, cy[0], cy[1]);
    CHECK_MSG(pen < 2e-3, "shift %g: penetration %g m", shift[k][0], pen);
    if (k == 1) CHECK_MSG(!bad, "shift %g: step %d intersects: %s", shift[k][0], bad, what);
    if (k == 0) CHECK_MSG(cy[0] > cy[1] + 0.3, "upper centroid %g, lower %g", cy[0], cy[1]);
    ipc_lcp_world_destroy(w);
    ipcc_scene_def_free(&sc);
  }
}

/* the unconstrained velocity with a factor kept across steps (preconditioned CG) equals the
   one factored every step: a soft torus spinning freely (its stiffness turns with it) */
static void test_factor_reuse(void) {
  ipcc_scene_def sc = ipcc_default_scene_def();
  sc.time_step = 0.01;
  memset(sc.gravity, 0, sizeof sc.gravity);
  sc.nbodies = 1;
  sc.bodies = calloc(1, sizeof *sc.bodies);
  sc.bodies[0] = ipcc_default_body_def();
  sc.bodies[0].mesh = (char *)"scenes/meshes/torus.msh";
  sc.bodies[0].young = 1e8;
  sc.bodies[0].poisson = 0.3;
  sc.bodies[0].angular_velocity[1] = 0.05;
  sc.bodies[0].angular_velocity[0] = 0.02;
  ipcc_lcp_world_def d = lumped_def();
  ipcc_error err;
  ipc_lcp_world *a = ipc_lcp_world_create(&sc, &d, &err);
  ipc_lcp_world *b = ipc_lcp_world_create(&sc, &d, &err);
  CHECK(a && b);
  if (!a || !b) return;
  b->always_factor = 1;
  a->pcg_budget = 10; /* the torus's own factor is so cheap that the automatic budget is 2 */
  int fa = 0, fb = 0, iters = 0;
  enum { STEPS = 100 };
  for (int k = 0; k < STEPS; ++k) {
    ipcc_lcp_step_stats sa, sb;
    CHECK(ipc_lcp_world_step(a, &sa, &err) == IPCC_OK);
    CHECK(ipc_lcp_world_step(b, &sb, &err) == IPCC_OK);
    fa += sa.refactored;
    fb += sb.refactored;
    iters += sa.velocity_iterations;
    CHECK(sa.velocity_iterations <= 10 && sb.velocity_iterations == 0);
  }
  const double *xa = ipc_lcp_world_positions(a), *xb = ipc_lcp_world_positions(b);
  double diff = 0;
  for (int i = 0; i < 3 * ipc_lcp_world_vertex_count(a); ++i)
    diff = fmax(diff, fabs(xa[i] - xb[i]));
  printf("factor reuse: %d factorizations (every step: %d), %d CG iterations, |dx| %.3g m\n", fa,
         fb, iters, diff);
  CHECK(fb == STEPS);
  /* the spin turns the stiffness far enough to need several refreshes, not one per step */
  CHECK_MSG(fa > 1 && fa < STEPS / 2, "%d factorizations", fa);
  CHECK_MSG(diff < 1e-9, "reused vs fresh factor: positions differ by %g m", diff);
  ipc_lcp_world_destroy(a);
  ipc_lcp_world_destroy(b);
  free(sc.bodies);
}

/* coupled mode with A factored body by body equals the whole factor; two near-rigid balls of
   the stacking column (light and stiff for the step: lumped contact inverts them,
   docs/lcp-mode.md) settle on the ground without gaining energy */
static void test_body_factors(void) {
  ipcc_scene_def sc = ipcc_default_scene_def();
  sc.time_step = 0.005;
  sc.nbodies = 2;
  sc.bodies = calloc(2, sizeof *sc.bodies);
  for (int b = 0; b < 2; ++b) {
    sc.bodies[b] = ipcc_default_body_def();
    sc.bodies[b].mesh = (char *)"scenes/meshes/ball_coarse.msh";
    sc.bodies[b].scale[0] = sc.bodies[b].scale[1] = sc.bodies[b].scale[2] = 0.36;
    sc.bodies[b].translation[1] = 0.181 + 0.361 * b;
    sc.bodies[b].density = 43.78508174791257;
    sc.bodies[b].young = 1e8;
    sc.bodies[b].poisson = 0.3;
  }
  sc.nplanes = 1;
  sc.planes = calloc(1, sizeof *sc.planes);
  sc.planes[0].normal[1] = 1;
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  d.coupling = IPCC_LCP_COUPLED;
  d.restitution = 0.2;
  ipcc_error err;
  ipc_lcp_world *a = ipc_lcp_world_create(&sc, &d, &err);
  ipc_lcp_world *b = ipc_lcp_world_create(&sc, &d, &err);
  CHECK(a && b);
  if (!a || !b) return;
  b->whole_factor = 1;
  /* this stack amplifies any difference about 3.5x per step (a 1e-12 m/s nudge of one vertex
     is 1e-8 m after 15 steps), and the two factors round differently from a step that
     depends on the OpenBLAS kernel (Sandybridge: step 1, 8.5e-9 m after 15 steps); compare
     at the first multi-vertex contacts (step 9), where that is ~1e-11 m, still far below
     what a wrong factor gives */
  enum { STEPS = 200, SAME = 9 };
  double e0 = 0, emax = -INFINITY, eend = 0, diff = 0;
  int used = 0, cmax = 0, csame = 0;
  for (int k = 0; k < STEPS; ++k) {
    ipcc_lcp_step_stats sa, sb;
    int ok = ipc_lcp_world_step(a, &sa, &err) == IPCC_OK;
    CHECK_MSG(ok, "step %d: %s", k + 1, err.msg);
    if (!ok) break;
    used += a->use_bf;
    if (k < SAME) {
      CHECK(ipc_lcp_world_step(b, &sb, &err) == IPCC_OK);
      CHECK(!b->use_bf);
      if (k == SAME - 1) {
        const double *xa = ipc_lcp_world_positions(a), *xb = ipc_lcp_world_positions(b);
        for (int i = 0; i < 3 * ipc_lcp_world_vertex_count(a); ++i)
          diff = fmax(diff, fabs(xa[i] - xb[i]));
        csame = sa.contacts;
      }
    }
    if (k == 0) e0 = sa.energy;
    emax = fmax(emax, sa.energy);
    eend = sa.energy;
    if (sa.contacts > cmax) cmax = sa.contacts;
  }
  const double *xa = ipc_lcp_world_positions(a);
  double ymin = INFINITY;
  for (int i = 0; i < ipc_lcp_world_vertex_count(a); ++i) ymin = fmin(ymin, xa[3 * i + 1]);
  printf(
      "body factors: %d of %d steps, %d contacts max, |dx| vs whole factor after %d steps "
      "(%d contacts) %.3g m, energy %.4f -> max %.4f, end %.4f J, lowest vertex %.3g m\n",
      used, STEPS, cmax, SAME, csame, diff, e0, emax, eend, ymin);
  CHECK(used == STEPS);
  CHECK(csame > 2);
  CHECK_MSG(diff < 1e-9, "per-body vs whole factor: positions differ by %g m", diff);
  CHECK_MSG(emax <= e0 * (1 + 1e-3) && eend < e0, "energy %g -> max %g", e0, emax);
  CHECK_MSG(ymin > -1e-4, "lowest vertex %g m", ymin);
  ipc_lcp_world_destroy(a);
  ipc_lcp_world_destroy(b);
  free(sc.bodies);
  free(sc.planes);
}

/* the default contact gap follows the meshes, not the extent of the scene; an explicit gap
   is kept */
static void test_default_gap(void) {
  double gap[2];
  for (int k = 0; k < 2; ++k) {
    int nb = k == 0 ? 1 : 4;
    ipcc_scene_def sc = ipcc_default_scene_def();
    sc.nbodies = nb;
    sc.bodies = calloc((size_t)nb, sizeof *sc.bodies);
    for (int b = 0; b < nb; ++b) {
      sc.bodies[b] = ipcc_default_body_def();
      sc.bodies[b].mesh = (char *)"scenes/meshes/torus.msh";
      sc.bodies[b].translation[0] = 10.0 * b; /* 4 tori over 30 m */
    }
    ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
    ipcc_error err;
    ipc_lcp_world *w = ipc_lcp_world_create(&sc, &d, &err);
    CHECK(w != NULL);
    if (!w) return;
    gap[k] = ipc_lcp_world_gap(w);
    CHECK(gap[k] > 0 && gap[k] <= 1e-2 * w->m.bbox_diag);
    ipc_lcp_world_destroy(w);
    d.contact_gap = 0.0123;
    w = ipc_lcp_world_create(&sc, &d, &err);
    CHECK(w && ipc_lcp_world_gap(w) == 0.0123);
    ipc_lcp_world_destroy(w);
    free(sc.bodies);
  }
  /* torus of outer diameter 1 (200 nodes): edges of ~0.1 m */
  CHECK_MSG(gap[0] > 0.003 && gap[0] < 0.03, "gap %g m", gap[0]);
  CHECK_MSG(fabs(gap[1] - gap[0]) < 1e-9 * gap[0], "one torus: gap %g m, four over 30 m: %g m",
            gap[0], gap[1]);
}

/* the scenes of the paper comparisons (tools/gen_sphere_scenes.py; pool2 is pool with other
   masses) run a few LCP steps with their own options, and the region split equals the
   unsplit solve on them */
static void test_paper_scenes(void) {
  static const char *const scenes[] = {"scenes/stacking_spheres.json", "scenes/pool_spheres.json",
                                       "scenes/bucket_spheres.json", "scenes/skittles_balls.json"};
  for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; ++k) {
    ipcc_scene_def sc;
    ipcc_error err;
    ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
    CHECK(ipcc_scene_load(scenes[k], &sc, &err) == IPCC_OK);
    CHECK(ipcc_lcp_scene_load(scenes[k], &d, NULL, &err) == IPCC_OK);
    d.tol = 1e-12;
    d.max_iter = 20000;
    ipc_lcp_world *a = ipc_lcp_world_create(&sc, &d, &err);
    d.split_regions = 0;
    ipc_lcp_world *b = ipc_lcp_world_create(&sc, &d, &err);
    CHECK_MSG(a && b, "%s: %s", scenes[k], err.msg);
    if (!a || !b) return;
    int contacts = 0, regions = 0;
    for (int s = 0; s < 2; ++s) {
      ipcc_lcp_step_stats sa, sb;
      CHECK_MSG(ipc_lcp_world_step(a, &sa, &err) == IPCC_OK, "%s: %s", scenes[k], err.msg);
      CHECK_MSG(ipc_lcp_world_step(b, &sb, &err) == IPCC_OK, "%s: %s", scenes[k], err.msg);
      CHECK(sa.contacts == sb.contacts && sb.regions <= 1);
      if (sa.contacts > contacts) contacts = sa.contacts;
      if (sa.regions > regions) regions = sa.regions;
    }
    const double *xa = ipc_lcp_world_positions(a), *xb = ipc_lcp_world_positions(b);
    double diff = 0;
    for (int i = 0; i < 3 * ipc_lcp_world_vertex_count(a); ++i)
      diff = fmax(diff, fabs(xa[i] - xb[i]));
    printf("%s: 2 steps, %d contacts, %d regions, split vs unsplit %.3g m\n", scenes[k], contacts,
           regions, diff);
    CHECK_MSG(diff < 1e-9, "%s: split vs unsplit positions differ by %g m", scenes[k], diff);
    CHECK(ipc_lcp_world_intersection_free(a, NULL, 0));
    ipc_lcp_world_destroy(a);
    ipc_lcp_world_destroy(b);
    ipcc_scene_def_free(&sc);
  }
}

/* --dump-lcp writes each region's LCP; a write that fails stops the step with an error
   naming the file instead of losing the dump silently */
static void test_dump_errors(void) {
  ipcc_scene_def sc = stack_scene(0.002);
  ipcc_lcp_world_def d = lumped_def();
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(&sc, &d, &err);
  CHECK(w != NULL);
  if (!w) {
    scene_free(&sc);
    return;
  }
  ipc_lcp_world_set_dump_dir(w, "tests/data/no_such_folder/dump");
  ipcc_lcp_step_stats st;
  ipcc_status s = IPCC_OK;
  int k = 0;
  for (; k < 40 && s == IPCC_OK; ++k) s = ipc_lcp_world_step(w, &st, &err);
  CHECK_MSG(s == IPCC_ERR_INPUT, "status %d after %d steps", (int)s, k);
  CHECK(s != IPCC_ERR_INPUT || strstr(err.msg, "no_such_folder/dump/step") != NULL);
  ipc_lcp_world_destroy(w);
  scene_free(&sc);
}

int main(void) {
  test_dump_errors();
  test_regions();
  test_paper_scenes();
  test_default_gap();
  test_factor_reuse();
  test_body_factors();
  test_cone_residual();
  test_options();
  test_split_equals_unsplit();
  test_solvers_agree();
  test_inclined_plane();
  test_resting();
  test_two_cubes();
  TEST_MAIN_END();
}
