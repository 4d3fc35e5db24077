/* affine-body kernels (see affine.h for the ordering of q and J).
 *
 * Moments. For a linear tet with corners y0..y3 and signed volume V = det(y1-y0, y2-y0,
 * y3-y0) / 6, the barycentric integrals  integral l_i dV = V/4  and
 * integral l_i l_j dV = V (1 + delta_ij) / 20  give, with s = y0 + y1 + y2 + y3,
 *   integral y dV = V s / 4,    integral y y^T dV = V (sum_i y_i y_i^T + s s^T) / 20.
 * A closed surface: the divergence theorem turns each volume integral into a sum over the
 * triangles, which is exactly the sum of the signed tets (o, a, b, c) joining a reference
 * point o to every outward triangle (a, b, c): the parts outside the body cancel between the
 * triangles in front and behind. Both sums run in coordinates relative to o (the mean vertex)
 * to keep cancellation small, then shift back with the affine transform below:
 *   x' = A x + p:  V' = det(A) V,  c' = det(A) (A c + m p),
 *                  S' = det(A) (A S A^T + A c p^T + p c^T A^T + m p p^T).
 *
 * Orthogonality potential (Lan et al. 2022, "Affine Body Dynamics"), F = A A^T - I:
 *   E = kappa V ||F||^2,   dE/dA = 4 kappa V F A,
 *   d2E/dA_ij dA_kl = 4 kappa V (delta_ik (A^T A)_lj + A_il A_kj + F_ik delta_jl),
 * from dF = dA A^T + A dA^T and the symmetry of F.
 *
 * Inertia: implicit Euler's incremental potential (IPC, Li et al. 2020, eq. 3) in the
 * generalized coordinates, with M = integral rho J^T J dV = M4 (x) I3 (Baraff and Witkin
 * 1992: the mass matrix of a global deformation is the body's moments). */
#include "affine/affine.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "linalg/eig_small.h"

/* unit-density moments accumulated in coordinates relative to the reference point */
typedef struct moment_sum {
  double volume, first[3], second[9];
} moment_sum;

/* adds the exact moments of the tet (y0, y1, y2, y3); returns its signed volume */
static double add_tet(const double *y0, const double *y1, const double *y2, const double *y3,
                      moment_sum *acc) {
  double e1[3], e2[3], e3[3], s[3];
  for (int i = 0; i < 3; ++i) {
    e1[i] = y1[i] - y0[i];
    e2[i] = y2[i] - y0[i];
    e3[i] = y3[i] - y0[i];
    s[i] = y0[i] + y1[i] + y2[i] + y3[i];
  }
  double vol = (e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                e1[2] * (e2[0] * e3[1] - e2[1] * e3[0])) /
               6.0;
  acc->volume += vol;
  for (int i = 0; i < 3; ++i) {
    acc->first[i] += vol * s[i] / 4.0;
    for (int j = 0; j < 3; ++j) {
      double yy = y0[i] * y0[j] + y1[i] * y1[j] + y2[i] * y2[j] + y3[i] * y3[j];
      acc->second[3 * i + j] += vol * (yy + s[i] * s[j]) / 20.0;
    }
  }
  return vol;
}

/* mean of the vertices: the reference point of the sums */
static void mean_vertex(int nverts, const double *x, double o[3]) {
  o[0] = o[1] = o[2] = 0.0;
  for (int v = 0; v < nverts; ++v)
    for (int i = 0; i < 3; ++i) o[i] += x[3 * v + i];
  for (int i = 0; i < 3; ++i) o[i] /= nverts;
}

/* x[idx] - o */
static void relative(const double *x, int idx, const double o[3], double y[3]) {
  for (int i = 0; i < 3; ++i) y[i] = x[3 * idx + i] - o[i];
}

