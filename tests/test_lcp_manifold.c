/* contact manifolds of the LCP mode (src/lcp/manifold.c, activation.c, projection.c):
   - a reduction keeps at most four points per pair (and normal cluster), always the deepest,
     and only points of the set, in key order; on a flat face the four corners
   - an affine box resting on a plane gets its four corners, stays where it is (no sinking
     past the tolerance, no drift, no turn) over many steps, and the warm start finds every
     contact of one step in the next
   - lcp.manifold "full" solves every point: the set of the detection before manifolds
   - a deformable box keeps points spread over its base (one manifold per patch cell)
   - a penetration found after a step is projected out without a velocity
   - stacked cubes: at most four points between two bodies */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid_cube.h"
#include "lcp/lcp_world.h"
#include "lcp/lcp_world_internal.h"
#include "lcp/manifold.h"
#include "test.h"

static char mesh[64];

/* nb unit grid cubes (affine unless young > 0) at the given translations over the ground
   y = 0, friction 0.5, step h */
static ipc_lcp_world *world(int nb, const double (*at)[3], const double *young, double h,
                            ipcc_lcp_manifold mf, double gravity) {
  ipcc_scene_def d = ipcc_default_scene_def();
  d.time_step = h;
  d.gravity[1] = -gravity;
  d.nbodies = nb;
  d.bodies = calloc((size_t)nb, sizeof *d.bodies);
  for (int b = 0; b < nb; ++b) {
    ipcc_body_def *bd = &d.bodies[b];
    *bd = ipcc_default_body_def();
    bd->mesh = mesh;
    memcpy(bd->translation, at[b], sizeof bd->translation);
    bd->affine = young[b] <= 0;
    bd->young = young[b] > 0 ? young[b] : 1e8;
    bd->poisson = 0.3;
    bd->friction = 0.5;
  }
  d.nplanes = 1;
  d.planes = calloc(1, sizeof *d.planes);
  d.planes[0].normal[1] = 1;
  d.planes[0].friction = 0.5;
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  ld.friction = IPCC_LCP_FRICTION_CONE;
  ld.manifold = mf;
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(&d, &ld, &err);
  CHECK_MSG(w != NULL, "world: %s", err.msg);
  free(d.bodies);
  free(d.planes);
  return w;
}

static int key_eq(const ipc_lcp_contact *a, const ipc_lcp_contact *b) {
  return !memcmp(a->key, b->key, sizeof a->key);
}

static int key_less(const unsigned long long *a, const unsigned long long *b) {
  for (int k = 0; k < 3; ++k)
    if (a[k] != b[k]) return a[k] < b[k];
  return 0;
}

/* the affine cube resting on the plane: its 25 base vertices touch it; reduced, the four
   corners; with the gaps changed at random, at most four, the deepest among them, a subset
   in key order */
static void test_reduce(void) {
  static const double at[1][3] = {{0, 0, 0}};
  const double young[1] = {0};
  ipc_lcp_world *w = world(1, at, young, 0.01, IPCC_LCP_MANIFOLD_REDUCED, 9.81);
  if (!w) return;
  int base = 0;
  for (size_t i = 0; i < w->contacts.n; ++i) base += ipc_lcp_contact_plane(&w->contacts.c[i]) == 0;
  CHECK_MSG(base == (GRID + 1) * (GRID + 1), "%d base contacts", base);
  CHECK(w->active == &w->manifold && w->manifold.n == 4 && w->manifolds == 1);
  for (size_t i = 0; i < w->manifold.n; ++i) {
    const double *p = w->s.x + 3 * (size_t)w->manifold.c[i].vert[0];
    CHECK_MSG((p[0] == 0 || p[0] == 1) && (p[2] == 0 || p[2] == 1) && p[1] == 0,
              "kept (%g %g %g), not a corner", p[0], p[1], p[2]);
  }
  ipc_lcp_contact_set all = {0}, red = {0};
  all.c = malloc(sizeof *all.c * w->contacts.n);
  all.n = all.cap = w->contacts.n;
  srand(7);
  for (int trial = 0; trial < 200; ++trial) {
    memcpy(all.c, w->contacts.c, sizeof *all.c * all.n);
    size_t deepest = 0;
    for (size_t i = 0; i < all.n; ++i) {
      all.c[i].phi = w->gap * ((double)rand() / RAND_MAX - 0.2); /* some penetrating */
      if (all.c[i].phi < all.c[deepest].phi) deepest = i;
    }
    size_t nm = ipc_lcp_manifold_reduce(&red, &all, &w->m, w->s.x, w->patch_cell, 10 * w->gap, 0.0);
    CHECK(nm == 1 && red.n >= 1 && red.n <= IPC_LCP_MANIFOLD_POINTS);
    int has_deepest = 0;
    for (size_t i = 0; i < red.n; ++i) {
      has_deepest |= key_eq(&red.c[i], &all.c[deepest]);
      if (i > 0) CHECK(key_less(red.c[i - 1].key, red.c[i].key));
      int in = 0;
      for (size_t j = 0; j < all.n; ++j) in |= !memcmp(&red.c[i], &all.c[j], sizeof red.c[i]);
      CHECK(in);
    }
    CHECK_MSG(has_deepest, "trial %d: the deepest point was dropped", trial);
    /* within the band of the deepest only: a band of 0 keeps it alone */
    ipc_lcp_manifold_reduce(&red, &all, &w->m, w->s.x, w->patch_cell, 0.0, 0.0);
    CHECK(red.n == 1 && key_eq(&red.c[0], &all.c[deepest]));
  }
  ipc_lcp_contact_set_free(&all);
  ipc_lcp_contact_set_free(&red);
  ipc_lcp_world_destroy(w);
}

