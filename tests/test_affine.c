/* tests for src/affine/affine.c: volume moments from tets and from a closed surface against
   each other and against boxes integrated by hand, their affine transform, the bad bodies
   rejected; the mass matrix against a quadrature of rho J^T J; the orthogonality potential's
   derivatives against central differences and its PSD projection; contact derivatives pulled
   back to one and two bodies against dense J and against differences of f(J q); the inertia
   terms and a free body's fall. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "affine/affine.h"
#include "ipcc/mesh.h"
#include "linalg/dense.h"
#include "linalg/eig_small.h"
#include "random_matrices.h"
#include "test.h"

/* worst relative errors, printed at the end for the report */
static double worst_moments = 0.0, worst_transform = 0.0, worst_orth_g = 0.0, worst_orth_h = 0.0,
              worst_pull = 0.0, worst_pull_fd = 0.0, worst_fall = 0.0;

/* max |a - b| / max(max |b|, tiny) over n entries */
static double rel_diff(int n, const double *a, const double *b) {
  double d = 0.0, s = DBL_MIN;
  for (int k = 0; k < n; ++k) {
    d = fmax(d, fabs(a[k] - b[k]));
    s = fmax(s, fabs(b[k]));
  }
  return d / s;
}

/* largest relative difference of two moment sets, field by field */
static double moments_diff(const ipc_affine_moments *a, const ipc_affine_moments *b) {
  double d =
      fmax(fabs(a->volume - b->volume) / fabs(b->volume), fabs(a->mass - b->mass) / fabs(b->mass));
  d = fmax(d, rel_diff(3, a->first, b->first));
  return fmax(d, rel_diff(9, a->second, b->second));
}

/* the exact moments of the box [lo, hi] of density rho */
static void box_moments(const double lo[3], const double hi[3], double rho, ipc_affine_moments *m) {
  double len[3], mid[3], sq[3];
  for (int i = 0; i < 3; ++i) {
    len[i] = hi[i] - lo[i];
    mid[i] = 0.5 * (lo[i] + hi[i]);
    sq[i] = (hi[i] * hi[i] * hi[i] - lo[i] * lo[i] * lo[i]) / (3.0 * len[i]); /* mean x_i^2 */
  }
  m->volume = len[0] * len[1] * len[2];
  m->mass = rho * m->volume;
  for (int i = 0; i < 3; ++i) {
    m->first[i] = m->mass * mid[i];
    for (int j = 0; j < 3; ++j) m->second[3 * i + j] = m->mass * (i == j ? sq[i] : mid[i] * mid[j]);
  }
}

/* the box's 8 corners (index = bx + 2 by + 4 bz), its 6 Kuhn tets around the diagonal 0-7
   and its 12 outward triangles */
static void box_mesh(const double lo[3], const double hi[3], double x[24], int tets[24],
                     int tris[36]) {
  for (int v = 0; v < 8; ++v)
    for (int i = 0; i < 3; ++i) x[3 * v + i] = (v >> i) & 1 ? hi[i] : lo[i];
  static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int t = 0; t < 6; ++t) {
    int a = 1 << perms[t][0], b = a | 1 << perms[t][1];
    int odd = t == 1 || t == 2 || t == 5; /* odd permutations */
    int *c = tets + 4 * t;
    c[0] = 0, c[1] = a, c[2] = odd ? 7 : b, c[3] = odd ? b : 7;
  }
  /* face (axis d, side s): corners in the plane, counter-clockwise seen from outside */
  int n = 0;
  for (int d = 0; d < 3; ++d)
    for (int s = 0; s < 2; ++s) {
      int e1 = 1 << (d + 1) % 3, e2 = 1 << (d + 2) % 3, base = s << d;
      int q[4] = {base, base | e1, base | e1 | e2, base | e2};
      if (!s) {
        int tmp = q[1];
        q[1] = q[3], q[3] = tmp;
      }
      int f[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
      memcpy(tris + 3 * n, f, sizeof f);
      n += 2;
    }
}

static void test_boxes(void) {
  const double boxes[2][6] = {{0, 0, 0, 1, 1, 1}, {-3.5, 2.0, 10.0, -1.25, 2.5, 13.0}};
  for (int b = 0; b < 2; ++b) {
    double x[24];
    int tets[24], tris[36];
    box_mesh(boxes[b], boxes[b] + 3, x, tets, tris);
    ipc_affine_moments exact, mt, ms;
    ipcc_error err;
    box_moments(boxes[b], boxes[b] + 3, 750.0, &exact);
    CHECK(ipc_affine_moments_tets(8, x, 6, tets, 750.0, &mt, &err) == IPCC_OK);
    CHECK(ipc_affine_moments_surface(8, x, 12, tris, 750.0, &ms, &err) == IPCC_OK);
    double d = fmax(moments_diff(&mt, &exact), moments_diff(&ms, &exact));
    worst_moments = fmax(worst_moments, d);
    CHECK_MSG(d <= 1e-12, "box %d: %g", b, d);
  }
}

/* cube.msh: the tets and the boundary triangles the reader derives agree; the unit cube */
static void test_cube_msh(ipcc_mesh *cube) {
  ipcc_error err;
  CHECK(ipcc_mesh_read("scenes/meshes/cube.msh", cube, &err) == IPCC_OK);
  ipc_affine_moments mt, ms, exact;
  CHECK(ipc_affine_moments_tets(cube->nverts, cube->x, cube->ntets, cube->tets, 2.0, &mt, &err) ==
        IPCC_OK);
  CHECK(ipc_affine_moments_surface(cube->nverts, cube->x, cube->ntris, cube->tris, 2.0, &ms,
                                   &err) == IPCC_OK);
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  box_moments(lo, hi, 2.0, &exact);
  double d = fmax(moments_diff(&mt, &ms), moments_diff(&mt, &exact));
  worst_moments = fmax(worst_moments, d);
  CHECK_MSG(d <= 1e-12, "cube.msh: %g", d);
}

