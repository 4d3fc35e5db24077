/* point contacts of the LCP mode (Lazarevych et al. 2010 Sec. 3; Erleben's LCP notes
   Sec. 1.4.2): for a vertex p against a triangle with closest point q = sum b_k t_k, and
   for two edges with closest points pa = sum a_k a_k, pb = sum b_k b_k, the normal is
   n = (p - q) / |p - q| and the relative velocity v_p - sum b_k v_tk has normal part
   n . v_rel = d|p - q|/dt. The closest features come from the shared classification
   (geometry/distance.h), so the types agree with IPC mode.
   Signed gap: distances are unsigned except
   - vertex against the interior of a face of a deformable body (a closed, outward-oriented
     surface): phi = (p - t0) . n_f with the face normal n_f, negative when p is behind
     the face within the face's normal prism (it has penetrated);
   - vertex against a plane: phi = n . (p - point);
   - vertex against the interior of an obstacle face (open, two-sided): |phi| with the
     normal on the side the vertex is on.
   A vertex deeper behind a face than the contact gap is taken to be across the body, not
   penetrating, and makes no contact with that face.
   A vertex is outside a body when it is in front of the plane of any of the body's faces
   near it (exact for a convex part; near a reflex edge an inside vertex may be taken to be
   outside and is then not pushed out): then its negative gaps to that body (behind a face's plane
   near a convex edge) are not penetrations and are dropped; inside, only the nearest contact is
   kept, the way out (deeper faces' normals would push the vertex sideways or further in). Edge-edge
   and vertex-edge/vertex pairs are unsigned (their side is not defined locally); they keep the side
   of the same contact in the previous step (orient): when the unsigned normal has turned against
   the previous one, the pair has crossed, and the normal is flipped back and the gap made negative.
   Pairs whose involved vertices coincide (a vertex near an edge, seen from both faces and
   the edges around it) are merged: one contact per set of involved vertices. */
#include "lcp/contact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec3.h"
#include "geometry/distance.h"

#define X(i) (x + 3 * (size_t)(i))

/* an unsigned normal turned against the previous by more than this (cosine) has crossed */
#define IPC_LCP_CROSSED_COS (-0.5)

enum { KIND_PT = 1, KIND_EE = 2, KIND_PE = 3, KIND_PP = 4, KIND_PLANE = 5 };

void ipc_lcp_contact_set_free(ipc_lcp_contact_set *cs) {
  ipc_free(cs->c);
  memset(cs, 0, sizeof *cs);
}

int ipc_lcp_contact_plane(const ipc_lcp_contact *c) {
  return c->key[0] == 1 ? (int)c->key[2] : -1;
}

void ipc_lcp_tangents(const double n[3], double t1[3], double t2[3]) {
  int k = 0;
  for (int d = 1; d < 3; ++d)
    if (fabs(n[d]) < fabs(n[k])) k = d;
  double e[3] = {0, 0, 0};
  e[k] = 1;
  cross3(t1, n, e);
  normalize3(t1);
  cross3(t2, n, t1);
}

/* parameter of the closest point of segment e0-e1 to p, in [0, 1] */
static double seg_param(const double *p, const double *e0, const double *e1) {
  double u[3] = {e1[0] - e0[0], e1[1] - e0[1], e1[2] - e0[2]};
  double r[3] = {p[0] - e0[0], p[1] - e0[1], p[2] - e0[2]};
  double uu = dot3(u, u);
  if (!(uu > 0)) return 0;
  double s = dot3(r, u) / uu;
  return s < 0 ? 0 : (s > 1 ? 1 : s);
}

typedef struct builder {
  ipc_lcp_contact_set *out;
  const ipc_model *m;
  const double *x;
  double gap, depth;
  const double *v; /* (nverts x 3) velocities for the speculative reach, or NULL */
  double h, accel;
  int *front; /* (nfront x 2) vertex, body: the vertex is in front of one of the body's faces */
  size_t nfront, cap_front;
  double *u; /* (nverts) |v_i - c|, c the mean velocity: u_i + u_j >= |v_i - v_j|; or NULL */
  int cross; /* the reach from the speeds of one side's vertices against the other's only, and
               speculative contacts only when they approach (reduced manifolds) */
  const ipc_lcp_contact_set *prev; /* last step's contacts (sorted by key), or NULL */
} builder;