/* scales the unit-density sums by rho and shifts them from o back to the origin */
static void finish_moments(const moment_sum *acc, double rho, const double o[3],
                           ipc_affine_moments *out) {
  ipc_affine_moments rel;
  rel.volume = acc->volume;
  rel.mass = rho * acc->volume;
  for (int i = 0; i < 3; ++i) rel.first[i] = rho * acc->first[i];
  for (int k = 0; k < 9; ++k) rel.second[k] = rho * acc->second[k];
  const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  ipc_affine_moments_transform(&rel, I, o, out);
}

static ipcc_status check_rho(double rho, ipcc_error *err) {
  if (!(rho > 0.0) || !isfinite(rho))
    return ipc_error_set(err, IPCC_ERR_INPUT, "affine body: density %g, expected > 0", rho);
  return IPCC_OK;
}

/* checks that the nelem elements of nper corners index vertices 0..nverts-1 */
static ipcc_status check_indices(int nverts, int nelem, int nper, const int *elems,
                                 const char *what, ipcc_error *err) {
  for (int e = 0; e < nelem; ++e)
    for (int c = 0; c < nper; ++c) {
      int v = elems[nper * e + c];
      if (v < 0 || v >= nverts)
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "affine body: %s %d has vertex %d, expected 0..%d", what, e, v,
                             nverts - 1);
    }
  return IPCC_OK;
}

ipcc_status ipc_affine_moments_tets(int nverts, const double *x, int ntets, const int *tets,
                                    double rho, ipc_affine_moments *out, ipcc_error *err) {
  memset(out, 0, sizeof *out);
  if (check_rho(rho, err)) return IPCC_ERR_INPUT;
  if (ntets <= 0) return ipc_error_set(err, IPCC_ERR_INPUT, "affine body: no tetrahedra");
  if (check_indices(nverts, ntets, 4, tets, "tet", err)) return IPCC_ERR_INPUT;
  double o[3];
  mean_vertex(nverts, x, o);
  moment_sum acc = {0};
  for (int t = 0; t < ntets; ++t) {
    double y[4][3];
    for (int c = 0; c < 4; ++c) relative(x, tets[4 * t + c], o, y[c]);
    double vol = add_tet(y[0], y[1], y[2], y[3], &acc);
    if (!(vol > 0.0))
      return ipc_error_set(err, IPCC_ERR_INPUT, "affine body: tet %d has volume %g, expected > 0",
                           t, vol);
  }
  finish_moments(&acc, rho, o, out);
  return IPCC_OK;
}

/* a directed edge as one sortable key */
static int64_t edge_key(int from, int to, int nverts) {
  return (int64_t)from * nverts + to;
}

static int cmp_key(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* a closed, consistently oriented 2-manifold uses every directed edge once and its opposite
   once; the divergence theorem needs exactly that */
static ipcc_status check_closed(int nverts, int ntris, const int *tris, ipcc_error *err) {
  for (int t = 0; t < ntris; ++t) {
    const int *f = tris + 3 * t;
    if (f[0] == f[1] || f[1] == f[2] || f[2] == f[0])
      return ipc_error_set(err, IPCC_ERR_INPUT, "affine body: triangle %d repeats a vertex", t);
  }
  size_t n = 3 * (size_t)ntris;
  int64_t *keys = IPC_NEW(int64_t, n);
  for (int t = 0; t < ntris; ++t)
    for (int c = 0; c < 3; ++c)
      keys[3 * t + c] = edge_key(tris[3 * t + c], tris[3 * t + (c + 1) % 3], nverts);
  qsort(keys, n, sizeof *keys, cmp_key);
  ipcc_status st = IPCC_OK;
  for (size_t e = 0; e < n && st == IPCC_OK; ++e) {
    int from = (int)(keys[e] / nverts), to = (int)(keys[e] % nverts);
    int64_t back = edge_key(to, from, nverts);
    if (e + 1 < n && keys[e + 1] == keys[e])
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "affine body: edge %d->%d is used twice: the surface is not "
                         "consistently oriented or not manifold",
                         from, to);
    else if (!bsearch(&back, keys, n, sizeof *keys, cmp_key))
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "affine body: edge %d->%d has no opposite edge: the surface is not "
                         "closed",
                         from, to);
  }
  ipc_free(keys);
  return st;
}