/* moments of the mapped mesh = the mapped moments, for a rigid motion and a general affine map */
static void test_transform(const ipcc_mesh *cube) {
  for (int trial = 0; trial < 2; ++trial) {
    double A[9], p[3] = {urange(-5, 5), urange(-5, 5), urange(-5, 5)};
    random_rotation(A);
    if (trial) {
      const double shear[9] = {1.5, 0.3, -0.2, 0.1, 0.8, 0.4, 0.0, -0.3, 2.0};
      double R[9];
      memcpy(R, A, sizeof R);
      matmul3(R, shear, A);
    }
    double *y = malloc(sizeof(double) * 3 * (size_t)cube->nverts);
    for (int v = 0; v < cube->nverts; ++v)
      for (int i = 0; i < 3; ++i)
        y[3 * v + i] = p[i] + A[3 * i] * cube->x[3 * v] + A[3 * i + 1] * cube->x[3 * v + 1] +
                       A[3 * i + 2] * cube->x[3 * v + 2];
    ipc_affine_moments m0, mapped, direct, surf;
    ipcc_error err;
    CHECK(ipc_affine_moments_tets(cube->nverts, cube->x, cube->ntets, cube->tets, 3.0, &m0, &err) ==
          IPCC_OK);
    CHECK(ipc_affine_moments_tets(cube->nverts, y, cube->ntets, cube->tets, 3.0, &direct, &err) ==
          IPCC_OK);
    CHECK(ipc_affine_moments_surface(cube->nverts, y, cube->ntris, cube->tris, 3.0, &surf, &err) ==
          IPCC_OK);
    ipc_affine_moments_transform(&m0, A, p, &mapped);
    double d = fmax(moments_diff(&mapped, &direct), moments_diff(&surf, &direct));
    worst_transform = fmax(worst_transform, d);
    CHECK_MSG(d <= 1e-12, "trial %d: %g", trial, d);
    free(y);
  }
}

/* bad bodies: each returns IPCC_ERR_INPUT with a message containing the given words */
static void expect_error(ipcc_status st, const ipcc_error *err, const char *words) {
  CHECK(st == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err->msg, words) != NULL, "message '%s' lacks '%s'", err->msg, words);
}

static void test_bad_bodies(void) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
  double x[24];
  int tets[24], tris[36];
  box_mesh(lo, hi, x, tets, tris);
  ipc_affine_moments m;
  ipcc_error err;
  /* a face missing: open */
  expect_error(ipc_affine_moments_surface(8, x, 11, tris, 1.0, &m, &err), &err, "not closed");
  /* all triangles flipped: inward, negative volume */
  int inward[36];
  for (int t = 0; t < 12; ++t)
    inward[3 * t] = tris[3 * t], inward[3 * t + 1] = tris[3 * t + 2],
               inward[3 * t + 2] = tris[3 * t + 1];
  expect_error(ipc_affine_moments_surface(8, x, 12, inward, 1.0, &m, &err), &err, "volume -6");
  /* one triangle flipped: inconsistent orientation */
  int mixed[36];
  memcpy(mixed, tris, sizeof mixed);
  mixed[1] = tris[2], mixed[2] = tris[1];
  expect_error(ipc_affine_moments_surface(8, x, 12, mixed, 1.0, &m, &err), &err, "used twice");
  /* a flat closed surface (a triangle and its back): zero volume */
  const int flat[6] = {0, 1, 2, 0, 2, 1};
  expect_error(ipc_affine_moments_surface(8, x, 2, flat, 1.0, &m, &err), &err, "volume 0");
  const int repeated[3] = {0, 1, 1};
  expect_error(ipc_affine_moments_surface(8, x, 1, repeated, 1.0, &m, &err), &err, "repeats");
  const int out_of_range[3] = {0, 1, 8};
  expect_error(ipc_affine_moments_surface(8, x, 1, out_of_range, 1.0, &m, &err), &err, "vertex 8");
  expect_error(ipc_affine_moments_surface(8, x, 12, tris, 0.0, &m, &err), &err, "density");
  expect_error(ipc_affine_moments_tets(8, x, 6, tets, NAN, &m, &err), &err, "density");
  /* an inverted tet */
  int bad_tets[24];
  memcpy(bad_tets, tets, sizeof bad_tets);
  bad_tets[4 * 3 + 2] = tets[4 * 3 + 3], bad_tets[4 * 3 + 3] = tets[4 * 3 + 2];
  expect_error(ipc_affine_moments_tets(8, x, 6, bad_tets, 1.0, &m, &err), &err, "tet 3");
  expect_error(ipc_affine_moments_tets(8, x, 0, tets, 1.0, &m, &err), &err, "no tetrahedra");
}