/* the kinetic coefficient of a contact of vertex va with vertex vb, or plane -vb - 1, under
   the scene's combine rule (the same as IPC mode's) */
static double pair_mu(const ipc_model *m, int va, int vb) {
  double mu_s, mu_k;
  int a = m->surface.vert_body[va];
  if (vb < 0)
    ipc_model_pair_friction(m, a, -1, -vb - 1, &mu_s, &mu_k);
  else
    ipc_model_pair_friction(m, a, m->surface.vert_body[vb], -1, &mu_s, &mu_k);
  return mu_k;
}

/* the distance a pair may close within the step, with a factor 2 of margin: 2h (the
   largest relative speed of its vertices + 2h accel); a plane is at rest. Relative speeds,
   so the far parts of one fast body (or of two bodies flying together) are no contacts.
   With b->cross, only the speeds of the first na ids (one side) against the others count:
   how fast the sides approach, not how fast a spinning face's corners move apart. */
static double reach(const builder *b, int np, int na, const int *ids, int plane) {
  if (!b->v) return 0;
  double s2 = 0;
  for (int i = 0; i < np; ++i) {
    const double *vi = b->v + 3 * (size_t)ids[i];
    double t = vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2];
    if (plane >= 0 && t > s2) s2 = t; /* (a NaN speed is ignored, as fmax does) */
    if (b->cross && i >= na) break;
    for (int j = b->cross ? na : i + 1; j < np; ++j) {
      const double *vj = b->v + 3 * (size_t)ids[j];
      double d[3] = {vi[0] - vj[0], vi[1] - vj[1], vi[2] - vj[2]};
      t = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (t > s2) s2 = t;
    }
  }
  return 2 * b->h * (sqrt(s2) + 2 * b->h * b->accel);
}

/* -1 when contacts c and p (same vertices) have their sides swapped (a vertex-vertex pair
   seen from either face), else 1: their normals compare side for side after this sign */
static double side_sign(const ipc_lcp_contact *c, const ipc_lcp_contact *p) {
  for (int a = 0; a < c->nv; ++a)
    for (int k = 0; k < p->nv; ++k)
      if (p->vert[k] == c->vert[a] && (p->w[k] > 0) != (c->w[a] > 0)) return -1;
  return 1;
}

/* bsearch: a key against a contact's */
static int cmp_key_contact(const void *key, const void *contact) {
  return ipc_lcp_key_cmp(key, ((const ipc_lcp_contact *)contact)->key);
}

/* adds a contact of the given points and weights (ids may repeat nothing; zero weights are
   dropped) with normal n and gap phi, when phi < gap */
