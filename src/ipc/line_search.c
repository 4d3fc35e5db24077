/* CCD-filtered step bound of IPC's line search (Li et al. 2020, sec. 4.2): the
   step x -> x + alpha p is intersection-free for every alpha up to the earliest
   conservative time of impact over all swept candidate pairs and vertex-plane
   pairs. the line search then starts from ccd_scale times that bound. */
#include "ipc/line_search.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/ccd.h"
#include "geometry/ccd_ctcd.h"
#include "ipc/islands.h"
#include "linalg/mpi_run.h"

#define X(a, i) ((a) + 3 * (size_t)(i))

/* earliest time of impact over candidate pairs numbered [begin, end) (vf, ee, ve, vv in
   turn, as ipc_contacts_count numbers them), 1 if none; each range starts from tmax = 1 so
   the result does not depend on how ranges are spread over threads. With islands, the
   earliest per island into the chunk's row of toi, pairs of unchecked islands skipped */
typedef struct ccd_job {
  const ipc_contact_model *cm;
  const ipc_candidates *cand;
  const double *x, *xe;
  const int *vert_island; /* NULL: one island */
  const unsigned char *check;
  int nisl;
  double *toi;               /* (chunks x nisl) */
  double partial_dhat;       /* ctcd_range: > 0 the partial CCD on pairs closer than this */
  double slack;              /* ctcd_range: IPC's slackness (0 stands for MESH_SLACK) */
  const unsigned char *skip; /* ctcd_range: pairs whose vertices all have skip set are left out */
  int pass;        /* ctcd_range, full CCD: 0 all pairs, 1 all but edge-edge, 2 edge-edge */
  double ee_box_t; /* pass 2: only edge pairs whose boxes swept to this time meet */
  double t_start;  /* ctcd_range, full CCD: the bound known before (every range starts there) */
} ccd_job;

/* the earliest time of impact found so far for the pair over v[0..nv) (its island's, or the
   chunk's), or -1 to skip the pair; *slot gets where to record a new one */
static double pair_tmax(const ccd_job *j, double *row, const int *v, int nv, double **slot) {
  if (!j->vert_island) {
    *slot = row;
    return *row;
  }
  int i = ipc_islands_of(j->vert_island, v, nv, -1);
  if (i < 0 || (j->check && !j->check[i])) return -1.0;
  *slot = row + i;
  return row[i];
}

