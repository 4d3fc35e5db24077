/* containment of one body in another (containment.h) */
#include "geometry/containment.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

double ipc_winding_number(const double *x, const int *faces, int nf, const double p[3]) {
  double sum = 0.0;
  for (int f = 0; f < nf; ++f) {
    double a[3], b[3], c[3];
    for (int d = 0; d < 3; ++d) {
      a[d] = x[3 * (size_t)faces[3 * f] + d] - p[d];
      b[d] = x[3 * (size_t)faces[3 * f + 1] + d] - p[d];
      c[d] = x[3 * (size_t)faces[3 * f + 2] + d] - p[d];
    }
    double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                 a[2] * (b[0] * c[1] - b[1] * c[0]);
    double ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double ac = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
    double bc = b[0] * c[0] + b[1] * c[1] + b[2] * c[2];
    sum += 2.0 * atan2(det, la * lb * lc + ab * lc + ac * lb + bc * la);
  }
  return sum / (4.0 * 3.14159265358979323846);
}

int ipc_surface_first_containment(const ipc_surface *s, const double *x, int *inner, int *outer) {
  if (!s->vert_body || s->nsv == 0) return 0;
  int nb = 0;
  for (int k = 0; k < s->nsv; ++k)
    if (s->vert_body[s->sv[k]] + 1 > nb) nb = s->vert_body[s->sv[k]] + 1;
  if (nb < 2) return 0;
  /* per body: a representative surface vertex, its bounding box, its faces (counting sort) */
  int *rep = IPC_NEW(int, (size_t)nb), *fstart = IPC_NEW0(int, (size_t)nb + 1);
  int *flist = IPC_NEW(int, 3 * (size_t)s->nfaces + 1), *fill = IPC_NEW0(int, (size_t)nb + 1);
  double *lo = IPC_NEW(double, 3 * (size_t)nb), *hi = IPC_NEW(double, 3 * (size_t)nb);
  for (int b = 0; b < nb; ++b) {
    rep[b] = -1;
    for (int d = 0; d < 3; ++d) {
      lo[3 * b + d] = INFINITY;
      hi[3 * b + d] = -INFINITY;
    }
  }
  for (int k = 0; k < s->nsv; ++k) {
    int v = s->sv[k], b = s->vert_body[v];
    if (rep[b] < 0) rep[b] = v;
    for (int d = 0; d < 3; ++d) {
      lo[3 * b + d] = fmin(lo[3 * b + d], x[3 * (size_t)v + d]);
      hi[3 * b + d] = fmax(hi[3 * b + d], x[3 * (size_t)v + d]);
    }
  }
  for (int f = 0; f < s->nfaces; ++f) fstart[s->vert_body[s->faces[3 * f]] + 1]++;
  for (int b = 0; b < nb; ++b) fstart[b + 1] += fstart[b];
  for (int f = 0; f < s->nfaces; ++f) {
    int b = s->vert_body[s->faces[3 * f]], at = fstart[b] + fill[b]++;
    memcpy(flist + 3 * (size_t)at, s->faces + 3 * (size_t)f, 3 * sizeof(int));
  }
  /* only closed surfaces hold a volume: every edge of the body's faces on exactly two of
     them (an open bucket's cavity has a winding number between 1/2 and 1, and is no volume) */
  unsigned char *closed = IPC_NEW(unsigned char, (size_t)nb);
  int *uses = IPC_NEW0(int, (size_t)s->nedges + 1);
  for (int f = 0; f < s->nfaces; ++f)
    for (int k = 0; k < 3; ++k) uses[s->face_edges[3 * f + k]]++;
  for (int b = 0; b < nb; ++b) closed[b] = fstart[b + 1] > fstart[b];
  for (int f = 0; f < s->nfaces; ++f)
    for (int k = 0; k < 3; ++k)
      if (uses[s->face_edges[3 * f + k]] != 2) closed[s->vert_body[s->faces[3 * f]]] = 0;
  ipc_free(uses);
  int found = 0;
  for (int a = 0; a < nb && !found; ++a) {
    if (rep[a] < 0) continue;
    for (int b = 0; b < nb && !found; ++b) {
      if (b == a || rep[b] < 0 || !closed[b]) continue;
      if (s->vert_obstacle && s->vert_obstacle[rep[a]] && s->vert_obstacle[rep[b]]) continue;
      if (!ipc_surface_pair_touches(s, rep[a], rep[b])) continue;
      int nest = 1;
      for (int d = 0; d < 3; ++d)
        nest &= lo[3 * a + d] >= lo[3 * b + d] && hi[3 * a + d] <= hi[3 * b + d];
      if (!nest) continue;
      double w = ipc_winding_number(x, flist + 3 * (size_t)fstart[b], fstart[b + 1] - fstart[b],
                                    x + 3 * (size_t)rep[a]);
      if (fabs(w) > 0.6) { /* 1 inside a closed surface; an open one gives at most 1/2 */
        *inner = a;
        *outer = b;
        found = 1;
      }
    }
  }
  ipc_free(closed);
  ipc_free(rep);
  ipc_free(fstart);
  ipc_free(flist);
  ipc_free(fill);
  ipc_free(lo);
  ipc_free(hi);
  return found;
}