static ipc_lcp_contact *emit(builder *b, int kind, int np, const int *ids, const double *wts,
                             const double n[3], double phi, double mu, int plane) {
  if (!(phi < b->gap + reach(b, np, kind == KIND_EE ? 2 : 1, ids, plane))) return NULL;
  int approach = 1; /* a speculative contact of the reduced manifolds closes along its normal */
  if (b->cross && b->v && !(phi < b->gap)) {
    double vn = 0;
    for (int k = 0; k < np; ++k) vn += wts[k] * dot3(n, b->v + 3 * (size_t)ids[k]);
    double closing = vn < 0 ? -vn : 0;
    approach = phi < b->gap + 2 * b->h * (closing + 2 * b->h * b->accel);
  }
  ipc_lcp_contact c;
  memset(&c, 0, sizeof c);
  for (int k = 0; k < 4; ++k) c.vert[k] = -1;
  for (int k = 0; k < np; ++k) {
    if (wts[k] == 0) continue;
    c.vert[c.nv] = ids[k];
    c.w[c.nv++] = wts[k];
  }
  if (c.nv == 0) return NULL;
  memcpy(c.n, n, sizeof c.n);
  ipc_lcp_tangents(c.n, c.t1, c.t2);
  c.phi = phi;
  c.mu = mu;
  c.unsigned_gap = kind == KIND_EE || kind == KIND_PE || kind == KIND_PP;
  c.face_body = -1;
  /* key: sorted involved vertices, packed; plane contacts carry the plane */
  int s[4] = {-1, -1, -1, -1};
  for (int k = 0; k < c.nv; ++k) s[k] = c.vert[k];
  for (int i = 1; i < 4; ++i)
    for (int j = i; j > 0 && (unsigned)s[j] < (unsigned)s[j - 1]; --j) {
      int t = s[j];
      s[j] = s[j - 1];
      s[j - 1] = t;
    }
  /* four involved vertices: a face-interior and an edge-edge contact on the same vertices
     are different constraints */
  c.key[0] = kind == KIND_PLANE ? 1 : c.nv == 4 ? 2 + (unsigned long long)kind : 0;
  c.key[1] = ((unsigned long long)(unsigned)s[0] << 32) | (unsigned)s[1];
  c.key[2] = kind == KIND_PLANE ? (unsigned long long)plane
                                : ((unsigned long long)(unsigned)s[2] << 32) | (unsigned)s[3];
  /* one that does not approach stays when its normal turned against last step's: it may
     have crossed, which orient decides (a pair that crossed seems to separate) */
  if (!approach) {
    const ipc_lcp_contact *p =
        b->prev && b->prev->n > 0
            ? bsearch(c.key, b->prev->c, b->prev->n, sizeof *b->prev->c, cmp_key_contact)
            : NULL;
    if (!p || side_sign(&c, p) * dot3(c.n, p->n) >= 0) return NULL;
  }
  ipc_reserve((void **)&b->out->c, &b->out->cap, b->out->n + 1, sizeof c);
  b->out->c[b->out->n++] = c;
  return &b->out->c[b->out->n - 1];
}

/* whether a pair whose gap is at least lb (m) is surely beyond the gap and reach emit
   requires of it: most candidates of the inflated broad phase are, and are dropped before
   their classification (a relative margin keeps the decision emit's under rounding) */
static int beyond(const builder *b, double lb, int np, int na, const int *ids) {
  if (b->u) { /* first against a bound of the reach from the two largest u_i (of each side) */
    double u1 = 0, u2 = 0, ua = 0, ub = 0;
    for (int i = 0; i < np; ++i) {
      double t = b->u[ids[i]];
      if (t > u1)
        u2 = u1, u1 = t;
      else if (t > u2)
        u2 = t;
      if (i < na)
        ua = t > ua ? t : ua;
      else
        ub = t > ub ? t : ub;
    }
    double s = b->cross ? ua + ub : u1 + u2;
    double bound = 2 * b->h * (s + 2 * b->h * b->accel);
    if (lb > (1 + 1e-9) * (b->gap + bound) + 1e-300) return 1;
  }
  return lb > (1 + 1e-9) * (b->gap + reach(b, np, na, ids, -1)) + 1e-300;
}

