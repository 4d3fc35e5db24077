/* post-stabilization of the LCP step (docs/lcp-mode.md, "Penetration"; Cline and Pai 2003,
   "Post-stabilization for rigid body simulation with contact and constraints"). The velocity
   step makes each contact's linearised gap phi + h J v >= 0 (a skin of 0.1 x the gap between
   two meshes); the real gap at the end differs to second order: a pair that closes 3 mm in a
   step while its bodies turn ends a few tenths of a millimetre past its linearised position,
   and an edge-edge pair may cross. Baumgarte's term takes a fifth of such a penetration out
   per step, so a pile keeps about what one step makes. When the contacts found after the step
   hold a penetration deeper than IPC_LCP_PROJECT_TOL x the gap, the positions of the bodies
   involved are moved out of it by a displacement of the same form as an impulse's velocity
   change, h M^-1 J^T l (h A^-1 J^T l coupled; h L^-T L^-1 J'^T l for an affine body, then
   back on the rotations):
     phi + J dx >= 0,  l >= 0,  l (phi + J dx) = 0
   over the contacts within the gap of those bodies (so a body pushed out of one neighbour is
   not pushed into another within its gap), frictionless, solved as the step's LCP with
   q = phi / h, from l = 0. Velocities are not changed (no energy is added), and the contacts
   of the bodies it moved are found again at the projected positions (lcp_world.c). */
#include <string.h>

#include "core/alloc.h"
#include "lcp/lcp_world_internal.h"

int ipc_lcp_world_project(ipc_lcp_world *w, ipcc_lcp_step_stats *st, ipcc_error *err) {
  const ipc_model *m = &w->m;
  const double tol = IPC_LCP_PROJECT_TOL * w->gap;
  if (!(w->min_phi < -tol)) return 0;
  const int *vb = m->surface.vert_body;
  unsigned char *hit = IPC_NEW0(unsigned char, (size_t)m->nbodies + 1);
  for (size_t i = 0; i < w->contacts.n; ++i) {
    const ipc_lcp_contact *c = &w->contacts.c[i];
    if (c->phi < -tol)
      for (int k = 0; k < c->nv; ++k)
        if (!w->fixed[c->vert[k]]) hit[vb[c->vert[k]]] = 1;
  }
  w->proj.n = 0;
  for (size_t i = 0; i < w->contacts.n; ++i) {
    const ipc_lcp_contact *c = &w->contacts.c[i];
    int touches = 0;
    for (int k = 0; k < c->nv; ++k) touches |= !w->fixed[c->vert[k]] && hit[vb[c->vert[k]]];
    if (!touches || !(c->phi < w->gap)) continue;
    ipc_reserve((void **)&w->proj.c, &w->proj.cap, w->proj.n + 1, sizeof *c);
    w->proj.c[w->proj.n++] = *c;
  }
  ipc_free(hit);
  if (w->proj.n == 0) return 0;
  /* the bodies the projection may move: those of its contacts' free vertices */
  ipc_reserve((void **)&w->moved, &w->moved_cap, (size_t)m->nbodies + 1, 1);
  memset(w->moved, 0, (size_t)m->nbodies + 1);
  for (size_t i = 0; i < w->proj.n; ++i)
    for (int k = 0; k < w->proj.c[i].nv; ++k)
      if (!w->fixed[w->proj.c[i].vert[k]]) w->moved[vb[w->proj.c[i].vert[k]]] = 1;
  /* the step's solve, frictionless, on the projection's contacts from l = 0 */
  const ipc_lcp_contact_set *active = w->active;
  ipcc_lcp_friction friction = w->def.friction;
  const char *dump = w->def.dump_dir;
  w->def.friction = IPCC_LCP_FRICTION_NONE;
  w->def.dump_dir = NULL;
  w->projecting = 1;
  w->active = &w->proj;
  ipc_reserve((void **)&w->z, &w->z_cap, w->proj.n + 1, sizeof(double));
  memset(w->z, 0, sizeof(double) * (w->proj.n + 1));
  ipcc_lcp_step_stats ps;
  memset(&ps, 0, sizeof ps);
  ipcc_status s = ipc_lcp_world_solve_pass(w, 1, &ps, err);
  w->active = active;
  w->projecting = 0;
  w->def.friction = friction;
  w->def.dump_dir = dump;
  st->lcp_iterations += ps.lcp_iterations;
  if (s != IPCC_OK) return -1;
  for (int i = 0; i < m->nverts; ++i) {
    if (w->fixed[i] || (w->rest.vert_aff && w->rest.vert_aff[i] >= 0)) continue;
    for (int d = 0; d < 3; ++d) w->s.x[3 * (size_t)i + d] += w->h * w->dv[3 * (size_t)i + d];
  }
  ipc_lcp_affine_displace(w);
  return 1;
}
