/* contact islands of the line search; see islands.h */
#include "ipc/islands.h"

#include <string.h>

#include "core/alloc.h"

static int find(int *uf, int a) {
  while (uf[a] != a) {
    uf[a] = uf[uf[a]];
    a = uf[a];
  }
  return a;
}

static void join(int *uf, int a, int b) {
  a = find(uf, a);
  b = find(uf, b);
  if (a < b)
    uf[b] = a;
  else if (b < a)
    uf[a] = b;
}

void ipc_islands_terms(const ipc_model *m, const ipc_candidates *cand, const ipc_friction *fric,
                       void (*fn)(const int *v, int nv, void *ctx), void *ctx) {
  const ipc_surface *s = &m->surface;
  for (size_t k = 0; k < cand->nvf; ++k) {
    const int *f = s->faces + 3 * (size_t)cand->vf[2 * k + 1];
    int v[4] = {cand->vf[2 * k], f[0], f[1], f[2]};
    fn(v, 4, ctx);
  }
  for (size_t k = 0; k < cand->nee; ++k) {
    const int *a = s->edges + 2 * (size_t)cand->ee[2 * k];
    const int *b = s->edges + 2 * (size_t)cand->ee[2 * k + 1];
    int v[4] = {a[0], a[1], b[0], b[1]};
    fn(v, 4, ctx);
  }
  for (size_t k = 0; k < cand->nve; ++k) {
    const int *e = s->edges + 2 * (size_t)cand->ve[2 * k + 1];
    int v[3] = {cand->ve[2 * k], e[0], e[1]};
    fn(v, 3, ctx);
  }
  for (size_t k = 0; k < cand->nvv; ++k) fn(cand->vv + 2 * k, 2, ctx);
  for (size_t k = 0; fric && k < fric->n; ++k) fn(fric->c[k].v, fric->c[k].nv, ctx);
}

typedef struct join_ctx {
  ipc_islands *is;
  const int *vert_body;
  const unsigned char *moving;
} join_ctx;

/* joins the bodies of the moving vertices among v[0..nv) */
static void join_term(const int *v, int nv, void *vctx) {
  const join_ctx *j = vctx;
  int first = -1;
  for (int k = 0; k < nv; ++k) {
    if (!j->moving[v[k]]) continue;
    if (first < 0)
      first = j->vert_body[v[k]];
    else
      join(j->is->uf, first, j->vert_body[v[k]]);
  }
}

void ipc_islands_build(ipc_islands *is, const ipc_model *m, const unsigned char *moving,
                       const ipc_candidates *cand, const ipc_friction *fric, const int *body_pairs,
                       size_t npairs, int single) {
  const int *vb = m->surface.vert_body;
  if (is->nverts != m->nverts || is->nbodies != m->nbodies) {
    ipc_islands_free(is);
    is->vert = IPC_NEW(int, (size_t)m->nverts + 1);
    is->body = IPC_NEW(int, (size_t)m->nbodies + 1);
    is->uf = IPC_NEW(int, (size_t)m->nbodies + 1);
    is->nverts = m->nverts;
    is->nbodies = m->nbodies;
  }
  int nb = m->nbodies;
  for (int b = 0; b < nb; ++b) {
    is->uf[b] = b;
    is->body[b] = -1;
  }
  for (int i = 0; i < m->nverts; ++i)
    if (moving[i]) is->body[vb[i]] = 0; /* marks the moving bodies */
  if (single) {
    int first = -1;
    for (int b = 0; b < nb; ++b)
      if (is->body[b] == 0) {
        if (first < 0) first = b;
        join(is->uf, first, b);
      }
  } else {
    join_ctx j = {is, vb, moving};
    ipc_islands_terms(m, cand, fric, join_term, &j);
    for (size_t k = 0; k < npairs; ++k) {
      int a = body_pairs[2 * k], b = body_pairs[2 * k + 1];
      if (a < nb && b < nb && is->body[a] == 0 && is->body[b] == 0) join(is->uf, a, b);
    }
  }
  /* number the roots of moving bodies in body order (a root is its set's lowest body) */
  is->n = 0;
  for (int b = 0; b < nb; ++b) {
    if (is->body[b] < 0) continue;
    int r = find(is->uf, b);
    is->body[b] = r == b ? is->n++ : is->body[r];
  }
  for (int i = 0; i < m->nverts; ++i) is->vert[i] = moving[i] ? is->body[vb[i]] : -1;
}

void ipc_islands_free(ipc_islands *is) {
  if (!is) return;
  ipc_free(is->vert);
  ipc_free(is->body);
  ipc_free(is->uf);
  memset(is, 0, sizeof *is);
}
