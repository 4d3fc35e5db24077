/* tests for src/linalg/sparse.c: random assemblies against a dense reference, pattern reuse
 * and change detection under both policies, Dirichlet masks, products, gather/scatter */
#include "linalg/sparse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd_u32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

static int rnd_int(int n) {
  return (int)(rnd_u32() % (uint32_t)n);
}

static double rnd_unit(void) {
  return rnd_u32() / 4294967296.0 * 2.0 - 1.0;
}

/* random symmetric n x n */
static void rnd_sym(int n, double *H) {
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) H[i * n + j] = H[j * n + i] = rnd_unit();
}

/* nv distinct vertex ids out of nverts */
static void rnd_distinct(int nv, int nverts, int *ids) {
  for (int a = 0; a < nv; ++a) {
    bool again;
    do {
      ids[a] = rnd_int(nverts);
      again = false;
      for (int b = 0; b < a; ++b) again |= ids[b] == ids[a];
    } while (again);
  }
}

/* dense reference over all 3 nverts DOFs */
typedef struct dense {
  int n;
  double *a; /* (n x n) */
} dense;

static void dense_add(dense *D, int nv, const int *ids, const double *H) {
  int ld = 3 * nv;
  for (int a = 0; a < nv; ++a)
    for (int r = 0; r < 3; ++r)
      for (int b = 0; b < nv; ++b)
        for (int c = 0; c < 3; ++c)
          D->a[(3 * ids[a] + r) * D->n + 3 * ids[b] + c] += H[(3 * a + r) * ld + 3 * b + c];
}

/* checks the CSC invariants and expands it into a dense n x n (symmetric) */
static bool csc_expand(const ipc_csc *A, double *out) {
  bool ok = A->colptr[0] == 0 && A->colptr[A->n] == A->nnz;
  memset(out, 0, sizeof(double) * (size_t)A->n * (size_t)A->n);
  for (int j = 0; j < A->n && ok; ++j) {
    int b = A->colptr[j], e = A->colptr[j + 1];
    ok = e > b && A->rowind[e - 1] == j; /* diagonal present, last */
    for (int k = b; k < e && ok; ++k) {
      int i = A->rowind[k];
      ok = i >= 0 && i <= j && (k == b || A->rowind[k - 1] < i);
      out[i * A->n + j] = out[j * A->n + i] = A->val[k];
    }
  }
  return ok;
}

/* compares A with the free-DOF part of the reference; returns max abs difference */
static double compare(const ipc_sparse *s, const ipc_csc *A, const dense *D) {
  const int *map = ipc_sparse_dof_map(s);
  int n = A->n;
  double *E = malloc(sizeof(double) * (size_t)n * (size_t)n + 1);
  CHECK_MSG(csc_expand(A, E), "malformed CSC");
  double err = 0.0;
  int nfree = 0;
  for (int i = 0; i < D->n; ++i) {
    if (map[i] < 0) continue;
    ++nfree;
    for (int j = 0; j < D->n; ++j)
      if (map[j] >= 0) err = fmax(err, fabs(E[map[i] * n + map[j]] - D->a[i * D->n + j]));
  }
  CHECK(nfree == n && n == ipc_sparse_num_free(s));
  free(E);
  return err;
}

/* a scene: element sets (tets, triangles), a pool of contacts, a diagonal */
enum { NV = 48, NTET = 40, NTRI = 12, NPOOL = 60 };
typedef struct scene {
  int tets[NTET * 4], tris[NTRI * 3];
  int cnv[NPOOL], cids[NPOOL * 4]; /* contacts: 1..4 vertices, repeats allowed */
} scene;

static void scene_make(scene *sc) {
  for (int e = 0; e < NTET; ++e) rnd_distinct(4, NV, sc->tets + 4 * e);
  for (int e = 0; e < NTRI; ++e) rnd_distinct(3, NV, sc->tris + 3 * e);
  for (int c = 0; c < NPOOL; ++c) {
    sc->cnv[c] = 1 + rnd_int(4);
    for (int a = 0; a < sc->cnv[c]; ++a) sc->cids[4 * c + a] = rnd_int(NV);
  }
}

/* one assembly of the elements, the diagonal and the contacts in list (n entries); fills the
 * dense reference too. Returns finish's flag. */
