/* saving and restoring the changing state of an LCP world (checkpoints for ipcc run
   --resume in LCP mode).

   record layout (host byte order; a checkpoint is read back by the same build):
     "IPCLSTAT"               8 bytes magic
     u32 version              IPC_LCP_STATE_VERSION
     u32 nverts, ntets, ndirichlet, rows per contact, affine bodies
                              must match the world it is loaded into
     i32 step; f64 time
     x, v                     (nverts x 3) positions, velocities
     q, qdot                  (affine bodies x 12) their states (version 2; x = J q)
     dir_center               (ndirichlet x 3) centers of the scripted regions
     u64 contact count, the contacts (raw ipc_lcp_contact records): those found at x at the
                              end of the last step, which the next step solves and whose
                              sides decide the sign of unsigned pairs in the step after
     u64 warm-start count, its keys (3 x u64 each) and impulses (rows each)
     i32 factor_n, refactor_next, reuse_skip, backoff: the reuse of the factor of M + h^2 K
     when factor_n > 0: the x0 the factor was made at (nverts x 3) and the DOF mask
                              (nverts x 3 bytes)
     i32 manifold             the run's lcp.manifold (version 3; --manifold is a flag that
                              the checkpoint's options do not hold)
   A step depends on more than x and v: the warm start (PGS stops at a tolerance, so its
   start shows in the bits), the contact sides, and, in lumped coupling, which old factor
   preconditions the unconstrained velocity. The factor itself is not saved: it is rebuilt
   from the same matrix (same positions and mask), which CHOLMOD factors to the same bits.
   Everything else is fixed by the scene or recomputed in each step (the manifolds from the
   contacts and x). */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "lcp/lcp_world_internal.h"

#define IPC_LCP_STATE_VERSION 3u

static const char state_magic[8] = {'I', 'P', 'C', 'L', 'S', 'T', 'A', 'T'};

static int put(FILE *f, const void *p, size_t n) {
  return n == 0 || fwrite(p, 1, n, f) == n;
}

ipc_status ipc_lcp_world_save_state(const ipc_lcp_world *w, FILE *f, ipc_error *err) {
  const ipc_model *m = &w->m;
  size_t n3 = 3 * (size_t)m->nverts, R = (size_t)ipc_lcp_world_rows(w);
  uint32_t head[6] = {IPC_LCP_STATE_VERSION,   (uint32_t)m->nverts, (uint32_t)m->ntets,
                      (uint32_t)m->ndirichlet, (uint32_t)R,         (uint32_t)w->rest.naff};
  size_t na = 12 * (size_t)w->rest.naff;
  int32_t step = w->step, manifold = (int32_t)w->def.manifold;
  uint64_t nc = w->contacts.n, np = w->prev_n;
  int32_t fs[4] = {w->factor_n, w->refactor_next, w->reuse_skip, w->backoff};
  int ok = put(f, state_magic, sizeof state_magic) && put(f, head, sizeof head) &&
           put(f, &step, sizeof step) && put(f, &w->time, sizeof w->time) &&
           put(f, w->x, n3 * sizeof(double)) && put(f, w->v, n3 * sizeof(double)) &&
           put(f, w->aq, na * sizeof(double)) && put(f, w->aqd, na * sizeof(double)) &&
           put(f, w->dir_center, 3 * (size_t)m->ndirichlet * sizeof(double)) &&
           put(f, &nc, sizeof nc) && put(f, w->contacts.c, nc * sizeof *w->contacts.c) &&
           put(f, &np, sizeof np) && put(f, w->prev_key, 3 * np * sizeof *w->prev_key) &&
           put(f, w->prev_z, np * R * sizeof(double)) && put(f, fs, sizeof fs);
  if (ok && w->factor_n > 0)
    ok = put(f, w->x_factor, n3 * sizeof(double)) && put(f, w->dof_fixed_prev, n3);
  ok = ok && put(f, &manifold, sizeof manifold);
  if (!ok) return ipc_error_set(err, IPC_ERR_INPUT, "LCP world state: write failed");
  return IPC_OK;
}

/* reading with the bytes left in the record as the bound of every count */
typedef struct src {
  FILE *f;
  long left;
  int ok;
} src;

static void get(src *s, void *p, size_t n) {
  if (!s->ok || n > (size_t)s->left || (n > 0 && fread(p, 1, n, s->f) != n)) {
    s->ok = 0;
    return;
  }
  s->left -= (long)n;
}

/* count records of elem bytes (allocated with one spare), or NULL when the record does not
   hold them */
