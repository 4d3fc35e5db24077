/* the broad phase of the LCP contacts by pairs of bodies (docs/lcp-mode.md, "Contact
   manifolds"). A reduced-manifold contact is kept when its gap is below gap + 2h (s + 2h |g|),
   s the largest speed of a vertex of one side relative to one of the other (contact.c,
   cross_reach): for vertex i of body A and j of body B,
     |v_i - v_j| <= u_i + u_j + |vbar_A - vbar_B|,   u_i = |v_i - vbar_A|,
   vbar the mean velocity of a body's vertices. The general broad phase inflates every box by
   the bound for the fastest vertex of the scene: in a stream of bodies that slide together at
   1 m/s, each primitive is paired with every other within a centimetre, though neighbours
   move at a tenth of that relative to each other. Here every vertex box is grown by 2h u_i
   (a primitive's box is the union of its vertices'), the bodies are paired first (their boxes
   grown by 2h |vbar - c| + gap / 2 + 2h^2 |g| more, c the mean velocity, so that two meet
   whenever the pair's inflation below allows), then each pair's primitives with that pair's
   own inflation gap + 2h (|vbar_A - vbar_B| + 2h |g|): the vertices and edges of one side
   grown by it against the faces and edges of the other, each side first cut to the
   primitives near the other's box. */
#include "lcp/body_pairs.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "geometry/box_tree.h"

void ipc_lcp_body_pairs_free(ipc_lcp_body_pairs *bp) {
  void *p[] = {bp->vptr, bp->vlist, bp->fptr, bp->flist, bp->eptr,  bp->elist,
               bp->self, bp->bbox,  bp->vbar, bp->vbox,  bp->fbox,  bp->ebox,
               bp->a,    bp->b,     bp->ia,   bp->ib,    bp->pairs, bp->bpairs};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) ipc_free(p[i]);
  ipc_box_ws_free(bp->ws);
  memset(bp, 0, sizeof *bp);
}

/* ptr (nb + 1) and list of the items 0..n-1 by body[item] */
static void by_body(int nb, int n, const int *body_of, int **ptr, int **list) {
  *ptr = IPC_NEW0(int, (size_t)nb + 1);
  *list = IPC_NEW(int, (size_t)n + 1);
  for (int i = 0; i < n; ++i) (*ptr)[body_of[i] + 1]++;
  for (int b = 0; b < nb; ++b) (*ptr)[b + 1] += (*ptr)[b];
  int *fill = IPC_NEW(int, (size_t)nb + 1);
  memcpy(fill, *ptr, sizeof(int) * (size_t)nb);
  for (int i = 0; i < n; ++i) (*list)[fill[body_of[i]]++] = i;
  ipc_free(fill);
}

int ipc_lcp_body_pairs_init(ipc_lcp_body_pairs *bp, const ipc_model *m) {
  const ipc_surface *s = &m->surface;
  memset(bp, 0, sizeof *bp);
  for (int e = 0; s->edge_codim && e < s->nedges; ++e)
    if (s->edge_codim[e]) return 0;
  for (int i = 0; s->vert_point && i < s->nsv; ++i)
    if (s->vert_point[s->sv[i]]) return 0;
  if (!s->vert_body || m->nbodies <= 0) return 0;
  int nb = bp->nb = m->nbodies;
  int n = s->nsv > s->nfaces ? s->nsv : s->nfaces;
  if (s->nedges > n) n = s->nedges;
  int *body = IPC_NEW(int, (size_t)n + 1);
  for (int i = 0; i < s->nsv; ++i) body[i] = s->vert_body[s->sv[i]];
  by_body(nb, s->nsv, body, &bp->vptr, &bp->vlist); /* surface-vertex indices, then ids */
  for (int i = 0; i < s->nsv; ++i) bp->vlist[i] = s->sv[bp->vlist[i]];
  for (int f = 0; f < s->nfaces; ++f) body[f] = s->vert_body[s->faces[3 * (size_t)f]];
  by_body(nb, s->nfaces, body, &bp->fptr, &bp->flist);
  for (int e = 0; e < s->nedges; ++e) body[e] = s->vert_body[s->edges[2 * (size_t)e]];
  by_body(nb, s->nedges, body, &bp->eptr, &bp->elist);
  ipc_free(body);
  bp->self = IPC_NEW0(unsigned char, (size_t)nb + 1);
  for (int b = 0; b < nb; ++b)
    if (bp->vptr[b + 1] > bp->vptr[b] && !m->bodies[b].obstacle) {
      int v = bp->vlist[bp->vptr[b]];
      bp->self[b] = (unsigned char)ipc_surface_pair_touches(s, v, v);
    }
  bp->bbox = IPC_NEW(double, 6 * (size_t)nb + 1);
  bp->vbar = IPC_NEW(double, 3 * (size_t)nb + 1);
  bp->vbox = IPC_NEW(double, 6 * (size_t)m->nverts + 1);
  bp->fbox = IPC_NEW(double, 6 * (size_t)s->nfaces + 1);
  bp->ebox = IPC_NEW(double, 6 * (size_t)s->nedges + 1);
  bp->ws = ipc_box_ws_new();
  return 1;
}

