/* the linear-solver interface (src/linalg/linear_solver.c) and its PETSc backend
   (src/linalg/petsc_solver.c): the CHOLMOD path gives CHOLMOD's bits; a matrix that is not
   positive definite is reported as CHOLMOD reports it and Newton's diagonal-shift retry
   then succeeds; a ball dropped on a box on the ground takes the same Newton iterations
   with petsc-mumps as with CHOLMOD (positions to round-off) and with petsc-cg-gamg (+-1 per
   step, positions within the Newton tolerance); newton.linear_solver names are checked.
   Block size 3 with the rigid-body modes (ipc_linear_solver_set_coordinates): set and unset
   on a small system, and a tet slab dropped on a plane (tools/gen_slab.py's scene, 6 x 2 x
   6 cubes) with petsc-cg-gamg against CHOLMOD as for the ball.
   In a build without PETSc only the CHOLMOD and name checks run (and test_petsc_stub checks
   the messages). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "linalg/cholmod_solver.h"
#include "linalg/linear_solver.h"
#include "test.h"

enum { STEPS = 12 };

/* a ball falling on a small box that rests on the ground: ball-box and box-ground
   contacts; nothing in it is symmetric, so the solution does not branch on round-off */
static const char *scene_text =
    "{\"time_step\": 0.02, \"duration\": 0.24, \"gravity\": [0, -9.81, 0],"
    " \"newton\": {\"tolerance\": 1e-2%s},"
    " \"bodies\": ["
    "  {\"name\": \"ball\", \"mesh\": \"../../scenes/meshes/ball_coarse.msh\", \"scale\": 0.5,"
    "   \"translation\": [0.09, 0.66, 0.05], \"rotation\": [17, 29, 5], \"velocity\": [0, -2, 0],"
    "   \"material\": {\"density\": 1000, \"young\": 1e5, \"poisson\": 0.4}},"
    "  {\"name\": \"box\", \"mesh\": \"../../scenes/meshes/cube_kuhn3.msh\", \"scale\": 0.6,"
    "   \"translation\": [0, 0.31, 0], \"rotation\": [0, 7, 0],"
    "   \"material\": {\"density\": 1000, \"young\": 1e5, \"poisson\": 0.4}}],"
    " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}";

/* a slab of 6 x 2 x 6 cubes of 1 cm (6 tets each) 2 mm above the plane, falling at 0.5
   m/s (tools/gen_slab.py's scene); %s: the mesh, %s: inside "newton" */
static const char *slab_text =
    "{\"time_step\": 0.01, \"duration\": 0.12, \"gravity\": [0, -9.80665, 0],"
    " \"newton\": {\"tolerance\": 1e-2%s},"
    " \"bodies\": [{\"name\": \"slab\", \"mesh\": \"%s\", \"translation\": [0, 0.002, 0],"
    "   \"velocity\": [0, -0.5, 0],"
    "   \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"young\": 1e6,"
    "    \"poisson\": 0.3}}],"
    " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}";

/* the slab's mesh (Gmsh 2.2) into path: nx x ny x nz cubes of edge h, Kuhn's 6 tets each
   (the paths from a corner to the opposite one along the axes), positive volumes */
static void write_slab(const char *path, int nx, int ny, int nz, double h) {
  FILE *f = fopen(path, "w");
  int nv = (nx + 1) * (ny + 1) * (nz + 1);
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n", nv);
  for (int i = 0, id = 1; i <= nx; ++i)
    for (int j = 0; j <= ny; ++j)
      for (int k = 0; k <= nz; ++k)
        fprintf(f, "%d %.17g %.17g %.17g\n", id++, (i - 0.5 * nx) * h, j * h, (k - 0.5 * nz) * h);
  static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  fprintf(f, "$EndNodes\n$Elements\n%d\n", 6 * nx * ny * nz);
  int e = 1;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k)
        for (int p = 0; p < 6; ++p) {
          int c[3] = {i, j, k}, t[4];
          for (int q = 0; q < 4; ++q) {
            if (q > 0) ++c[perm[p][q - 1]];
            t[q] = (c[0] * (ny + 1) + c[1]) * (nz + 1) + c[2] + 1;
          }
          if (p == 1 || p == 2 || p == 5) { /* odd permutations of the axes: negative volume */
            int tmp = t[1];
            t[1] = t[2];
            t[2] = tmp;
          }
          fprintf(f, "%d 4 2 0 1 %d %d %d %d\n", e++, t[0], t[1], t[2], t[3]);
        }
  fputs("$EndElements\n", f);
  fclose(f);
}