ipcc_status ipc_affine_moments_surface(int nverts, const double *x, int ntris, const int *tris,
                                       double rho, ipc_affine_moments *out, ipcc_error *err) {
  memset(out, 0, sizeof *out);
  if (check_rho(rho, err)) return IPCC_ERR_INPUT;
  if (ntris <= 0) return ipc_error_set(err, IPCC_ERR_INPUT, "affine body: no triangles");
  if (check_indices(nverts, ntris, 3, tris, "triangle", err)) return IPCC_ERR_INPUT;
  if (check_closed(nverts, ntris, tris, err)) return IPCC_ERR_INPUT;
  double o[3];
  mean_vertex(nverts, x, o);
  const double zero[3] = {0.0, 0.0, 0.0};
  moment_sum acc = {0};
  for (int t = 0; t < ntris; ++t) {
    double y[3][3];
    for (int c = 0; c < 3; ++c) relative(x, tris[3 * t + c], o, y[c]);
    add_tet(zero, y[0], y[1], y[2], &acc);
  }
  if (!(acc.volume > 0.0))
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "affine body: the surface encloses volume %g, expected > 0 (are its "
                         "triangles oriented inward?)",
                         acc.volume);
  finish_moments(&acc, rho, o, out);
  return IPCC_OK;
}

static double det3(const double A[9]) {
  return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
         A[2] * (A[3] * A[7] - A[4] * A[6]);
}

void ipc_affine_moments_transform(const ipc_affine_moments *in, const double A[9],
                                  const double p[3], ipc_affine_moments *out) {
  const double d = det3(A);
  assert(d > 0.0);
  double Ac[3], AS[9], ASA[9];
  for (int i = 0; i < 3; ++i) {
    Ac[i] = 0.0;
    for (int k = 0; k < 3; ++k) Ac[i] += A[3 * i + k] * in->first[k];
    for (int j = 0; j < 3; ++j) {
      AS[3 * i + j] = 0.0;
      for (int k = 0; k < 3; ++k) AS[3 * i + j] += A[3 * i + k] * in->second[3 * k + j];
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      ASA[3 * i + j] = 0.0;
      for (int k = 0; k < 3; ++k) ASA[3 * i + j] += AS[3 * i + k] * A[3 * j + k];
    }
  const double m = in->mass;
  ipc_affine_moments r;
  r.volume = d * in->volume;
  r.mass = d * m;
  for (int i = 0; i < 3; ++i) {
    r.first[i] = d * (Ac[i] + m * p[i]);
    for (int j = 0; j <= i; ++j) /* one triangle, mirrored: S' exactly symmetric */
      r.second[3 * i + j] = r.second[3 * j + i] =
          d * (ASA[3 * i + j] + Ac[i] * p[j] + p[i] * Ac[j] + m * p[i] * p[j]);
  }
  *out = r;
}

void ipc_affine_mass4(const ipc_affine_moments *mom, double M4[16]) {
  M4[0] = mom->mass;
  for (int a = 0; a < 3; ++a) {
    M4[1 + a] = M4[4 * (1 + a)] = mom->first[a];
    for (int b = 0; b < 3; ++b) M4[4 * (1 + a) + 1 + b] = mom->second[3 * a + b];
  }
}

void ipc_affine_mass_matrix(const ipc_affine_moments *mom, double M[144]) {
  double M4[16];
  ipc_affine_mass4(mom, M4);
  memset(M, 0, 144 * sizeof *M);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i) M[12 * (3 * a + i) + 3 * b + i] = M4[4 * a + b];
}

