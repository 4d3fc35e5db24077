/* CCD-filtered step bound of IPC's line search (Li et al. 2020, sec. 4.2): the
   step x -> x + alpha p is intersection-free for every alpha up to the earliest
   conservative time of impact over all swept candidate pairs and vertex-plane
   pairs. the line search then starts from ccd_scale times that bound. */
#include "ipc/line_search.h"

#include <math.h>

#include "core/parallel.h"
#include "geometry/ccd.h"

#define X(a, i) ((a) + 3 * (size_t)(i))

/* earliest time of impact over candidate pairs numbered [begin, end) (vf, ee, ve, vv in
   turn, as ipc_contacts_count numbers them), 1 if none; each range starts from tmax = 1 so
   the result does not depend on how ranges are spread over threads */
typedef struct ccd_job {
  const ipc_contact_model *cm;
  const ipc_candidates *cand;
  const double *x, *xe;
} ccd_job;

static double ccd_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const ccd_job *j = vjob;
  const ipc_candidates *cand = j->cand;
  const ipc_surface *s = &j->cm->model->surface;
  const double *x = j->x, *xe = j->xe;
  ipc_ccd_params prm = ipc_ccd_default_params();
  prm.min_sep = 0.0;
  prm.tmax = 1.0;
  double tmin = 1.0, toi;
  size_t s0 = 0, lo, hi;
  if (ipc_subrange(s0, cand->nvf, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int v = cand->vf[2 * i];
      const int *f = s->faces + 3 * (size_t)cand->vf[2 * i + 1];
      if (ipc_ccd_vf(X(x, v), X(x, f[0]), X(x, f[1]), X(x, f[2]), X(xe, v), X(xe, f[0]),
                     X(xe, f[1]), X(xe, f[2]), &prm, &toi) &&
          toi < tmin) {
        tmin = toi;
        prm.tmax = tmin;
      }
    }
  s0 += cand->nvf;
  if (ipc_subrange(s0, cand->nee, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *a = s->edges + 2 * (size_t)cand->ee[2 * i];
      const int *b = s->edges + 2 * (size_t)cand->ee[2 * i + 1];
      if (ipc_ccd_ee(X(x, a[0]), X(x, a[1]), X(x, b[0]), X(x, b[1]), X(xe, a[0]), X(xe, a[1]),
                     X(xe, b[0]), X(xe, b[1]), &prm, &toi) &&
          toi < tmin) {
        tmin = toi;
        prm.tmax = tmin;
      }
    }
  s0 += cand->nee;
  if (ipc_subrange(s0, cand->nve, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int v = cand->ve[2 * i];
      const int *e = s->edges + 2 * (size_t)cand->ve[2 * i + 1];
      if (ipc_ccd_ve(X(x, v), X(x, e[0]), X(x, e[1]), X(xe, v), X(xe, e[0]), X(xe, e[1]), &prm,
                     &toi) &&
          toi < tmin) {
        tmin = toi;
        prm.tmax = tmin;
      }
    }
  s0 += cand->nve;
  if (ipc_subrange(s0, cand->nvv, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int a = cand->vv[2 * i], b = cand->vv[2 * i + 1];
      if (ipc_ccd_vv(X(x, a), X(x, b), X(xe, a), X(xe, b), &prm, &toi) && toi < tmin) {
        tmin = toi;
        prm.tmax = tmin;
      }
    }
  return tmin;
}

double ipc_ccd_max_step(const ipc_contact_model *cm, const ipc_candidates *cand, const double *x,
                        const double *xe) {
  const ipc_model *m = cm->model;
  ccd_job j = {cm, cand, x, xe};
  size_t n = cand->nvf + cand->nee + cand->nve + cand->nvv;
  double tmin = n > 0 ? ipc_parallel_min(n, 1024, ccd_range, &j) : 1.0;
  if (tmin > 1.0) tmin = 1.0;
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
