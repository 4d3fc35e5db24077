/* CCD-filtered step bound of IPC's line search (Li et al. 2020, sec. 4.2): the
   step x -> x + alpha p is intersection-free for every alpha up to the earliest
   conservative time of impact over all swept candidate pairs and vertex-plane
   pairs. the line search then starts from ccd_scale times that bound. */
#include "ipc/line_search.h"

#include <math.h>

#include "geometry/ccd.h"

#define X(a, i) ((a) + 3 * (size_t)(i))

double ipc_ccd_max_step(const ipc_contact_model *cm, const ipc_candidates *cand, const double *x,
                        const double *xe) {
  const ipc_model *m = cm->model;
  const ipc_surface *s = &m->surface;
  ipc_ccd_params prm = ipc_ccd_default_params();
  prm.min_sep = 0.0;
  prm.tmax = 1.0;
  double tmin = 1.0, toi;
  for (size_t i = 0; i < cand->nvf; ++i) {
    int v = cand->vf[2 * i];
    const int *f = s->faces + 3 * (size_t)cand->vf[2 * i + 1];
    if (ipc_ccd_vf(X(x, v), X(x, f[0]), X(x, f[1]), X(x, f[2]), X(xe, v), X(xe, f[0]), X(xe, f[1]),
                   X(xe, f[2]), &prm, &toi) &&
        toi < tmin) {
      tmin = toi;
      prm.tmax = tmin;
    }
  }
  for (size_t i = 0; i < cand->nee; ++i) {
    const int *a = s->edges + 2 * (size_t)cand->ee[2 * i];
    const int *b = s->edges + 2 * (size_t)cand->ee[2 * i + 1];
    if (ipc_ccd_ee(X(x, a[0]), X(x, a[1]), X(x, b[0]), X(x, b[1]), X(xe, a[0]), X(xe, a[1]),
                   X(xe, b[0]), X(xe, b[1]), &prm, &toi) &&
        toi < tmin) {
      tmin = toi;
      prm.tmax = tmin;
    }
  }
  for (size_t i = 0; i < cand->nve; ++i) {
    int v = cand->ve[2 * i];
    const int *e = s->edges + 2 * (size_t)cand->ve[2 * i + 1];
    if (ipc_ccd_ve(X(x, v), X(x, e[0]), X(x, e[1]), X(xe, v), X(xe, e[0]), X(xe, e[1]), &prm,
                   &toi) &&
        toi < tmin) {
      tmin = toi;
      prm.tmax = tmin;
    }
  }
  for (size_t i = 0; i < cand->nvv; ++i) {
    int a = cand->vv[2 * i], b = cand->vv[2 * i + 1];
    if (ipc_ccd_vv(X(x, a), X(x, b), X(xe, a), X(xe, b), &prm, &toi) && toi < tmin) {
      tmin = toi;
      prm.tmax = tmin;
    }
  }
  /* planes: the signed distance is linear in t; the root is bounded from below by
     scaling it down by a few ulps so round-off cannot push it past the crossing */
  for (int p = 0; p < m->nplanes; ++p) {
    const ipc_plane *pl = &m->planes[p];
    for (int k = 0; k < cm->nplane_verts; ++k) {
      int v = cm->plane_verts[k];
      const double *a = X(x, v), *b = X(xe, v);
      double s0 = 0, s1 = 0;
      for (int d = 0; d < 3; ++d) {
        s0 += pl->normal[d] * (a[d] - pl->point[d]);
        s1 += pl->normal[d] * (b[d] - pl->point[d]);
      }
      if (s1 > 0 || s1 >= s0) continue;
      double t = s0 > 0 ? s0 / (s0 - s1) * (1.0 - 1e-12) : 0.0;
      if (t < tmin) tmin = t;
    }
  }
  return tmin < 0 ? 0 : tmin;
}
