/* saving and restoring the changing state of an LCP world (checkpoints for ipcc run --resume
   in LCP mode) as the record of core/state.h, both modes' format. Besides the state (step,
   time, x, v, script centres, affine q and qdot) the LCP world saves
     rows (tag 32)       u32 unknowns per contact (must match the loading world's options)
     contacts (33)       raw ipc_lcp_contact records: those found at x at the end of the last
                         step, which the next step solves and whose sides decide the sign of
                         unsigned pairs in the step after
     warm keys (34)      the warm-start table's keys (3 x u64 each)
     warm impulses (35)  its impulses (rows each)
     reuse (36)          i32 factor_n, refactor_next, reuse_skip, backoff: the reuse of the
                         factor of M + h^2 K
     factor x (37), mask (38)  when factor_n > 0: the x0 the factor was made at (nverts x 3)
                         and the DOF mask (nverts x 3 bytes)
     manifold (39)       i32 the run's lcp.manifold (--manifold is a flag that the
                         checkpoint's options do not hold)
   A step depends on more than x and v: the warm start (PGS stops at a tolerance, so its
   start shows in the bits), the contact sides, and, in lumped coupling, which old factor
   preconditions the unconstrained velocity. The factor itself is not saved: it is rebuilt
   from the same matrix (same positions and mask), which CHOLMOD factors to the same bits.
   Everything else is fixed by the scene or recomputed in each step (the manifolds from the
   contacts and x). */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/state.h"
#include "lcp/lcp_world_internal.h"

enum {
  TAG_ROWS = IPC_STATE_TAG_MODE,
  TAG_CONTACTS,
  TAG_WARM_KEYS,
  TAG_WARM_Z,
  TAG_REUSE,
  TAG_FACTOR_X,
  TAG_FACTOR_MASK,
  TAG_MANIFOLD
};

/* the numbers the record holds that are not fields of the workspace (in the scratch of
   ipcc_world_save_state) */
typedef struct state_numbers {
  int32_t fs[4]; /* factor_n, refactor_next, reuse_skip, backoff */
  uint32_t rows;
  int32_t manifold;
} state_numbers;
_Static_assert(sizeof(state_numbers) <= IPCC_STATE_SCRATCH, "the scratch of a state record");

const uint32_t ipc_lcp_world_state_tags[8] = {TAG_ROWS,        TAG_CONTACTS, TAG_WARM_KEYS,
                                              TAG_WARM_Z,      TAG_REUSE,    TAG_FACTOR_X,
                                              TAG_FACTOR_MASK, TAG_MANIFOLD};

int ipc_lcp_world_state_fields(const ipcc_world *world, ipc_state_field *extra, void *scratch) {
  const ipc_lcp_world *w = world->ws;
  uint64_t n3 = 3 * (uint64_t)w->m.nverts, R = (uint64_t)ipc_lcp_world_rows(w);
  state_numbers *sc = scratch;
  *sc = (state_numbers){{w->factor_n, w->refactor_next, w->reuse_skip, w->backoff},
                        (uint32_t)R,
                        (int32_t)w->def.manifold};
  ipc_state_field f[8] = {
      {TAG_ROWS, sizeof sc->rows, &sc->rows},
      {TAG_CONTACTS, w->contacts.n * sizeof *w->contacts.c, w->contacts.c},
      {TAG_WARM_KEYS, 3 * w->prev_n * sizeof *w->prev_key, w->prev_key},
      {TAG_WARM_Z, w->prev_n * R * sizeof(double), w->prev_z},
      {TAG_REUSE, sizeof sc->fs, sc->fs},
      {TAG_MANIFOLD, sizeof sc->manifold, &sc->manifold},
      {TAG_FACTOR_X, n3 * sizeof(double), w->x_factor},
      {TAG_FACTOR_MASK, n3, w->dof_fixed_prev},
  };
  int n = w->factor_n > 0 ? 8 : 6;
  memcpy(extra, f, (size_t)n * sizeof *f);
  return n;
}

/* contacts whose vertex ids index the world (an edited record must not read out of bounds) */
static int contacts_fit(const ipc_lcp_contact *c, uint64_t nc, const ipc_model *m) {
  for (uint64_t i = 0; i < nc; ++i) {
    if (c[i].nv < 1 || c[i].nv > 4 || c[i].face_body < -1 || c[i].face_body >= m->nbodies) return 0;
    for (int k = 0; k < c[i].nv; ++k)
      if (c[i].vert[k] < 0 || c[i].vert[k] >= m->nverts) return 0;
  }
  return 1;
}