/* the scene (the ball, or the slab) with `extra` inside "newton" (e.g. ", \"linear_solver\":
   \"petsc-mumps\"") */
static ipcc_status load(const char *extra, int slab, ipcc_scene_def *def, ipcc_error *err) {
  char path[96], text[2048], mesh[64], mesh_path[96];
  snprintf(path, sizeof path, "tests/data/tmp_petsc_%d.json", (int)getpid());
  if (slab) {
    snprintf(mesh, sizeof mesh, "tmp_slab_%d.msh", (int)getpid());
    snprintf(mesh_path, sizeof mesh_path, "tests/data/%s", mesh);
    write_slab(mesh_path, 6, 2, 6, 0.01);
    snprintf(text, sizeof text, slab_text, extra, mesh);
  } else {
    snprintf(text, sizeof text, scene_text, extra);
  }
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  ipcc_status s = ipcc_scene_load(path, def, err);
  remove(path); /* the mesh stays until the world is made (simulate) */
  return s;
}

/* newton.linear_solver: every name parses; an unknown one and a non-string are refused with
   the key named */
static void names(void) {
  for (int k = 0; k < 4; ++k) {
    ipcc_linear_solver_kind kind;
    const char *name = ipc_linear_solver_kind_name((ipcc_linear_solver_kind)k);
    CHECK(ipc_linear_solver_kind_parse(name, &kind) && (int)kind == k);
  }
  ipcc_scene_def def;
  ipcc_error err;
  CHECK(load(", \"linear_solver\": \"superlu\"", 0, &def, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "key 'newton.linear_solver'") && strstr(err.msg, "\"superlu\"") &&
                strstr(err.msg, "petsc-cg-gamg"),
            "%s", err.msg);
  CHECK(load(", \"linear_solver\": 3", 0, &def, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "newton.linear_solver"), "%s", err.msg);
  CHECK(load("", 0, &def, &err) == IPCC_OK);
  CHECK(def.linear_solver == IPCC_LINEAR_SOLVER_CHOLMOD);
  ipcc_scene_def_free(&def);
  ipc_linear_solver *s = ipc_linear_solver_create((ipcc_linear_solver_kind)7, &err);
  CHECK(!s && err.status == IPCC_ERR_INPUT);
}

/* a random sparse SPD matrix (upper CSC, dense storage of the upper triangle for brevity) */
typedef struct small_csc {
  int n, colptr[33], rowind[600];
  double val[600];
} small_csc;

static void random_spd(small_csc *m, int n, unsigned seed) {
  m->n = n;
  int k = 0;
  for (int j = 0; j < n; ++j) {
    m->colptr[j] = k;
    for (int i = 0; i <= j; ++i) {
      seed = seed * 1103515245u + 12345u;
      double r = (double)(seed >> 8 & 0xffff) / 65536.0 - 0.5;
      if (i != j && (seed >> 4) % 3) continue; /* about a third of the off-diagonal entries */
      m->rowind[k] = i;
      m->val[k++] = i == j ? n : r;
    }
  }
  m->colptr[n] = k;
}

static ipc_csc view(const small_csc *m) {
  return (ipc_csc){m->n, m->colptr[m->n], m->colptr, m->rowind, m->val};
}

/* the interface's CHOLMOD path against CHOLMOD called directly: the same bits */
static void cholmod_bits(void) {
  small_csc m;
  random_spd(&m, 30, 7);
  ipc_csc A = view(&m);
  double b[30], x1[30], x2[30];
  for (int i = 0; i < 30; ++i) b[i] = sin(i + 1.0);
  ipcc_error err;
  ipc_linear_solver *ls = ipc_linear_solver_create(IPCC_LINEAR_SOLVER_CHOLMOD, &err);
  ipc_cholmod *ch = ipc_cholmod_create();
  CHECK(ls && ch && !ipc_linear_solver_iterative(ls));
  CHECK(ipc_linear_solver_factor(ls, &A, true, 0.0) == IPC_FACTOR_OK);
  CHECK(ipc_linear_solver_solve(ls, b, x1) == IPC_FACTOR_OK);
  CHECK(ipc_cholmod_factor(ch, &A, true, 0.0) == IPC_FACTOR_OK);
  CHECK(ipc_cholmod_solve(ch, b, x2) == IPC_FACTOR_OK);
  CHECK(memcmp(x1, x2, sizeof x1) == 0);
  ipc_linear_solver_stats st;
  ipc_linear_solver_get_stats(ls, &st);
  CHECK(st.analyses == 1 && st.factorizations == 1 && st.solves == 1 && st.not_pd == 0);
  ipc_linear_solver_destroy(ls);
  ipc_cholmod_destroy(ch);
}