static double ccd_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  const ccd_job *j = vjob;
  const ipc_candidates *cand = j->cand;
  const ipc_surface *s = &j->cm->model->surface;
  const double *x = j->x, *xe = j->xe;
  double one = 1.0, *row = j->vert_island ? j->toi + chunk * (size_t)j->nisl : &one, *slot;
  if (j->vert_island)
    for (int i = 0; i < j->nisl; ++i) row[i] = 1.0;
  ipc_ccd_params prm = ipc_ccd_default_params();
  prm.min_sep = 0.0;
  double toi;
  size_t s0 = 0, lo, hi;
  if (ipc_subrange(s0, cand->nvf, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *f = s->faces + 3 * (size_t)cand->vf[2 * i + 1];
      int v[4] = {cand->vf[2 * i], f[0], f[1], f[2]};
      if (!((prm.tmax = pair_tmax(j, row, v, 4, &slot)) > 0)) continue;
      if (ipc_ccd_vf(X(x, v[0]), X(x, v[1]), X(x, v[2]), X(x, v[3]), X(xe, v[0]), X(xe, v[1]),
                     X(xe, v[2]), X(xe, v[3]), &prm, &toi) &&
          toi < *slot)
        *slot = toi;
    }
  s0 += cand->nvf;
  if (ipc_subrange(s0, cand->nee, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *a = s->edges + 2 * (size_t)cand->ee[2 * i];
      const int *b = s->edges + 2 * (size_t)cand->ee[2 * i + 1];
      int v[4] = {a[0], a[1], b[0], b[1]};
      if (!((prm.tmax = pair_tmax(j, row, v, 4, &slot)) > 0)) continue;
      if (ipc_ccd_ee(X(x, v[0]), X(x, v[1]), X(x, v[2]), X(x, v[3]), X(xe, v[0]), X(xe, v[1]),
                     X(xe, v[2]), X(xe, v[3]), &prm, &toi) &&
          toi < *slot)
        *slot = toi;
    }
  s0 += cand->nee;
  if (ipc_subrange(s0, cand->nve, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *e = s->edges + 2 * (size_t)cand->ve[2 * i + 1];
      int v[3] = {cand->ve[2 * i], e[0], e[1]};
      if (!((prm.tmax = pair_tmax(j, row, v, 3, &slot)) > 0)) continue;
      if (ipc_ccd_ve(X(x, v[0]), X(x, v[1]), X(x, v[2]), X(xe, v[0]), X(xe, v[1]), X(xe, v[2]),
                     &prm, &toi) &&
          toi < *slot)
        *slot = toi;
    }
  s0 += cand->nve;
  if (ipc_subrange(s0, cand->nvv, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *v = cand->vv + 2 * i;
      if (!((prm.tmax = pair_tmax(j, row, v, 2, &slot)) > 0)) continue;
      if (ipc_ccd_vv(X(x, v[0]), X(x, v[1]), X(xe, v[0]), X(xe, v[1]), &prm, &toi) && toi < *slot)
        *slot = toi;
    }
  return *row;
}

/* the root of vertex v's signed distance to plane pl along x -> xe, bounded from below by
   scaling it down by a few ulps so round-off cannot push it past the crossing; 1 when the
   vertex does not approach the plane's back side */
static double plane_toi(const ipc_plane *pl, const double *a, const double *b) {
  double s0 = 0, s1 = 0;
  for (int d = 0; d < 3; ++d) {
    s0 += pl->normal[d] * (a[d] - pl->point[d]);
    s1 += pl->normal[d] * (b[d] - pl->point[d]);
  }
  if (s1 > 0 || s1 >= s0) return 1.0;
  return s0 > 0 ? s0 / (s0 - s1) * (1.0 - 1e-12) : 0.0;
}

/* earliest time of impact over the candidate pairs alone (no planes) */
static double mesh_max_step(const ipc_contact_model *cm, const ipc_candidates *cand,
                            const double *x, const double *xe) {
  ccd_job j = {cm, cand, x, xe, NULL, NULL, 1, NULL, 0.0, 0.0, NULL, 0, 0.0, 1.0};
  size_t n = cand->nvf + cand->nee + cand->nve + cand->nvv;
  double tmin = n > 0 ? ipc_mpi_parallel_min(n, 1024, ccd_range, &j, IPC_WORK_CCD) : 1.0;
  return tmin > 1.0 ? 1.0 : tmin;
}

double ipc_ccd_max_step(const ipc_contact_model *cm, const ipc_candidates *cand, const double *x,
                        const double *xe) {
  const ipc_model *m = cm->model;
  double tmin = mesh_max_step(cm, cand, x, xe);
  for (int p = 0; p < m->nplanes; ++p)
    for (int k = 0; k < cm->nplane_verts; ++k) {
      int v = cm->plane_verts[k];
      double t = plane_toi(&m->planes[p], X(x, v), X(xe, v));
      if (t < tmin) tmin = t;
    }
  return tmin < 0 ? 0 : tmin;
}

void ipc_ccd_max_step_islands(const ipc_contact_model *cm, const ipc_candidates *cand,
                              const double *x, const double *xe, const int *vert_island, int nisl,
                              const unsigned char *check, double *toi) {
  const ipc_model *m = cm->model;
  size_t n = cand->nvf + cand->nee + cand->nve + cand->nvv;
  /* over MPI each rank checks its chunks of pairs, the others' rows stay 1 (mpi_run.h) */
  size_t nc = ipc_mpi_chunk_count(n, 1024);
  ccd_job j = {cm, cand, x, xe, vert_island, check, nisl, NULL, 0.0, 0.0, NULL, 0, 0.0, 1.0};
  j.toi = IPC_NEW(double, nc *(size_t)nisl + 1);
  /* each chunk run starts its row at 1 (ccd_range); over MPI the other ranks' rows stay 1 */
  if (ipc_mpi_splitting())
    for (size_t k = 0; k < nc * (size_t)nisl; ++k) j.toi[k] = 1.0;
  for (int i = 0; i < nisl; ++i) toi[i] = 1.0;
  double part[IPC_MAX_CHUNKS];
  if (n > 0) ipc_mpi_parallel_chunks(n, nc, ccd_range, &j, part, IPC_WORK_CCD);
  for (size_t c = 0; c < nc && n > 0; ++c)
    for (int i = 0; i < nisl; ++i) toi[i] = fmin(toi[i], j.toi[c * (size_t)nisl + i]);
  ipc_free(j.toi);
  if (n > 0 && ipc_mpi_splitting()) ipc_mpi_reduce(toi, (size_t)nisl, IPC_MPI_MIN);
  for (int p = 0; p < m->nplanes; ++p)
    for (int k = 0; k < cm->nplane_verts; ++k) {
      int v = cm->plane_verts[k], i = vert_island[v];
      if (i < 0 || (check && !check[i])) continue;
      double t = plane_toi(&m->planes[p], X(x, v), X(xe, v));
      if (t < toi[i]) toi[i] = t;
    }
  for (int i = 0; i < nisl; ++i)
    if (toi[i] < 0) toi[i] = 0;
}

/* IPC's slackness for half-spaces (Optimizer.cpp's slackness_a) and for mesh pairs: its CCD
   stops where the distance has shrunk to 1 - 0.8 of its start, 0.8 of the time of impact
   for the straight approaches of the pairs that bound a step */
#define PLANE_SLACK 0.9
#define MESH_SLACK 0.8
/* IPC's AnimScripter moves scripted vertices at a step's start with slackness 0.5 */
#define SCRIPT_SLACK 0.5

double ipc_ctcd_reach(double slack) {
  /* a pair stops a step once within about (1 - s) d0: it has closed by s d0 - (1 - s) d0
     at least, taking twice the nominal gap for the CTCD's approximate tests (its prism walls
     tilt with a linear stand-in for the faces' normals) */
  return 1.0 / fmax(1.0 - 2.0 * (1.0 - slack), 0.25);
}

double ipc_ctcd_script_reach(void) {
  return ipc_ctcd_reach(SCRIPT_SLACK);
}

/* time of impact of one contact's primitives along x -> xe (1 if none) */
static double contact_toi(const ipc_contact *c, const double *x, const double *xe,
                          const ipc_ccd_params *prm) {
  const int *v = c->v;
  double toi = 1.0;
  int hit = 0;
  switch (c->kind) {
    case IPC_CONTACT_PT:
      hit = ipc_ccd_vf(X(x, v[0]), X(x, v[1]), X(x, v[2]), X(x, v[3]), X(xe, v[0]), X(xe, v[1]),
                       X(xe, v[2]), X(xe, v[3]), prm, &toi);
      break;
    case IPC_CONTACT_EE:
      hit = ipc_ccd_ee(X(x, v[0]), X(x, v[1]), X(x, v[2]), X(x, v[3]), X(xe, v[0]), X(xe, v[1]),
                       X(xe, v[2]), X(xe, v[3]), prm, &toi);
      break;
    case IPC_CONTACT_PE:
      hit = ipc_ccd_ve(X(x, v[0]), X(x, v[1]), X(x, v[2]), X(xe, v[0]), X(xe, v[1]), X(xe, v[2]),
                       prm, &toi);
      break;
    case IPC_CONTACT_PP:
      hit = ipc_ccd_vv(X(x, v[0]), X(x, v[1]), X(xe, v[0]), X(xe, v[1]), prm, &toi);
      break;
    default:
      return 1.0;
  }
  return hit && toi < 1.0 ? toi : 1.0;
}

int ipc_ccd_contacts_stop(const ipc_contact_model *cm, const ipc_contact_set *cs, const double *x,
                          const double *xe, double near) {
  const ipc_model *m = cm->model;
  int stop = 0;
  /* ipc_ccd_max_step's own loop over the plane vertices */
  for (int p = 0; p < m->nplanes && !stop; ++p)
    for (int k = 0; k < cm->nplane_verts && !stop; ++k) {
      int v = cm->plane_verts[k];
      stop = plane_toi(&m->planes[p], X(x, v), X(xe, v)) < 1.0;
    }
  /* each pair with ccd_range's call when its running bound is 1: the same vertex order
     (ipc_contacts_visit_range numbers them as ccd_range does), the same parameters */
  ipc_ccd_params prm = ipc_ccd_default_params();
  prm.min_sep = 0.0;
  for (size_t i = 0; i < cs->n && !stop; ++i) {
    ipc_contact c = cs->c[i]; /* its distance type is classified again at x */
    if (c.kind == IPC_CONTACT_PLANE || !(ipc_contact_distance2(&c, cm, x) < near * near)) continue;
    stop = contact_toi(&c, x, xe, &prm) < 1.0;
  }
  /* every rank the same verdict (over MPI each may hold another share of the contacts) */
  if (ipc_mpi_splitting()) {
    double s = stop;
    ipc_mpi_reduce(&s, 1, IPC_MPI_MAX);
    stop = s > 0.0;
  }
  return stop;
}

/* IPC's CTCD step bound over candidate pairs (ipc_contacts_visit_range numbering). Full CCD
   (dhat 0): every pair, a vertex-face candidate standing also for the vertex against the
   face's edges and vertices (IPC queries those pairs apart, each with its own distance; any
   such pair's boxes overlap only where a face's do). Partial CCD: only the pairs closer than
   dhat, every one of them (IPC's CCD constraint set keeps a pair per face and per edge, where
   the barrier's set keeps one per closest feature) */
typedef struct ctcd_job {
  const double *x, *xe;
  double dhat;
  double slack;
  const unsigned char *skip;
  double t; /* the smallest bound so far */
  int pass;
  double ee_box_t;
} ctcd_job;

/* 1 when the boxes of edges (a0 a1) and (b0 b1), each swept from x to x + t (xe - x), meet
   (IPC's SpatialHash::queryEdgeForEdgesWithBBoxCheck, no inflation) */
static int ee_boxes_meet(const double px[4][3], const double pd[4][3], double t) {
  for (int d = 0; d < 3; ++d) {
    double lo[2], hi[2];
    for (int e = 0; e < 2; ++e) {
      lo[e] = INFINITY, hi[e] = -INFINITY;
      for (int k = 2 * e; k < 2 * e + 2; ++k) {
        double a = px[k][d], b = px[k][d] + t * pd[k][d];
        lo[e] = fmin(lo[e], fmin(a, b));
        hi[e] = fmax(hi[e], fmax(a, b));
      }
    }
    if (lo[1] > hi[0] || lo[0] > hi[1]) return 0;
  }
  return 1;
}

/* IPC's rule (ipc_ctcd_pair_step) on points px moving by pd, d0 apart */
static double ctcd_pair(const ctcd_job *j, ipc_pair_kind kind, const double px[4][3],
                        const double pd[4][3], double d0, ipc_ctcd_site site) {
  return ipc_ctcd_pair_step(kind, px, pd, d0, j->slack, ipc_ctcd_zero_retry_is_one(site, kind, 0));
}

/* 1 when every vertex of v[0..nv) has j->skip set */
static int all_skipped(const ctcd_job *j, const int *v, int nv) {
  if (!j->skip) return 0;
  for (int k = 0; k < nv; ++k)
    if (!j->skip[v[k]]) return 0;
  return 1;
}

static void ctcd_visit(ipc_contact *c, void *vctx) {
  static const ipc_pair_kind kind_of[] = {IPC_PAIR_PT, IPC_PAIR_EE, IPC_PAIR_PE, IPC_PAIR_PP};
  static const int nv_of[] = {4, 4, 3, 2};
  ctcd_job *j = vctx;
  const ipc_pair_kind kind = kind_of[c->kind];
  if ((j->pass == 1 && kind == IPC_PAIR_EE) || (j->pass == 2 && kind != IPC_PAIR_EE)) return;
  double px[4][3], pd[4][3];
  for (int k = 0; k < nv_of[c->kind]; ++k)
    for (int d = 0; d < 3; ++d) {
      px[k][d] = X(j->x, c->v[k])[d];
      pd[k][d] = X(j->xe, c->v[k])[d] - px[k][d];
    }
  const double(*cx)[3] = (const double(*)[3])px, (*cd)[3] = (const double(*)[3])pd;
  if (j->pass == 2 && !ee_boxes_meet(cx, cd, j->ee_box_t)) return;
  const double d0 = ipc_ctcd_pair_distance(kind, cx);
  const int partial = j->dhat > 0;
  if (partial && !(d0 < j->dhat)) return;
  /* the pair (and, for a point-face pair, every part of the face: they are no closer) can
     stop the step before j->t only if it closes by slack d0 by then; its closest points
     approach by at most the largest move of each primitive's points */
  static const int first_b[] = {1, 2, 1, 1};
  double ma = 0, mb = 0;
  for (int k = 0; k < nv_of[c->kind]; ++k) {
    double m2 = pd[k][0] * pd[k][0] + pd[k][1] * pd[k][1] + pd[k][2] * pd[k][2];
    if (k < first_b[c->kind])
      ma = fmax(ma, m2);
    else
      mb = fmax(mb, m2);
  }
  if (j->slack * d0 > j->t * (sqrt(ma) + sqrt(mb))) return;
  if (!all_skipped(j, c->v, nv_of[c->kind]))
    j->t = fmin(
        j->t, ctcd_pair(j, kind, cx, cd, d0, partial ? IPC_CTCD_SELF_PARTIAL : IPC_CTCD_SELF_FULL));
  if (partial || kind != IPC_PAIR_PT) return;
  for (int k = 1; k <= 3; ++k) { /* p against the face's edge (k, k % 3 + 1) and vertex k */
    const int e = k % 3 + 1;
    const int sv[3] = {c->v[0], c->v[k], c->v[e]};
    double sx[4][3], sd[4][3];
    memcpy(sx[0], px[0], sizeof sx[0]);
    memcpy(sx[1], px[k], sizeof sx[1]);
    memcpy(sx[2], px[e], sizeof sx[2]);
    memcpy(sd[0], pd[0], sizeof sd[0]);
    memcpy(sd[1], pd[k], sizeof sd[1]);
    memcpy(sd[2], pd[e], sizeof sd[2]);
    const double(*sxc)[3] = (const double(*)[3])sx, (*sdc)[3] = (const double(*)[3])sd;
    for (ipc_pair_kind sk = IPC_PAIR_PE; sk <= IPC_PAIR_PP; ++sk)
      if (!all_skipped(j, sv, sk == IPC_PAIR_PE ? 3 : 2))
        j->t = fmin(
            j->t, ctcd_pair(j, sk, sxc, sdc, ipc_ctcd_pair_distance(sk, sxc), IPC_CTCD_SELF_FULL));
  }
}

static double ctcd_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const ccd_job *cj = vjob;
  /* a full CCD's ranges start from the bound known before, the same for every range */
  ctcd_job j = {cj->x,
                cj->xe,
                cj->partial_dhat,
                cj->slack > 0 ? cj->slack : MESH_SLACK,
                cj->skip,
                cj->partial_dhat > 0 ? 1.0 : cj->t_start,
                cj->pass,
                cj->ee_box_t};
  ipc_contacts_visit_range(cj->cm, cj->cand, begin, end, ctcd_visit, &j);
  return j.t;
}

typedef struct partial_job {
  const ipc_contact_set *contacts;
  const double *x, *xe;
} partial_job;

/* contacts [begin, end): the smallest MESH_SLACK toi of those that collide along the step
   (+INFINITY when none does) */
static double partial_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const partial_job *j = ctx;
  ipc_ccd_params prm = ipc_ccd_default_params();
  prm.min_sep = 0.0;
  double tp = INFINITY;
  for (size_t k = begin; k < end; ++k) {
    double t = contact_toi(&j->contacts->c[k], j->x, j->xe, &prm);
    if (t < 1.0) tp = fmin(tp, MESH_SLACK * t);
  }
  return tp;
}

typedef struct bound_job {
  const ipc_contact_model *cm;
  const double *x, *xe;
} bound_job;

/* cm->plane_verts [begin, end): the planes' bound, 0.9 of the time a vertex moving towards one
   would reach it (+INFINITY when none does) */
static double plane_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const bound_job *j = ctx;
  const ipc_model *m = j->cm->model;
  const double *x = j->x, *xe = j->xe;
  double r = INFINITY;
  for (size_t k = begin; k < end; ++k) {
    int v = j->cm->plane_verts[k];
    for (int p = 0; p < m->nplanes; ++p) {
      const ipc_plane *pl = &m->planes[p];
      double s0 = 0, s1 = 0;
      for (int d = 0; d < 3; ++d) {
        s0 += pl->normal[d] * (x[3 * (size_t)v + d] - pl->point[d]);
        s1 += pl->normal[d] * (xe[3 * (size_t)v + d] - pl->point[d]);
      }
      if (s1 < s0) r = fmin(r, PLANE_SLACK * s0 / (s0 - s1));
    }
  }
  return r;
}