/* M against sum over tets of a degree-2 exact 4-point rule of rho J^T J; SPD; mul and solve */
static void test_mass_matrix(const ipcc_mesh *cube) {
  const double rho = 1.5;
  ipc_affine_moments mom;
  ipcc_error err;
  double *y = malloc(sizeof(double) * 3 * (size_t)cube->nverts);
  for (int k = 0; k < 3 * cube->nverts; ++k) y[k] = cube->x[k] + 0.1 * urand() + (k % 3 == 1);
  CHECK(ipc_affine_moments_tets(cube->nverts, y, cube->ntets, cube->tets, rho, &mom, &err) ==
        IPCC_OK);
  double M[144], ref[144] = {0};
  ipc_affine_mass_matrix(&mom, M);
  const double qa = 0.5854101966249685, qb = 0.1381966011250105; /* Keast's 4-point rule */
  for (int t = 0; t < cube->ntets; ++t) {
    const double *c[4];
    for (int k = 0; k < 4; ++k) c[k] = y + 3 * cube->tets[4 * t + k];
    double e[3][3];
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 3; ++i) e[k][i] = c[k + 1][i] - c[0][i];
    double vol = (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                  e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                  e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) /
                 6.0;
    for (int qp = 0; qp < 4; ++qp) {
      double xq[3], J[36];
      for (int i = 0; i < 3; ++i) {
        xq[i] = 0.0;
        for (int k = 0; k < 4; ++k) xq[i] += (k == qp ? qa : qb) * c[k][i];
      }
      ipc_affine_jacobian(xq, J);
      for (int r = 0; r < 12; ++r)
        for (int s = 0; s < 12; ++s)
          for (int i = 0; i < 3; ++i)
            ref[12 * r + s] += rho * vol / 4.0 * J[12 * i + r] * J[12 * i + s];
    }
  }
  free(y);
  double d = rel_diff(144, M, ref);
  CHECK_MSG(d <= 1e-12, "mass matrix vs quadrature: %g", d);
  double w[12];
  CHECK(ipc_eig_sym_small(12, M, w, NULL) == 0);
  CHECK(w[0] > 0.0);
  for (int r = 0; r < 12; ++r)
    for (int s = 0; s < 12; ++s) CHECK(M[12 * r + s] == M[12 * s + r]);
  double v[12], Mv[12], Mv_dense[12] = {0}, back[12];
  for (int k = 0; k < 12; ++k) v[k] = urand();
  for (int r = 0; r < 12; ++r)
    for (int s = 0; s < 12; ++s) Mv_dense[r] += M[12 * r + s] * v[s];
  ipc_affine_mass_mul(&mom, v, Mv);
  CHECK(rel_diff(12, Mv, Mv_dense) <= 1e-14);
  CHECK(ipc_affine_mass_solve(&mom, Mv, back) == 0);
  CHECK(rel_diff(12, back, v) <= 1e-10);
}

/* q from A (row-major) and p */
static void make_q(const double A[9], const double p[3], double q[12]) {
  for (int i = 0; i < 3; ++i) {
    q[i] = p[i];
    for (int j = 0; j < 3; ++j) q[3 + 3 * j + i] = A[3 * i + j];
  }
}

/* an energy of q with its gradient and Hessian, and its parameters */
typedef struct q_energy {
  const char *name;
  double (*e)(const struct q_energy *f, const double q[12]);
  void (*g)(const struct q_energy *f, const double q[12], double g[12]);
  void (*h)(const struct q_energy *f, const double q[12], double H[144]);
  double kappa, vol;  /* orthogonality: kappa, V */
  const double *G0;   /* strain damping: A_n^T A_n, coefficient kappa */
} q_energy;

static double orth_e(const q_energy *f, const double q[12]) {
  return ipc_affine_orth_energy(q, f->kappa, f->vol);
}
static void orth_g(const q_energy *f, const double q[12], double g[12]) {
  ipc_affine_orth_gradient(q, f->kappa, f->vol, g);
}
static void orth_h(const q_energy *f, const double q[12], double H[144]) {
  ipc_affine_orth_hessian(q, f->kappa, f->vol, H);
}
static double strain_e(const q_energy *f, const double q[12]) {
  return ipc_affine_strain_energy(q, f->G0, f->kappa);
}
static void strain_g(const q_energy *f, const double q[12], double g[12]) {
  ipc_affine_strain_gradient(q, f->G0, f->kappa, g);
}
static void strain_h(const q_energy *f, const double q[12], double H[144]) {
  ipc_affine_strain_hessian(q, f->G0, f->kappa, H);
}

/* central differences of the energy and the gradient at q against the gradient and the
   Hessian; neither depends on p (zero rows and columns), the Hessian is symmetric */
static void check_fd(const q_energy *f, const double q[12]) {
  const double h = 1e-6;
  double g[12], H[144], gfd[12], Hfd[144];
  f->g(f, q, g);
  f->h(f, q, H);
  for (int k = 0; k < 12; ++k) {
    double qp[12], qm[12], gp[12], gm[12];
    memcpy(qp, q, sizeof qp);
    memcpy(qm, q, sizeof qm);
    qp[k] += h, qm[k] -= h;
    gfd[k] = (f->e(f, qp) - f->e(f, qm)) / (2 * h);
    f->g(f, qp, gp);
    f->g(f, qm, gm);
    for (int r = 0; r < 12; ++r) Hfd[12 * r + k] = (gp[r] - gm[r]) / (2 * h);
  }
  double dg = rel_diff(12, g, gfd), dh = rel_diff(144, H, Hfd);
  worst_orth_g = fmax(worst_orth_g, dg);
  worst_orth_h = fmax(worst_orth_h, dh);
  CHECK_MSG(dg <= 1e-7, "%s gradient vs FD: %g", f->name, dg);
  CHECK_MSG(dh <= 1e-7, "%s Hessian vs FD: %g", f->name, dh);
  for (int k = 0; k < 3; ++k) CHECK(g[k] == 0.0);
  double hmax = 0;
  for (int k = 0; k < 144; ++k) hmax = fmax(hmax, fabs(H[k]));
  for (int r = 0; r < 12; ++r)
    for (int t = 0; t < 12; ++t) {
      CHECK(fabs(H[12 * r + t] - H[12 * t + r]) <= 1e-14 * hmax);
      if (r < 3 || t < 3) CHECK(H[12 * r + t] == 0.0);
    }
}