/* each backend on a random SPD system: the residual of its answer */
static void spd_solve(ipcc_linear_solver_kind kind) {
  small_csc m;
  random_spd(&m, 30, 11);
  ipc_csc A = view(&m);
  double b[30], x[30], r[30];
  for (int i = 0; i < 30; ++i) b[i] = cos(i + 0.5);
  ipcc_error err;
  ipc_linear_solver *ls = ipc_linear_solver_create(kind, &err);
  CHECK_MSG(ls != NULL, "%s", err.msg);
  if (!ls) return;
  ipc_solve_accuracy acc = {1e-13, 1e-13, 1.0};
  ipc_linear_solver_set_accuracy(ls, &acc);
  /* twice with the same pattern: the second factor reuses the analysis */
  for (int pass = 0; pass < 2; ++pass) {
    CHECK(ipc_linear_solver_factor(ls, &A, pass == 0, 0.0) == IPC_FACTOR_OK);
    CHECK(ipc_linear_solver_solve(ls, b, x) == IPC_FACTOR_OK);
    ipc_csc_mul(&A, x, r);
    double e = 0;
    for (int i = 0; i < 30; ++i) e = fmax(e, fabs(r[i] - b[i]));
    CHECK_MSG(e < 1e-10, "%s: residual %.3g", ipc_linear_solver_kind_name(kind), e);
  }
  ipc_linear_solver_stats st;
  ipc_linear_solver_get_stats(ls, &st);
  CHECK(st.analyses == 1 && st.factorizations == 2 && st.solves == 2);
  ipc_linear_solver_destroy(ls);
}

/* coordinates: block size 3 from the next factor when 3 x nblocks is the system's size,
   scalar without them or when the count does not fit; each answer to the accuracy asked */
static void coordinates(void) {
  enum { N = 30 };
  small_csc m;
  random_spd(&m, N, 5);
  ipc_csc A = view(&m);
  double b[N], x[N], r[N], xyz[N];
  for (int i = 0; i < N; ++i) {
    b[i] = sin(0.3 * i + 0.1);
    xyz[i] = 0.1 * (i % 7) + 0.01 * i; /* 10 points, not on a line */
  }
  ipcc_error err;
  ipc_linear_solver *ls = ipc_linear_solver_create(IPCC_LINEAR_SOLVER_PETSC_CG_GAMG, &err);
  CHECK_MSG(ls != NULL, "%s", err.msg);
  if (!ls) return;
  ipc_solve_accuracy acc = {1e-12, 1e-12, 1.0};
  ipc_linear_solver_set_accuracy(ls, &acc);
  const int nblocks[4] = {N / 3, 0, N / 3 - 1, N / 3};
  const int want[4] = {3, 1, 1, 3};
  for (int pass = 0; pass < 4; ++pass) {
    ipc_linear_solver_set_coordinates(ls, nblocks[pass], pass == 1 ? NULL : xyz);
    CHECK(ipc_linear_solver_factor(ls, &A, pass == 0, 0.0) == IPC_FACTOR_OK);
    CHECK(ipc_linear_solver_solve(ls, b, x) == IPC_FACTOR_OK);
    ipc_csc_mul(&A, x, r);
    double e = 0;
    for (int i = 0; i < N; ++i) e = fmax(e, fabs(r[i] - b[i]));
    CHECK_MSG(e < 1e-10, "pass %d: residual %.3g", pass, e);
    ipc_linear_solver_stats st;
    ipc_linear_solver_get_stats(ls, &st);
    CHECK_MSG(st.block_size == want[pass] && st.scalar_fallbacks == 0,
              "pass %d: block size %d, %d fallbacks", pass, st.block_size, st.scalar_fallbacks);
  }
  ipc_linear_solver_destroy(ls);
  /* CHOLMOD takes and ignores them */
  ls = ipc_linear_solver_create(IPCC_LINEAR_SOLVER_CHOLMOD, &err);
  ipc_linear_solver_set_coordinates(ls, N / 3, xyz);
  CHECK(ipc_linear_solver_factor(ls, &A, true, 0.0) == IPC_FACTOR_OK);
  ipc_linear_solver_stats st;
  ipc_linear_solver_get_stats(ls, &st);
  CHECK(st.block_size == 1);
  ipc_linear_solver_destroy(ls);
}