void ipc_affine_mass_mul(const ipc_affine_moments *mom, const double v[12], double out[12]) {
  double M4[16], r[12] = {0};
  ipc_affine_mass4(mom, M4);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i) r[3 * a + i] += M4[4 * a + b] * v[3 * b + i];
  memcpy(out, r, sizeof r);
}

void ipc_affine_fit_velocity(int nv, const double *xbar, const double *mass, const double *v,
                             double qdot[12]) {
  ipc_affine_moments lm;
  memset(&lm, 0, sizeof lm);
  double f[12] = {0};
  for (int i = 0; i < nv; ++i) {
    const double *xb = xbar + 3 * (size_t)i, *vi = v + 3 * (size_t)i;
    double mi = mass[i], wt[4] = {1.0, xb[0], xb[1], xb[2]};
    lm.mass += mi;
    for (int r = 0; r < 3; ++r) {
      lm.first[r] += mi * wt[1 + r];
      for (int c = 0; c < 3; ++c) lm.second[3 * r + c] += mi * wt[1 + r] * wt[1 + c];
    }
    for (int k = 0; k < 4; ++k)
      for (int d = 0; d < 3; ++d) f[3 * k + d] += mi * wt[k] * vi[d];
  }
  if (ipc_affine_mass_solve(&lm, f, qdot) != 0) memset(qdot, 0, 12 * sizeof(double));
}

int ipc_affine_mass_solve(const ipc_affine_moments *mom, const double f[12], double out[12]) {
  double L[16];
  ipc_affine_mass4(mom, L);
  /* in-place Cholesky M4 = L L^T (lower triangle) */
  for (int j = 0; j < 4; ++j) {
    double d = L[5 * j];
    for (int k = 0; k < j; ++k) d -= L[4 * j + k] * L[4 * j + k];
    if (!(d > 0.0)) return 1;
    L[5 * j] = sqrt(d);
    for (int i = j + 1; i < 4; ++i) {
      double s = L[4 * i + j];
      for (int k = 0; k < j; ++k) s -= L[4 * i + k] * L[4 * j + k];
      L[4 * i + j] = s / L[5 * j];
    }
  }
  double r[12];
  memcpy(r, f, sizeof r);
  for (int i = 0; i < 3; ++i) {
    for (int a = 0; a < 4; ++a) { /* L y = f_i */
      double s = r[3 * a + i];
      for (int b = 0; b < a; ++b) s -= L[4 * a + b] * r[3 * b + i];
      r[3 * a + i] = s / L[5 * a];
    }
    for (int a = 3; a >= 0; --a) { /* L^T z = y */
      double s = r[3 * a + i];
      for (int b = a + 1; b < 4; ++b) s -= L[4 * b + a] * r[3 * b + i];
      r[3 * a + i] = s / L[5 * a];
    }
  }
  memcpy(out, r, sizeof r);
  return 0;
}

void ipc_affine_position(const double q[12], const double xbar[3], double x[3]) {
  for (int i = 0; i < 3; ++i)
    x[i] = q[i] + xbar[0] * q[3 + i] + xbar[1] * q[6 + i] + xbar[2] * q[9 + i];
}

void ipc_affine_jacobian(const double xbar[3], double J[36]) {
  const double w[4] = {1.0, xbar[0], xbar[1], xbar[2]};
  memset(J, 0, 36 * sizeof *J);
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) J[12 * i + 3 * a + i] = w[a];
}

/* A (row-major 3x3) from q, and F = A A^T - I */
static void orth_parts(const double q[12], double A[9], double F[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[3 * i + j] = q[3 + 3 * j + i];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = i == j ? -1.0 : 0.0;
      for (int k = 0; k < 3; ++k) s += A[3 * i + k] * A[3 * j + k];
      F[3 * i + j] = s;
    }
}

double ipc_affine_orth_energy(const double q[12], double kappa, double volume) {
  double A[9], F[9], s = 0.0;
  orth_parts(q, A, F);
  for (int k = 0; k < 9; ++k) s += F[k] * F[k];
  return kappa * volume * s;
}

