/* IPC contact set and barrier potential (Li et al. 2020, "Incremental Potential
   Contact", sec. 4): for each pair k closer than dhat,
     B_k(x) = kappa * m_k(x) * b(d_k^2(x), dhat^2)
   with b the clamped log barrier on squared distances (barrier.c), d_k^2 the
   squared distance between the closest sub-simplices (distance.c), and m_k the
   edge-edge mollifier (1 for other pairs). derivatives by the product rule:
     g = kappa (b m' + m b' d')
     H = kappa (b m'' + b' (m' d'^T + d' m'^T) + m (b'' d' d'^T + b' d''))
   each local Hessian is projected to PSD before assembly (sec. 4.3). */
#include "ipc/contacts.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/distance.h"
#include "ipc/barrier.h"
#include "ipc/islands.h"
#include "linalg/dense.h"
#include "linalg/mpi_run.h"

void ipc_contact_model_init(ipc_contact_model *cm, const ipc_model *m, double dhat) {
  memset(cm, 0, sizeof *cm);
  cm->model = m;
  cm->dhat = dhat;
  const ipc_surface *s = &m->surface;
  cm->edge_len2 = IPC_NEW(double, (size_t)s->nedges + 1);
  for (int e = 0; e < s->nedges; ++e) {
    const double *a = m->x0 + 3 * (size_t)s->edges[2 * e],
                 *b = m->x0 + 3 * (size_t)s->edges[2 * e + 1];
    double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    cm->edge_len2[e] = d0 * d0 + d1 * d1 + d2 * d2;
  }
  double len = 0;
  int nf = 0;
  for (int f = 0; f < s->nfaces; ++f) {
    const int *t = s->faces + 3 * (size_t)f;
    if (s->vert_obstacle[t[0]] || s->vert_obstacle[t[1]] || s->vert_obstacle[t[2]]) continue;
    for (int k = 0; k < 3; ++k) {
      const double *a = m->x0 + 3 * (size_t)t[k], *b = m->x0 + 3 * (size_t)t[(k + 1) % 3];
      len += sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                  (a[2] - b[2]) * (a[2] - b[2]));
    }
    ++nf;
  }
  cm->hash_voxel = nf > 0 ? len / (3.0 * nf) / 3.0 : 0.0;
  cm->plane_verts = IPC_NEW(int, (size_t)s->nsv + 1);
  cm->nplane_verts = 0;
  if (m->nplanes > 0)
    for (int i = 0; i < s->nsv; ++i)
      if (!s->vert_obstacle[s->sv[i]]) cm->plane_verts[cm->nplane_verts++] = s->sv[i];
}

void ipc_contact_model_free(ipc_contact_model *cm) {
  ipc_free(cm->edge_len2);
  ipc_free(cm->plane_verts);
  memset(cm, 0, sizeof *cm);
}

void ipc_contact_set_free(ipc_contact_set *cs) {
  ipc_free(cs->c);
  memset(cs, 0, sizeof *cs);
}

#define X(i) (x + 3 * (size_t)(i))

/* mollifier threshold eps_x = 1e-3 |ea|^2 |eb|^2 at rest (as in ipc_ee_mollifier_threshold) */
static double ee_eps(const ipc_contact_model *cm, int ea, int eb) {
  const double *x = cm->model->x0;
  const int *E = cm->model->surface.edges;
  return ipc_ee_mollifier_threshold(X(E[2 * ea]), X(E[2 * ea + 1]), X(E[2 * eb]), X(E[2 * eb + 1]));
}

ipc_pt_type ipc_contact_pt_type(const ipc_contact_model *cm, const double *p, const double *a,
                                const double *b, const double *c) {
  return cm->model->params.ipc_newton_path ? ipc_pt_classify_ipc(p, a, b, c)
                                           : ipc_pt_classify(p, a, b, c);
}

ipc_ee_type ipc_contact_ee_type(const ipc_contact_model *cm, const double *a0, const double *a1,
                                const double *b0, const double *b1) {
  return cm->model->params.ipc_newton_path ? ipc_ee_classify_ipc(a0, a1, b0, b1)
                                           : ipc_ee_classify(a0, a1, b0, b1);
}