/* the box of nv vertices of x, grown by r */
static void box_of(const double *x, const int *v, int nv, double r, double *box) {
  for (int d = 0; d < 3; ++d) box[d] = box[d + 3] = x[3 * (size_t)v[0] + d];
  for (int k = 1; k < nv; ++k)
    for (int d = 0; d < 3; ++d) {
      double t = x[3 * (size_t)v[k] + d];
      box[d] = t < box[d] ? t : box[d];
      box[d + 3] = t > box[d + 3] ? t : box[d + 3];
    }
  for (int d = 0; d < 3; ++d) box[d] -= r, box[d + 3] += r;
}

/* the union of the boxes of nv vertices */
static void union_of(const double *vbox, const int *v, int nv, double *box) {
  memcpy(box, vbox + 6 * (size_t)v[0], 6 * sizeof(double));
  for (int k = 1; k < nv; ++k) {
    const double *b = vbox + 6 * (size_t)v[k];
    for (int d = 0; d < 3; ++d) {
      box[d] = b[d] < box[d] ? b[d] : box[d];
      box[d + 3] = b[d + 3] > box[d + 3] ? b[d + 3] : box[d + 3];
    }
  }
}

static void reserve_boxes(double **box, int **ids, size_t *cap, size_t n) {
  if (n <= *cap) return;
  *cap = n;
  *box = ipc_realloc(*box, sizeof(double) * 6 * n);
  *ids = ipc_realloc(*ids, sizeof(int) * n);
}

enum { VF, EE };

/* the pairs of body A's vertices (kind VF) or edges (EE), grown by r, with body B's faces or
   edges, appended to c; self: A == B */
static void pair_primitives(ipc_lcp_body_pairs *bp, ipc_candidates *c, const ipc_surface *s, int A,
                            int B, double r, int kind) {
  const double *boxB = bp->bbox + 6 * (size_t)B, *boxA = bp->bbox + 6 * (size_t)A;
  double grownA[6];
  for (int d = 0; d < 3; ++d) grownA[d] = boxA[d] - r, grownA[d + 3] = boxA[d + 3] + r;
  /* A's side, grown, near B's box */
  const int *la = kind == VF ? bp->vlist + bp->vptr[A] : bp->elist + bp->eptr[A];
  int nla = kind == VF ? bp->vptr[A + 1] - bp->vptr[A] : bp->eptr[A + 1] - bp->eptr[A];
  reserve_boxes(&bp->a, &bp->ia, &bp->cap_a, (size_t)nla + 1);
  int na = 0;
  for (int i = 0; i < nla; ++i) {
    double *box = bp->a + 6 * (size_t)na;
    memcpy(box, (kind == VF ? bp->vbox : bp->ebox) + 6 * (size_t)la[i], 6 * sizeof(double));
    for (int d = 0; d < 3; ++d) box[d] -= r, box[d + 3] += r;
    if (ipc_box_overlap(box, boxB)) bp->ia[na++] = la[i];
  }
  if (na == 0) return;
  /* B's side near A's grown box */
  const int *lb = kind == VF ? bp->flist + bp->fptr[B] : bp->elist + bp->eptr[B];
  int nlb = kind == VF ? bp->fptr[B + 1] - bp->fptr[B] : bp->eptr[B + 1] - bp->eptr[B];
  reserve_boxes(&bp->b, &bp->ib, &bp->cap_b, (size_t)nlb + 1);
  int nbx = 0;
  for (int j = 0; j < nlb; ++j) {
    const double *box = (kind == VF ? bp->fbox : bp->ebox) + 6 * (size_t)lb[j];
    if (!ipc_box_overlap(box, grownA)) continue;
    memcpy(bp->b + 6 * (size_t)nbx, box, 6 * sizeof(double));
    bp->ib[nbx++] = lb[j];
  }
  if (nbx == 0) return;
  bp->npairs = 0;
  ipc_box_pairs_ws(bp->ws, &bp->pairs, &bp->npairs, &bp->cap_pairs, bp->a, na, bp->b, nbx, NULL,
                   NULL);
  for (size_t k = 0; k < bp->npairs; ++k) {
    int p = bp->ia[bp->pairs[2 * k]], q = bp->ib[bp->pairs[2 * k + 1]];
    if (kind == VF) {
      const int *t = s->faces + 3 * (size_t)q;
      if (p == t[0] || p == t[1] || p == t[2] || !ipc_surface_pair_touches(s, p, t[0])) continue;
      ipc_reserve((void **)&c->vf, &c->cap_vf, c->nvf + 1, 2 * sizeof(int));
      c->vf[2 * c->nvf] = p;
      c->vf[2 * c->nvf + 1] = q;
      c->nvf++;
    } else {
      if (A == B && p >= q) continue; /* each pair of one body once */
      const int *ea = s->edges + 2 * (size_t)p, *eb = s->edges + 2 * (size_t)q;
      if (ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1] ||
          !ipc_surface_pair_touches(s, ea[0], eb[0]))
        continue;
      ipc_reserve((void **)&c->ee, &c->cap_ee, c->nee + 1, 2 * sizeof(int));
      c->ee[2 * c->nee] = p < q ? p : q;
      c->ee[2 * c->nee + 1] = p < q ? q : p;
      c->nee++;
    }
  }
}