/* Newton's retry (newton.c): after IPC_FACTOR_NOT_PD, shifts of 1e-12, 1e-10, ... 1e-2 times
   the largest diagonal entry (dmax) until the factorization and the solve succeed. Returns
   the status, the shift and the number of shifts in *shifts */
static ipc_factor_status newton_retry(ipc_linear_solver *ls, const ipc_csc *A, double dmax,
                                      const double *b, double *x, double *shift, int *shifts) {
  ipc_factor_status fs = ipc_linear_solver_factor(ls, A, true, 0.0);
  if (fs == IPC_FACTOR_OK) fs = ipc_linear_solver_solve(ls, b, x);
  *shifts = 0;
  *shift = 0;
  for (double f = 1e-12; fs == IPC_FACTOR_NOT_PD && f <= 1e-2; f *= 100) {
    *shift = f * dmax;
    fs = ipc_linear_solver_factor(ls, A, false, *shift);
    ++*shifts;
    if (fs == IPC_FACTOR_OK) fs = ipc_linear_solver_solve(ls, b, x);
  }
  return fs;
}

/* a matrix indefinite by a hair (eigenvalues about 2 and -5e-10, repeated in 8 blocks): a
   direct backend reports IPC_FACTOR_NOT_PD at the factorization (CHOLMOD: a pivot <= 0,
   MUMPS: a negative pivot in its LDL^T), and Newton's retry succeeds at the third shift
   with the shifted system's answer */
static void not_pd(ipcc_linear_solver_kind kind) {
  enum { NB = 8, N = 2 * NB };
  int colptr[N + 1], rowind[3 * NB];
  double val[3 * NB], b[N], x[N];
  for (int k = 0; k < NB; ++k) {
    colptr[2 * k] = 3 * k;
    colptr[2 * k + 1] = 3 * k + 1;
    rowind[3 * k] = 2 * k;
    val[3 * k] = 1.0;
    rowind[3 * k + 1] = 2 * k;
    val[3 * k + 1] = 1.0;
    rowind[3 * k + 2] = 2 * k + 1;
    val[3 * k + 2] = 1.0 - 1e-9;
    b[2 * k] = 1.0 + 0.1 * k;
    b[2 * k + 1] = -1.0;
  }
  colptr[N] = 3 * NB;
  ipc_csc A = {N, 3 * NB, colptr, rowind, val};
  ipcc_error err;
  ipc_linear_solver *ls = ipc_linear_solver_create(kind, &err);
  CHECK_MSG(ls != NULL, "%s", err.msg);
  if (!ls) return;
  ipc_solve_accuracy acc = {1e-14, 1e-14, 1e-9};
  ipc_linear_solver_set_accuracy(ls, &acc);
  int shifts;
  double shift;
  ipc_factor_status fs = newton_retry(ls, &A, 1.0, b, x, &shift, &shifts);
  CHECK_MSG(fs == IPC_FACTOR_OK && shifts == 3, "%s: status %d after %d shifts",
            ipc_linear_solver_kind_name(kind), fs, shifts);
  /* (A + shift I) x = b; the system's condition is ~1e8, so compare the residual */
  double e = 0;
  for (int k = 0; k < NB && fs == IPC_FACTOR_OK; ++k) {
    double r0 = (1.0 + shift) * x[2 * k] + x[2 * k + 1] - b[2 * k];
    double r1 = x[2 * k] + (1.0 - 1e-9 + shift) * x[2 * k + 1] - b[2 * k + 1];
    e = fmax(e, fmax(fabs(r0), fabs(r1)));
  }
  CHECK_MSG(e < 1e-6, "%s: residual %.3g", ipc_linear_solver_kind_name(kind), e);
  ipc_linear_solver_stats st;
  ipc_linear_solver_get_stats(ls, &st);
  CHECK(st.not_pd == 3);
  ipc_linear_solver_destroy(ls);
}