/* squared distance of contact c at x, classifying its type */
static double contact_d2(ipc_contact *c, const ipc_contact_model *cm, const double *x) {
  const int *v = c->v;
  switch (c->kind) {
    case IPC_CONTACT_PT:
      c->type = (int)ipc_contact_pt_type(cm, X(v[0]), X(v[1]), X(v[2]), X(v[3]));
      return ipc_pt_distance2(X(v[0]), X(v[1]), X(v[2]), X(v[3]), (ipc_pt_type)c->type, NULL, NULL);
    case IPC_CONTACT_EE:
      c->type = (int)ipc_contact_ee_type(cm, X(v[0]), X(v[1]), X(v[2]), X(v[3]));
      return ipc_ee_distance2(X(v[0]), X(v[1]), X(v[2]), X(v[3]), (ipc_ee_type)c->type, NULL, NULL);
    case IPC_CONTACT_PE:
      c->type = (int)ipc_pe_classify(X(v[0]), X(v[1]), X(v[2]));
      return ipc_pe_distance2(X(v[0]), X(v[1]), X(v[2]), (ipc_pe_type)c->type, NULL, NULL);
    case IPC_CONTACT_PP:
      return ipc_pp_dist2(X(v[0]), X(v[1]), NULL, NULL);
    default: {
      double s = ipc_plane_distance(&cm->model->planes[c->plane], X(v[0]));
      return s > 0 ? s * s : 0.0;
    }
  }
}

double ipc_contact_distance2(ipc_contact *c, const ipc_contact_model *cm, const double *x) {
  return contact_d2(c, cm, x);
}

int ipc_contact_first_side(const ipc_contact *c) {
  return c->kind == IPC_CONTACT_EE ? 2 : 1;
}

int ipc_contact_vertices(const ipc_contact *c) {
  static const int count[] = {4, 4, 3, 2, 1};
  return count[c->kind];
}

double ipc_contact_closest_points(const ipc_contact *c, const ipc_contact_model *cm,
                                  const double *x, double pa[3], double pb[3]) {
  const int *v = c->v;
  double gd[12] = {0};
  switch (c->kind) {
    case IPC_CONTACT_PT:
      ipc_pt_distance2(X(v[0]), X(v[1]), X(v[2]), X(v[3]),
                       ipc_contact_pt_type(cm, X(v[0]), X(v[1]), X(v[2]), X(v[3])), gd, NULL);
      break;
    case IPC_CONTACT_EE:
      ipc_ee_distance2(X(v[0]), X(v[1]), X(v[2]), X(v[3]),
                       ipc_contact_ee_type(cm, X(v[0]), X(v[1]), X(v[2]), X(v[3])), gd, NULL);
      break;
    case IPC_CONTACT_PE:
      ipc_pe_distance2(X(v[0]), X(v[1]), X(v[2]), ipc_pe_classify(X(v[0]), X(v[1]), X(v[2])), gd,
                       NULL);
      break;
    case IPC_CONTACT_PP:
      ipc_pp_dist2(X(v[0]), X(v[1]), gd, NULL);
      break;
    default: {
      const ipc_plane *p = &cm->model->planes[c->plane];
      double s = ipc_plane_distance(p, X(v[0]));
      for (int d = 0; d < 3; ++d) {
        pa[d] = X(v[0])[d];
        pb[d] = pa[d] - s * p->normal[d];
      }
      return s;
    }
  }
  /* d^2 = |pa - pb|^2 with pa = sum a_j x_j, pb = sum b_j x_j: its gradient on a point of the
     first primitive is 2 a_j (pa - pb), on one of the second -2 b_j (pa - pb) */
  int ns = ipc_contact_first_side(c), np = ipc_contact_vertices(c);
  double diff[3] = {0, 0, 0};
  for (int j = 0; j < ns; ++j)
    for (int d = 0; d < 3; ++d) diff[d] += 0.5 * gd[3 * j + d];
  double dd = diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2];
  for (int d = 0; d < 3; ++d) pa[d] = pb[d] = 0;
  for (int j = 0; j < np; ++j) {
    const double *g = gd + 3 * j;
    double wj = dd > 0 ? (g[0] * diff[0] + g[1] * diff[1] + g[2] * diff[2]) / (2 * dd) : 0;
    for (int d = 0; d < 3; ++d) {
      if (j < ns)
        pa[d] += wj * X(v[j])[d];
      else
        pb[d] -= wj * X(v[j])[d];
    }
  }
  return sqrt(dd);
}

