#include "core/codim.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static int pair_cmp(const void *a, const void *b) {
  const int *p = a, *q = b;
  if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
  return (p[1] > q[1]) - (p[1] < q[1]);
}

static void drop_triangles(ipcc_mesh *m) {
  ipc_free(m->tris);
  m->tris = NULL;
  m->ntris = 0;
  for (int k = 0; m->object_tri_start && k <= m->nobjects; ++k) m->object_tri_start[k] = 0;
}

void ipc_mesh_reduce_codim(ipcc_mesh *m, int codim) {
  if (codim == 2) {
    drop_triangles(m);
    ipc_free(m->segs);
    m->segs = NULL;
    m->nsegs = 0;
  } else if (codim == 1) {
    size_t n = 3 * (size_t)m->ntris + (size_t)m->nsegs;
    int *e = IPC_NEW(int, 2 * n + 2);
    size_t k = 0;
    for (int f = 0; f < m->ntris; ++f)
      for (int j = 0; j < 3; ++j) {
        int a = m->tris[3 * f + j], b = m->tris[3 * f + (j + 1) % 3];
        e[2 * k] = a < b ? a : b;
        e[2 * k + 1] = a < b ? b : a;
        ++k;
      }
    for (int s = 0; s < m->nsegs; ++s, ++k) {
      int a = m->segs[2 * s], b = m->segs[2 * s + 1];
      e[2 * k] = a < b ? a : b;
      e[2 * k + 1] = a < b ? b : a;
    }
    qsort(e, k, 2 * sizeof(int), pair_cmp);
    size_t u = 0;
    for (size_t i = 0; i < k; ++i)
      if (u == 0 || e[2 * i] != e[2 * (u - 1)] || e[2 * i + 1] != e[2 * (u - 1) + 1]) {
        e[2 * u] = e[2 * i];
        e[2 * u + 1] = e[2 * i + 1];
        ++u;
      }
    ipc_free(m->segs);
    m->segs = e;
    m->nsegs = (int)u;
    drop_triangles(m);
  }
}