static void vertex_face(builder *b, int p, int f) {
  const ipc_model *m = b->m;
  const double *x = b->x;
  const int *F = m->surface.faces + 3 * (size_t)f;
  int ids[4] = {p, F[0], F[1], F[2]};
  {
    double fn[3], e1[3], e2[3], r[3];
    for (int d = 0; d < 3; ++d) {
      e1[d] = X(F[1])[d] - X(F[0])[d];
      e2[d] = X(F[2])[d] - X(F[0])[d];
      r[d] = X(p)[d] - X(F[0])[d];
    }
    cross3(fn, e1, e2);
    double side = dot3(fn, r);
    int body = m->surface.vert_body[F[0]];
    /* (the candidates come by vertex: a repeat of the last entry adds nothing) */
    if (!m->surface.vert_obstacle[F[0]] && side >= 0 &&
        !(b->nfront > 0 && b->front[2 * b->nfront - 2] == p &&
          b->front[2 * b->nfront - 1] == body)) {
      ipc_reserve((void **)&b->front, &b->cap_front, 2 * (b->nfront + 1), sizeof(int));
      b->front[2 * b->nfront] = p;
      b->front[2 * b->nfront + 1] = body;
      b->nfront++;
    }
    /* the distance to the face's plane bounds every gap of the pair from below (and a
       vertex behind the face by more than the gap makes none) */
    double len = sqrt(dot3(fn, fn));
    if (len > 0 && beyond(b, fabs(side) / len, 4, 1, ids)) return;
  }
  ipc_pt_type type = ipc_pt_classify(X(p), X(F[0]), X(F[1]), X(F[2]));
  double w[4] = {1, 0, 0, 0}, n[3], phi;
  double mu = pair_mu(m, p, F[0]);
  if (type == IPC_PT_P_T) {
    const double *t0 = X(F[0]), *t1 = X(F[1]), *t2 = X(F[2]), *pp = X(p);
    double e1[3], e2[3], r[3];
    for (int d = 0; d < 3; ++d) {
      e1[d] = t1[d] - t0[d];
      e2[d] = t2[d] - t0[d];
      r[d] = pp[d] - t0[d];
    }
    cross3(n, e1, e2);
    if (!(normalize3(n) > 0)) return;
    phi = dot3(r, n);
    if (m->surface.vert_obstacle[F[0]] && phi < 0) {
      phi = -phi;
      for (int d = 0; d < 3; ++d) n[d] = -n[d];
    }
    /* deeper behind the face than the gap: the vertex is across the body (e.g. a vertex of
       the same body), not a penetration of this face */
    if (phi < -b->depth) return;
    /* barycentric coordinates of the projection */
    double a11 = dot3(e1, e1), a12 = dot3(e1, e2), a22 = dot3(e2, e2);
    double r1 = dot3(r, e1), r2 = dot3(r, e2), det = a11 * a22 - a12 * a12;
    double u = (a22 * r1 - a12 * r2) / det, v = (a11 * r2 - a12 * r1) / det;
    w[1] = -(1 - u - v);
    w[2] = -u;
    w[3] = -v;
  } else {
    int a = 0, c = 0;
    double s = 0;
    switch (type) {
      case IPC_PT_P_T0:
        a = 1;
        break;
      case IPC_PT_P_T1:
        a = 2;
        break;
      case IPC_PT_P_T2:
        a = 3;
        break;
      case IPC_PT_P_E0:
        a = 1, c = 2;
        break;
      case IPC_PT_P_E1:
        a = 2, c = 3;
        break;
      default:
        a = 3, c = 1;
        break;
    }
    if (c) {
      s = seg_param(X(p), X(ids[a]), X(ids[c]));
      w[a] = -(1 - s);
      w[c] = -s;
    } else {
      w[a] = -1;
    }
    double q[3] = {0, 0, 0};
    for (int k = 1; k < 4; ++k)
      for (int d = 0; d < 3; ++d) q[d] -= w[k] * X(ids[k])[d];
    for (int d = 0; d < 3; ++d) n[d] = X(p)[d] - q[d];
    phi = normalize3(n);
    if (!(phi > 0)) return;
  }
  ipc_lcp_contact *c = emit(b, KIND_PT, 4, ids, w, n, phi, mu, -1);
  if (!c) return;
  if (!m->surface.vert_obstacle[F[0]]) c->face_body = m->surface.vert_body[F[0]];
  if (type != IPC_PT_P_T || m->surface.vert_obstacle[F[0]]) c->unsigned_gap = 1;
}

/* an edge-edge contact whose closest point on one edge is its end (a zero weight dropped) is a
   vertex against the other edge (or vertex), the same key as vertex_face's: the vertex first
   with a positive weight (normal and weights negated when it was on the negative side) and
   face_body the other side's body, so that its side is decided as vertex_face's (inside the
   body or not) */
static void vertex_side_first(ipc_lcp_contact *c, const ipc_model *m) {
  int pos = 0, neg = 0, vn = -1;
  for (int k = 0; k < c->nv; ++k) {
    if (c->w[k] > 0) ++pos;
    if (c->w[k] < 0) ++neg, vn = k;
  }
  if (pos != 1 && neg == 1) { /* the vertex on the negative side: to the front, negated */
    int v = c->vert[vn];
    double wv = c->w[vn];
    for (int k = vn; k > 0; --k) c->vert[k] = c->vert[k - 1], c->w[k] = c->w[k - 1];
    c->vert[0] = v;
    c->w[0] = wv;
    for (int k = 0; k < c->nv; ++k) c->w[k] = -c->w[k];
    for (int d = 0; d < 3; ++d) c->n[d] = -c->n[d];
    ipc_lcp_tangents(c->n, c->t1, c->t2);
  } else if (pos != 1) {
    return;
  }
  int other = c->vert[c->nv - 1];
  if (!m->surface.vert_obstacle[other]) c->face_body = m->surface.vert_body[other];
}

