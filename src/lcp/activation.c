/* points of the contact manifolds added back after a solve (docs/lcp-mode.md, "Contact
   manifolds"). A manifold keeps at most four points of a pair's contact region; the points
   it drops are still constraints of the full problem. When the solution of the manifolds
   leaves every dropped point with a normal velocity its constraint allows (w_i >= 0), it
   solves the full problem too, with zero impulse on the dropped points (for the cone as
   well: a contact with no normal impulse takes no friction). Otherwise the violated points
   join the problem and it is solved again from the impulses found, until none is violated
   (IPC_LCP_ACTIVATION_ROUNDS at most): an active-set iteration whose active set starts at
   the manifolds. It catches what four points cannot: a body that tips over a manifold's
   edge, a curved surface rolling past its points, a speculative point closing faster than
   the gap. */
#include <string.h>

#include "core/alloc.h"
#include "lcp/lcp_world_internal.h"

/* the velocity of vertex i at the end of the step: v* + dv, an affine body's v* + J_i dqdot */
static void end_velocity(const ipc_lcp_world *w, int i, double v[3]) {
  const double *vs = w->vstar + 3 * (size_t)i;
  int a = w->rest.vert_aff ? w->rest.vert_aff[i] : -1;
  if (a < 0) {
    for (int d = 0; d < 3; ++d) v[d] = vs[d] + w->dv[3 * (size_t)i + d];
    return;
  }
  double wt[4];
  const double *dq = w->adqd + 12 * (size_t)a;
  ipc_rest_weights(&w->rest, &w->m, i, wt);
  for (int d = 0; d < 3; ++d)
    v[d] = vs[d] + dq[d] + wt[1] * dq[3 + d] + wt[2] * dq[6 + d] + wt[3] * dq[9 + d];
}

static int violated(const ipc_lcp_world *w, const ipc_lcp_contact *c) {
  int free = 0;
  for (int k = 0; k < c->nv; ++k) free |= !w->fixed[c->vert[k]];
  if (!free) return 0; /* no impulse could change it */
  double vn = 0;
  for (int k = 0; k < c->nv; ++k) {
    double v[3];
    end_velocity(w, c->vert[k], v);
    vn += c->w[k] * (c->n[0] * v[0] + c->n[1] * v[1] + c->n[2] * v[2]);
  }
  return w->h * (vn - ipc_lcp_required_normal_velocity(w, c)) < -IPC_LCP_ACTIVATION_TOL * w->gap;
}

size_t ipc_lcp_world_activate(ipc_lcp_world *w) {
  const ipc_lcp_contact_set *all = &w->contacts;
  ipc_lcp_contact_set *act = &w->manifold;
  if (w->active != act || act->n == all->n) return 0;
  /* the dropped points (both sets sorted by key, act a subset of all) */
  size_t add = 0;
  unsigned char *mark = IPC_NEW0(unsigned char, all->n + 1);
  for (size_t i = 0, j = 0; i < all->n; ++i) {
    if (j < act->n && ipc_lcp_key_cmp(act->c[j].key, all->c[i].key) == 0) {
      ++j;
      continue;
    }
    if (violated(w, &all->c[i])) mark[i] = 1, ++add;
  }
  if (add > 0) {
    const int R = ipc_lcp_world_rows(w);
    size_t n = act->n + add;
    ipc_lcp_contact *c = IPC_NEW(ipc_lcp_contact, n + 1);
    double *z = IPC_NEW0(double, n *R + 1);
    ipc_lcp_region_result *res = IPC_NEW0(ipc_lcp_region_result, n + 1);
    size_t k = 0;
    for (size_t i = 0, j = 0; i < all->n; ++i) {
      int kept = j < act->n && ipc_lcp_key_cmp(act->c[j].key, all->c[i].key) == 0;
      if (!kept && !mark[i]) continue;
      c[k] = all->c[i];
      if (kept)
        res[k] = w->cres[j], memcpy(z + k * R, w->z + j++ * R, sizeof(double) * (size_t)R);
      else
        res[k].fresh = 1;
      ++k;
    }
    ipc_free(act->c);
    act->c = c;
    act->n = act->cap = n;
    ipc_reserve((void **)&w->z, &w->z_cap, n * R + 1, sizeof(double));
    memcpy(w->z, z, sizeof(double) * n * R);
    ipc_free(z);
    ipc_reserve((void **)&w->cres, &w->cres_cap, n + 1, sizeof *w->cres);
    memcpy(w->cres, res, sizeof *res * n);
    ipc_free(res);
  }
  ipc_free(mark);
  return add;
}