/* surface vertices [begin, end): minus their largest move (ipc_parallel_min's smallest is
   minus the largest) */
static double move_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const bound_job *j = ctx;
  const int *sv = j->cm->model->surface.sv;
  double r = 0.0;
  for (size_t k = begin; k < end; ++k) {
    const double *a = X(j->x, sv[k]), *b = X(j->xe, sv[k]);
    double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    double d = sqrt(dx * dx + dy * dy + dz * dz);
    if (d > r) r = d;
  }
  return -r;
}

/* the partial CCD on the pairs within dhat: IPC's CTCD rule (over the candidates, see
   ctcd_range), or 0.8 of the time of impact of the contacts */
static double partial_step(const ipc_contact_model *cm, const ipc_contact_set *contacts,
                           const ipc_candidates *cand, const double *x, const double *xe,
                           int ctcd) {
  if (ctcd) {
    ccd_job j = {cm, cand, x, xe, NULL, NULL, 1, NULL, cm->dhat, 0.0, NULL, 0, 0.0, 1.0};
    size_t n = cand->nvf + cand->nee + cand->nve + cand->nvv;
    return n > 0 ? ipc_mpi_parallel_min(n, 256, ctcd_range, &j, IPC_WORK_CCD) : 1.0;
  }
  partial_job j = {contacts, x, xe};
  return contacts->n > 0 ? fmin(1.0, ipc_parallel_min(contacts->n, 64, partial_range, &j)) : 1.0;
}