/* a copy of n bytes (one spare, never NULL) */
static void *copy(const void *p, uint64_t n) {
  void *q = ipc_malloc((size_t)n + 1);
  if (n > 0) memcpy(q, p, (size_t)n);
  return q;
}

ipcc_status ipc_lcp_world_state_apply(ipcc_world *world, const ipc_state_record *r,
                                      const ipc_state_shape *sh, ipcc_error *err) {
  ipc_lcp_world *w = world->ws;
  const ipc_model *m = &w->m;
  uint64_t n3 = 3 * (uint64_t)m->nverts, R = (uint64_t)ipc_lcp_world_rows(w);
  uint64_t nrows = 0, ncb = 0, nkb = 0, nzb = 0, nfs = 0, nman = 0, nxf = 0, nmask = 0;
  const uint32_t *rows = ipc_state_record_get(r, TAG_ROWS, &nrows);
  const ipc_lcp_contact *c = ipc_state_record_get(r, TAG_CONTACTS, &ncb);
  const unsigned long long *key = ipc_state_record_get(r, TAG_WARM_KEYS, &nkb);
  const double *z = ipc_state_record_get(r, TAG_WARM_Z, &nzb);
  const int32_t *fsp = ipc_state_record_get(r, TAG_REUSE, &nfs);
  const int32_t *man = ipc_state_record_get(r, TAG_MANIFOLD, &nman);
  const double *xf = ipc_state_record_get(r, TAG_FACTOR_X, &nxf);
  const unsigned char *mask = ipc_state_record_get(r, TAG_FACTOR_MASK, &nmask);
  int32_t fs[4] = {0, 0, 0, 0}, manifold = 0;
  uint32_t rw = 0;
  if (fsp && nfs == sizeof fs) memcpy(fs, fsp, sizeof fs);
  if (man && nman == sizeof manifold) memcpy(&manifold, man, sizeof manifold);
  if (rows && nrows == sizeof rw) memcpy(&rw, rows, sizeof rw);
  uint64_t nc = ncb / sizeof *c, np = nkb / (3 * sizeof *key);
  const char *bad = !rows || !c || !key || !z || !fsp || !man ? "a field is missing"
                    : nrows != sizeof rw || nfs != sizeof fs || nman != sizeof manifold
                        ? "a field has another size"
                    : rw != R ? "saved with another number of rows per contact (lcp.friction)"
                    : ncb % sizeof *c || nkb % (3 * sizeof *key) || nzb != np * R * sizeof(double)
                        ? "contacts or warm start of another size"
                    : fs[0] < 0 ? "negative factor size"
                    : (fs[0] > 0) != (xf != NULL) || (fs[0] > 0) != (mask != NULL) ? "factor fields"
                    : xf && (nxf != n3 * sizeof(double) || nmask != n3)            ? "factor fields"
                    : (manifold & ~1) != 0                                         ? "manifold"
                    : !contacts_fit(c, nc, m) ? "a contact's vertices are not the scene's"
                                              : NULL;
  for (uint64_t i = 0; !bad && mask && i < n3; ++i)
    if (mask[i] > 1) bad = "DOF mask";
  if (bad) return ipc_error_set(err, IPCC_ERR_INPUT, "LCP world state: %s", bad);
  ipc_state_record_apply(r, sh, &w->s);
  ipc_free(w->contacts.c);
  w->contacts.c = copy(c, ncb);
  w->contacts.n = w->contacts.cap = (size_t)nc;
  ipc_free(w->prev_key);
  ipc_free(w->prev_z);
  w->prev_key = copy(key, nkb);
  w->prev_z = copy(z, nzb);
  w->prev_n = (size_t)np;
  w->prev_cap_key = 3 * (size_t)np; /* elements; the spare byte is not one */
  w->prev_cap_z = (size_t)(np * R);
  w->def.manifold = (ipcc_lcp_manifold)manifold;
  ipc_lcp_world_reduce(w);
  w->refactor_next = fs[1];
  w->reuse_skip = fs[2];
  w->backoff = fs[3];
  /* only lumped coupling reuses an old factor; coupled mode factors every step */
  w->factor_n = w->def.coupling == IPCC_LCP_COUPLED ? 0 : fs[0];
  ipcc_status st2 = IPCC_OK;
  if (w->factor_n > 0) {
    memcpy(w->x_factor, xf, (size_t)n3 * sizeof(double));
    memcpy(w->dof_fixed_prev, mask, (size_t)n3);
    st2 = ipc_lcp_world_rebuild_factor(w, err);
  }
  return st2;
}
