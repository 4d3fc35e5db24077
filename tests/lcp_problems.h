/* random LCP/BLCP generators shared by tests/test_lcp.c and tests/bench/bench_lcp.c:
 * dense symmetric positive definite M = B B^T / k + delta I, and contact-like Jacobian
 * problems W = J A^-1 J^T + reg I (point-triangle rows: -n on the point, barycentric
 * weights times n on the triangle; optional two tangent rows with friction bounds) */
#ifndef IPCC_TESTS_LCP_PROBLEMS_H
#define IPCC_TESTS_LCP_PROBLEMS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "lcp/lcp.h"

typedef struct gen_rng {
  uint64_t s;
} gen_rng;

/* splitmix64: deterministic across platforms */
static inline uint64_t gen_next(gen_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static inline double gen_unit(gen_rng *r) {
  return (double)(gen_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* uniform in [-1, 1) */
static inline double gen_sym(gen_rng *r) {
  return 2.0 * gen_unit(r) - 1.0;
}

/* integer in [0, n) */
static inline int gen_below(gen_rng *r, int n) {
  return (int)(gen_next(r) % (uint64_t)n);
}

/* M (n x n row-major) = B B^T / k + delta I with B (n x k) uniform in [-1, 1); q uniform */
static inline void gen_dense_spd(int n, int k, double delta, gen_rng *r, double *M, double *q) {
  double *B = IPC_NEW(double, (size_t)n *(size_t)k);
  for (long t = 0; t < (long)n * k; ++t) B[t] = gen_sym(r);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = 0.0;
      for (int t = 0; t < k; ++t) s += B[(long)i * k + t] * B[(long)j * k + t];
      s /= k;
      M[(long)i * n + j] = M[(long)j * n + i] = s;
    }
  for (int i = 0; i < n; ++i) M[(long)i * n + i] += delta;
  for (int i = 0; i < n; ++i) q[i] = gen_sym(r);
  ipc_free(B);
}

/* a contact problem: nc contacts over nv vertices (3 DOFs each), rows per contact 1
 * (normal) or 3 (normal, two tangents with bounds +-mu z_n); A^-1 diagonal (block 1,
 * inverse lumped masses in [0.5, 2]) or 3x3 SPD blocks (block 3) */
typedef struct gen_contact {
  int n; /* rows */
  int ndof;
  int block;
  ipc_lcp_csr J; /* owned */
  double *ainv;  /* (ndof / block x block x block) */
  double *reg;   /* (n) or NULL */
  double *q;     /* (n) */
  double *lo, *hi;
  int *dep; /* friction only */
} gen_contact;

static inline void gen_unit_vector(gen_rng *r, double *v) {
  double s;
  do {
    for (int k = 0; k < 3; ++k) v[k] = gen_sym(r);
    s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  } while (s < 0.1 || s > 1.0);
  for (int k = 0; k < 3; ++k) v[k] /= s;
}

static inline void gen_contact_make(gen_contact *g, int nc, int nv, int rows_per_contact, int block,
                                    double reg, double mu, gen_rng *r) {
  memset(g, 0, sizeof *g);
  g->n = nc * rows_per_contact;
  g->ndof = 3 * nv;
  g->block = block;
  int cap = g->n * 12;
  int *ri = IPC_NEW(int, cap), *ci = IPC_NEW(int, cap);
  double *v = IPC_NEW(double, cap);
  int m = 0;
  for (int c = 0; c < nc; ++c) {
    int vert[4];
    vert[0] = gen_below(r, nv);
    for (int k = 1; k < 4; ++k) {
      int again;
      do {
        vert[k] = gen_below(r, nv);
        again = 0;
        for (int t = 0; t < k; ++t) again |= vert[t] == vert[k];
      } while (again);
    }
    double bary[3] = {0.1 + gen_unit(r), 0.1 + gen_unit(r), 0.1 + gen_unit(r)};
    double bs = bary[0] + bary[1] + bary[2];
    double wgt[4] = {-1.0, bary[0] / bs, bary[1] / bs, bary[2] / bs};
    double dirs[3][3];
    gen_unit_vector(r, dirs[0]);
    /* tangents orthonormal to the normal */
    double a[3] = {1.0, 0.0, 0.0};
    if (fabs(dirs[0][0]) > 0.8) a[0] = 0.0, a[1] = 1.0;
    double dn = a[0] * dirs[0][0] + a[1] * dirs[0][1] + a[2] * dirs[0][2];
    for (int k = 0; k < 3; ++k) dirs[1][k] = a[k] - dn * dirs[0][k];
    double s = sqrt(dirs[1][0] * dirs[1][0] + dirs[1][1] * dirs[1][1] + dirs[1][2] * dirs[1][2]);
    for (int k = 0; k < 3; ++k) dirs[1][k] /= s;
    dirs[2][0] = dirs[0][1] * dirs[1][2] - dirs[0][2] * dirs[1][1];
    dirs[2][1] = dirs[0][2] * dirs[1][0] - dirs[0][0] * dirs[1][2];
    dirs[2][2] = dirs[0][0] * dirs[1][1] - dirs[0][1] * dirs[1][0];
    for (int rr = 0; rr < rows_per_contact; ++rr) {
      int row = c * rows_per_contact + rr;
      for (int k = 0; k < 4; ++k)
        for (int d = 0; d < 3; ++d) {
          ri[m] = row;
          ci[m] = 3 * vert[k] + d;
          v[m] = wgt[k] * dirs[rr][d];
          ++m;
        }
    }
  }
  ipc_lcp_csr_from_triplets(&g->J, g->n, g->ndof, m, ri, ci, v, NULL);
  ipc_free(ri);
  ipc_free(ci);
  ipc_free(v);
  int nb = g->ndof / block;
  g->ainv = IPC_NEW0(double, (size_t)nb *block *block);
  for (int b = 0; b < nb; ++b) {
    double *A = g->ainv + (long)b * block * block;
    if (block == 1) {
      A[0] = 1.0 / (0.5 + 1.5 * gen_unit(r));
    } else {
      /* (1/m) I + 0.2 R R^T / 3: symmetric positive definite */
      double inv_m = 1.0 / (0.5 + 1.5 * gen_unit(r));
      double R[9];
      for (int k = 0; k < 9; ++k) R[k] = gen_sym(r);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double t = 0.0;
          for (int k = 0; k < 3; ++k) t += R[3 * i + k] * R[3 * j + k];
          A[3 * i + j] = 0.2 * t / 3.0 + (i == j ? inv_m : 0.0);
        }
    }
  }
  if (reg > 0.0) {
    g->reg = IPC_NEW(double, g->n);
    for (int i = 0; i < g->n; ++i) g->reg[i] = reg;
  }
  g->q = IPC_NEW(double, g->n);
  for (int i = 0; i < g->n; ++i) g->q[i] = gen_sym(r);
  if (rows_per_contact == 3) {
    g->lo = IPC_NEW(double, g->n);
    g->hi = IPC_NEW(double, g->n);
    g->dep = IPC_NEW(int, g->n);
    for (int c = 0; c < nc; ++c) {
      int r0 = 3 * c;
      g->lo[r0] = 0.0;
      g->hi[r0] = INFINITY;
      g->dep[r0] = -1;
      /* normals mostly approaching (q_n < 0) so friction is active */
      g->q[r0] = -fabs(g->q[r0]);
      for (int k = 1; k < 3; ++k) {
        g->lo[r0 + k] = -mu;
        g->hi[r0 + k] = mu;
        g->dep[r0 + k] = r0;
      }
    }
  }
}

/* the problem view of g (bounds only when it has friction rows) */
static inline ipc_lcp_problem gen_contact_problem(const gen_contact *g) {
  ipc_lcp_problem p;
  memset(&p, 0, sizeof p);
  p.n = g->n;
  p.J = &g->J;
  p.ainv_block = g->block;
  p.ainv = g->ainv;
  p.reg = g->reg;
  p.q = g->q;
  p.lo = g->lo;
  p.hi = g->hi;
  p.dep = g->dep;
  return p;
}

static inline void gen_contact_free(gen_contact *g) {
  ipc_lcp_csr_free(&g->J);
  ipc_free(g->ainv);
  ipc_free(g->reg);
  ipc_free(g->q);
  ipc_free(g->lo);
  ipc_free(g->hi);
  ipc_free(g->dep);
  memset(g, 0, sizeof *g);
}

#endif
