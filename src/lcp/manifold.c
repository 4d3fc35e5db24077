/* contact manifolds (docs/lcp-mode.md, "Contact manifolds"): the contacts of one touching
   pair reduced to at most four points, as Bullet's btPersistentManifold (sortCachedPoints:
   keep the deepest, maximise the area of the quadrilateral) and ODE's cullPoints do.
   Between two rigid (affine) surfaces whose contact normals agree, the normal velocity of a
   point is an affine function of its position in the contact plane, so the corners of the
   contact area bound it inside: constraining them (and the deepest point) constrains the pair
   nearly as the whole set does, with a problem of at most four contacts per pair instead of
   tens. A deformable body's surface bends between the points, so its contacts are reduced per
   patch (a cell of a grid fixed in space), which keeps a long contact's points spread over
   its area; between them the surface is held only through the body's stiffness. */
#include "lcp/manifold.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec3.h"

void ipc_lcp_contact_sides(const ipc_lcp_contact *c, const ipc_model *m, int *a, int *b) {
  const int *vb = m->surface.vert_body;
  *a = *b = -1;
  for (int k = 0; k < c->nv; ++k) {
    if (c->w[k] > 0 && *a < 0) *a = vb[c->vert[k]];
    if (c->w[k] < 0 && *b < 0) *b = vb[c->vert[k]];
  }
  int plane = ipc_lcp_contact_plane(c);
  if (plane >= 0) *b = -1 - plane;
}

/* a contact with the fields its manifold is found by */
typedef struct item {
  int lo, hi;  /* sides, lo <= hi (bodies, or -1 - plane) */
  int cell[3]; /* patch cell (0 unless a side is deformable) */
  double phi;  /* the contact's gap */
  int idx;     /* index in the contact set (its key order) */
  double p[3]; /* midpoint of the closest points */
  double n[3]; /* normal, pointing from hi to lo */
  int cluster; /* manifold within the group, -1 before it is found */
} item;

static int cmp_item(const void *pa, const void *pb) {
  const item *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  for (int d = 0; d < 3; ++d)
    if (a->cell[d] != b->cell[d]) return a->cell[d] < b->cell[d] ? -1 : 1;
  if (a->phi != b->phi) return a->phi < b->phi ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

static int same_group(const item *a, const item *b) {
  return a->lo == b->lo && a->hi == b->hi && a->cell[0] == b->cell[0] && a->cell[1] == b->cell[1] &&
         a->cell[2] == b->cell[2];
}

static int deformable(const ipc_model *m, int body) {
  return body >= 0 && !m->bodies[body].affine && !m->bodies[body].obstacle;
}

/* the midpoint of the closest points of c: the weighted vertices of either side (a plane's
   point is phi below the vertex along the normal) */
static void midpoint(const ipc_lcp_contact *c, const double *x, double p[3]) {
  double pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0}, sa = 0, sb = 0;
  for (int k = 0; k < c->nv; ++k) {
    const double *xv = x + 3 * (size_t)c->vert[k];
    double *acc = c->w[k] > 0 ? pa : pb;
    for (int d = 0; d < 3; ++d) acc[d] += fabs(c->w[k]) * xv[d];
    *(c->w[k] > 0 ? &sa : &sb) += fabs(c->w[k]);
  }
  for (int d = 0; d < 3; ++d) {
    pa[d] /= sa;
    pb[d] = sb > 0 ? pb[d] / sb : pa[d] - c->phi * c->n[d];
    p[d] = 0.5 * (pa[d] + pb[d]);
  }
}

/* ((b - a) x (c - a)) . n: twice the signed area of triangle a b c seen along n */
static double area2(const double *a, const double *b, const double *c, const double *n) {
  double u[3], v[3], w[3];
  for (int d = 0; d < 3; ++d) {
    u[d] = b[d] - a[d];
    v[d] = c[d] - a[d];
  }
  cross3(w, u, v);
  return dot3(w, n);
}

/* |(a - b) x (c - d)| . n over the three pairings of four points into two diagonals, the
   largest: twice the area of their quadrilateral (Bullet's calcArea4Points) */
static double area4(const double *p0, const double *p1, const double *p2, const double *p3,
                    const double *n) {
  const double *q[3][4] = {{p0, p1, p2, p3}, {p0, p2, p1, p3}, {p0, p3, p1, p2}};
  double best = 0;
  for (int k = 0; k < 3; ++k) {
    double u[3], v[3], w[3];
    for (int d = 0; d < 3; ++d) {
      u[d] = q[k][0][d] - q[k][1][d];
      v[d] = q[k][2][d] - q[k][3][d];
    }
    cross3(w, u, v);
    best = fmax(best, fabs(dot3(w, n)));
  }
  return best;
}

static double dist2(const double *a, const double *b, const double *n) {
  double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  double un = dot3(u, n);
  return dot3(u, u) - un * un;
}