void ipc_affine_orth_gradient(const double q[12], double kappa, double volume, double g[12]) {
  double A[9], F[9];
  orth_parts(q, A, F);
  const double c = 4.0 * kappa * volume;
  g[0] = g[1] = g[2] = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += F[3 * i + k] * A[3 * k + j];
      g[3 + 3 * j + i] = c * s;
    }
}

void ipc_affine_orth_hessian(const double q[12], double kappa, double volume, double H[144]) {
  double A[9], F[9], AtA[9];
  orth_parts(q, A, F);
  for (int l = 0; l < 3; ++l)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += A[3 * k + l] * A[3 * k + j];
      AtA[3 * l + j] = s;
    }
  const double c = 4.0 * kappa * volume;
  memset(H, 0, 144 * sizeof *H);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) {
          double h = A[3 * i + l] * A[3 * k + j];
          if (i == k) h += AtA[3 * l + j];
          if (j == l) h += F[3 * i + k];
          H[12 * (3 + 3 * j + i) + 3 + 3 * l + k] = c * h;
        }
}

/* projects the 9 x 9 A block of a 12 x 12 Hessian (the p rows and columns are zero) onto
   the PSD cone; returns 0, or the eigen-solver's status with H unchanged */
static int project_a_block(double H[144]) {
  double B[81];
  for (int r = 0; r < 9; ++r)
    for (int s = 0; s < 9; ++s) B[9 * r + s] = H[12 * (3 + r) + 3 + s];
  int st = ipc_psd_project_small(9, B);
  if (st) return st;
  for (int r = 0; r < 9; ++r)
    for (int s = 0; s < 9; ++s) H[12 * (3 + r) + 3 + s] = B[9 * r + s];
  return 0;
}

int ipc_affine_orth_hessian_psd(const double q[12], double kappa, double volume, double H[144]) {
  ipc_affine_orth_hessian(q, kappa, volume, H);
  return project_a_block(H);
}

/* the strain damping's parts: A (row-major) and S = A^T A - G0 */
static void strain_parts(const double q[12], const double G0[9], double A[9], double S[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[3 * i + j] = q[3 + 3 * j + i];
  for (int l = 0; l < 3; ++l)
    for (int j = 0; j < 3; ++j) {
      double t = -G0[3 * l + j];
      for (int k = 0; k < 3; ++k) t += A[3 * k + l] * A[3 * k + j];
      S[3 * l + j] = t;
    }
}

double ipc_affine_strain_energy(const double q[12], const double G0[9], double c) {
  double A[9], S[9], t = 0.0;
  strain_parts(q, G0, A, S);
  for (int k = 0; k < 9; ++k) t += S[k] * S[k];
  return c * t;
}

void ipc_affine_strain_gradient(const double q[12], const double G0[9], double c, double g[12]) {
  double A[9], S[9];
  strain_parts(q, G0, A, S);
  g[0] = g[1] = g[2] = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double t = 0.0;
      for (int l = 0; l < 3; ++l) t += A[3 * i + l] * S[3 * l + j];
      g[3 + 3 * j + i] = 4.0 * c * t;
    }
}

void ipc_affine_strain_hessian(const double q[12], const double G0[9], double c, double H[144]) {
  double A[9], S[9], AAt[9];
  strain_parts(q, G0, A, S);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      double t = 0.0;
      for (int l = 0; l < 3; ++l) t += A[3 * i + l] * A[3 * k + l];
      AAt[3 * i + k] = t;
    }
  memset(H, 0, 144 * sizeof *H);
  /* d g_ij / d A_km = 4c (delta_ik S_mj + A_im A_kj + delta_jm (A A^T)_ik) */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        for (int m = 0; m < 3; ++m) {
          double h = A[3 * i + m] * A[3 * k + j];
          if (i == k) h += S[3 * m + j];
          if (j == m) h += AAt[3 * i + k];
          H[12 * (3 + 3 * j + i) + 3 + 3 * m + k] = 4.0 * c * h;
        }
}

