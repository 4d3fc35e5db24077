/* frame sequences: format names, one frame in every chosen format (the PC2 point cache:
   frame_pc2.c), and the ParaView collection (.pvd) of the VTU frames */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "io/frame_numbering.h"
#include "io/frame_planes.h"
#include "io/path.h"
#include "io/world_output.h"
#include "ipcc/output.h"

int ipc_frame_numbering(const ipc_model *m, int *file_of) {
  const ipc_surface *s = &m->surface;
  int n = 0;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    int points_only = bd->nf == 0 && bd->ns == 0;
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) file_of[i] = points_only ? 0 : -1;
    for (int k = bd->f0; k < bd->f0 + bd->nf; ++k)
      for (int c = 0; c < 3; ++c) file_of[s->faces[3 * k + c]] = 0;
    for (int k = bd->s0; k < bd->s0 + bd->ns; ++k)
      for (int c = 0; c < 2; ++c) file_of[m->segs[2 * k + c]] = 0;
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) file_of[i] = file_of[i] == 0 ? n++ : -1;
  }
  return n;
}

static const struct {
  const char *name;
  unsigned bit;
} formats_known[] = {{"obj", IPCC_FORMAT_OBJ},
                     {"ply", IPCC_FORMAT_PLY},
                     {"vtu", IPCC_FORMAT_VTU},
                     {"pc2", IPCC_FORMAT_PC2}};

int ipcc_output_formats_parse(const char *list, unsigned *formats) {
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

static ipcc_status write_planes(const ipcc_world *w, const char *dir, int frame, ipcc_error *err) {
  const ipc_model *m = w->m;
  double *pts = IPC_NEW(double, 3 * (size_t)m->nplanes + 3);
  double *nrm = IPC_NEW(double, 3 * (size_t)m->nplanes + 3);
  for (int k = 0; k < m->nplanes; ++k)
    for (int d = 0; d < 3; ++d) {
      pts[3 * k + d] = m->planes[k].point[d];
      nrm[3 * k + d] = m->planes[k].normal[d];
    }
  ipcc_status st = ipc_planes_write_obj(dir, frame, m->nplanes, pts, nrm, w->s->x, m->nverts, err);
  ipc_free(pts);
  ipc_free(nrm);
  return st;
}

ipcc_status ipcc_world_write_frame(const ipcc_world *w, const char *dir, int frame,
                                   unsigned formats, ipcc_error *err) {
  if (!(formats & IPCC_FORMAT_FRAMES)) formats |= IPCC_FORMAT_OBJ;
  size_t n = strlen(dir) + 32;
  char *path = IPC_NEW(char, n);
  ipcc_status st = IPCC_OK;
  if (st == IPCC_OK && (formats & IPCC_FORMAT_OBJ)) {
    snprintf(path, n, "%s/%06d.obj", dir, frame);
    st = ipcc_world_write_obj(w, path, err);
  }
  if (st == IPCC_OK && (formats & IPCC_FORMAT_PLY)) {
    snprintf(path, n, "%s/%06d.ply", dir, frame);
    st = ipcc_world_write_ply(w, path, err);
  }
  if (st == IPCC_OK && (formats & IPCC_FORMAT_VTU)) {
    snprintf(path, n, "%s/%06d.vtu", dir, frame);
    st = ipcc_world_write_vtu(w, path, err);
    if (st == IPCC_OK) st = ipcc_frames_pvd_add(dir, frame, w->s->time, err);
  }
  if (st == IPCC_OK && (formats & IPCC_FORMAT_PC2)) st = ipcc_world_write_pc2(w, dir, frame, err);
  if (st == IPCC_OK && (formats & IPCC_FORMAT_PLANES)) st = write_planes(w, dir, frame, err);
  ipc_free(path);
  return st;
}

/* one DataSet line of the collection */
static void pvd_entry(FILE *f, int frame, double time) {
  fprintf(f, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%06d.vtu\"/>\n", time, frame);
}

/* the entries of the collection text (as pvd_entry writes them) for frames before `before`,
   in order, into f */
static void pvd_copy_entries(FILE *f, const char *text, int before) {
  static const char key[] = "<DataSet timestep=\"";
  for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
    char *end;
    double t = strtod(p + sizeof key - 1, &end);
    const char *file = strstr(end, "file=\"");
    const char *close = strchr(end, '>');
    if (!file || !close || file > close) continue;
    long k = strtol(file + 6, &end, 10);
    if (end == file + 6 || strncmp(end, ".vtu\"", 5) != 0 || k < 0 || k >= before) continue;
    pvd_entry(f, (int)k, t);
  }
}

ipcc_status ipcc_frames_pvd_add(const char *dir, int frame, double time, ipcc_error *err) {
  char *path = ipc_path_join(dir, "frames.pvd");
  ipcc_error ignored;
  /* no collection yet (the first frame), or one that is not ours: start afresh */
  char *old = ipc_read_file_max(path, IPC_READ_MAX_SCENE, NULL, &ignored);
  ipc_atomic_file af;
  ipcc_status st = IPCC_OK;
  if ((st = ipc_atomic_open(&af, path, err)) == IPCC_OK) {
    fputs(
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
        "  <Collection>\n",
        af.f);
    if (old) pvd_copy_entries(af.f, old, frame);
    pvd_entry(af.f, frame, time);
    fputs("  </Collection>\n</VTKFile>\n", af.f);
    st = ipc_atomic_commit(&af, err);
  }
  ipc_free(old);
  ipc_free(path);
  return st;
}
