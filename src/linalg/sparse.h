/* symmetric sparse matrices built from 3x3 vertex blocks (Hessians of 3D problems)
 *
 * The assembler collects local dense Hessians (nv vertices -> 3nv x 3nv, row-major,
 * symmetric) into the upper triangle of a compressed-sparse-column matrix over the free
 * DOFs. Dirichlet DOFs are dropped: the result is the reduced system over free DOFs, and
 * ipc_sparse_gather / ipc_sparse_scatter move vectors between the full layout
 * (nverts x 3) and the reduced one.
 *
 * Per Newton iteration: ipc_sparse_begin, then any number of ipc_sparse_add_element
 * (registered element sets: elastic tets, fixed pattern), ipc_sparse_add (anything else:
 * contacts, friction), ipc_sparse_add_diagonal (lumped mass), then ipc_sparse_finish.
 * Element sets carry precomputed slots, so their adds are pure scatters. Other adds look
 * their blocks up in the current pattern; blocks not in it are queued and the pattern is
 * rebuilt once, in finish, which then reports that the pattern changed. */
#ifndef IPCC_LINALG_SPARSE_H
#define IPCC_LINALG_SPARSE_H

#include <stdbool.h>

/* symmetric matrix in CSC form, upper triangle only (CHOLMOD stype = +1): in column j the
 * row indices are strictly increasing, all <= j, and the diagonal entry is present */
typedef struct ipc_csc {
  int n;             /* rows = columns */
  int nnz;           /* stored entries */
  const int *colptr; /* (n + 1) */
  const int *rowind; /* (nnz) */
  const double *val; /* (nnz) */
} ipc_csc;

/* y = A x for the symmetric matrix whose upper triangle A holds; x, y (n), not aliased */
void ipc_csc_mul(const ipc_csc *A, const double *x, double *y);

/* when a block used before is absent from an assembly */
typedef enum ipc_sparse_policy {
  /* default: unused blocks stay in the pattern as explicit zeros; the pattern changes only
   * when a block outside it is added (the rebuild then drops the unused blocks) */
  IPC_SPARSE_GROW = 0,
  /* the pattern is exactly the element sets plus the blocks added in this assembly */
  IPC_SPARSE_EXACT = 1,
} ipc_sparse_policy;

typedef struct ipc_sparse ipc_sparse;

/* assembler for nverts vertices (3 DOFs each), all free, no element sets; never NULL.
 * Free with ipc_sparse_destroy. */
ipc_sparse *ipc_sparse_create(int nverts);

/* frees s and everything it owns (including the arrays views from finish point to);
 * s may be NULL */
void ipc_sparse_destroy(ipc_sparse *s);

/* sets the policy (default IPC_SPARSE_GROW); takes effect at the next finish */
void ipc_sparse_set_policy(ipc_sparse *s, ipc_sparse_policy policy);

/* marks Dirichlet DOFs: fixed (nverts x 3), nonzero = fixed; NULL frees all. Not inside
 * begin/finish. When the set of fixed DOFs changes, the next finish reports a changed
 * pattern; setting the same mask again changes nothing. */
void ipc_sparse_set_mask(ipc_sparse *s, const unsigned char *fixed);

/* registers nelem elements of nv distinct vertices each (ids: nelem x nv, copied) whose
 * blocks are always part of the pattern; returns the set's index for ipc_sparse_add_element.
 * Not inside begin/finish. The next finish reports a changed pattern. */
int ipc_sparse_add_element_set(ipc_sparse *s, int nelem, int nv, const int *ids);

/* number of free DOFs: the size of the reduced system */
int ipc_sparse_num_free(const ipc_sparse *s);

/* (nverts x 3) map from a DOF to its index in the reduced system, -1 if fixed; owned by s */
const int *ipc_sparse_dof_map(const ipc_sparse *s);

/* reduced (num_free) <- the free entries of full (nverts x 3) */
void ipc_sparse_gather(const ipc_sparse *s, const double *full, double *reduced);

/* full (nverts x 3) <- reduced (num_free), 0 at fixed DOFs */
void ipc_sparse_scatter(const ipc_sparse *s, const double *reduced, double *full);

/* starts an assembly: all values zero */
void ipc_sparse_begin(ipc_sparse *s);

/* adds the local Hessian H (3nv x 3nv, row-major, symmetric; nv of the set) of element e
 * of element set `set` */
void ipc_sparse_add_element(ipc_sparse *s, int set, int e, const double *H);

/* adds a local Hessian H (3nv x 3nv, row-major, symmetric) over vertices ids (nv; repeats
 * allowed). Blocks coupling a vertex whose DOFs are all fixed cost nothing. */
void ipc_sparse_add(ipc_sparse *s, int nv, const int *ids, const double *H);

/* the pattern of ipc_sparse_add(s, nv, ids, H) without its values: the blocks it would add
 * (and use in this assembly) are added as zeros. Over MPI ranks that each add a share of the
 * terms (linalg/mpi_run.h), every rank touches the others' terms, so all hold one pattern */
void ipc_sparse_touch(ipc_sparse *s, int nv, const int *ids);

/* adds d (nverts x 3) to the diagonal (e.g. a lumped mass) */
void ipc_sparse_add_diagonal(ipc_sparse *s, const double *d);

/* ends an assembly: *A views the matrix (owned by s; the pattern arrays stay valid until the
 * next finish that reports a change or setup call, the values until the next begin).
 * Returns true when the pattern may differ from the previous finish's (blocks were added,
 * or dropped under IPC_SPARSE_EXACT; always on the first finish and after a setup call);
 * false guarantees the same n, nnz, colptr and rowind contents. */
bool ipc_sparse_finish(ipc_sparse *s, ipc_csc *A);

/* number of pattern rebuilds so far (setup calls and finishes that added blocks) */
int ipc_sparse_num_rebuilds(const ipc_sparse *s);

#endif