static void *get_array(src *s, uint64_t count, size_t elem) {
  if (!s->ok || count > (uint64_t)s->left / elem) {
    s->ok = 0;
    return NULL;
  }
  void *p = ipc_malloc((size_t)count * elem + 1);
  get(s, p, (size_t)count * elem);
  return p;
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

static long bytes_left(FILE *f) {
  long at = ftell(f);
  if (at < 0 || fseek(f, 0, SEEK_END) != 0) return -1;
  long end = ftell(f);
  if (fseek(f, at, SEEK_SET) != 0) return -1;
  return end - at;
}

/* the contacts and warm-start impulses into w (ownership moves) */
static void take_contacts(ipc_lcp_world *w, ipc_lcp_contact *c, uint64_t nc,
                          unsigned long long *key, double *z, uint64_t np) {
  ipc_free(w->contacts.c);
  w->contacts.c = c;
  w->contacts.n = w->contacts.cap = (size_t)nc;
  ipc_free(w->prev_key);
  ipc_free(w->prev_z);
  w->prev_key = key;
  w->prev_z = z;
  w->prev_n = (size_t)np;
  w->prev_cap_key = 3 * (size_t)np; /* elements; get_array's spare byte is not one */
  w->prev_cap_z = (size_t)np * (size_t)ipc_lcp_world_rows(w);
}

ipc_status ipc_lcp_world_load_state(ipc_lcp_world *w, FILE *f, ipc_error *err) {
  const ipc_model *m = &w->m;
  size_t n3 = 3 * (size_t)m->nverts, R = (size_t)ipc_lcp_world_rows(w);
  size_t na = 12 * (size_t)w->rest.naff;
  src s = {f, bytes_left(f), 1};
  s.ok = s.left >= 0;
  char magic[8];
  uint32_t head[6];
  get(&s, magic, sizeof magic);
  get(&s, head, sizeof head);
  if (!s.ok || memcmp(magic, state_magic, sizeof magic) != 0)
    return ipc_error_set(err, IPC_ERR_INPUT, "world state: not an ipcc LCP world state record");
  if (head[0] != IPC_LCP_STATE_VERSION)
    return ipc_error_set(err, IPC_ERR_INPUT, "LCP world state: version %u (expected %u)", head[0],
                         IPC_LCP_STATE_VERSION);
  if (head[1] != (uint32_t)m->nverts || head[2] != (uint32_t)m->ntets ||
      head[3] != (uint32_t)m->ndirichlet || head[4] != (uint32_t)R ||
      head[5] != (uint32_t)w->rest.naff)
    return ipc_error_set(err, IPC_ERR_INPUT,
                         "LCP world state: saved for %u vertices, %u tets, %u scripted regions, "
                         "%u rows per contact, %u affine bodies; the run has %d, %d, %d, %zu, %d",
                         head[1], head[2], head[3], head[4], head[5], m->nverts, m->ntets,
                         m->ndirichlet, R, w->rest.naff);
  int32_t step = 0, manifold = 0, fs[4] = {0, 0, 0, 0};
  double time = 0;
  get(&s, &step, sizeof step);
  get(&s, &time, sizeof time);
  double *x = get_array(&s, n3, sizeof(double)), *v = get_array(&s, n3, sizeof(double));
  double *aq = get_array(&s, na, sizeof(double)), *aqd = get_array(&s, na, sizeof(double));
  double *dc = get_array(&s, 3 * (uint64_t)m->ndirichlet, sizeof(double));
  uint64_t nc = 0, np = 0;
  get(&s, &nc, sizeof nc);
  ipc_lcp_contact *c = get_array(&s, nc, sizeof *c);
  get(&s, &np, sizeof np);
  unsigned long long *key = np <= UINT64_MAX / 3 ? get_array(&s, 3 * np, sizeof *key) : NULL;
  double *z = np <= UINT64_MAX / R ? get_array(&s, np * R, sizeof(double)) : NULL;
  get(&s, fs, sizeof fs);
  double *xf = NULL;
  unsigned char *mask = NULL;
  if (s.ok && fs[0] > 0) {
    xf = get_array(&s, n3, sizeof(double));
    mask = get_array(&s, n3, 1);
  }
  get(&s, &manifold, sizeof manifold);
  const char *bad = !s.ok || !key || !z       ? "truncated"
                    : s.left != 0             ? "longer than its fields"
                    : step < 0 || fs[0] < 0   ? "negative step or factor size"
                    : (manifold & ~1) != 0    ? "manifold"
                    : !contacts_fit(c, nc, m) ? "a contact's vertices are not the scene's"
                                              : NULL;
  for (size_t i = 0; !bad && mask && i < n3; ++i)
    if (mask[i] > 1) bad = "DOF mask";
  if (bad) {
    void *all[] = {x, v, aq, aqd, dc, c, key, z, xf, mask};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) ipc_free(all[i]);
    return ipc_error_set(err, IPC_ERR_INPUT, "LCP world state: %s", bad);
  }
  w->step = step;
  w->time = time;
  memcpy(w->x, x, n3 * sizeof(double));
  memcpy(w->v, v, n3 * sizeof(double));
  if (na > 0) {
    memcpy(w->aq, aq, na * sizeof(double));
    memcpy(w->aqd, aqd, na * sizeof(double));
  }
  memcpy(w->dir_center, dc, 3 * (size_t)m->ndirichlet * sizeof(double));
  take_contacts(w, c, nc, key, z, np);
  w->def.manifold = (ipc_lcp_manifold)manifold;
  ipc_lcp_world_reduce(w);
  w->refactor_next = fs[1];
  w->reuse_skip = fs[2];
  w->backoff = fs[3];
  /* only lumped coupling reuses an old factor; coupled mode factors every step */
  w->factor_n = w->def.coupling == IPC_LCP_COUPLED ? 0 : fs[0];
  ipc_status st = IPC_OK;
  if (w->factor_n > 0) {
    memcpy(w->x_factor, xf, n3 * sizeof(double));
    memcpy(w->dof_fixed_prev, mask, n3);
    st = ipc_lcp_world_rebuild_factor(w, err);
  }
  void *tmp[] = {x, v, aq, aqd, dc, xf, mask};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; ++i) ipc_free(tmp[i]);
  return st;
}