/* CG finds a matrix indefinite only along the directions it explores, so the hairline case
   above may pass unnoticed (and the solve succeed); here a diagonal with 30 entries of -1e-3
   beside one of 1, whose inverse GAMG's smoother applies exactly: CG converges without
   noticing, and the backend finds b.x <= 0 (IPC_FACTOR_NOT_PD; for Newton, no descent
   direction); the retry succeeds at the sixth shift (1e-2) */
static void not_pd_cg(void) {
  enum { N = 31 };
  int colptr[N + 1], rowind[N];
  double val[N], b[N], x[N];
  for (int j = 0; j < N; ++j) {
    colptr[j] = rowind[j] = j;
    val[j] = j == 0 ? 1.0 : -1e-3;
    b[j] = 1.0;
  }
  colptr[N] = N;
  ipc_csc A = {N, N, colptr, rowind, val};
  ipcc_error err;
  ipc_linear_solver *ls = ipc_linear_solver_create(IPCC_LINEAR_SOLVER_PETSC_CG_GAMG, &err);
  CHECK_MSG(ls != NULL, "%s", err.msg);
  if (!ls) return;
  CHECK(ipc_linear_solver_iterative(ls));
  ipc_solve_accuracy acc = {1e-12, 1e-12, 1e-3};
  ipc_linear_solver_set_accuracy(ls, &acc);
  int shifts;
  double shift;
  ipc_factor_status fs = newton_retry(ls, &A, 1.0, b, x, &shift, &shifts);
  CHECK_MSG(fs == IPC_FACTOR_OK && shifts == 6, "petsc-cg-gamg: status %d after %d shifts", fs,
            shifts);
  double e = 0;
  for (int j = 0; j < N && fs == IPC_FACTOR_OK; ++j) e = fmax(e, fabs((val[j] + shift) * x[j] - 1));
  CHECK_MSG(e < 1e-8, "petsc-cg-gamg: residual %.3g", e);
  ipc_linear_solver_stats st;
  ipc_linear_solver_get_stats(ls, &st);
  CHECK(st.not_pd == 6 && st.iterations > 0);
  ipc_linear_solver_destroy(ls);
}

typedef struct run {
  int its[STEPS];
  double *x;
  int nv;
  double tol_x; /* newton_tol * bbox diagonal * h: a step within the Newton tolerance */
  double bbox;
} run;

static int simulate(ipcc_linear_solver_kind kind, int slab, run *r) {
  char extra[64];
  snprintf(extra, sizeof extra, ", \"linear_solver\": \"%s\"", ipc_linear_solver_kind_name(kind));
  ipcc_scene_def def;
  ipcc_error err;
  CHECK_MSG(load(extra, slab, &def, &err) == IPCC_OK, "%s", err.msg);
  CHECK(def.linear_solver == kind);
  ipc_world *w = ipc_world_create(&def, &err);
  ipcc_scene_def_free(&def);
  if (slab) {
    char mesh_path[96];
    snprintf(mesh_path, sizeof mesh_path, "tests/data/tmp_slab_%d.msh", (int)getpid());
    remove(mesh_path);
  }
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return 0;
  int ok = 1;
  for (int k = 0; k < STEPS && ok; ++k) {
    ipcc_step_stats st;
    ok = ipc_world_step(w, &st, &err) == IPCC_OK;
    CHECK_MSG(ok, "%s step %d: %s", ipc_linear_solver_kind_name(kind), k + 1, err.msg);
    r->its[k] = st.newton_iterations;
  }
  r->nv = ipc_world_vertex_count(w);
  r->x = malloc(sizeof(double) * 3 * (size_t)r->nv);
  memcpy(r->x, ipc_world_positions(w), sizeof(double) * 3 * (size_t)r->nv);
  r->bbox = w->m.bbox_diag;
  r->tol_x = w->m.params.newton_tol * w->m.bbox_diag * w->h;
  CHECK(ipc_world_intersection_free(w, NULL, 0));
  ipc_world_destroy(w);
  return ok;
}

