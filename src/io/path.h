/* file-system helpers shared by the readers and writers */
#ifndef IPCC_IO_PATH_H
#define IPCC_IO_PATH_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"

/* whole file into a NUL-terminated buffer (ipc_free it); NULL + err naming the file */
char *ipc_read_file(const char *path, size_t *len, ipc_error *err);

/* dir/rel, or rel itself when it is absolute or dir is empty (ipc_free it) */
char *ipc_path_join(const char *dir, const char *rel);

/* the folder part of path ("" for a bare name) (ipc_free it) */
char *ipc_path_dirname(const char *path);

/* creates the folder and its parents; 0 on success, else err names it */
int ipc_mkdir_p(const char *path, ipc_error *err);

/* atomic output: writes go to "<path>.tmp.<pid>", ipc_atomic_commit renames it to path
   (so a reader never sees a half-written file), ipc_atomic_abort removes it */
typedef struct ipc_atomic_file {
  FILE *f;
  char *path;
  char *tmp;
} ipc_atomic_file;
int ipc_atomic_open(ipc_atomic_file *af, const char *path, ipc_error *err);
int ipc_atomic_commit(ipc_atomic_file *af, ipc_error *err);
void ipc_atomic_abort(ipc_atomic_file *af);

#endif
