/* per-body freezing of the line search (newton.body_freezing, newton_internal.h).
   Late in a solve the Newton direction moves few bodies by more than the tolerance (on the
   1,000-ellipsoid pour 42% of the iterations move at most 30 of the 1,000), yet each
   iteration assembles, factors, sweeps and searches all of them. After an accepted step
   whose direction moves at most half of the free bodies by more than MOVE_BELOW of the
   tolerance (with the bodies a candidate pair or lagged friction pair ties to them), only
   those stay in the system; the others are frozen: their unknowns leave the system and their
   primitives are passive in the broad phase (as the island line search freezes a converged
   island). The set is chosen again after every accepted step, from that step's direction; a
   body thawed gets its contacts with frozen ones from a broad phase over its own pairs. While
   bodies are frozen the assembly and the line search's energy skip what concerns only them
   (newton.c). The solve's stopping rule keeps its meaning: once the bodies left have converged
   (their direction within the tolerance, or no decrease along it) every body is thawed and the next
   iteration is over all of them, so a solve ends only at a direction over every body within the
   tolerance, as without freezing. With the island line search the same rule holds the bodies
   of the islands still moving (ipc_newton_rehold: a held body is judged by this rule, not thawed
   by the island's moves as a converged island's bodies are), and every held body is released
   before the solve may end. Not on IPC's own scripts (their iterates stay IPC's) nor over MPI
   ranks. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/timer.h"
#include "ipc/newton_internal.h"

/* a body stays in the system while the direction moves it by more than this fraction of the
   tolerance (or a pair ties it to such a body). Measured on the 1,000-ellipsoid pour's steps
   31-40 (two threads; 458 iterations without freezing): with 1 (every body within the
   tolerance frozen) 897 iterations, as the bodies held at up to the tolerance drift past it
   while their neighbours settle and each check over all bodies finds a few more; 0.2 463
   iterations, 0.1 449 */
#define MOVE_BELOW 0.2

typedef struct tie_ctx {
  const int *vert_body;
  const unsigned char *over; /* (nbodies) the body moves by more than MOVE_BELOW tol */
  unsigned char *keep;       /* (nbodies) the body stays in the system */
} tie_ctx;

/* a term with a vertex of a body that moves by more than MOVE_BELOW of the tolerance keeps
   the bodies of all its vertices in the system */
static void tie_term(const int *v, int nv, void *vctx) {
  tie_ctx *t = vctx;
  int any = 0;
  for (int k = 0; k < nv && !any; ++k) any = t->over[t->vert_body[v[k]]];
  if (!any) return;
  for (int k = 0; k < nv; ++k) t->keep[t->vert_body[v[k]]] = 1;
}

void ipc_newton_apply_frozen(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  const ipc_model *m = &w->m;
  const int *vb = m->surface.vert_body;
  const unsigned char *obs = m->surface.vert_obstacle;
  s->nfrozen = 0;
  for (int b = 0; b < m->nbodies; ++b) s->nfrozen += s->frozen[b];
  for (int v = 0; v < m->nverts; ++v) s->passive[v] = (obs && obs[v]) || s->frozen[vb[v]];
  ipc_newton_update_mask(w);
}

/* the contacts at x over every pair within dhat of a body that is not frozen (every pair when
   none is), into s->next for the next iteration, and the kappa watch list from them */
static void contacts_again(ipc_world *w, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  const ipc_surface *sf = &w->m.surface;
  double t0 = ipc_now();
  /* the swept search's superset serves a move of length zero too */
  ipc_broad_phase_narrowed(&w->cand, sf, w->s.x, w->s.x, w->dhat, NULL,
                           s->nfrozen > 0 ? s->passive : sf->vert_obstacle, w->dhat);
  s->next_min_d2 = ipc_contacts_collect(&s->next, &w->cm, &w->cand, w->s.x);
  st->t_broad_phase += ipc_now() - t0;
  s->next_valid = 1;
  ipc_newton_watch_next(w);
}

/* 1 when a vertex of contact c is one of a thawed body (s->thaw) */
static int contact_thawed(const ipc_newton_solver *s, const int *vb, const ipc_contact *c) {
  for (int k = 0; k < ipc_contact_vertices(c); ++k)
    if (s->thaw[vb[c->v[k]]]) return 1;
  return 0;
}

/* the contacts of the bodies just thawed (s->thaw) added to those of the accepted point
   (s->next, collected by the line search over the pairs with a vertex that moved, which left
   out the pairs of a thawed body with a frozen one or another thawed one): a broad phase at
   x over the pairs with a thawed vertex alone, then s->next without its contacts of thawed
   bodies and those of this search with one. The kappa watch list from them */
void ipc_newton_contacts_of_thawed(ipc_world *w, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  const ipc_model *m = &w->m;
  const int *vb = m->surface.vert_body;
  double t0 = ipc_now();
  ++s->thaw_searches;
  ipc_reserve((void **)&s->thaw_passive, &s->cap_thaw_passive, (size_t)m->nverts + 1, 1);
  for (int v = 0; v < m->nverts; ++v) s->thaw_passive[v] = !s->thaw[vb[v]];
  ipc_broad_phase_passive(&s->thaw_cand, &m->surface, w->s.x, NULL, w->dhat, NULL, s->thaw_passive);
  ipc_contact_set add = {0};
  double d2 = ipc_contacts_collect(&add, &w->cm, &s->thaw_cand, w->s.x);
  size_t k = 0;
  for (size_t i = 0; i < s->next.n; ++i)
    if (!contact_thawed(s, vb, &s->next.c[i])) s->next.c[k++] = s->next.c[i];
  s->next.n = k;
  for (size_t i = 0; i < add.n; ++i) {
    if (!contact_thawed(s, vb, &add.c[i])) continue;
    ipc_reserve((void **)&s->next.c, &s->next.cap, s->next.n + 1, sizeof(ipc_contact));
    s->next.c[s->next.n++] = add.c[i];
  }
  ipc_contact_set_free(&add);
  /* both are the smallest distance seen (a lower bound), -1 for a pair at zero distance */
  s->next_min_d2 = fmin(s->next_min_d2, d2);
  st->t_broad_phase += ipc_now() - t0;
  ipc_newton_watch_next(w);
}