static bool assemble(ipc_sparse *s, const scene *sc, int set_tet, int set_tri, const int *list,
                     int n, dense *D, ipc_csc *A) {
  double H[144], diag[3 * NV];
  memset(D->a, 0, sizeof(double) * (size_t)D->n * (size_t)D->n);
  ipc_sparse_begin(s);
  for (int c = 0; c < n; ++c) { /* contacts first: order must not matter */
    int k = list[c], nv = sc->cnv[k];
    rnd_sym(3 * nv, H);
    ipc_sparse_add(s, nv, sc->cids + 4 * k, H);
    dense_add(D, nv, sc->cids + 4 * k, H);
  }
  for (int e = 0; e < NTET; ++e) {
    if (e % 7 == 3) continue; /* elements may be skipped */
    rnd_sym(12, H);
    ipc_sparse_add_element(s, set_tet, e, H);
    dense_add(D, 4, sc->tets + 4 * e, H);
  }
  for (int e = 0; e < NTRI; ++e) {
    rnd_sym(9, H);
    ipc_sparse_add_element(s, set_tri, e, H);
    dense_add(D, 3, sc->tris + 3 * e, H);
  }
  for (int i = 0; i < 3 * NV; ++i) {
    diag[i] = 1.0 + rnd_unit();
    D->a[i * D->n + i] += diag[i];
  }
  ipc_sparse_add_diagonal(s, diag);
  return ipc_sparse_finish(s, A);
}

/* copy of a pattern, to compare against the next one */
typedef struct pat_copy {
  int n, nnz;
  int *colptr, *rowind;
} pat_copy;

static void pat_save(pat_copy *p, const ipc_csc *A) {
  p->n = A->n;
  p->nnz = A->nnz;
  p->colptr = realloc(p->colptr, sizeof(int) * (size_t)(A->n + 1));
  p->rowind = realloc(p->rowind, sizeof(int) * (size_t)A->nnz + 1);
  memcpy(p->colptr, A->colptr, sizeof(int) * (size_t)(A->n + 1));
  memcpy(p->rowind, A->rowind, sizeof(int) * (size_t)A->nnz);
}

static bool pat_same(const pat_copy *p, const ipc_csc *A) {
  return p->n == A->n && p->nnz == A->nnz &&
         !memcmp(p->colptr, A->colptr, sizeof(int) * (size_t)(A->n + 1)) &&
         !memcmp(p->rowind, A->rowind, sizeof(int) * (size_t)A->nnz);
}

