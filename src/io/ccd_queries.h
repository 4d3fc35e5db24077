/* reader for CCD benchmark query files (Wang et al. 2021 sample queries and the Scalable-CCD
   sample data): 8 lines per query, each `xn,xd,yn,yd,zn,zd[,gt]` with x = xn/xd */
#ifndef IPCC_IO_CCD_QUERIES_H
#define IPCC_IO_CCD_QUERIES_H

#include "ipcc/error.h"

typedef enum ipc_ccd_kind {
  IPC_CCD_KIND_FROM_PATH = 0, /* only as a request to ipc_ccd_queries_read */
  IPC_CCD_KIND_VF = 1,        /* vertex-face: p, f0, f1, f2 at t0, then the same at t1 */
  IPC_CCD_KIND_EE = 2,        /* edge-edge: ea0, ea1, eb0, eb1 at t0, then at t1 */
} ipc_ccd_kind;

/* the queries of one file; arrays owned, freed by ipc_ccd_queries_free */
typedef struct ipc_ccd_queries {
  ipc_ccd_kind kind;
  int n;                /* number of queries */
  double *x;            /* (8n x 3) vertex positions in file order (exact when the file's
                           numerators fit in 53 bits and denominators are powers of two) */
  int has_truth;        /* 1 when a 7th column or an mma_bool JSON file gave the ground truth */
  unsigned char *truth; /* (n) 1 = the primitives touch for some t in [0,1]; NULL if none */
} ipc_ccd_queries;

/* kind from the path: a file name ending in vf.csv / ee.csv, else the nearest folder named
   vertex-face or edge-edge; returns IPC_CCD_KIND_FROM_PATH when neither applies */
ipc_ccd_kind ipc_ccd_kind_from_path(const char *path);

/* reads one query file. kind may be IPC_CCD_KIND_FROM_PATH (then inferred from the path;
   an error when it cannot be). Ground truth: the 7th column (0/1, from the first line of
   each query), else the JSON array of booleans ../mma_bool/<name>_mma_bool.json beside the
   file's folder, else none. '#' lines and blank lines are skipped. On error returns
   IPCC_ERR_INPUT with a message naming the file, the line and what was expected; *out is
   then zeroed. */
ipcc_status ipc_ccd_queries_read(const char *path, ipc_ccd_kind kind, ipc_ccd_queries *out,
                                 ipcc_error *err);

/* frees the arrays and zeroes the struct; q may be NULL */
void ipc_ccd_queries_free(ipc_ccd_queries *q);

#endif
