/* binary little-endian PLY frame writer: the surfaces of all bodies and obstacles in one
   file, vertices numbered per file, each tagged with its object (body index); header
   comments name the objects and mark the kinematic obstacles */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "io/frame_numbering.h"
#include "io/path.h"
#include "io/world_output.h"

/* little-endian bytes whatever the host order */
static void put_u32(FILE *f, uint32_t u) {
  unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                        (unsigned char)(u >> 24)};
  fwrite(b, 1, 4, f);
}

static void put_f64(FILE *f, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  unsigned char b[8];
  for (int k = 0; k < 8; ++k) b[k] = (unsigned char)(u >> (8 * k));
  fwrite(b, 1, 8, f);
}

/* the frame of model m at positions xs (nverts x 3) and time t */
static ipcc_status write_ply(const ipc_model *m, const double *xs, double time, const char *path,
                             ipcc_error *err) {
  const ipc_surface *s = &m->surface;
  /* file index of every written vertex (-1: not on any surface) */
  int *local = IPC_NEW(int, (size_t)m->nverts + 1);
  int nv = ipc_frame_numbering(m, local), nf = 0, ne = 0;
  for (int b = 0; b < m->nbodies; ++b) {
    nf += m->bodies[b].nf;
    ne += m->bodies[b].ns;
  }
  ipc_atomic_file af;
  ipcc_status st_open = ipc_atomic_open(&af, path, err);
  if (st_open != IPCC_OK) {
    ipc_free(local);
    return st_open;
  }
  FILE *f = af.f;
  fprintf(f, "ply\nformat binary_little_endian 1.0\ncomment ipcc frame: t = %.17g s\n", time);
  for (int b = 0; b < m->nbodies; ++b) fprintf(f, "comment object %d %s\n", b, m->bodies[b].name);
  /* kinematic obstacles, so that `ipcc check` skips obstacle-obstacle pairs (ply.c) */
  for (int b = 0; b < m->nbodies; ++b)
    if (m->bodies[b].obstacle) fprintf(f, "comment obstacle %d\n", b);
  fprintf(f,
          "element vertex %d\nproperty double x\nproperty double y\nproperty double z\n"
          "property int object_id\nelement face %d\nproperty list uchar int vertex_indices\n",
          nv, nf);
  if (ne > 0) fprintf(f, "element edge %d\nproperty int vertex1\nproperty int vertex2\n", ne);
  fputs("end_header\n", f);
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
      if (local[i] < 0) continue;
      for (int d = 0; d < 3; ++d) put_f64(f, xs[3 * (size_t)i + d]);
      put_u32(f, (uint32_t)b);
    }
  }
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    for (int k = bd->f0; k < bd->f0 + bd->nf; ++k) {
      fputc(3, f);
      for (int c = 0; c < 3; ++c) put_u32(f, (uint32_t)local[s->faces[3 * k + c]]);
    }
  }
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    for (int k = bd->s0; k < bd->s0 + bd->ns; ++k)
      for (int c = 0; c < 2; ++c) put_u32(f, (uint32_t)local[m->segs[2 * k + c]]);
  }
  ipc_free(local);
  return ipc_atomic_commit(&af, err);
}

ipcc_status ipcc_world_write_ply(const ipcc_world *w, const char *path, ipcc_error *err) {
  return write_ply(w->m, w->s->x, w->s->time, path, err);
}