static void shuffle(int *a, int n) {
  for (int i = n - 1; i > 0; --i) {
    int j = rnd_int(i + 1), t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/* the scripted sequence: reuse, reorder, growth, shrink, masks */
static void test_sequence(ipc_sparse_policy policy) {
  scene sc;
  scene_make(&sc);
  dense D = {3 * NV, calloc((size_t)9 * NV * NV, sizeof(double))};
  ipc_sparse *s = ipc_sparse_create(NV);
  ipc_sparse_set_policy(s, policy);
  int st = ipc_sparse_add_element_set(s, NTET, 4, sc.tets);
  int sr = ipc_sparse_add_element_set(s, NTRI, 3, sc.tris);
  CHECK(st == 0 && sr == 1);
  ipc_csc A;
  pat_copy P = {0};
  int list[NPOOL];
  for (int i = 0; i < NPOOL; ++i) list[i] = i;

  /* 1: first finish reports a change */
  CHECK(assemble(s, &sc, st, sr, list, 20, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  pat_save(&P, &A);
  int rebuilds = ipc_sparse_num_rebuilds(s);

  /* 2: same contacts, new values */
  CHECK(!assemble(s, &sc, st, sr, list, 20, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  CHECK(pat_same(&P, &A));

  /* 3: same contacts, other order */
  shuffle(list, 20);
  CHECK(!assemble(s, &sc, st, sr, list, 20, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  CHECK(pat_same(&P, &A));
  CHECK(ipc_sparse_num_rebuilds(s) == rebuilds);

  /* 4: more contacts */
  for (int i = 0; i < NPOOL; ++i) list[i] = i;
  CHECK(assemble(s, &sc, st, sr, list, 30, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  CHECK(!pat_same(&P, &A));
  pat_save(&P, &A);

  /* 5: fewer contacts: kept as zeros (grow) or dropped (exact) */
  bool ch = assemble(s, &sc, st, sr, list, 10, &D, &A);
  CHECK(compare(s, &A, &D) < 1e-12);
  CHECK(ch == (policy == IPC_SPARSE_EXACT));
  CHECK(pat_same(&P, &A) == !ch);
  pat_save(&P, &A);

  /* 6: the pattern after a rebuild holds exactly the blocks of that assembly */
  ch = assemble(s, &sc, st, sr, list + 25, 10, &D, &A);
  CHECK(ch);
  CHECK(compare(s, &A, &D) < 1e-12);
  {
    ipc_sparse *f = ipc_sparse_create(NV);
    int a0 = ipc_sparse_add_element_set(f, NTET, 4, sc.tets);
    int a1 = ipc_sparse_add_element_set(f, NTRI, 3, sc.tris);
    dense D2 = {3 * NV, calloc((size_t)9 * NV * NV, sizeof(double))};
    ipc_csc A2;
    pat_save(&P, &A);
    CHECK(assemble(f, &sc, a0, a1, list + 25, 10, &D2, &A2));
    CHECK(pat_same(&P, &A2));
    free(D2.a);
    ipc_sparse_destroy(f);
  }
  pat_save(&P, &A);

  /* 7: a Dirichlet mask: some single DOFs, some whole vertices */
  unsigned char fixed[3 * NV] = {0};
  for (int i = 0; i < 3 * NV; ++i) fixed[i] = rnd_int(5) == 0;
  for (int v = 0; v < NV; v += 6) fixed[3 * v] = fixed[3 * v + 1] = fixed[3 * v + 2] = 1;
  ipc_sparse_set_mask(s, fixed);
  int nfree = 0;
  for (int i = 0; i < 3 * NV; ++i) nfree += !fixed[i];
  CHECK(ipc_sparse_num_free(s) == nfree);
  CHECK(assemble(s, &sc, st, sr, list + 25, 10, &D, &A));
  CHECK(A.n == nfree);
  CHECK(compare(s, &A, &D) < 1e-12);
  pat_save(&P, &A);
  CHECK(!assemble(s, &sc, st, sr, list + 25, 10, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  CHECK(pat_same(&P, &A));
  CHECK(assemble(s, &sc, st, sr, list, NPOOL, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);

  /* 8: contacts with fully fixed vertices only cost nothing */
  pat_save(&P, &A);
  int ids[3] = {0, 6, 12}; /* all three fully fixed */
  double H[81];
  ipc_sparse_begin(s);
  rnd_sym(9, H);
  ipc_sparse_add(s, 3, ids, H);
  for (int e = 0; e < NTET; ++e) {
    double Ht[144] = {0};
    ipc_sparse_add_element(s, st, e, Ht);
  }
  ch = ipc_sparse_finish(s, &A);
  CHECK(policy == IPC_SPARSE_EXACT ? ch : !ch);
  for (int k = 0; k < A.nnz; ++k) CHECK(A.val[k] == 0.0);

  /* 9: clearing the mask */
  ipc_sparse_set_mask(s, NULL);
  CHECK(assemble(s, &sc, st, sr, list, 5, &D, &A));
  CHECK(A.n == 3 * NV);
  CHECK(compare(s, &A, &D) < 1e-12);

  free(P.colptr);
  free(P.rowind);
  free(D.a);
  ipc_sparse_destroy(s);
}

/* many assemblies with random contact subsets and occasional mask changes: values always
 * match, and the flag is true exactly when the pattern differs */
static void test_random(ipc_sparse_policy policy) {
  scene sc;
  scene_make(&sc);
  dense D = {3 * NV, calloc((size_t)9 * NV * NV, sizeof(double))};
  ipc_sparse *s = ipc_sparse_create(NV);
  ipc_sparse_set_policy(s, policy);
  int st = ipc_sparse_add_element_set(s, NTET, 4, sc.tets);
  int sr = ipc_sparse_add_element_set(s, NTRI, 3, sc.tris);
  ipc_csc A;
  pat_copy P = {0};
  int list[NPOOL];
  bool in[NPOOL] = {0};
  for (int k = 0; k < NPOOL; k += 3) in[k] = true;
  double worst = 0.0;
  int changes = 0, unchanged = 0;
  bool setup = true;
  for (int it = 0; it < 300; ++it) {
    if (it % 50 == 49) {
      unsigned char fixed[3 * NV];
      for (int i = 0; i < 3 * NV; ++i) fixed[i] = rnd_int(6) == 0;
      ipc_sparse_set_mask(s, fixed);
      setup = true;
    }
    /* the contact set gains or loses a member half of the time */
    int op = rnd_int(4);
    if (op < 2) in[rnd_int(NPOOL)] = op == 0;
    int n = 0;
    for (int k = 0; k < NPOOL; ++k)
      if (in[k]) list[n++] = k;
    shuffle(list, n);
    bool ch = assemble(s, &sc, st, sr, list, n, &D, &A);
    worst = fmax(worst, compare(s, &A, &D));
    if (setup) {
      CHECK(ch);
    } else {
      CHECK_MSG(ch == !pat_same(&P, &A), "iteration %d: flag %d", it, ch);
    }
    changes += ch;
    unchanged += !ch;
    setup = false;
    pat_save(&P, &A);

    /* y = A x against the dense reference */
    if (it % 25 == 0) {
      const int *map = ipc_sparse_dof_map(s);
      double xf[3 * NV], x[3 * NV], y[3 * NV], yf[3 * NV], back[3 * NV];
      for (int i = 0; i < 3 * NV; ++i) xf[i] = map[i] >= 0 ? rnd_unit() : 0.0;
      ipc_sparse_gather(s, xf, x);
      ipc_sparse_scatter(s, x, back);
      for (int i = 0; i < 3 * NV; ++i) CHECK(back[i] == xf[i]);
      ipc_csc_mul(&A, x, y);
      ipc_sparse_scatter(s, y, yf);
      for (int i = 0; i < 3 * NV; ++i) {
        double ref = 0.0;
        for (int j = 0; j < 3 * NV; ++j) ref += D.a[i * D.n + j] * xf[j];
        if (map[i] >= 0) CHECK_NEAR(yf[i], ref, 1e-12);
      }
    }
  }
  CHECK(worst < 1e-12);
  CHECK(changes > 10 && unchanged > 10); /* both paths exercised */
  fprintf(stderr, "policy %d: %d changed, %d reused, %d rebuilds\n", (int)policy, changes,
          unchanged, ipc_sparse_num_rebuilds(s));
  free(P.colptr);
  free(P.rowind);
  free(D.a);
  ipc_sparse_destroy(s);
}

/* an element set added after assemblies with dynamic blocks keeps those blocks */
static void test_late_set(void) {
  scene sc;
  scene_make(&sc);
  dense D = {3 * NV, calloc((size_t)9 * NV * NV, sizeof(double))};
  ipc_sparse *s = ipc_sparse_create(NV);
  int st = ipc_sparse_add_element_set(s, NTET, 4, sc.tets);
  ipc_csc A;
  int list[NPOOL];
  for (int i = 0; i < NPOOL; ++i) list[i] = i;
  CHECK(ipc_sparse_add_element_set(s, 0, 3, NULL) == 1); /* an empty set is fine */
  double H[144];
  ipc_sparse_begin(s);
  for (int c = 0; c < 15; ++c) {
    rnd_sym(3 * sc.cnv[c], H);
    ipc_sparse_add(s, sc.cnv[c], sc.cids + 4 * c, H);
  }
  CHECK(ipc_sparse_finish(s, &A));
  int sr = ipc_sparse_add_element_set(s, NTRI, 3, sc.tris);
  CHECK(assemble(s, &sc, st, sr, list, 15, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  CHECK(!assemble(s, &sc, st, sr, list, 15, &D, &A));
  CHECK(compare(s, &A, &D) < 1e-12);
  free(D.a);
  ipc_sparse_destroy(s);
}

/* the empty problem and a problem with every DOF fixed */
static void test_degenerate(void) {
  ipc_sparse *s = ipc_sparse_create(0);
  ipc_csc A;
  ipc_sparse_begin(s);
  CHECK(ipc_sparse_finish(s, &A));
  CHECK(A.n == 0 && A.nnz == 0);
  ipc_sparse_destroy(s);

  s = ipc_sparse_create(4);
  int tet[4] = {0, 1, 2, 3};
  int set = ipc_sparse_add_element_set(s, 1, 4, tet);
  unsigned char fixed[12];
  memset(fixed, 1, sizeof fixed);
  ipc_sparse_set_mask(s, fixed);
  double H[144];
  rnd_sym(12, H);
  ipc_sparse_begin(s);
  ipc_sparse_add_element(s, set, 0, H);
  ipc_sparse_add(s, 4, tet, H);
  CHECK(ipc_sparse_finish(s, &A));
  CHECK(A.n == 0 && A.nnz == 0);
  ipc_sparse_destroy(s);
}

/* an affine scene's layout: real vertices first, every DOF fixed and in no element (the
   lead a rebuild skips), then bodies of 4 pseudo-vertices (one element each). Bodies are
   frozen and thawed (the lead grows when the first body's first vertex is fixed), real
   vertices freed and fixed again (the lead shrinks and grows back), and an element set over
   real vertices added late (a new fixed pattern); every assembly against the dense one, the
   pattern flag as in test_random */
static void test_lead(ipc_sparse_policy policy) {
  enum { NR = 24, NB = 6, N = NR + 4 * NB };
  dense D = {3 * N, calloc((size_t)9 * N * N, sizeof(double))};
  ipc_sparse *s = ipc_sparse_create(N);
  ipc_sparse_set_policy(s, policy);
  int pv[4 * NB];
  for (int i = 0; i < 4 * NB; ++i) pv[i] = NR + i;
  int set = ipc_sparse_add_element_set(s, NB, 4, pv), late = -1, tri[3] = {2, 5, NR + 9};
  unsigned char fixed[3 * N];
  memset(fixed, 0, sizeof fixed);
  memset(fixed, 1, 3 * NR);
  ipc_sparse_set_mask(s, fixed);
  ipc_csc A;
  pat_copy P = {0};
  double worst = 0.0, H[144], diag[3 * N];
  bool setup = true;
  int changes = 0;
  for (int it = 0; it < 240; ++it) {
    if (it % 12 == 11) { /* freeze or thaw bodies; free or fix real vertices */
      for (int b = 0; b < NB; ++b) memset(fixed + 3 * (NR + 4 * b), rnd_int(3) == 0, 12);
      if (it % 48 == 47) fixed[3 * rnd_int(NR) + rnd_int(3)] = 0;
      if (it % 48 == 23) memset(fixed, 1, 3 * NR);
      if (it % 36 == 35) memset(fixed + 3 * NR, 1, 3);
      ipc_sparse_set_mask(s, fixed);
      setup = true;
    }
    if (it == 120) {
      late = ipc_sparse_add_element_set(s, 1, 3, tri);
      setup = true;
    }
    memset(D.a, 0, sizeof(double) * (size_t)D.n * (size_t)D.n);
    ipc_sparse_begin(s);
    int nc = 1 + rnd_int(12);
    for (int c = 0; c < nc; ++c) { /* contacts between bodies, some with real vertices */
      int ids[4], nv = 2 + rnd_int(3);
      for (int a = 0; a < nv; ++a) ids[a] = rnd_int(4) == 0 ? rnd_int(NR) : NR + rnd_int(4 * NB);
      rnd_sym(3 * nv, H);
      ipc_sparse_add(s, nv, ids, H);
      dense_add(&D, nv, ids, H);
    }
    for (int b = 0; b < NB; ++b) {
      rnd_sym(12, H);
      ipc_sparse_add_element(s, set, b, H);
      dense_add(&D, 4, pv + 4 * b, H);
    }
    if (late >= 0) {
      rnd_sym(9, H);
      ipc_sparse_add_element(s, late, 0, H);
      dense_add(&D, 3, tri, H);
    }
    for (int i = 0; i < 3 * N; ++i) {
      diag[i] = 1.0 + rnd_unit();
      D.a[i * D.n + i] += diag[i];
    }
    ipc_sparse_add_diagonal(s, diag);
    bool ch = ipc_sparse_finish(s, &A);
    worst = fmax(worst, compare(s, &A, &D));
    if (!setup) CHECK_MSG(ch == !pat_same(&P, &A), "lead test, iteration %d: flag %d", it, ch);
    changes += ch;
    setup = false;
    pat_save(&P, &A);
  }
  CHECK(worst < 1e-12);
  CHECK(changes > 10);
  free(P.colptr);
  free(P.rowind);
  free(D.a);
  ipc_sparse_destroy(s);
}

int main(void) {
  test_sequence(IPC_SPARSE_GROW);
  test_sequence(IPC_SPARSE_EXACT);
  test_random(IPC_SPARSE_GROW);
  test_random(IPC_SPARSE_EXACT);
  test_lead(IPC_SPARSE_GROW);
  test_lead(IPC_SPARSE_EXACT);
  test_late_set();
  test_degenerate();
  TEST_MAIN_END();
}