/* the full CCD over every candidate pair, as partial_step */
static double full_step(const ipc_contact_model *cm, const ipc_candidates *cand, const double *x,
                        const double *xe, int ctcd, double alpha) {
  if (!ctcd) {
    double t = mesh_max_step(cm, cand, x, xe);
    return fmin(alpha, t < 1.0 ? MESH_SLACK * t : 1.0);
  }
  /* IPC's order: the point pairs (point-point, -edge, -triangle) first; then only the edge
     pairs whose boxes swept up to the step found so far meet are queried */
  size_t n = cand->nvf + cand->nee + cand->nve + cand->nvv;
  if (n == 0) return alpha;
  ccd_job j = {cm, cand, x, xe, NULL, NULL, 1, NULL, 0.0, 0.0, NULL, 1, 0.0, alpha};
  double t = fmin(alpha, ipc_mpi_parallel_min(n, 256, ctcd_range, &j, IPC_WORK_CCD));
  j.pass = 2;
  j.ee_box_t = t;
  j.t_start = t;
  return fmin(t, ipc_mpi_parallel_min(n, 256, ctcd_range, &j, IPC_WORK_CCD));
}

double ipc_ipc_script_step_bound(const ipc_contact_model *cm, const ipc_candidates *cand,
                                 const double *x, const double *xe, const unsigned char *scripted) {
  /* IPC's CTCD in its full CCD's order (full_step): the point pairs, then the edge pairs whose
     boxes swept up to that bound meet */
  ccd_job j = {cm, cand, x, xe, NULL, NULL, 1, NULL, 0.0, SCRIPT_SLACK, scripted, 1, 0.0, 1.0};
  size_t n = cand->nvf + cand->nee + cand->nve + cand->nvv;
  if (n == 0) return 1.0;
  double t = ipc_mpi_parallel_min(n, 256, ctcd_range, &j, IPC_WORK_CCD);
  j.pass = 2;
  j.ee_box_t = t;
  j.t_start = t;
  return fmin(t, ipc_mpi_parallel_min(n, 256, ctcd_range, &j, IPC_WORK_CCD));
}

