/* frame sequences: format names and one frame in every chosen format */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "ipcc/lcp_world.h"
#include "ipcc/output.h"

static const struct {
  const char *name;
  unsigned bit;
} formats_known[] = {{"obj", IPC_FORMAT_OBJ}, {"ply", IPC_FORMAT_PLY}, {"vtu", IPC_FORMAT_VTU}};

int ipc_output_formats_parse(const char *list, unsigned *formats) {
  unsigned bits = 0;
  const char *p = list;
  for (;;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    unsigned bit = 0;
    for (size_t k = 0; k < sizeof formats_known / sizeof formats_known[0]; ++k)
      if (strlen(formats_known[k].name) == n && !strncmp(p, formats_known[k].name, n))
        bit = formats_known[k].bit;
    if (!bit) return -1;
    bits |= bit;
    if (!end) break;
    p = end + 1;
  }
  *formats = bits;
  return 0;
}

/* the writers of one world, for write_frame */
typedef struct frame_writers {
  const void *w;
  ipc_status (*obj)(const void *w, const char *path, ipc_error *err);
  ipc_status (*ply)(const void *w, const char *path, ipc_error *err);
  ipc_status (*vtu)(const void *w, const char *path, ipc_error *err);
} frame_writers;

static ipc_status write_frame(const frame_writers *fw, const char *dir, int frame, unsigned formats,
                              ipc_error *err) {
  if (!formats) formats = IPC_FORMAT_OBJ;
  size_t n = strlen(dir) + 32;
  char *path = IPC_NEW(char, n);
  ipc_status st = IPC_OK;
  if (st == IPC_OK && (formats & IPC_FORMAT_OBJ)) {
    snprintf(path, n, "%s/%06d.obj", dir, frame);
    st = fw->obj(fw->w, path, err);
  }
  if (st == IPC_OK && (formats & IPC_FORMAT_PLY)) {
    snprintf(path, n, "%s/%06d.ply", dir, frame);
    st = fw->ply(fw->w, path, err);
  }
  if (st == IPC_OK && (formats & IPC_FORMAT_VTU)) {
    snprintf(path, n, "%s/%06d.vtu", dir, frame);
    st = fw->vtu(fw->w, path, err);
  }
  ipc_free(path);
  return st;
}

static ipc_status ipc_obj(const void *w, const char *path, ipc_error *err) {
  return ipc_world_write_obj(w, path, err);
}
static ipc_status ipc_ply(const void *w, const char *path, ipc_error *err) {
  return ipc_world_write_ply(w, path, err);
}
static ipc_status ipc_vtu(const void *w, const char *path, ipc_error *err) {
  return ipc_world_write_vtu(w, path, err);
}
static ipc_status lcp_obj(const void *w, const char *path, ipc_error *err) {
  return ipc_lcp_world_write_obj(w, path, err);
}
static ipc_status lcp_ply(const void *w, const char *path, ipc_error *err) {
  return ipc_lcp_world_write_ply(w, path, err);
}
static ipc_status lcp_vtu(const void *w, const char *path, ipc_error *err) {
  return ipc_lcp_world_write_vtu(w, path, err);
}

ipc_status ipc_world_write_frame(const ipc_world *w, const char *dir, int frame, unsigned formats,
                                 ipc_error *err) {
  frame_writers fw = {w, ipc_obj, ipc_ply, ipc_vtu};
  return write_frame(&fw, dir, frame, formats, err);
}

ipc_status ipc_lcp_world_write_frame(const ipc_lcp_world *w, const char *dir, int frame,
                                     unsigned formats, ipc_error *err) {
  frame_writers fw = {w, lcp_obj, lcp_ply, lcp_vtu};
  return write_frame(&fw, dir, frame, formats, err);
}