/* the affine cube resting on the plane for 300 steps of 10 ms: four corner contacts every
   step with the keys of the step before (every warm start found), few sweeps once at rest,
   no sinking past the projection's tolerance, no drift or turn */
static void test_resting_box(void) {
  static const double at[1][3] = {{0, 0, 0}};
  const double young[1] = {0};
  ipc_lcp_world *w = world(1, at, young, 0.01, IPCC_LCP_MANIFOLD_REDUCED, 9.81);
  if (!w) return;
  double x0[3 * 8], gap = w->gap, lowest = INFINITY, drift = 0;
  int corners[8], nc = 0;
  for (int i = 0; i < w->m.nverts && nc < 8; ++i) {
    const double *p = w->s.x + 3 * i;
    if ((p[0] == 0 || p[0] == 1) && (p[1] == 0 || p[1] == 1) && (p[2] == 0 || p[2] == 1)) {
      memcpy(x0 + 3 * nc, p, 3 * sizeof(double));
      corners[nc++] = i;
    }
  }
  CHECK(nc == 8);
  unsigned long long keys[4][3];
  long late_sweeps = 0;
  for (int k = 1; k <= 300; ++k) {
    ipcc_lcp_step_stats st;
    ipcc_error err;
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      CHECK_MSG(0, "step %d: %s", k, err.msg);
      break;
    }
    CHECK_MSG(st.contacts == 4 && w->prev_n == 4, "step %d: %d contacts solved", k, st.contacts);
    if (k > 1 && w->prev_n == 4)
      CHECK_MSG(!memcmp(keys, w->prev_key, sizeof keys), "step %d: the contacts changed", k);
    if (w->prev_n == 4) memcpy(keys, w->prev_key, sizeof keys);
    if (k > 50) late_sweeps += st.lcp_iterations;
    if (st.min_distance < lowest) lowest = st.min_distance;
    for (int c = 0; c < 8; ++c)
      for (int d = 0; d < 3; ++d)
        drift = fmax(drift, fabs(w->s.x[3 * corners[c] + d] - x0[3 * c + d]));
  }
  for (size_t i = 0; i < w->manifold.n; ++i) {
    const double *p = w->s.x + 3 * (size_t)w->manifold.c[i].vert[0];
    CHECK(fabs(p[0] - round(p[0])) < 1e-6 && fabs(p[2] - round(p[2])) < 1e-6);
  }
  printf(
      "resting affine box: 4 corner contacts, lowest gap %.3g m (tolerance %.3g), corners "
      "moved by at most %.3g m, %.2f sweeps per step after step 50\n",
      lowest, IPC_LCP_PROJECT_TOL * gap, drift, late_sweeps / 250.0);
  CHECK(lowest > -IPC_LCP_PROJECT_TOL * gap);
  CHECK_MSG(drift < 1e-6, "the box moved %g m", drift);
  CHECK_MSG(late_sweeps <= 250 * 2 * IPC_LCP_CHECK_EVERY, "%ld sweeps in 250 steps at rest",
            late_sweeps);
  ipc_lcp_world_destroy(w);
}