int ipc_affine_strain_hessian_psd(const double q[12], const double G0[9], double c,
                                  double H[144]) {
  ipc_affine_strain_hessian(q, G0, c, H);
  return project_a_block(H);
}

void ipc_affine_gram(const double q[12], double G[9]) {
  double A[9], S[9];
  const double zero[9] = {0};
  strain_parts(q, zero, A, S);
  memcpy(G, S, sizeof S);
}

/* weights w = (1, xbar) of vertex v and the offset of its body's block */
static void vertex_weights(const double *xbar, const int *body, int v, double w[4], int *off) {
  w[0] = 1.0;
  for (int a = 0; a < 3; ++a) w[1 + a] = xbar[3 * v + a];
  *off = body ? 12 * body[v] : 0;
}

/* out (n) = J^T g over the vertices' bodies; n = 12 or 24 */
static void pull_gradient(int k, const double *xbar, const int *body, const double *g, int n,
                          double *out) {
  memset(out, 0, (size_t)n * sizeof *out);
  for (int v = 0; v < k; ++v) {
    double w[4];
    int off;
    vertex_weights(xbar, body, v, w, &off);
    assert(off + 12 <= n);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) out[off + 3 * a + i] += w[a] * g[3 * v + i];
  }
}

/* out (n x n) = J^T H J over the vertices' bodies */
static void pull_hessian(int k, const double *xbar, const int *body, const double *H, int n,
                         double *out) {
  memset(out, 0, (size_t)n * (size_t)n * sizeof *out);
  const int m = 3 * k;
  for (int v = 0; v < k; ++v) {
    double wv[4];
    int ov;
    vertex_weights(xbar, body, v, wv, &ov);
    assert(ov + 12 <= n);
    for (int u = 0; u < k; ++u) {
      double wu[4];
      int ou;
      vertex_weights(xbar, body, u, wu, &ou);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double h = H[m * (3 * v + i) + 3 * u + j];
          for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
              out[n * (ov + 3 * a + i) + ou + 3 * b + j] += wv[a] * wu[b] * h;
        }
    }
  }
}

void ipc_affine_pull_gradient(int k, const double *xbar, const double *g, double out[12]) {
  pull_gradient(k, xbar, NULL, g, 12, out);
}

void ipc_affine_pull_hessian(int k, const double *xbar, const double *H, double out[144]) {
  pull_hessian(k, xbar, NULL, H, 12, out);
}

void ipc_affine_pull_gradient2(int k, const double *xbar, const int *body, const double *g,
                               double out[24]) {
  pull_gradient(k, xbar, body, g, 24, out);
}

void ipc_affine_pull_hessian2(int k, const double *xbar, const int *body, const double *H,
                              double out[576]) {
  pull_hessian(k, xbar, body, H, 24, out);
}

int ipc_affine_predict(const ipc_affine_moments *mom, const double qn[12], const double qdotn[12],
                       double h, const double *f_ext, double qtilde[12]) {
  double acc[12] = {0};
  if (f_ext && ipc_affine_mass_solve(mom, f_ext, acc)) return 1;
  for (int k = 0; k < 12; ++k) qtilde[k] = qn[k] + h * qdotn[k] + h * h * acc[k];
  return 0;
}

double ipc_affine_inertia(const ipc_affine_moments *mom, const double q[12],
                          const double qtilde[12], double *g) {
  double d[12], Md[12], e = 0.0;
  for (int k = 0; k < 12; ++k) d[k] = q[k] - qtilde[k];
  ipc_affine_mass_mul(mom, d, Md);
  for (int k = 0; k < 12; ++k) e += d[k] * Md[k];
  if (g) memcpy(g, Md, sizeof Md);
  return 0.5 * e;
}

