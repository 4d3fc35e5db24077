/* file-system helpers shared by the readers and writers */
#ifndef IPCC_IO_PATH_H
#define IPCC_IO_PATH_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"

/* size caps of the whole-file readers, in bytes: a file over its cap is refused before
   anything is read (`ipcc run /dev/zero` must not read for ever) */
#define IPC_READ_MAX_SCENE ((size_t)64 << 20)      /* JSON and .txt scenes: 64 MiB */
#define IPC_READ_MAX_MATRIX ((size_t)1 << 30)      /* Matrix Market files: 1 GiB */
#define IPC_READ_MAX_MESH ((size_t)2047 << 20)     /* meshes (int line numbers): 2047 MiB */
#define IPC_READ_MAX_CHECKPOINT ((size_t)16 << 30) /* checkpoints: 16 GiB */

/* opens path for reading when it is a regular file of at most max bytes (its size in *size
   when size is not NULL); NULL + err naming the file otherwise: missing, a folder, a
   device, a FIFO, or too large. never blocks on a FIFO */
FILE *ipc_open_input(const char *path, size_t max, size_t *size, ipcc_error *err);

/* the whole regular file (at most max bytes, as ipc_open_input) in a NUL-terminated buffer
   (ipc_free it), its length in *len when len is not NULL; NULL + err naming the file */
char *ipc_read_file_max(const char *path, size_t max, size_t *len, ipcc_error *err);

/* ipc_read_file_max with the scene cap IPC_READ_MAX_SCENE */
char *ipc_read_file(const char *path, size_t *len, ipcc_error *err);

/* dir/rel, or rel itself when it is absolute or dir is empty (ipc_free it) */
char *ipc_path_join(const char *dir, const char *rel);

/* the folder part of path ("" for a bare name) (ipc_free it) */
char *ipc_path_dirname(const char *path);

/* creates the folder and its parents; 0 on success, else err names it */
int ipc_mkdir_p(const char *path, ipcc_error *err);

/* atomic output: writes go to "<path>.tmp.<pid>", ipc_atomic_commit renames it to path
   (so a reader never sees a half-written file), ipc_atomic_abort removes it */
typedef struct ipc_atomic_file {
  FILE *f;
  char *path;
  char *tmp;
} ipc_atomic_file;
/* IPCC_OK, or the error set in err: IPCC_ERR_IO when the device failed (a full disk, an I/O
   error, a read-only file system), IPCC_ERR_INPUT when the path cannot name a file */
ipcc_status ipc_atomic_open(ipc_atomic_file *af, const char *path, ipcc_error *err);
ipcc_status ipc_atomic_commit(ipc_atomic_file *af, ipcc_error *err);
void ipc_atomic_abort(ipc_atomic_file *af);

#endif
