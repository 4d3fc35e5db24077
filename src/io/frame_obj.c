/* OBJ frame writer: one named object per body or obstacle, holding its surface
   (triangles, segments, or points), with vertex indices local to the file */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "io/frame_numbering.h"
#include "io/frame_obj.h"
#include "io/path.h"
#include "io/world_output.h"

ipcc_status ipc_obj_write_model(const ipc_model *m, const double *xs, const double *normals,
                                const char *comment, const char *path, ipcc_error *err) {
  const ipc_surface *s = &m->surface;
  ipc_atomic_file af;
  ipcc_status st = ipc_atomic_open(&af, path, err);
  if (st != IPCC_OK) return st;
  FILE *f = af.f;
  /* OBJ numbers vertices from 1 */
  int *local = IPC_NEW(int, (size_t)m->nverts + 1);
  ipc_frame_numbering(m, local);
  for (int i = 0; i < m->nverts; ++i) local[i] += 1;
  fprintf(f, "# %s\n", comment);
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    fprintf(f, "o %s\n", bd->name);
    if (bd->obstacle) fputs("# ipcc obstacle\n", f);
    int points_only = bd->nf == 0 && bd->ns == 0;
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
      if (!local[i]) continue;
      const double *x = xs + 3 * (size_t)i;
      fprintf(f, "v %.17g %.17g %.17g\n", x[0], x[1], x[2]);
    }
    for (int i = bd->v0; i < bd->v0 + bd->nv && normals; ++i) {
      if (!local[i]) continue;
      const double *n = normals + 3 * (size_t)i;
      double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (len > 0 && isfinite(len))
        fprintf(f, "vn %.9g %.9g %.9g\n", n[0] / len, n[1] / len, n[2] / len);
      else
        fputs("vn 0 0 1\n", f);
    }
    for (int k = bd->f0; k < bd->f0 + bd->nf; ++k) {
      int a = local[s->faces[3 * k]], c = local[s->faces[3 * k + 1]],
          d = local[s->faces[3 * k + 2]];
      if (normals)
        fprintf(f, "f %d//%d %d//%d %d//%d\n", a, a, c, c, d, d);
      else
        fprintf(f, "f %d %d %d\n", a, c, d);
    }
    for (int k = bd->s0; k < bd->s0 + bd->ns; ++k)
      fprintf(f, "l %d %d\n", local[m->segs[2 * k]], local[m->segs[2 * k + 1]]);
    if (points_only)
      for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) fprintf(f, "p %d\n", local[i]);
  }
  ipc_free(local);
  return ipc_atomic_commit(&af, err);
}

/* the frame of model m at positions x (nverts x 3) and time t */
static ipcc_status write_frame(const ipc_model *m, const double *xs, double time, const char *path,
                               ipcc_error *err) {
  char comment[64];
  snprintf(comment, sizeof comment, "ipcc frame: t = %.17g s", time);
  return ipc_obj_write_model(m, xs, NULL, comment, path, err);
}

ipcc_status ipcc_world_write_obj(const ipcc_world *w, const char *path, ipcc_error *err) {
  return write_frame(w->m, w->s->x, w->s->time, path, err);
}