/* "full" solves every point the detection finds, and that detection is the one before
   manifolds: the general broad phase and every contact within the gap and reach */
static void test_full(void) {
  static const double at[2][3] = {{0, 0, 0}, {0.3, 1.02, 0.2}};
  const double young[2] = {0, 0};
  ipc_lcp_world *w = world(2, at, young, 0.01, IPCC_LCP_MANIFOLD_FULL, 9.81);
  if (!w) return;
  for (int k = 0; k < 8; ++k) {
    ipcc_lcp_step_stats st;
    ipcc_error err;
    CHECK(ipc_lcp_world_step(w, &st, &err) == IPCC_OK);
    CHECK(w->active == &w->contacts && st.contacts_after == (int)w->contacts.n);
  }
  /* the detection again, as before manifolds */
  const double *g = w->m.params.gravity;
  double accel = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]), vmax = 0;
  for (int i = 0; i < w->m.nverts; ++i)
    vmax = fmax(vmax, sqrt(w->s.v[3 * i] * w->s.v[3 * i] + w->s.v[3 * i + 1] * w->s.v[3 * i + 1] +
                           w->s.v[3 * i + 2] * w->s.v[3 * i + 2]));
  ipc_candidates cand = {0};
  ipc_lcp_contact_set cs = {0};
  ipc_broad_phase(&cand, &w->m.surface, w->s.x, NULL,
                  w->gap + 2 * w->h * (vmax + 2 * w->h * accel));
  ipc_lcp_contacts_collect(&cs, &w->m, &cand, w->s.x, w->gap, w->s.v, w->h, accel,
                           &w->prev_contacts, 0);
  CHECK_MSG(cs.n == w->contacts.n && cs.n > 4, "%zu against %zu contacts", cs.n, w->contacts.n);
  CHECK(cs.n == w->contacts.n && !memcmp(cs.c, w->contacts.c, cs.n * sizeof *cs.c));
  printf("full: %zu contacts solved, the detection's set\n", w->contacts.n);
  ipc_lcp_contact_set_free(&cs);
  ipc_candidates_free(&cand);
  ipc_lcp_world_destroy(w);
}

/* a soft cube (E 1e5 Pa) settling on the plane: its base contacts form a manifold per patch
   cell, so the points stay spread (more than four, at most four per cell) and hold it */
static void test_deformable(void) {
  static const double at[1][3] = {{0, 0.001, 0}};
  const double young[1] = {1e5};
  ipc_lcp_world *w = world(1, at, young, 0.005, IPCC_LCP_MANIFOLD_REDUCED, 9.81);
  if (!w) return;
  double lowest = INFINITY;
  for (int k = 0; k < 100; ++k) {
    ipcc_lcp_step_stats st;
    ipcc_error err;
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      CHECK_MSG(0, "step %d: %s", k + 1, err.msg);
      break;
    }
    if (k > 10) lowest = fmin(lowest, st.min_distance);
  }
  double cell = w->patch_cell;
  int cells[16][3], count[16] = {0}, ncell = 0;
  for (size_t i = 0; i < w->manifold.n; ++i) {
    const ipc_lcp_contact *c = &w->manifold.c[i];
    if (ipc_lcp_contact_plane(c) != 0) continue;
    int q[3];
    for (int d = 0; d < 3; ++d) q[d] = d == 1 ? 0 : (int)floor(w->s.x[3 * c->vert[0] + d] / cell);
    int j = 0;
    while (j < ncell && memcmp(cells[j], q, sizeof q)) ++j;
    if (j == ncell && ncell < 16) memcpy(cells[ncell++], q, sizeof q);
    if (j < 16) count[j]++;
  }
  int most = 0, total = 0;
  for (int j = 0; j < ncell; ++j) most = count[j] > most ? count[j] : most, total += count[j];
  printf(
      "soft cube: %d base points in %d patch cells of %.3g m (at most %d in one), lowest gap "
      "%.3g m\n",
      total, ncell, cell, most, lowest);
  CHECK(cell > 0 && ncell >= 2 && total > 4 && most <= IPC_LCP_MANIFOLD_POINTS);
  CHECK(lowest > -IPC_LCP_PROJECT_TOL * w->gap);
  ipc_lcp_world_destroy(w);
}