static void check_orth_fd(const double q[12], double kappa, double vol) {
  q_energy f = {"orth", orth_e, orth_g, orth_h, kappa, vol, NULL};
  check_fd(&f, q);
}

static void check_strain_fd(const double q[12], const double G0[9], double c) {
  q_energy f = {"strain", strain_e, strain_g, strain_h, c, 0.0, G0};
  check_fd(&f, q);
}

/* smallest eigenvalue of the 12x12 H relative to its largest magnitude */
static double min_eig_rel(const double H[144]) {
  double w[12];
  CHECK(ipc_eig_sym_small(12, H, w, NULL) == 0);
  return w[0] / fmax(fmax(fabs(w[0]), fabs(w[11])), DBL_MIN);
}

/* ipc_affine_polar: A = R0 S with S symmetric positive definite (near I, and stretched by
   a factor of 100 between its axes) gives back R0; det A <= 0 is refused */
static void test_polar(void) {
  for (int trial = 0; trial < 20; ++trial) {
    double R0[9], S[9], A[9], R[9], B[9];
    random_rotation(R0);
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) S[3 * i + j] = S[3 * j + i] = (i == j) + 0.1 * urand();
    if (trial % 2) {
      static const double scale[3] = {0.1, 1.0, 10.0};
      for (int k = 0; k < 9; ++k) S[k] *= sqrt(scale[k / 3] * scale[k % 3]);
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        A[3 * i + j] = 0;
        for (int k = 0; k < 3; ++k) A[3 * i + j] += R0[3 * i + k] * S[3 * k + j];
      }
    CHECK(ipc_affine_polar(A, R) == 0);
    CHECK_MSG(rel_diff(9, R, R0) <= 1e-13, "trial %d: %g", trial, rel_diff(9, R, R0));
    /* a rotation is its own polar factor */
    CHECK(ipc_affine_polar(R0, B) == 0);
    CHECK(rel_diff(9, B, R0) <= 1e-15);
  }
  double flip[9] = {-1, 0, 0, 0, 1, 0, 0, 0, 1}, singular[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0}, R[9];
  CHECK(ipc_affine_polar(flip, R) == 1);
  CHECK(ipc_affine_polar(singular, R) == 1);
}

static void test_orthogonality(void) {
  const double kappa = 1e5, vol = 0.7;
  for (int trial = 0; trial < 20; ++trial) {
    double R[9], A[9], p[3] = {urand(), urand(), urand()}, q[12];
    random_rotation(R);
    /* a rotation: zero energy and gradient, PSD Hessian */
    make_q(R, p, q);
    double g[12], H[144], P[144];
    CHECK(ipc_affine_orth_energy(q, kappa, vol) <= 1e-25 * kappa * vol);
    ipc_affine_orth_gradient(q, kappa, vol, g);
    CHECK(max_abs(12, g) <= 1e-13 * kappa * vol);
    ipc_affine_orth_hessian(q, kappa, vol, H);
    CHECK(ipc_affine_orth_hessian_psd(q, kappa, vol, P) == 0);
    CHECK(min_eig_rel(H) >= -1e-12);
    CHECK(rel_diff(144, P, H) <= 1e-10);
    /* near orthogonal, far from it, and a scaled-up rotation (PD: projection leaves it) */
    for (int k = 0; k < 9; ++k) A[k] = R[k] + 0.01 * urand();
    make_q(A, p, q);
    check_orth_fd(q, kappa, vol);
    for (int k = 0; k < 9; ++k) A[k] = 2.0 * urand();
    make_q(A, p, q);
    check_orth_fd(q, kappa, vol);
    ipc_affine_orth_hessian(q, kappa, vol, H);
    CHECK(ipc_affine_orth_hessian_psd(q, kappa, vol, P) == 0);
    CHECK(min_eig_rel(P) >= -1e-10);
    for (int k = 0; k < 9; ++k) A[k] = 2.0 * R[k];
    make_q(A, p, q);
    ipc_affine_orth_hessian(q, kappa, vol, H);
    CHECK(ipc_affine_orth_hessian_psd(q, kappa, vol, P) == 0);
    CHECK(memcmp(P, H, sizeof P) == 0);
    /* a shrunk rotation: indefinite, projected PSD */
    for (int k = 0; k < 9; ++k) A[k] = 0.3 * R[k];
    make_q(A, p, q);
    ipc_affine_orth_hessian(q, kappa, vol, H);
    CHECK(min_eig_rel(H) < -0.1);
    CHECK(ipc_affine_orth_hessian_psd(q, kappa, vol, P) == 0);
    CHECK(min_eig_rel(P) >= -1e-10);
  }
}

/* the strain damping c ||A^T A - G0||^2 (G0 = A_n^T A_n): zero with zero gradient for every
   rigid motion from A_n (A = R A_n, any p), positive for a stretch, derivatives against
   finite differences, its projected Hessian PSD; at a rotation A_n its Hessian is that of
   the orthogonality energy (kappa V = c), the Rayleigh form it replaces */