void ipc_lcp_body_pairs_run(ipc_lcp_body_pairs *bp, ipc_candidates *c, const ipc_model *m,
                            const double *x, const double *v, double gap, double h, double accel) {
  const ipc_surface *s = &m->surface;
  const int nb = bp->nb;
  c->nvf = c->nee = c->nve = c->nvv = 0;
  /* per body: mean velocity; per vertex: its box grown by 2h u_i; per body: the union */
  double c0[3] = {0, 0, 0};
  int cnt = 0;
  for (int b = 0; b < nb; ++b) {
    const int *vl = bp->vlist + bp->vptr[b];
    int nv = bp->vptr[b + 1] - bp->vptr[b];
    double *vb = bp->vbar + 3 * (size_t)b, *box = bp->bbox + 6 * (size_t)b;
    vb[0] = vb[1] = vb[2] = 0;
    for (int d = 0; d < 6; ++d) box[d] = nv == 0 ? NAN : (d < 3 ? INFINITY : -INFINITY);
    for (int i = 0; i < nv; ++i)
      for (int d = 0; d < 3; ++d) vb[d] += v[3 * (size_t)vl[i] + d] / nv;
    for (int i = 0; i < nv; ++i) {
      const double *vi = v + 3 * (size_t)vl[i];
      double u[3] = {vi[0] - vb[0], vi[1] - vb[1], vi[2] - vb[2]};
      double *vx = bp->vbox + 6 * (size_t)vl[i];
      box_of(x, &vl[i], 1, 2 * h * sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), vx);
      for (int d = 0; d < 3; ++d) {
        box[d] = vx[d] < box[d] ? vx[d] : box[d];
        box[d + 3] = vx[d + 3] > box[d + 3] ? vx[d + 3] : box[d + 3];
      }
    }
    if (nv > 0 && !m->bodies[b].obstacle) {
      for (int d = 0; d < 3; ++d) c0[d] += vb[d] * nv;
      cnt += nv;
    }
  }
  for (int d = 0; d < 3 && cnt > 0; ++d) c0[d] /= cnt;
  for (int f = 0; f < s->nfaces; ++f)
    union_of(bp->vbox, s->faces + 3 * (size_t)f, 3, bp->fbox + 6 * (size_t)f);
  for (int e = 0; e < s->nedges; ++e)
    union_of(bp->vbox, s->edges + 2 * (size_t)e, 2, bp->ebox + 6 * (size_t)e);
  /* body pairs: boxes grown so that two meet whenever the pair's own inflation allows */
  reserve_boxes(&bp->a, &bp->ia, &bp->cap_a, (size_t)nb + 1);
  for (int b = 0; b < nb; ++b) {
    const double *vb = bp->vbar + 3 * (size_t)b;
    double u[3] = {vb[0] - c0[0], vb[1] - c0[1], vb[2] - c0[2]};
    double r =
        2 * h * sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) + 0.5 * gap + 2 * h * h * accel;
    const double *box = bp->bbox + 6 * (size_t)b;
    for (int d = 0; d < 3; ++d)
      bp->a[6 * b + d] = box[d] - r, bp->a[6 * b + d + 3] = box[d + 3] + r;
  }
  bp->nbpairs = 0;
  ipc_box_pairs_ws(bp->ws, &bp->bpairs, &bp->nbpairs, &bp->cap_bpairs, bp->a, nb, NULL, 0, NULL,
                   NULL);
  for (size_t k = 0; k <= bp->nbpairs; ++k) {
    int A, B;
    if (k < bp->nbpairs) {
      A = bp->bpairs[2 * k], B = bp->bpairs[2 * k + 1];
      if (m->bodies[A].obstacle && m->bodies[B].obstacle) continue;
      int va = bp->vlist[bp->vptr[A]], vbb = bp->vlist[bp->vptr[B]];
      if (!ipc_surface_pair_touches(s, va, vbb)) continue;
      const double *ua = bp->vbar + 3 * (size_t)A, *ub = bp->vbar + 3 * (size_t)B;
      double d[3] = {ua[0] - ub[0], ua[1] - ub[1], ua[2] - ub[2]};
      double r = gap + 2 * h * (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + 2 * h * accel);
      pair_primitives(bp, c, s, A, B, r, VF);
      pair_primitives(bp, c, s, B, A, r, VF);
      pair_primitives(bp, c, s, A, B, r, EE);
    } else {
      for (int b = 0; b < nb; ++b) {
        if (!bp->self[b]) continue;
        double r = gap + 4 * h * h * accel;
        pair_primitives(bp, c, s, b, b, r, VF);
        pair_primitives(bp, c, s, b, b, r, EE);
      }
    }
  }
}