double ipc_ipc_step_bound(const ipc_contact_model *cm, const ipc_contact_set *contacts,
                          const ipc_candidates *cand, ipc_candidates *wide, const double *x,
                          const double *xe, int first, int ctcd, double *pmax_surface) {
  const ipc_model *m = cm->model;
  const ipc_surface *sf = &m->surface;
  /* half-spaces: 0.9 of the time a vertex moving towards one would reach it */
  double alpha = 1.0;
  bound_job bj = {cm, x, xe};
  if (m->nplanes > 0 && cm->nplane_verts > 0)
    alpha = fmin(alpha, ipc_parallel_min((size_t)cm->nplane_verts, 4096, plane_range, &bj));
  /* the pairs within dhat: the partial CCD */
  alpha = fmin(alpha, partial_step(cm, contacts, cand, x, xe, ctcd));
  /* CFL: no surface vertex moves more than dhat / 2 */
  double pm = sf->nsv > 0 ? -ipc_parallel_min((size_t)sf->nsv, 4096, move_range, &bj) : 0.0;
  *pmax_surface = pm;
  double cfl = pm > 0 ? cm->dhat / (2.0 * pm) : INFINITY;
  if ((first && alpha > cfl) || alpha > 2.0 * cfl) {
    /* IPC builds its spatial hash for the full CCD over the step up to alpha and first cuts
       alpha so that the mean surface vertex moves at most one voxel (SpatialHash::build:
       the mean of |p| over the coordinates of the deformable surface vertices) */
    if (ctcd && cm->hash_voxel > 0) {
      double ps = 0;
      int np = 0;
      for (int i = 0; i < sf->nsv; ++i) {
        int v = sf->sv[i];
        if (sf->vert_obstacle[v]) continue;
        for (int d = 0; d < 3; ++d) ps += fabs(xe[3 * (size_t)v + d] - x[3 * (size_t)v + d]);
        ++np;
      }
      double span = np > 0 ? alpha * (ps / (3.0 * np)) / cm->hash_voxel : 0;
      if (span > 1) alpha /= span;
    }
    /* IPC's CTCD stops a pair once it comes within 1 - MESH_SLACK of its current distance
       d0, which can be farther than dhat, where the candidates were narrowed to: such a pair
       closes by MESH_SLACK d0 <= the relative motion 2 alpha pm, so its gap is then at most
       (1 - MESH_SLACK) / MESH_SLACK 2 alpha pm. Those pairs are gathered afresh (IPC's spatial
       hash finds them by its voxels) */
    const ipc_candidates *c = cand;
    if (ctcd && wide) {
      /* each vertex box grown by (1 - s) / s of its own move: a pair's boxes then meet when
         its gap can reach (1 - s) d0 (it closes by at most its primitives' largest moves) */
      double *grow = IPC_NEW(double, (size_t)sf->nverts), gmax = 0;
      for (int v = 0; v < sf->nverts; ++v) {
        const double *a = X(x, v), *b = X(xe, v);
        double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
        grow[v] = (1.0 - MESH_SLACK) / MESH_SLACK * alpha * sqrt(dx * dx + dy * dy + dz * dz);
        gmax = fmax(gmax, grow[v]);
      }
      /* when no such gap exceeds dhat the candidates (every pair that comes within dhat
         along the step) already hold them */
      if (2.0 * gmax > cm->dhat) {
        ipc_broad_phase_passive(wide, sf, x, xe, 0.0, grow, sf->vert_obstacle);
        /* most of the boxes' pairs cannot close by s of their gap along the part
           x -> x + alpha p the step can take: left out before the CTCD's costlier per-pair
           distances (ipc_ctcd_reach) */
        double *xa = IPC_NEW(double, 3 * (size_t)sf->nverts);
        for (size_t i = 0; i < 3 * (size_t)sf->nverts; ++i) xa[i] = x[i] + alpha * (xe[i] - x[i]);
        ipc_candidates_narrow_reach(wide, sf, x, xa, 0.0, ipc_ctcd_reach(MESH_SLACK), NULL);
        ipc_free(xa);
        c = wide;
      }
      ipc_free(grow);
    }
    double full = full_step(cm, c, x, xe, ctcd, alpha);
    return full < cfl ? cfl : full;
  }
  return fmin(alpha, cfl);
}