/* closest points of two segments a0-a1 and b0-b1 as parameters (s, t) for the classified
   type */
static void edge_edge(builder *b, int a0, int a1, int b0, int b1) {
  const ipc_model *m = b->m;
  const double *x = b->x;
  int ids[4] = {a0, a1, b0, b1};
  {
    /* the distance of the two lines bounds the segments' from below */
    double u[3], v[3], r[3], c[3];
    for (int d = 0; d < 3; ++d) {
      u[d] = X(a1)[d] - X(a0)[d];
      v[d] = X(b1)[d] - X(b0)[d];
      r[d] = X(a0)[d] - X(b0)[d];
    }
    cross3(c, u, v);
    double len = sqrt(dot3(c, c));
    if (len > 0 && beyond(b, fabs(dot3(r, c)) / len, 4, 2, ids)) return;
  }
  ipc_ee_type type = ipc_ee_classify(X(a0), X(a1), X(b0), X(b1));
  double s = 0, t = 0;
  switch (type) {
    case IPC_EE_A0_B0:
      s = 0, t = 0;
      break;
    case IPC_EE_A0_B1:
      s = 0, t = 1;
      break;
    case IPC_EE_A1_B0:
      s = 1, t = 0;
      break;
    case IPC_EE_A1_B1:
      s = 1, t = 1;
      break;
    case IPC_EE_A_B0:
      s = seg_param(X(b0), X(a0), X(a1)), t = 0;
      break;
    case IPC_EE_A_B1:
      s = seg_param(X(b1), X(a0), X(a1)), t = 1;
      break;
    case IPC_EE_A0_B:
      s = 0, t = seg_param(X(a0), X(b0), X(b1));
      break;
    case IPC_EE_A1_B:
      s = 1, t = seg_param(X(a1), X(b0), X(b1));
      break;
    default: {
      const double *p0 = X(a0), *p1 = X(a1), *q0 = X(b0), *q1 = X(b1);
      double u[3], v[3], r[3];
      for (int d = 0; d < 3; ++d) {
        u[d] = p1[d] - p0[d];
        v[d] = q1[d] - q0[d];
        r[d] = p0[d] - q0[d];
      }
      double uu = dot3(u, u), uv = dot3(u, v), vv = dot3(v, v), ur = dot3(u, r), vr = dot3(v, r);
      double den = uu * vv - uv * uv;
      s = (uv * vr - vv * ur) / den;
      t = (uu * vr - uv * ur) / den;
      s = s < 0 ? 0 : (s > 1 ? 1 : s);
      t = t < 0 ? 0 : (t > 1 ? 1 : t);
    }
  }
  double w[4] = {1 - s, s, -(1 - t), -t}, n[3];
  for (int d = 0; d < 3; ++d)
    n[d] = (1 - s) * X(a0)[d] + s * X(a1)[d] - (1 - t) * X(b0)[d] - t * X(b1)[d];
  double phi = normalize3(n);
  if (!(phi > 0)) return;
  ipc_lcp_contact *c = emit(b, KIND_EE, 4, ids, w, n, phi, pair_mu(m, a0, b0), -1);
  if (c && c->nv < 4) vertex_side_first(c, m);
}

static void vertex_edge(builder *b, int p, int e0, int e1) {
  const ipc_model *m = b->m;
  const double *x = b->x;
  double s = seg_param(X(p), X(e0), X(e1));
  int ids[3] = {p, e0, e1};
  double w[3] = {1, -(1 - s), -s}, n[3];
  for (int d = 0; d < 3; ++d) n[d] = X(p)[d] - (1 - s) * X(e0)[d] - s * X(e1)[d];
  double phi = normalize3(n);
  if (!(phi > 0)) return;
  ipc_lcp_contact *c = emit(b, KIND_PE, 3, ids, w, n, phi, pair_mu(m, p, e0), -1);
  if (c && !m->surface.vert_obstacle[e0]) c->face_body = m->surface.vert_body[e0];
}