void ipc_newton_unfreeze(ipc_world *w, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  if (s->held) memset(s->held, 0, (size_t)w->m.nbodies); /* a held body is a frozen one */
  if (s->nfrozen == 0) return;
  memset(s->frozen, 0, (size_t)w->m.nbodies);
  ipc_newton_apply_frozen(w);
  contacts_again(w, st);
}

/* keep[b] (over, keep: nbodies, zeroed) for each body the direction moves by more than
   MOVE_BELOW of tol (over[b]; only among the bodies flagged in moving, every body when moving
   is NULL) and each a candidate or lagged friction pair ties to such a body. Returns 1 when at
   least two bodies are flagged in among and at most half of them are kept: then freezing the
   others is worth it */
static int choose_kept(ipc_world *w, double tol, const unsigned char *moving,
                       const unsigned char *among, unsigned char *over, unsigned char *keep) {
  const ipc_model *m = &w->m;
  int nb = m->nbodies;
  const int *vb = m->surface.vert_body;
  double ftol = MOVE_BELOW * tol;
  for (int v = 0; v < m->nverts; ++v) {
    const double *p = w->p + 3 * (size_t)v;
    if ((!moving || moving[vb[v]]) && (fabs(p[0]) > ftol || fabs(p[1]) > ftol || fabs(p[2]) > ftol))
      over[vb[v]] = 1;
  }
  int n = 0;
  for (int b = 0; b < nb; ++b) {
    keep[b] = over[b];
    n += among[b];
  }
  tie_ctx t = {vb, over, keep};
  ipc_islands_terms(m, &w->cand, &w->fric, tie_term, &t);
  int nkeep = 0;
  for (int b = 0; b < nb; ++b) nkeep += among[b] && keep[b];
  /* worth it only when at most half of them stay; otherwise all of them do */
  return n >= 2 && 2 * nkeep <= n;
}

int ipc_newton_refreeze(ipc_world *w, double tol, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  const ipc_model *m = &w->m;
  int nb = m->nbodies;
  /* per body: free (some unknown not fixed) */
  unsigned char *over = IPC_NEW0(unsigned char, 3 * (size_t)nb + 1);
  unsigned char *keep = over + nb, *free_body = over + 2 * (size_t)nb;
  for (int v = 0; v < m->nverts; ++v) {
    int a = w->rest.naff > 0 ? w->rest.vert_aff[v] : -1;
    if (a >= 0 ? !w->aff_fixed[a] : !w->fixed[v]) free_body[m->surface.vert_body[v]] = 1;
  }
  int freeze = choose_kept(w, tol, NULL, free_body, over, keep);
  int changed = 0, thawed = 0;
  for (int b = 0; b < nb; ++b) {
    unsigned char f = freeze && free_body[b] && !keep[b];
    s->thaw[b] = 0;
    if (f == s->frozen[b]) continue;
    changed = 1;
    thawed |= s->thaw[b] = !f;
    s->frozen[b] = f;
  }
  ipc_free(over);
  if (!changed) return 0;
  ipc_newton_apply_frozen(w);
  /* freezing more keeps the accepted point's contacts (a superset of those needed); a thawed
     body needs its pairs with the frozen ones, and when every body thaws, all pairs */
  if (thawed) {
    if (s->nfrozen == 0)
      contacts_again(w, st);
    else
      ipc_newton_contacts_of_thawed(w, st);
  }
  return 1;
}

int ipc_newton_rehold(ipc_world *w, double tol, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  const ipc_islands *is = &s->isl;
  int nb = w->m.nbodies;
  /* the bodies this step moved (an island of theirs, not frozen now) or held */
  unsigned char *over = IPC_NEW0(unsigned char, 3 * (size_t)nb + 1);
  unsigned char *keep = over + nb, *cand = over + 2 * (size_t)nb;
  for (int b = 0; b < nb; ++b) cand[b] = s->held[b] || (is->body[b] >= 0 && !s->frozen[b]);
  int hold = choose_kept(w, tol, cand, cand, over, keep);
  int changed = 0, released = 0;
  for (int b = 0; b < nb; ++b) {
    s->thaw[b] = 0;
    if (!cand[b]) continue;
    unsigned char h = hold && !keep[b];
    if (h == s->held[b]) continue;
    changed = 1;
    released |= s->thaw[b] = !h;
    s->holds += h;
    s->held[b] = s->frozen[b] = h;
  }
  ipc_free(over);
  if (!changed) return 0;
  ipc_newton_apply_frozen(w);
  if (released) ipc_newton_contacts_of_thawed(w, st);
  return 1;
}

int ipc_newton_release_held(ipc_world *w, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  int any = 0;
  if (!s->held) return 0; /* before the first islands */
  for (int b = 0; b < w->m.nbodies; ++b) {
    any |= s->held[b];
    if (s->held[b]) s->frozen[b] = s->held[b] = 0;
  }
  if (!any) return 0;
  ipc_newton_apply_frozen(w);
  contacts_again(w, st);
  return 1;
}