/* the cube moved 1 mm into the plane between two steps (no gravity, at rest): the step's
   solve sees the old contacts, the detection after it the penetration, which the projection
   takes out without giving the cube a velocity (Baumgarte's term would push it out at a
   fifth per step, with a velocity) */
static void test_projection(void) {
  static const double at[1][3] = {{0, 0.0001, 0}};
  const double young[1] = {0};
  ipc_lcp_world *w = world(1, at, young, 0.01, IPCC_LCP_MANIFOLD_REDUCED, 0);
  if (!w) return;
  w->s.q[1] -= 0.0011; /* p_y: the base 1 mm under the plane */
  ipc_lcp_affine_map(w);
  ipcc_lcp_step_stats st;
  ipcc_error err;
  CHECK(ipc_lcp_world_step(w, &st, &err) == IPCC_OK);
  double vmax = 0, lowest = INFINITY;
  for (int i = 0; i < w->m.nverts; ++i) {
    for (int d = 0; d < 3; ++d) vmax = fmax(vmax, fabs(w->s.v[3 * i + d]));
    lowest = fmin(lowest, w->s.x[3 * i + 1]);
  }
  printf(
      "projection: base at %.3g m after the step (was -1e-3), speed %.3g m/s, min distance "
      "%.3g m\n",
      lowest, vmax, st.min_distance);
  CHECK(lowest > -IPC_LCP_PROJECT_TOL * w->gap && st.min_distance > -IPC_LCP_PROJECT_TOL * w->gap);
  CHECK(lowest < 1e-6); /* out, not flung away */
  CHECK(vmax < 1e-12);
  ipc_lcp_world_destroy(w);
}

/* two affine cubes stacked and a third beside the lower one: between two bodies (or a body
   and the plane) at most four points are solved, and the stack rests */
static void test_stack(void) {
  static const double at[3][3] = {{0, 0, 0}, {0.1, 1.0005, 0.2}, {1.0005, 0, 0}};
  const double young[3] = {0, 0, 0};
  ipc_lcp_world *w = world(3, at, young, 0.01, IPCC_LCP_MANIFOLD_REDUCED, 9.81);
  if (!w) return;
  int worst = 0;
  for (int k = 0; k < 100; ++k) {
    ipcc_lcp_step_stats st;
    ipcc_error err;
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      CHECK_MSG(0, "step %d: %s", k + 1, err.msg);
      break;
    }
    const ipc_lcp_contact_set *cs = &w->manifold;
    for (size_t i = 0; i < cs->n; ++i) {
      int a, b, n = 0;
      ipc_lcp_contact_sides(&cs->c[i], &w->m, &a, &b);
      for (size_t j = 0; j < cs->n; ++j) {
        int a2, b2;
        ipc_lcp_contact_sides(&cs->c[j], &w->m, &a2, &b2);
        n += (a2 == a && b2 == b) || (a2 == b && b2 == a);
      }
      worst = n > worst ? n : worst;
    }
  }
  double c1 = 0;
  for (int i = w->m.bodies[1].v0; i < w->m.bodies[1].v0 + w->m.bodies[1].nv; ++i)
    c1 = fmax(c1, w->s.x[3 * i + 1]);
  printf(
      "stack: at most %d points between two sides, top of the upper cube at %.6f m (the "
      "contacts between meshes aim at a skin of %.4f m)\n",
      worst, c1, IPC_LCP_SKIN * w->gap);
  CHECK(worst <= IPC_LCP_MANIFOLD_POINTS);
  CHECK(c1 > 2.0 && c1 < 2.0 + 2 * IPC_LCP_SKIN * w->gap);
  ipc_lcp_world_destroy(w);
}

int main(void) {
  char dir[] = "/tmp/ipcc_lcpman_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  snprintf(mesh, sizeof mesh, "%s/cube.msh", dir);
  CHECK(write_grid_cube(mesh));
  test_reduce();
  test_resting_box();
  test_full();
  test_deformable();
  test_projection();
  test_stack();
  remove(mesh);
  rmdir(dir);
  TEST_MAIN_END();
}