static void vertex_vertex(builder *b, int p, int q) {
  const ipc_model *m = b->m;
  const double *x = b->x;
  int ids[2] = {p, q};
  double w[2] = {1, -1}, n[3];
  for (int d = 0; d < 3; ++d) n[d] = X(p)[d] - X(q)[d];
  double phi = normalize3(n);
  if (!(phi > 0)) return;
  ipc_lcp_contact *c = emit(b, KIND_PP, 2, ids, w, n, phi, pair_mu(m, p, q), -1);
  if (c && !m->surface.vert_obstacle[q]) c->face_body = m->surface.vert_body[q];
}

static void keep_shallowest(ipc_lcp_contact_set *cs, int *front, size_t nfront);
static void orient(ipc_lcp_contact_set *cur, const ipc_lcp_contact_set *prev, const builder *b);

/* a contact's sort fields and its index: sorting these moves a fifth of the bytes */
typedef struct sort_rec {
  unsigned long long key[3];
  double phi, n[3];
  size_t idx;
} sort_rec;

static int cmp_contact(const void *pa, const void *pb) {
  const sort_rec *a = pa, *b = pb;
  int kc = ipc_lcp_key_cmp(a->key, b->key);
  if (kc) return kc;
  /* same vertices: keep the smallest gap first, then a fixed order of the normal */
  if (a->phi != b->phi) return a->phi < b->phi ? -1 : 1;
  for (int d = 0; d < 3; ++d)
    if (a->n[d] != b->n[d]) return a->n[d] < b->n[d] ? -1 : 1;
  return 0;
}

double ipc_lcp_contacts_collect(ipc_lcp_contact_set *out, const ipc_model *m,
                                const ipc_candidates *cand, const double *x, double gap,
                                const double *vel, double h, double accel,
                                const ipc_lcp_contact_set *prev, int cross_reach) {
  out->n = 0;
  builder b = {out, m, x, gap, gap, vel, h, accel, NULL, 0, 0, NULL, cross_reach, prev};
  const ipc_surface *s = &m->surface;
  if (vel && m->nverts > 0) {
    double c[3] = {0, 0, 0};
    for (int i = 0; i < m->nverts; ++i)
      for (int d = 0; d < 3; ++d) c[d] += vel[3 * (size_t)i + d] / m->nverts;
    b.u = IPC_NEW(double, (size_t)m->nverts);
    for (int i = 0; i < m->nverts; ++i) {
      const double *v = vel + 3 * (size_t)i;
      double r[3] = {v[0] - c[0], v[1] - c[1], v[2] - c[2]};
      b.u[i] = sqrt(dot3(r, r));
    }
  }
  for (size_t i = 0; i < cand->nvf; ++i) vertex_face(&b, cand->vf[2 * i], cand->vf[2 * i + 1]);
  for (size_t i = 0; i < cand->nee; ++i) {
    const int *ea = s->edges + 2 * (size_t)cand->ee[2 * i];
    const int *eb = s->edges + 2 * (size_t)cand->ee[2 * i + 1];
    edge_edge(&b, ea[0], ea[1], eb[0], eb[1]);
  }
  for (size_t i = 0; i < cand->nve; ++i) {
    const int *e = s->edges + 2 * (size_t)cand->ve[2 * i + 1];
    vertex_edge(&b, cand->ve[2 * i], e[0], e[1]);
  }
  for (size_t i = 0; i < cand->nvv; ++i) vertex_vertex(&b, cand->vv[2 * i], cand->vv[2 * i + 1]);
  for (int p = 0; p < m->nplanes; ++p) {
    const ipc_plane *pl = &m->planes[p];
    for (int i = 0; i < s->nsv; ++i) {
      int v = s->sv[i];
      if (s->vert_obstacle[v]) continue;
      const double *xv = X(v);
      double phi = ipc_plane_distance(pl, xv);
      double w = 1;
      emit(&b, KIND_PLANE, 1, &v, &w, pl->normal, phi, pair_mu(m, v, -p - 1), p);
    }
  }
  if (out->n > 1) {
    sort_rec *r = IPC_NEW(sort_rec, out->n);
    for (size_t i = 0; i < out->n; ++i) {
      const ipc_lcp_contact *c = &out->c[i];
      memcpy(r[i].key, c->key, sizeof c->key);
      r[i].phi = c->phi;
      memcpy(r[i].n, c->n, sizeof c->n);
      r[i].idx = i;
    }
    qsort(r, out->n, sizeof *r, cmp_contact);
    size_t n0 = out->n, k = 0;
    ipc_lcp_contact *sorted = IPC_NEW(ipc_lcp_contact, n0);
    for (size_t i = 0; i < out->n; ++i) {
      if (k > 0 && !memcmp(r[i - 1].key, r[i].key, sizeof r[i].key)) continue;
      sorted[k++] = out->c[r[i].idx];
    }
    ipc_free(r);
    ipc_free(out->c);
    out->c = sorted;
    out->n = k;
    out->cap = n0;
  }
  if (prev) orient(out, prev, &b);
  keep_shallowest(out, b.front, b.nfront);
  ipc_free(b.front);
  ipc_free(b.u);
  double min_phi = INFINITY;
  for (size_t i = 0; i < out->n; ++i)
    if (out->c[i].phi < min_phi) min_phi = out->c[i].phi;
  return min_phi;
}