size_t ipc_contacts_count(const ipc_contact_model *cm, const ipc_candidates *cand) {
  return cand->nvf + cand->nee + cand->nve + cand->nvv +
         (size_t)cm->model->nplanes * (size_t)cm->nplane_verts;
}

void ipc_contacts_visit_range(const ipc_contact_model *cm, const ipc_candidates *cand, size_t begin,
                              size_t end, ipc_contact_visit visit, void *ctx) {
  const ipc_surface *s = &cm->model->surface;
  ipc_contact c;
  memset(&c, 0, sizeof c);
  size_t s0 = 0, lo, hi;
  if (ipc_subrange(s0, cand->nvf, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int v = cand->vf[2 * i], f = cand->vf[2 * i + 1];
      c.kind = IPC_CONTACT_PT;
      c.v[0] = v;
      c.v[1] = s->faces[3 * f];
      c.v[2] = s->faces[3 * f + 1];
      c.v[3] = s->faces[3 * f + 2];
      c.eps_x = 0;
      visit(&c, ctx);
    }
  s0 += cand->nvf;
  if (ipc_subrange(s0, cand->nee, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int ea = cand->ee[2 * i], eb = cand->ee[2 * i + 1];
      c.kind = IPC_CONTACT_EE;
      c.v[0] = s->edges[2 * ea];
      c.v[1] = s->edges[2 * ea + 1];
      c.v[2] = s->edges[2 * eb];
      c.v[3] = s->edges[2 * eb + 1];
      c.eps_x = ee_eps(cm, ea, eb);
      visit(&c, ctx);
    }
  s0 += cand->nee;
  c.eps_x = 0;
  if (ipc_subrange(s0, cand->nve, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int v = cand->ve[2 * i], e = cand->ve[2 * i + 1];
      c.kind = IPC_CONTACT_PE;
      c.v[0] = v;
      c.v[1] = s->edges[2 * e];
      c.v[2] = s->edges[2 * e + 1];
      c.v[3] = -1;
      visit(&c, ctx);
    }
  s0 += cand->nve;
  if (ipc_subrange(s0, cand->nvv, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      int a = cand->vv[2 * i], b = cand->vv[2 * i + 1];
      c.kind = IPC_CONTACT_PP;
      c.v[0] = a;
      c.v[1] = b;
      c.v[2] = c.v[3] = -1;
      visit(&c, ctx);
    }
  s0 += cand->nvv;
  size_t npv = (size_t)cm->nplane_verts;
  if (npv > 0 && ipc_subrange(s0, (size_t)cm->model->nplanes * npv, begin, end, &lo, &hi)) {
    c.kind = IPC_CONTACT_PLANE;
    c.v[1] = c.v[2] = c.v[3] = -1;
    for (size_t i = lo; i < hi; ++i) {
      c.plane = (int)(i / npv);
      c.v[0] = cm->plane_verts[i % npv];
      visit(&c, ctx);
    }
  }
}

void ipc_contacts_visit(const ipc_contact_model *cm, const ipc_candidates *cand,
                        ipc_contact_visit visit, void *ctx) {
  ipc_contacts_visit_range(cm, cand, 0, ipc_contacts_count(cm, cand), visit, ctx);
}

typedef struct collect_ctx {
  ipc_contact_set *out;
  const ipc_contact_model *cm;
  const double *x;
  double dhat2, min_d2;
  int touching;
} collect_ctx;

static void collect_visit(ipc_contact *c, void *vctx) {
  collect_ctx *k = vctx;
  double d2 = contact_d2(c, k->cm, k->x);
  if (d2 < k->min_d2) k->min_d2 = d2;
  if (!(d2 > 0)) k->touching = 1;
  if (d2 < k->dhat2) {
    ipc_reserve((void **)&k->out->c, &k->out->cap, k->out->n + 1, sizeof(ipc_contact));
    c->d2 = d2;
    k->out->c[k->out->n++] = *c;
  }
}

typedef struct collect_job {
  const ipc_contact_model *cm;
  const ipc_candidates *cand;
  const double *x;
  ipc_contact_set part[IPC_MAX_CHUNKS];
  int touching[IPC_MAX_CHUNKS];
} collect_job;

static double collect_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  collect_job *j = vjob;
  collect_ctx k = {&j->part[chunk], j->cm, j->x, j->cm->dhat * j->cm->dhat, INFINITY, 0};
  ipc_contacts_visit_range(j->cm, j->cand, begin, end, collect_visit, &k);
  j->touching[chunk] = k.touching;
  return k.min_d2;
}

/* the chunks' contact sets appended to out in chunk order (and freed); while the work is split
   over MPI ranks (each rank filled its own chunks' sets, mpi_run.h) every rank's gathered in
   rank order, which is chunk order: the serial set */
static void gather_parts(ipc_contact_set *out, ipc_contact_set *part, size_t nc) {
  for (size_t c = 0; c < nc; ++c) {
    ipc_contact_set *p = &part[c];
    if (p->n > 0) {
      ipc_reserve((void **)&out->c, &out->cap, out->n + p->n, sizeof(ipc_contact));
      memcpy(out->c + out->n, p->c, p->n * sizeof(ipc_contact));
      out->n += p->n;
    }
    ipc_contact_set_free(p);
  }
  if (!ipc_mpi_splitting()) return;
  void *all = NULL;
  size_t cap = 0;
  size_t bytes = ipc_mpi_allgather(out->c, out->n * sizeof(ipc_contact), &all, &cap);
  out->n = bytes / sizeof(ipc_contact);
  ipc_reserve((void **)&out->c, &out->cap, out->n + 1, sizeof(ipc_contact));
  if (bytes) memcpy(out->c, all, bytes);
  ipc_free(all);
}

double ipc_contacts_collect(ipc_contact_set *out, const ipc_contact_model *cm,
                            const ipc_candidates *cand, const double *x) {
  out->n = 0;
  size_t n = ipc_contacts_count(cm, cand);
  size_t nc = ipc_mpi_chunk_count(n, 2048);
  if (nc <= 1 && !ipc_mpi_splitting()) {
    ipc_mpi_count(IPC_WORK_BARRIER, n);
    double t0 = ipc_mpi_cpu_now();
    collect_ctx k = {out, cm, x, cm->dhat * cm->dhat, INFINITY, 0};
    ipc_contacts_visit(cm, cand, collect_visit, &k);
    ipc_mpi_count_cpu(IPC_WORK_BARRIER, ipc_mpi_cpu_now() - t0);
    return k.touching ? -1.0 : k.min_d2;
  }
  collect_job *j = IPC_NEW0(collect_job, 1);
  j->cm = cm;
  j->cand = cand;
  j->x = x;
  double min_d2 = ipc_mpi_parallel_min(n, 2048, collect_range, j, IPC_WORK_BARRIER);
  int touching = 0;
  for (size_t c = 0; c < nc; ++c) touching |= j->touching[c];
  if (ipc_mpi_splitting()) {
    double t = touching;
    ipc_mpi_reduce(&t, 1, IPC_MPI_MAX);
    touching = t > 0;
  }
  gather_parts(out, j->part, nc);
  ipc_free(j);
  return touching ? -1.0 : min_d2;
}

/* m(x) b(d2) for one contact, value only */
static double contact_value(ipc_contact *c, const ipc_contact_model *cm, const double *x,
                            double dhat2) {
  double d2 = contact_d2(c, cm, x);
  c->d2 = d2;
  if (d2 >= dhat2) return 0.0;
  if (!(d2 > 0)) return INFINITY;
  double b = ipc_barrier(d2, dhat2);
  if (c->kind == IPC_CONTACT_EE) {
    const int *v = c->v;
    b *= ipc_ee_mollifier(X(v[0]), X(v[1]), X(v[2]), X(v[3]), c->eps_x, NULL, NULL);
  }
  return b;
}

double ipc_contacts_energy(const ipc_contact_set *cs, const ipc_contact_model *cm, const double *x,
                           double kappa) {
  double dhat2 = cm->dhat * cm->dhat, e = 0.0;
  for (size_t i = 0; i < cs->n; ++i) {
    ipc_contact c = cs->c[i];
    e += contact_value(&c, cm, x, dhat2);
  }
  return kappa * e;
}

typedef struct energy_ctx {
  const ipc_contact_model *cm;
  const double *x;
  double dhat2, sum, min_d2;
  ipc_contact_set *out;   /* NULL: energy only */
  const int *vert_island; /* NULL: no split */
  int nisl;
  double *bins; /* (nisl + 1) this chunk's sums per island */
} energy_ctx;

static int contact_nverts(const ipc_contact *c) {
  switch (c->kind) {
    case IPC_CONTACT_PT:
    case IPC_CONTACT_EE:
      return 4;
    case IPC_CONTACT_PE:
      return 3;
    case IPC_CONTACT_PP:
      return 2;
    default:
      return 1;
  }
}

static void energy_visit(ipc_contact *c, void *vctx) {
  energy_ctx *k = vctx;
  double e = contact_value(c, k->cm, k->x, k->dhat2);
  k->sum += e;
  if (k->vert_island)
    k->bins[ipc_islands_of(k->vert_island, c->v, contact_nverts(c), k->nisl)] += e;
  if (c->d2 < k->min_d2) k->min_d2 = c->d2;
  if (k->out && c->d2 < k->dhat2) { /* the record collect_visit keeps */
    ipc_reserve((void **)&k->out->c, &k->out->cap, k->out->n + 1, sizeof(ipc_contact));
    k->out->c[k->out->n++] = *c;
  }
}

typedef struct energy_job {
  const ipc_contact_model *cm;
  const ipc_candidates *cand;
  const double *x;
  double min_d2[IPC_MAX_CHUNKS];
  ipc_contact_set *part; /* (IPC_MAX_CHUNKS) per-chunk sets, or NULL */
  const int *vert_island;
  int nisl;
  double *bins; /* (chunks x (nisl + 1)) */
} energy_job;

static double energy_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  energy_job *j = vjob;
  energy_ctx k = {j->cm,
                  j->x,
                  j->cm->dhat * j->cm->dhat,
                  0.0,
                  INFINITY,
                  j->part ? &j->part[chunk] : NULL,
                  j->vert_island,
                  j->nisl,
                  j->bins ? j->bins + chunk * ((size_t)j->nisl + 1) : NULL};
  ipc_contacts_visit_range(j->cm, j->cand, begin, end, energy_visit, &k);
  j->min_d2[chunk] = k.min_d2;
  return k.sum;
}

double ipc_barrier_energy_islands(const ipc_contact_model *cm, const ipc_candidates *cand,
                                  const double *x, double kappa, const int *vert_island, int nisl,
                                  double *e, double *min_d2, ipc_contact_set *out) {
  energy_job j;
  j.cm = cm;
  j.cand = cand;
  j.x = x;
  j.part = NULL;
  j.vert_island = vert_island;
  j.nisl = nisl;
  j.bins = NULL;
  size_t n = ipc_contacts_count(cm, cand);
  /* over MPI ranks each rank visits its chunks (mpi_run.h): the others' entries stay 0,
     INFINITY and empty until combined */
  size_t nc = ipc_mpi_chunk_count(n, 2048);
  size_t nb = (size_t)nisl + 1;
  for (size_t c = 0; c < nc; ++c) j.min_d2[c] = INFINITY;
  if (vert_island) j.bins = IPC_NEW0(double, nc *nb + 1);
  if (out) {
    out->n = 0;
    j.part = IPC_NEW0(ipc_contact_set, IPC_MAX_CHUNKS);
  }
  double sum = ipc_mpi_parallel_sum(n, 2048, energy_range, &j, IPC_WORK_BARRIER);
  if (vert_island) {
    if (ipc_mpi_splitting()) ipc_mpi_reduce(j.bins, nc * nb, IPC_MPI_SUM);
    for (size_t c = 0; c < nc; ++c)
      for (size_t i = 0; i < nb; ++i) e[i] += kappa * j.bins[c * nb + i];
    ipc_free(j.bins);
  }
  if (min_d2) {
    *min_d2 = INFINITY;
    for (size_t c = 0; c < nc; ++c)
      if (j.min_d2[c] < *min_d2) *min_d2 = j.min_d2[c];
    if (ipc_mpi_splitting()) ipc_mpi_reduce(min_d2, 1, IPC_MPI_MIN);
  }
  if (out) {
    gather_parts(out, j.part, nc);
    ipc_free(j.part);
  }
  return kappa * sum;
}

double ipc_contact_local(const ipc_contact *c, const ipc_contact_model *cm, const double *x,
                         double kappa, int project, int *nv, int verts[4], double g[12],
                         double H[144]) {
  double dhat2 = cm->dhat * cm->dhat;
  double gd[12], Hd[144];
  int np, mask;
  const int *v = c->v;
  ipc_contact cc = *c;
  double d2;
  switch (c->kind) {
    case IPC_CONTACT_PT:
      cc.type = (int)ipc_contact_pt_type(cm, X(v[0]), X(v[1]), X(v[2]), X(v[3]));
      d2 = ipc_pt_distance2(X(v[0]), X(v[1]), X(v[2]), X(v[3]), (ipc_pt_type)cc.type, gd, Hd);
      np = 4;
      mask = ipc_pt_type_points((ipc_pt_type)cc.type);
      break;
    case IPC_CONTACT_EE:
      cc.type = (int)ipc_contact_ee_type(cm, X(v[0]), X(v[1]), X(v[2]), X(v[3]));
      d2 = ipc_ee_distance2(X(v[0]), X(v[1]), X(v[2]), X(v[3]), (ipc_ee_type)cc.type, gd, Hd);
      np = 4;
      mask = ipc_ee_type_points((ipc_ee_type)cc.type);
      break;
    case IPC_CONTACT_PE:
      cc.type = (int)ipc_pe_classify(X(v[0]), X(v[1]), X(v[2]));
      d2 = ipc_pe_distance2(X(v[0]), X(v[1]), X(v[2]), (ipc_pe_type)cc.type, gd, Hd);
      np = 3;
      mask = ipc_pe_type_points((ipc_pe_type)cc.type);
      break;
    case IPC_CONTACT_PP:
      d2 = ipc_pp_dist2(X(v[0]), X(v[1]), gd, Hd);
      np = 2;
      mask = 0x3;
      break;
    default: {
      const ipc_plane *p = &cm->model->planes[c->plane];
      double s = ipc_plane_distance(p, X(v[0]));
      d2 = s * s;
      np = 1;
      mask = 0x1;
      for (int i = 0; i < 3; ++i) {
        gd[i] = 2.0 * s * p->normal[i];
        for (int j = 0; j < 3; ++j) Hd[3 * i + j] = 2.0 * p->normal[i] * p->normal[j];
      }
      break;
    }
  }
  int n = 3 * np;
  *nv = 0;
  if (d2 >= dhat2 || !(d2 > 0)) return d2 >= dhat2 ? 0.0 : INFINITY;
  double b = ipc_barrier(d2, dhat2), b1 = ipc_barrier_d1(d2, dhat2), b2 = ipc_barrier_d2(d2, dhat2);
  double e;
  double gf[12], Hf[144];
  int mollified = 0;
  if (c->kind == IPC_CONTACT_EE) {
    double gm[12], Hm[144];
    double mval = ipc_ee_mollifier(X(v[0]), X(v[1]), X(v[2]), X(v[3]), c->eps_x, gm, Hm);
    if (mval < 1.0) {
      mollified = 1;
      mask = 0xF;
      e = mval * b;
      for (int i = 0; i < n; ++i) gf[i] = b * gm[i] + mval * b1 * gd[i];
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          Hf[n * i + j] = b * Hm[n * i + j] + b1 * (gm[i] * gd[j] + gd[i] * gm[j]) +
                          mval * (b2 * gd[i] * gd[j] + b1 * Hd[n * i + j]);
    }
  }
  if (!mollified) {
    e = b;
    for (int i = 0; i < n; ++i) gf[i] = b1 * gd[i];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) Hf[n * i + j] = b2 * gd[i] * gd[j] + b1 * Hd[n * i + j];
  }
  /* compress to the points the term depends on */
  int idx[4], k = 0;
  for (int p = 0; p < np; ++p)
    if (mask & (1 << p)) idx[k++] = p;
  int m = 3 * k;
  for (int a = 0; a < k; ++a) {
    verts[a] = v[idx[a]];
    for (int r = 0; r < 3; ++r) {
      g[3 * a + r] = kappa * gf[3 * idx[a] + r];
      for (int bb = 0; bb < k; ++bb)
        for (int s = 0; s < 3; ++s)
          H[m * (3 * a + r) + 3 * bb + s] = kappa * Hf[n * (3 * idx[a] + r) + 3 * idx[bb] + s];
    }
  }
  *nv = k;
  /* pair contacts depend on point differences; a plane contact (one point, k = 1) takes the
     full projection inside */
  if (project) ipc_psd_project_differences(k, H);
  return kappa * e;
}