static void test_strain_damping(void) {
  const double c = 3.0;
  for (int trial = 0; trial < 20; ++trial) {
    double R[9], An[9], A[9], p[3] = {urand(), urand(), urand()}, qn[12], q[12], G0[9];
    random_rotation(R);
    for (int k = 0; k < 9; ++k) An[k] = (k % 4 == 0) + 0.2 * urand();
    make_q(An, p, qn);
    ipc_affine_gram(qn, G0);
    /* A = R A_n, moved: a rigid motion */
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        A[3 * i + j] = 0;
        for (int k = 0; k < 3; ++k) A[3 * i + j] += R[3 * i + k] * An[3 * k + j];
      }
    double p2[3] = {p[0] + 1, p[1] - 2, p[2]}, g[12], H[144], P[144];
    make_q(A, p2, q);
    CHECK(ipc_affine_strain_energy(q, G0, c) <= 1e-25);
    ipc_affine_strain_gradient(q, G0, c, g);
    CHECK(max_abs(12, g) <= 1e-13 * c);
    /* a stretch along a random axis: positive */
    for (int k = 0; k < 9; ++k) A[k] = An[k] * (k / 3 == trial % 3 ? 1.1 : 1.0);
    make_q(A, p, q);
    CHECK(ipc_affine_strain_energy(q, G0, c) > 1e-4 * c);
    for (int k = 0; k < 9; ++k) A[k] = An[k] + 0.05 * urand();
    make_q(A, p, q);
    check_strain_fd(q, G0, c);
    ipc_affine_strain_hessian(q, G0, c, H);
    CHECK(ipc_affine_strain_hessian_psd(q, G0, c, P) == 0);
    CHECK(min_eig_rel(P) >= -1e-10);
    /* at a rotation from the identity: the orthogonality Hessian with kappa V = c */
    const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    make_q(R, p, q);
    ipc_affine_strain_hessian(q, I3, c, H);
    ipc_affine_orth_hessian(q, c, 1.0, P);
    CHECK_MSG(rel_diff(144, H, P) <= 1e-12, "strain vs orth Hessian at a rotation: %g",
              rel_diff(144, H, P));
  }
}

/* dense stacked Jacobian (3k x n) of k vertices on body[v] (NULL: all on body 0) */
static void dense_jacobian(int k, const double *xbar, const int *body, int n, double *J) {
  memset(J, 0, sizeof(double) * 3 * (size_t)k * (size_t)n);
  for (int v = 0; v < k; ++v) {
    double Jv[36];
    ipc_affine_jacobian(xbar + 3 * v, Jv);
    int off = body ? 12 * body[v] : 0;
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 12; ++c) J[n * (3 * v + i) + off + c] = Jv[12 * i + c];
  }
}

/* pulled-back derivatives against J^T g and J^T H J formed densely; PSD H stays PSD */
static void test_pull_dense(void) {
  for (int trial = 0; trial < 10; ++trial) {
    const int k = 4, m = 12;
    double xbar[12], g[12], H[144], B[144];
    for (int j = 0; j < 12; ++j) xbar[j] = 2.0 * urand(), g[j] = urand();
    for (int j = 0; j < 144; ++j) B[j] = urand();
    for (int r = 0; r < m; ++r) /* H = B B^T: PSD */
      for (int s = 0; s < m; ++s) {
        H[m * r + s] = 0.0;
        for (int t = 0; t < m; ++t) H[m * r + s] += B[m * r + t] * B[m * s + t];
      }
    const int two[4] = {0, 1, 1, 0};
    for (int nb = 1; nb <= 2; ++nb) {
      const int n = 12 * nb;
      const int *body = nb == 2 ? two : NULL;
      double J[12 * 24], gq[24], Hq[576], gref[24] = {0}, Href[576] = {0};
      dense_jacobian(k, xbar, body, n, J);
      for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) gref[c] += J[n * r + c] * g[r];
      for (int c = 0; c < n; ++c)
        for (int d = 0; d < n; ++d)
          for (int r = 0; r < m; ++r)
            for (int s = 0; s < m; ++s)
              Href[n * c + d] += J[n * r + c] * H[m * r + s] * J[n * s + d];
      if (nb == 1) {
        ipc_affine_pull_gradient(k, xbar, g, gq);
        ipc_affine_pull_hessian(k, xbar, H, Hq);
      } else {
        ipc_affine_pull_gradient2(k, xbar, body, g, gq);
        ipc_affine_pull_hessian2(k, xbar, body, H, Hq);
      }
      double d = fmax(rel_diff(n, gq, gref), rel_diff(n * n, Hq, Href));
      worst_pull = fmax(worst_pull, d);
      CHECK_MSG(d <= 1e-13, "pull %d bodies vs dense: %g", nb, d);
      double w[24];
      CHECK(ipc_sym_eig(n, Hq, w, NULL) == 0);
      CHECK(w[0] >= -1e-12 * fabs(w[n - 1]));
    }
  }
}

/* f(x) = sum_i exp(a_i x_i) + (d . x)^2 over the 3k coordinates, with gradient and Hessian */
static double test_f(int m, const double *a, const double *d, const double *x, double *g,
                     double *H) {
  double s = 0.0, f = 0.0;
  for (int i = 0; i < m; ++i) s += d[i] * x[i];
  for (int i = 0; i < m; ++i) {
    double e = exp(a[i] * x[i]);
    f += e;
    if (g) g[i] = a[i] * e + 2.0 * s * d[i];
    if (H)
      for (int j = 0; j < m; ++j)
        H[m * i + j] = (i == j ? a[i] * a[i] * e : 0.0) + 2.0 * d[i] * d[j];
  }
  return f + s * s;
}