static int cmp_inside(const void *pa, const void *pb) {
  const ipc_lcp_contact *a = *(const ipc_lcp_contact *const *)pa;
  const ipc_lcp_contact *b = *(const ipc_lcp_contact *const *)pb;
  if (a->vert[0] != b->vert[0]) return a->vert[0] < b->vert[0] ? -1 : 1;
  if (a->face_body != b->face_body) return a->face_body < b->face_body ? -1 : 1;
  if (fabs(a->phi) != fabs(b->phi)) return fabs(a->phi) < fabs(b->phi) ? -1 : 1;
  if (a->phi != b->phi) return a->phi > b->phi ? -1 : 1;
  return ipc_lcp_key_cmp(a->key, b->key);
}

/* the contacts of one vertex against the features of one body: the vertex is outside when
   it is in front of the plane of any of the body's faces near it (front, sorted here).
   Outside, the negative gaps (behind the plane of a face whose prism holds the vertex, near
   a convex edge) are not penetrations and are dropped; inside, only the nearest
   (shallowest) one is kept */
static int cmp_pair(const void *pa, const void *pb) {
  const int *a = pa, *b = pb;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

static void keep_shallowest(ipc_lcp_contact_set *cs, int *front, size_t nfront) {
  size_t nin = 0;
  for (size_t i = 0; i < cs->n; ++i) nin += cs->c[i].face_body >= 0;
  if (nin < 2) return;
  ipc_lcp_contact **in = IPC_NEW(ipc_lcp_contact *, nin);
  nin = 0;
  for (size_t i = 0; i < cs->n; ++i)
    if (cs->c[i].face_body >= 0) in[nin++] = &cs->c[i];
  qsort(in, nin, sizeof *in, cmp_inside);
  if (nfront > 1) qsort(front, nfront, 2 * sizeof(int), cmp_pair);
  for (size_t g = 0; g < nin;) {
    size_t e = g + 1;
    while (e < nin && in[e]->vert[0] == in[g]->vert[0] && in[e]->face_body == in[g]->face_body) ++e;
    int key[2] = {in[g]->vert[0], in[g]->face_body};
    int outside = nfront > 0 && bsearch(key, front, nfront, 2 * sizeof(int), cmp_pair) != NULL;
    for (size_t i = outside ? g : g + 1; i < e; ++i)
      if (in[i]->phi < 0) in[i]->nv = 0; /* marked for removal */
    g = e;
  }
  ipc_free(in);
  size_t k = 0;
  for (size_t i = 0; i < cs->n; ++i)
    if (cs->c[i].nv > 0) cs->c[k++] = cs->c[i];
  cs->n = k;
}

/* the generalized winding number of point q about the closed, outward surface of body b at
   x (1 inside, 0 outside): the solid angles of its faces over 4 pi (Van Oosterom and
   Strackee's formula) */
static double winding(const ipc_model *m, int body, const double *x, const double *q) {
  const ipc_body *bd = &m->bodies[body];
  double sum = 0;
  for (int f = bd->f0; f < bd->f0 + bd->nf; ++f) {
    const int *F = m->surface.faces + 3 * (size_t)f;
    double a[3], b[3], c[3], bc[3];
    for (int d = 0; d < 3; ++d) {
      a[d] = X(F[0])[d] - q[d];
      b[d] = X(F[1])[d] - q[d];
      c[d] = X(F[2])[d] - q[d];
    }
    double la = sqrt(dot3(a, a)), lb = sqrt(dot3(b, b)), lc = sqrt(dot3(c, c));
    cross3(bc, b, c);
    sum +=
        2 * atan2(dot3(a, bc), la * lb * lc + dot3(a, b) * lc + dot3(a, c) * lb + dot3(b, c) * la);
  }
  return sum / (4 * 3.14159265358979323846);
}

/* gives each unsigned contact of cur the side of the contact with the same key in prev
   (both sorted by key). A normal turned against the previous one is a crossing only when the
   pair could have crossed: the step that brought it here (the velocities v, x moved by h v)
   closed it along the previous normal by at least half its previous gap. Otherwise the vertex
   went around the feature (a speculative pair 3 mm apart, its vertex sliding 5 mm past an
   edge: the normal turns by 90 degrees) and keeps its unsigned normal; flipped, that was a
   penetration of several millimetres, its constraint pulling the vertex back around the edge
   and into the other body. Nor is a normal turned by less than acos(IPC_LCP_CROSSED_COS)
   (120 degrees): a pair that passes through its feature comes out behind it, its normal
   nearly reversed; one that closed its gap along the normal and slid sideways past an edge
   by a few millimetres turns by about 90 degrees. A vertex against a feature of a closed
   body (face_body) has crossed exactly when it is inside that body (its winding number):
   around a sharp edge of a coarse ellipsoid a normal turned by 132 degrees with the vertex
   1.2 mm in front of the body's faces. */
static void orient(ipc_lcp_contact_set *cur, const ipc_lcp_contact_set *prev, const builder *bd) {
  size_t j = 0;
  for (size_t i = 0; i < cur->n; ++i) {
    ipc_lcp_contact *c = &cur->c[i];
    while (j < prev->n && ipc_lcp_key_cmp(prev->c[j].key, c->key) < 0) ++j;
    if (j == prev->n) break;
    if (!c->unsigned_gap || ipc_lcp_key_cmp(prev->c[j].key, c->key)) continue;
    const ipc_lcp_contact *p = &prev->c[j];
    /* the same vertices may have swapped sides (a vertex-vertex pair seen from either
       face): compare the normals side for side */
    double sign = side_sign(c, p), side = sign * dot3(c->n, p->n);
    if (side < 0 && bd->v && c->face_body >= 0) {
      /* a vertex against a closed body's feature has crossed exactly when it is inside */
      int pv = c->vert[0];
      for (int a = 0; a < c->nv; ++a)
        if (c->w[a] > 0) pv = c->vert[a];
      if (winding(bd->m, c->face_body, bd->x, bd->x + 3 * (size_t)pv) < 0.5) continue;
    } else if (side < 0 && bd->v && p->phi > 0) {
      double closing = 0; /* -h d(gap)/dt along the previous normal */
      for (int a = 0; a < c->nv; ++a)
        closing -= bd->h * sign * c->w[a] * dot3(p->n, bd->v + 3 * (size_t)c->vert[a]);
      /* around the feature, not through it */
      if (closing < 0.5 * p->phi || side > IPC_LCP_CROSSED_COS) continue;
    }
    if (side < 0) {
      for (int d = 0; d < 3; ++d) c->n[d] = -c->n[d];
      c->phi = -c->phi;
      ipc_lcp_tangents(c->n, c->t1, c->t2);
    }
  }
}
