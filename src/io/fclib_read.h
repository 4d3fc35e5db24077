/* FCLIB frictional-contact problems (HDF5, read with Debian's libfclib) as ipcc cone problems
 *
 * Local problem (/fclib_local): W (m x m), q (m), mu (n_c), m = 3 n_c, each contact ordered
 * (normal, tangent 1, tangent 2). Global problem (/fclib_global): M (n x n, SPD), H (n x m),
 * f (n), w (m), mu; it is reduced to the local one, W = H^T M^-1 H, q = H^T M^-1 f + w.
 * Reading conventions (see ../shared/data/fclib/README.md): triplet entries are read as
 * (row i[k], column p[k]); a symmetric M stored as one triangle (diagonal + upper, as in
 * CubeH8) is mirrored. Only spacedim 3 without the optional G/b, V/R/s blocks is accepted. */
#ifndef IPCC_IO_FCLIB_READ_H
#define IPCC_IO_FCLIB_READ_H

#include "ipcc/error.h"
#include "lcp/lcp.h"

typedef enum ipc_fclib_kind {
  IPC_FCLIB_LOCAL = 0,
  IPC_FCLIB_GLOBAL = 1,
} ipc_fclib_kind;

/* a problem reduced to the local form u = W r + q; owns its arrays */
typedef struct ipc_fclib_problem {
  ipc_fclib_kind kind;
  int ncontacts; /* n_c */
  int n;         /* 3 n_c */
  int ndof;      /* global problems: rows of M; local: 0 */
  ipc_lcp_csr W; /* (n x n) */
  double *q;     /* (n) */
  double *mu;    /* (ncontacts) */
} ipc_fclib_problem;

/* reads the FCLIB file at path (local or global) into out (zeroed first; free with
 * ipc_fclib_problem_free, also after an error). IPCC_ERR_INPUT names the file and what was
 * expected when it cannot be opened, lacks a problem group, or holds inconsistent sizes,
 * indices out of range, non-finite values, negative mu, or a global M that is not SPD. */
ipcc_status ipc_fclib_read(const char *path, ipc_fclib_problem *out, ipcc_error *err);

/* frees the arrays of p and zeroes it; p may be NULL */
void ipc_fclib_problem_free(ipc_fclib_problem *p);

/* residuals of an approximate solution r (n) of p */
typedef struct ipc_fclib_residual {
  double abs;     /* ipc_lcp_cone_residual_zw at (r, u = W r + q) */
  double rel_q;   /* abs / ||q||_2 (abs when ||q||_2 <= DBL_EPSILON), ipcc's relative residual */
  double rel_max; /* abs / max(||q||, ||r||, ||u||) (abs when that is <= DBL_EPSILON), Siconos'
                     normalization */
} ipc_fclib_residual;

/* writes u = W r + q (n, caller-owned, may be NULL) and the residuals of r */
ipc_fclib_residual ipc_fclib_residuals(const ipc_fclib_problem *p, const double *r, double *u);

/* the name of a kind: "local" or "global" */
const char *ipc_fclib_kind_name(ipc_fclib_kind k);

#endif