/* vertex positions of two bodies' states qq (24) */
static void positions(int k, const double *xbar, const int *body, const double *qq, double *x) {
  for (int v = 0; v < k; ++v) ipc_affine_position(qq + 12 * body[v], xbar + 3 * v, x + 3 * v);
}

/* derivatives of phi(q_a, q_b) = f(x(q)) by pull-back against central differences */
static void test_pull_fd(void) {
  const int k = 4, m = 12, body[4] = {0, 1, 1, 1}; /* a vertex of a, a triangle of b */
  double xbar[12], a[12], d[12], qq[24];
  for (int j = 0; j < 12; ++j) xbar[j] = urand(), a[j] = 0.5 * urand(), d[j] = urand();
  for (int j = 0; j < 24; ++j) qq[j] = urand();
  double x[12], g[12], H[144], gq[24], Hq[576], gfd[24], Hfd[576];
  positions(k, xbar, body, qq, x);
  test_f(m, a, d, x, g, H);
  ipc_affine_pull_gradient2(k, xbar, body, g, gq);
  ipc_affine_pull_hessian2(k, xbar, body, H, Hq);
  const double h = 1e-6;
  for (int c = 0; c < 24; ++c) {
    double qp[24], qm[24], xp[12], xm[12], gp[12], gm[12], gqp[24], gqm[24];
    memcpy(qp, qq, sizeof qp);
    memcpy(qm, qq, sizeof qm);
    qp[c] += h, qm[c] -= h;
    positions(k, xbar, body, qp, xp);
    positions(k, xbar, body, qm, xm);
    gfd[c] = (test_f(m, a, d, xp, gp, NULL) - test_f(m, a, d, xm, gm, NULL)) / (2 * h);
    ipc_affine_pull_gradient2(k, xbar, body, gp, gqp);
    ipc_affine_pull_gradient2(k, xbar, body, gm, gqm);
    for (int r = 0; r < 24; ++r) Hfd[24 * r + c] = (gqp[r] - gqm[r]) / (2 * h);
  }
  double dd = fmax(rel_diff(24, gq, gfd), rel_diff(576, Hq, Hfd));
  worst_pull_fd = fmax(worst_pull_fd, dd);
  CHECK_MSG(dd <= 1e-7, "pull-back vs FD: %g", dd);
  /* one body: the same with every vertex on body a */
  const int one[4] = {0, 0, 0, 0};
  positions(k, xbar, one, qq, x);
  test_f(m, a, d, x, g, NULL);
  double g12[12], gfd12[12];
  ipc_affine_pull_gradient(k, xbar, g, g12);
  for (int c = 0; c < 12; ++c) {
    double qp[24], qm[24], xp[12], xm[12];
    memcpy(qp, qq, sizeof qp);
    memcpy(qm, qq, sizeof qm);
    qp[c] += h, qm[c] -= h;
    positions(k, xbar, one, qp, xp);
    positions(k, xbar, one, qm, xm);
    gfd12[c] = (test_f(m, a, d, xp, NULL, NULL) - test_f(m, a, d, xm, NULL, NULL)) / (2 * h);
  }
  CHECK(rel_diff(12, g12, gfd12) <= 1e-7);
}

/* the inertia energy's gradient by differences; the uniform field's force and M^-1 of it */
static void test_inertia(const ipcc_mesh *cube) {
  ipc_affine_moments mom;
  ipcc_error err;
  CHECK(ipc_affine_moments_tets(cube->nverts, cube->x, cube->ntets, cube->tets, 1000.0, &mom,
                                &err) == IPCC_OK);
  double q[12], qt[12], g[12], gfd[12];
  for (int k = 0; k < 12; ++k) q[k] = urand(), qt[k] = urand();
  ipc_affine_inertia(&mom, q, qt, g);
  const double h = 1e-6;
  for (int k = 0; k < 12; ++k) {
    double qp[12], qm[12];
    memcpy(qp, q, sizeof qp);
    memcpy(qm, q, sizeof qm);
    qp[k] += h, qm[k] -= h;
    gfd[k] =
        (ipc_affine_inertia(&mom, qp, qt, NULL) - ipc_affine_inertia(&mom, qm, qt, NULL)) / (2 * h);
  }
  CHECK(rel_diff(12, g, gfd) <= 1e-7);
  CHECK(ipc_affine_inertia(&mom, qt, qt, g) == 0.0);
  CHECK(max_abs(12, g) == 0.0);
  /* uniform field: m gvec on p, c_a gvec on column a of A; = M (gvec, 0, 0, 0) */
  const double gvec[3] = {0.3, -9.81, 1.2};
  double f[12], e[12] = {gvec[0], gvec[1], gvec[2]}, Me[12], acc[12];
  ipc_affine_uniform_force(&mom, gvec, f);
  for (int i = 0; i < 3; ++i) {
    CHECK_NEAR(f[i], mom.mass * gvec[i], 1e-15);
    for (int a2 = 0; a2 < 3; ++a2) CHECK_NEAR(f[3 + 3 * a2 + i], mom.first[a2] * gvec[i], 1e-15);
  }
  ipc_affine_mass_mul(&mom, e, Me);
  CHECK(rel_diff(12, f, Me) <= 1e-15);
  CHECK(ipc_affine_mass_solve(&mom, f, acc) == 0);
  CHECK(rel_diff(12, acc, e) <= 1e-12);
}