/* marks in keep the (at most four) points chosen among the group's members mem[0..k-1]
   (sorted by phi) within band of the deepest */
static void choose(const item *it, const int *mem, int k, double band, double tie,
                   unsigned char *keep) {
  while (k > 1 && it[mem[k - 1]].phi > it[mem[0]].phi + band) --k;
  if (it[mem[0]].phi >= band) k = 1; /* not touching: its closest point */
  if (k <= IPC_LCP_MANIFOLD_POINTS) {
    for (int i = 0; i < k; ++i) keep[it[mem[i]].idx] = 1;
    return;
  }
  const double *n = it[mem[0]].n;
  double c[3] = {0, 0, 0};
  for (int i = 0; i < k; ++i)
    for (int d = 0; d < 3; ++d) c[d] += it[mem[i]].p[d] / k;
  /* the deepest; of those within tie of it, the farthest from the centre (a corner of a flat
     face rather than a point on its edge) */
  int s[IPC_LCP_MANIFOLD_POINTS] = {mem[0], -1, -1, -1};
  double best = -1;
  for (int i = 0; i < k && it[mem[i]].phi <= it[mem[0]].phi + tie; ++i) {
    double r = dist2(c, it[mem[i]].p, n);
    if (r > best) best = r, s[0] = mem[i];
  }
  for (int j = 1; j < IPC_LCP_MANIFOLD_POINTS; ++j) {
    /* the fourth must add area to the triangle (a repeated point spans just the triangle) */
    best = j == 3 ? fabs(area2(it[s[0]].p, it[s[1]].p, it[s[2]].p, n)) : 0;
    for (int i = 0; i < k; ++i) {
      if (mem[i] == s[0] || mem[i] == s[1] || mem[i] == s[2]) continue;
      const double *p = it[mem[i]].p;
      double v = j == 1   ? dist2(it[s[0]].p, p, n)
                 : j == 2 ? fabs(area2(it[s[0]].p, it[s[1]].p, p, n))
                          : area4(it[s[0]].p, it[s[1]].p, it[s[2]].p, p, n);
      if (v > best) best = v, s[j] = mem[i];
    }
    if (s[j] < 0) break; /* the rest add no area */
  }
  for (int j = 0; j < IPC_LCP_MANIFOLD_POINTS && s[j] >= 0; ++j) keep[it[s[j]].idx] = 1;
}

size_t ipc_lcp_manifold_reduce(ipc_lcp_contact_set *out, const ipc_lcp_contact_set *all,
                               const ipc_model *m, const double *x, double cell, double band,
                               double tie) {
  size_t n = all->n, nman = 0;
  item *it = IPC_NEW(item, n + 1);
  int *mem = IPC_NEW(int, n + 1);
  unsigned char *keep = IPC_NEW0(unsigned char, n + 1);
  for (size_t i = 0; i < n; ++i) {
    const ipc_lcp_contact *c = &all->c[i];
    item *t = &it[i];
    int a, b;
    ipc_lcp_contact_sides(c, m, &a, &b);
    int flip = b < a;
    t->lo = flip ? b : a;
    t->hi = flip ? a : b;
    t->phi = c->phi;
    t->idx = (int)i;
    t->cluster = -1;
    midpoint(c, x, t->p);
    int axis = 0; /* the normal's largest component: the cells tile the other two */
    for (int d = 0; d < 3; ++d) {
      t->n[d] = flip ? -c->n[d] : c->n[d];
      if (fabs(c->n[d]) > fabs(c->n[axis])) axis = d;
    }
    for (int d = 0; d < 3; ++d)
      t->cell[d] = cell > 0 && d != axis && (deformable(m, a) || deformable(m, b))
                       ? (int)floor(t->p[d] / cell)
                       : 0;
  }
  qsort(it, n, sizeof *it, cmp_item);
  for (size_t g = 0; g < n;) {
    size_t e = g + 1;
    while (e < n && same_group(&it[g], &it[e])) ++e;
    /* manifolds of the group by normal, each seeded by its deepest point not yet taken */
    for (size_t seed = g; seed < e; ++seed) {
      if (it[seed].cluster >= 0) continue;
      int k = 0;
      for (size_t i = seed; i < e; ++i)
        if (it[i].cluster < 0 && dot3(it[i].n, it[seed].n) >= IPC_LCP_MANIFOLD_COS) {
          it[i].cluster = (int)nman;
          mem[k++] = (int)i;
        }
      choose(it, mem, k, band, tie, keep);
      ++nman;
    }
    g = e;
  }
  out->n = 0;
  ipc_reserve((void **)&out->c, &out->cap, n + 1, sizeof *out->c);
  for (size_t i = 0; i < n; ++i)
    if (keep[i]) out->c[out->n++] = all->c[i];
  ipc_free(it);
  ipc_free(mem);
  ipc_free(keep);
  return nman;
}