void ipc_affine_uniform_force(const ipc_affine_moments *mom, const double gvec[3], double f[12]) {
  for (int i = 0; i < 3; ++i) {
    f[i] = mom->mass * gvec[i];
    for (int a = 0; a < 3; ++a) f[3 + 3 * a + i] = mom->first[a] * gvec[i];
  }
}

/* cofactor matrix of A (row-major): cof(A) = det(A) A^-T */
static void cofactor3(const double A[9], double C[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      C[3 * i + j] = A[3 * i1 + j1] * A[3 * i2 + j2] - A[3 * i1 + j2] * A[3 * i2 + j1];
    }
}

/* Newton's iteration R <- (R + R^-T) / 2 converges quadratically to the polar factor from
   any nonsingular start (Higham 1986); near a rotation a handful of iterations reach the
   rounding level */
int ipc_affine_polar(const double A[9], double R[9]) {
  memcpy(R, A, 9 * sizeof(double));
  for (int it = 0; it < 100; ++it) {
    double d = det3(R), C[9], change = 0, size = 0;
    if (!(d > 0) || !isfinite(d)) return 1;
    cofactor3(R, C);
    for (int k = 0; k < 9; ++k) {
      double r = 0.5 * (R[k] + C[k] / d);
      change = fmax(change, fabs(r - R[k]));
      size = fmax(size, fabs(r));
      R[k] = r;
    }
    if (change <= 4 * DBL_EPSILON * size) return 0;
  }
  return 0;
}

/* the Newton step as a displacement field of space: x = A xbar + p moves by
   dx = dA xbar + dp = G x + u, G = dA A^-1, u = dp - G p. G's skew part W with u is a twist
   (a screw motion's rate) and its symmetric part E a strain rate. out: alpha-scaled rotation
   vector wv (W v = wv x v / alpha), alpha u, alpha E. Returns 1 when det A <= 0. */
static int step_twist(const double q[12], const double dq[12], double alpha, double wv[3],
                      double u[3], double E[9], double A[9]) {
  double dA[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      A[3 * i + j] = q[3 + 3 * j + i];
      dA[3 * i + j] = dq[3 + 3 * j + i];
    }
  double d = det3(A), C[9];
  if (!(d > 0) || !isfinite(d)) return 1;
  cofactor3(A, C);
  double G[9]; /* dA A^-1, A^-1 = C^T / d */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += dA[3 * i + k] * C[3 * j + k];
      G[3 * i + j] = s / d;
    }
  for (int i = 0; i < 3; ++i)
    u[i] = alpha * (dq[i] - G[3 * i] * q[0] - G[3 * i + 1] * q[1] - G[3 * i + 2] * q[2]);
  wv[0] = 0.5 * alpha * (G[7] - G[5]);
  wv[1] = 0.5 * alpha * (G[2] - G[6]);
  wv[2] = 0.5 * alpha * (G[3] - G[1]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) E[3 * i + j] = 0.5 * alpha * (G[3 * i + j] + G[3 * j + i]);
  return 0;
}

/* the trial x' = exp(alpha (W, u)) (I + alpha E) x: the screw motion's exponential
   (Rodrigues for the rotation R, V u for the translation) after the strain. It agrees with
   x + alpha dx to first order, keeps a rotation a rotation, and fixes the points the twist
   does not move (the screw axis), so a body pivoting on a contact keeps the contact point in
   place */