/* centre of mass A cbar + p of the body with first moment c and mass m */
static void com(const ipc_affine_moments *mom, const double q[12], double x[3]) {
  const double cbar[3] = {mom->first[0] / mom->mass, mom->first[1] / mom->mass,
                          mom->first[2] / mom->mass};
  ipc_affine_position(q, cbar, x);
}

/* a free, spinning and deforming body under gravity stepped by implicit Euler (q = qtilde, the
   minimum of the inertia alone): its centre of mass falls on the parabola
   x0 + t v0 + g h^2 n (n + 1) / 2 (second differences exactly g), and A moves linearly */
static void test_free_fall(const ipcc_mesh *cube) {
  ipc_affine_moments mom;
  ipcc_error err;
  CHECK(ipc_affine_moments_tets(cube->nverts, cube->x, cube->ntets, cube->tets, 1000.0, &mom,
                                &err) == IPCC_OK);
  const double gvec[3] = {0.0, -9.81, 0.0}, h = 0.01;
  double R[9], q[12], q0[12], qdot[12], qdot0[12], f[12], x0[3], v0[3], xprev[3], xcur[3];
  random_rotation(R);
  const double p0[3] = {0.5, 2.0, -1.0};
  make_q(R, p0, q);
  for (int k = 0; k < 12; ++k) qdot[k] = urand();
  memcpy(q0, q, sizeof q);
  memcpy(qdot0, qdot, sizeof qdot);
  ipc_affine_uniform_force(&mom, gvec, f);
  com(&mom, q, x0);
  const double cbar[3] = {mom.first[0] / mom.mass, mom.first[1] / mom.mass,
                          mom.first[2] / mom.mass};
  for (int i = 0; i < 3; ++i)
    v0[i] = qdot0[i] + cbar[0] * qdot0[3 + i] + cbar[1] * qdot0[6 + i] + cbar[2] * qdot0[9 + i];
  memcpy(xprev, x0, sizeof x0);
  memcpy(xcur, x0, sizeof x0);
  const int nsteps = 100;
  for (int n = 1; n <= nsteps; ++n) {
    double qt[12];
    CHECK(ipc_affine_predict(&mom, q, qdot, h, f, qt) == 0);
    for (int k = 0; k < 12; ++k) qdot[k] = (qt[k] - q[k]) / h, q[k] = qt[k];
    double x[3];
    com(&mom, q, x);
    for (int i = 0; i < 3; ++i) {
      double expect = x0[i] + n * h * v0[i] + gvec[i] * h * h * n * (n + 1) / 2.0;
      double dev = fabs(x[i] - expect) / fmax(1.0, fabs(expect));
      worst_fall = fmax(worst_fall, dev);
      CHECK_MSG(dev <= 1e-12, "step %d axis %d: %g", n, i, dev);
      if (n >= 2) /* second difference of steps n-2, n-1, n */
        CHECK_NEAR((x[i] - 2.0 * xcur[i] + xprev[i]) / (h * h), gvec[i], 1e-8);
    }
    memcpy(xprev, xcur, sizeof x);
    memcpy(xcur, x, sizeof x);
    for (int k = 3; k < 12; ++k) CHECK_NEAR(q[k], q0[k] + n * h * qdot0[k], 1e-12);
  }
}

/* the line search's curved trial: first order equal to q + alpha dq (a finite-difference
   check of its alpha-derivative at 0), exact rigid motion for a rigid twist, the screw axis
   fixed, and the straight step when det A <= 0 */
