/* error reporting shared by every ipcc entry point */
#ifndef IPCC_ERROR_H
#define IPCC_ERROR_H

#include "ipcc/export.h"

/* status codes; they double as the command-line exit codes */
typedef enum ipc_status {
  IPC_OK = 0,
  IPC_ERR_SIM = 1,   /* the simulation failed: NaN, no progress */
  IPC_ERR_INPUT = 2, /* bad input: file, line or key, and what was expected */
  IPC_ERR_IO = 3,    /* output could not be written (a full disk, an I/O error): the input was
                        fine, the run may be continued (--resume) once there is room */
} ipc_status;

/* error record filled by loaders and solvers; msg names file/line/key */
typedef struct ipc_error {
  ipc_status status;
  char msg[1024];
} ipc_error;

/* clears err (may be NULL) */
IPCC_API void ipc_error_clear(ipc_error *err);

#endif
