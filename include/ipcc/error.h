/* error reporting shared by every ipcc entry point */
#ifndef IPCC_ERROR_H
#define IPCC_ERROR_H

#include "ipcc/export.h"

/* status codes; they double as the command-line exit codes */
typedef enum ipcc_status {
  IPCC_OK = 0,
  IPCC_ERR_SIM = 1,   /* the simulation failed: NaN, no progress */
  IPCC_ERR_INPUT = 2, /* bad input: file, line or key, and what was expected */
  IPCC_ERR_IO = 3,    /* output could not be written (a full disk, an I/O error): the input was
                        fine, the run may be continued (--resume) once there is room */
} ipcc_status;

/* error record filled by loaders and solvers; msg names file/line/key */
typedef struct ipcc_error {
  ipcc_status status;
  char msg[1024];
} ipcc_error;

/* clears err (may be NULL) */
IPCC_API void ipcc_error_clear(ipcc_error *err);

#endif