static void test_curved_step(void) {
  for (int trial = 0; trial < 20; ++trial) {
    double R0[9], A[9], p[3], q[12], dq[12];
    random_rotation(R0);
    for (int k = 0; k < 9; ++k) A[k] = R0[k] + 0.05 * urand(); /* a slightly strained body */
    for (int d = 0; d < 3; ++d) p[d] = urand();
    make_q(A, p, q);
    for (int k = 0; k < 12; ++k) dq[k] = urand();
    /* d/dalpha at 0 by central differences: error O(h^2) */
    double hh = 1e-5, qp[12], qm[12], err = 0, size = 0;
    ipc_affine_curved_step(q, dq, hh, qp);
    ipc_affine_curved_step(q, dq, -hh, qm);
    for (int k = 0; k < 12; ++k) {
      err = fmax(err, fabs((qp[k] - qm[k]) / (2 * hh) - dq[k]));
      size = fmax(size, fabs(dq[k]));
    }
    CHECK_MSG(err <= 1e-7 * size, "trial %d: d/dalpha %g off dq", trial, err / size);
    double q0[12];
    ipc_affine_curved_step(q, dq, 0.0, q0);
    for (int k = 0; k < 12; ++k) CHECK(fabs(q0[k] - q[k]) <= 1e-15 * (1 + fabs(q[k])));

    /* a rigid twist about the axis through c along omega (|omega| up to 1.7 rad): dA = W A,
       dp = W (p - c), so dx = W (x - c) vanishes on the axis */
    double om[3] = {urand(), urand(), urand()}, c[3] = {urand(), urand(), urand()};
    double W[9] = {0, -om[2], om[1], om[2], 0, -om[0], -om[1], om[0], 0}, dA[9], dp[3];
    make_q(R0, p, q);
    for (int i = 0; i < 3; ++i) {
      dp[i] = 0;
      for (int j = 0; j < 3; ++j) {
        dA[3 * i + j] = 0;
        for (int k = 0; k < 3; ++k) dA[3 * i + j] += W[3 * i + k] * R0[3 * k + j];
        dp[i] += W[3 * i + j] * (p[j] - c[j]);
      }
    }
    make_q(dA, dp, dq);
    double out[12], A1[9], orth = 0;
    ipc_affine_curved_step(q, dq, 1.0, out);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A1[3 * i + j] = out[3 + 3 * j + i];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = -(i == j);
        for (int k = 0; k < 3; ++k) s += A1[3 * i + k] * A1[3 * j + k];
        orth = fmax(orth, fabs(s));
      }
    CHECK_MSG(orth <= 1e-14, "trial %d: |AA^T - I| %g after a rigid twist", trial, orth);
    /* the point of the body at c (rest position A^-1 (c - p)) and one further along the axis
       stay where they are */
    for (int s = 0; s < 2; ++s) {
      double xw[3], xbar[3], x1[3], Rt[9];
      for (int d = 0; d < 3; ++d) xw[d] = c[d] + s * 0.7 * om[d];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) Rt[3 * i + j] = R0[3 * j + i]; /* R0^-1 */
      for (int i = 0; i < 3; ++i) {
        xbar[i] = 0;
        for (int j = 0; j < 3; ++j) xbar[i] += Rt[3 * i + j] * (xw[j] - p[j]);
      }
      ipc_affine_position(out, xbar, x1);
      double dev = 0;
      for (int d = 0; d < 3; ++d) dev = fmax(dev, fabs(x1[d] - xw[d]));
      CHECK_MSG(dev <= 1e-13, "trial %d: a point on the screw axis moved %g", trial, dev);
    }
  }
  /* det A <= 0: the straight step */
  double q[12] = {1, 2, 3, 0, 0, 0, 0, 1, 0, 0, 0, 1}, dq[12], out[12];
  for (int k = 0; k < 12; ++k) dq[k] = 0.1 * k;
  ipc_affine_curved_step(q, dq, 0.5, out);
  for (int k = 0; k < 12; ++k) CHECK(out[k] == q[k] + 0.5 * dq[k]);
}

/* ipc_affine_curved_sag: every trial point x(alpha'), alpha' in [0, alpha], lies within the
   box of x(0) and x(alpha) grown by the bound (so one broad phase covers the line search) */
static void test_curved_sag(void) {
  double worst_use = 0;
  for (int trial = 0; trial < 40; ++trial) {
    double R0[9], A[9], p[3], q[12], dq[12], xbar[8 * 3], x[8 * 3];
    random_rotation(R0);
    for (int k = 0; k < 9; ++k) A[k] = R0[k] + (trial % 2 ? 0.1 : 0.0) * urand();
    for (int d = 0; d < 3; ++d) p[d] = 2 * urand();
    make_q(A, p, q);
    for (int k = 0; k < 12; ++k) dq[k] = (trial % 3 + 1) * urand();
    for (int k = 0; k < 24; ++k) xbar[k] = urand();
    for (int v = 0; v < 8; ++v) ipc_affine_position(q, xbar + 3 * v, x + 3 * v);
    double alpha = 0.25 + 0.75 * fabs(urand());
    double sag = ipc_affine_curved_sag(q, dq, alpha, 8, x), qa[12], qb[12];
    ipc_affine_curved_step(q, dq, alpha, qa);
    for (int v = 0; v < 8; ++v) {
      double xa[3];
      ipc_affine_position(qa, xbar + 3 * v, xa);
      for (int s = 1; s < 64; ++s) {
        ipc_affine_curved_step(q, dq, alpha * s / 64.0, qb);
        double xb[3];
        ipc_affine_position(qb, xbar + 3 * v, xb);
        for (int d = 0; d < 3; ++d) {
          double lo = fmin(x[3 * v + d], xa[d]), hi = fmax(x[3 * v + d], xa[d]);
          double out = fmax(lo - xb[d], xb[d] - hi);
          CHECK_MSG(out <= sag * (1 + 1e-12) + 1e-14, "trial %d: %g outside the box, bound %g",
                    trial, out, sag);
          if (sag > 0) worst_use = fmax(worst_use, out / sag);
        }
      }
    }
  }
  /* the bound is not vacuous: some trial comes within a factor 10 of it */
  CHECK_MSG(worst_use > 0.1, "largest excursion / bound %g", worst_use);
  fprintf(stderr, "curved trials: largest excursion from the box / bound %.3f\n", worst_use);
}

int main(void) {
  ipcc_mesh cube;
  test_boxes();
  test_cube_msh(&cube);
  test_transform(&cube);
  test_bad_bodies();
  test_mass_matrix(&cube);
  test_polar();
  test_orthogonality();
  test_strain_damping();
  test_pull_dense();
  test_pull_fd();
  test_inertia(&cube);
  test_free_fall(&cube);
  test_curved_step();
  test_curved_sag();
  ipcc_mesh_free(&cube);
  fprintf(stderr,
          "worst relative errors: moments %.2e, transform %.2e, orth gradient %.2e, orth Hessian "
          "%.2e, pull-back %.2e, pull-back FD %.2e, free fall %.2e\n",
          worst_moments, worst_transform, worst_orth_g, worst_orth_h, worst_pull, worst_pull_fd,
          worst_fall);
  TEST_MAIN_END();
}