static double max_diff(const run *a, const run *b) {
  double d = 0;
  for (int i = 0; i < 3 * a->nv; ++i) d = fmax(d, fabs(a->x[i] - b->x[i]));
  return d;
}

/* the scene with each backend against CHOLMOD */
static void newton_runs(void) {
  run chol = {0}, mumps = {0}, cg = {0};
  if (!simulate(IPCC_LINEAR_SOLVER_CHOLMOD, 0, &chol)) return;
  if (simulate(IPCC_LINEAR_SOLVER_PETSC_MUMPS, 0, &mumps)) {
    for (int k = 0; k < STEPS; ++k)
      CHECK_MSG(mumps.its[k] == chol.its[k],
                "petsc-mumps step %d: %d Newton iterations, CHOLMOD %d", k + 1, mumps.its[k],
                chol.its[k]);
    double d = max_diff(&mumps, &chol);
    fprintf(stderr, "petsc-mumps: positions within %.3g of CHOLMOD's (bbox %.3g)\n", d, chol.bbox);
    CHECK_MSG(d <= 1e-9 * chol.bbox, "petsc-mumps: %.3g from CHOLMOD", d);
  }
  /* CG's directions are within 1% of Newton's (newton.c), so the iterations follow CHOLMOD's
     to +-1 per step and the positions stay within two Newton tolerances of a step (CHOLMOD
     itself moves 0.026 here when the tolerance is 10 times tighter) */
  if (simulate(IPCC_LINEAR_SOLVER_PETSC_CG_GAMG, 0, &cg)) {
    for (int k = 0; k < STEPS; ++k)
      CHECK_MSG(abs(cg.its[k] - chol.its[k]) <= 1,
                "petsc-cg-gamg step %d: %d Newton iterations, CHOLMOD %d", k + 1, cg.its[k],
                chol.its[k]);
    double d = max_diff(&cg, &chol);
    fprintf(stderr, "petsc-cg-gamg: positions within %.3g of CHOLMOD's (Newton tolerance %.3g)\n",
            d, chol.tol_x);
    CHECK_MSG(d <= 2 * chol.tol_x, "petsc-cg-gamg: %.3g from CHOLMOD, tolerance %.3g", d,
              chol.tol_x);
  }
  free(chol.x);
  free(mumps.x);
  free(cg.x);
}

/* the slab (whole free vertices: block size 3 and the rigid-body modes) with petsc-cg-gamg
   against CHOLMOD: +-1 Newton iteration per step, positions within the Newton tolerance */
static void slab_runs(void) {
  run chol = {0}, cg = {0};
  if (simulate(IPCC_LINEAR_SOLVER_CHOLMOD, 1, &chol) &&
      simulate(IPCC_LINEAR_SOLVER_PETSC_CG_GAMG, 1, &cg)) {
    for (int k = 0; k < STEPS; ++k)
      CHECK_MSG(abs(cg.its[k] - chol.its[k]) <= 1,
                "slab, petsc-cg-gamg step %d: %d Newton iterations, CHOLMOD %d", k + 1, cg.its[k],
                chol.its[k]);
    double d = max_diff(&cg, &chol);
    fprintf(stderr,
            "slab, petsc-cg-gamg: positions within %.3g of CHOLMOD's (Newton tolerance %.3g)\n", d,
            chol.tol_x);
    CHECK_MSG(d <= chol.tol_x, "slab, petsc-cg-gamg: %.3g from CHOLMOD, tolerance %.3g", d,
              chol.tol_x);
  }
  free(chol.x);
  free(cg.x);
}

int main(void) {
  names();
  cholmod_bits();
  not_pd(IPCC_LINEAR_SOLVER_CHOLMOD);
  if (!ipc_linear_solver_kind_available(IPCC_LINEAR_SOLVER_PETSC_MUMPS)) {
    fprintf(stderr, "a build without PETSc: the PETSc backends are not tested\n");
    TEST_MAIN_END();
  }
  spd_solve(IPCC_LINEAR_SOLVER_PETSC_MUMPS);
  spd_solve(IPCC_LINEAR_SOLVER_PETSC_CG_GAMG);
  not_pd(IPCC_LINEAR_SOLVER_PETSC_MUMPS);
  not_pd_cg();
  coordinates();
  newton_runs();
  slab_runs();
  TEST_MAIN_END();
}