void ipc_affine_curved_step(const double q[12], const double dq[12], double alpha, double out[12]) {
  double w[3], u[3], E[9], A[9];
  if (step_twist(q, dq, alpha, w, u, E, A)) { /* no rotation to follow: the straight step */
    for (int k = 0; k < 12; ++k) out[k] = q[k] + alpha * dq[k];
    return;
  }
  double th2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2], th = sqrt(th2);
  /* R = I + a K + b K^2 and V = I + b K + c K^2, K = [w]x; series below 1e-3 rad (error
     below 1e-16) */
  double a = th < 1e-3 ? 1.0 - th2 / 6.0 : sin(th) / th;
  double b = th < 1e-3 ? 0.5 - th2 / 24.0 : (1.0 - cos(th)) / th2;
  double c = th < 1e-3 ? 1.0 / 6.0 - th2 / 120.0 : (th - sin(th)) / (th2 * th);
  double K[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0}, R[9], t[3];
  for (int i = 0; i < 3; ++i) {
    t[i] = u[i];
    for (int j = 0; j < 3; ++j) {
      double k2 = 0;
      for (int k = 0; k < 3; ++k) k2 += K[3 * i + k] * K[3 * k + j];
      R[3 * i + j] = (i == j ? 1.0 : 0.0) + a * K[3 * i + j] + b * k2;
      t[i] += (b * K[3 * i + j] + c * k2) * u[j];
    }
  }
  /* M = R (I + alpha E): A' = M A, p' = M p + t */
  double M[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += R[3 * i + k] * ((k == j ? 1.0 : 0.0) + E[3 * k + j]);
      M[3 * i + j] = s;
    }
  for (int i = 0; i < 3; ++i) {
    out[i] = t[i] + M[3 * i] * q[0] + M[3 * i + 1] * q[1] + M[3 * i + 2] * q[2];
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += M[3 * i + k] * A[3 * k + j];
      out[3 + 3 * j + i] = s;
    }
  }
}

/* x(t), t in [0, 1], the trial path of a point for step alpha t: the screw part moves on a
   helix, |d2/dt2| = r phi^2 (r its distance to the axis, phi = |w|); the strain part
   e(t) = R_t t alpha E x has |e''| <= (phi^2 + 2 phi) |alpha E x|. Linear interpolation
   leaves at most max |x''| / 8 */
double ipc_affine_curved_sag(const double q[12], const double dq[12], double alpha, int n,
                             const double *x) {
  double w[3], u[3], E[9], A[9];
  if (n <= 0 || step_twist(q, dq, alpha, w, u, E, A)) return 0.0;
  double phi2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2], phi = sqrt(phi2);
  /* r phi^2 = |(x - c) x w| |w| with c on the axis, and c x w = u - w (w.u) / phi^2 */
  double up[3] = {u[0], u[1], u[2]};
  if (phi2 > 0) {
    double wu = (w[0] * u[0] + w[1] * u[1] + w[2] * u[2]) / phi2;
    for (int d = 0; d < 3; ++d) up[d] -= wu * w[d];
  }
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double *p = x + 3 * (size_t)i;
    double cx[3] = {p[1] * w[2] - p[2] * w[1] - up[0], p[2] * w[0] - p[0] * w[2] - up[1],
                    p[0] * w[1] - p[1] * w[0] - up[2]};
    double rphi2 = phi2 > 0 ? sqrt(cx[0] * cx[0] + cx[1] * cx[1] + cx[2] * cx[2]) * phi : 0.0;
    double ex2 = 0;
    for (int r = 0; r < 3; ++r) {
      double s = E[3 * r] * p[0] + E[3 * r + 1] * p[1] + E[3 * r + 2] * p[2];
      ex2 += s * s;
    }
    worst = fmax(worst, rphi2 + (phi2 + 2 * phi) * sqrt(ex2));
  }
  return worst / 8.0;
}

double ipc_affine_body_energy(const ipc_affine_moments *mom, const double q[12],
                              const double qdot[12], const double gvec[3], double kappa) {
  double Mqd[12], f[12], e = 0;
  ipc_affine_mass_mul(mom, qdot, Mqd);
  ipc_affine_uniform_force(mom, gvec, f);
  for (int k = 0; k < 12; ++k) e += 0.5 * qdot[k] * Mqd[k] - f[k] * q[k];
  return e + ipc_affine_orth_energy(q, kappa, mom->volume);
}
