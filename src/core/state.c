/* the state of a world; see state.h */
#include "core/state.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

void ipc_state_init(ipc_state *s, const ipc_model *m, int naff) {
  size_t n3 = 3 * (size_t)m->nverts;
  memset(s, 0, sizeof *s);
  s->x = IPC_NEW(double, n3 + 1);
  s->v = IPC_NEW(double, n3 + 1);
  s->a = IPC_NEW0(double, n3 + 1);
  memcpy(s->x, m->x0, n3 * sizeof(double));
  memcpy(s->v, m->v0, n3 * sizeof(double));
  if (naff > 0) {
    s->q = IPC_NEW0(double, 12 * (size_t)naff);
    s->qd = IPC_NEW0(double, 12 * (size_t)naff);
    s->qdd = IPC_NEW0(double, 12 * (size_t)naff);
  }
  s->center = IPC_NEW(double, 3 * (size_t)m->ndirichlet + 1);
  for (int k = 0; k < m->ndirichlet; ++k)
    memcpy(s->center + 3 * k, m->dirichlet[k].center, 3 * sizeof(double));
}

void ipc_state_free(ipc_state *s) {
  double *all[] = {s->x, s->v, s->a, s->q, s->qd, s->qdd, s->center};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) ipc_free(all[k]);
  memset(s, 0, sizeof *s);
}

double ipc_state_mechanical_energy(const ipc_state *s, const ipc_model *m, const ipc_rest *r) {
  double e = 0;
  for (int a = 0; a < r->naff; ++a)
    e += ipc_affine_body_energy(&r->aff_mom[a], s->q + 12 * (size_t)a, s->qd + 12 * (size_t)a,
                                m->params.gravity, m->bodies[r->aff_body[a]].affine_stiffness);
  const double *g = m->params.gravity;
  for (int i = 0; i < m->nverts; ++i) {
    if (r->naff > 0 && r->vert_aff[i] >= 0) continue;
    const double *v = s->v + 3 * (size_t)i, *x = s->x + 3 * (size_t)i;
    e += 0.5 * m->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    e -= m->mass[i] * (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]);
  }
  return e;
}

/* ---- the record ---- */

static const char state_magic[8] = {'I', 'P', 'C', 'S', 'T', 'A', 'T', 'E'};

int ipc_state_fields(const ipc_state *s, const ipc_state_shape *sh, ipc_state_field *out) {
  ipc_state *w = (ipc_state *)s; /* the fields are written from, or read into */
  uint64_t n3 = 3 * (uint64_t)sh->nverts * sizeof(double);
  uint64_t n12 = 12 * (uint64_t)sh->naff * sizeof(double);
  int k = 0;
  out[k++] = (ipc_state_field){IPC_STATE_TAG_STEP, sizeof w->step, &w->step};
  out[k++] = (ipc_state_field){IPC_STATE_TAG_TIME, sizeof w->time, &w->time};
  out[k++] = (ipc_state_field){IPC_STATE_TAG_X, n3, w->x};
  out[k++] = (ipc_state_field){IPC_STATE_TAG_V, n3, w->v};
  if (sh->accel) out[k++] = (ipc_state_field){IPC_STATE_TAG_A, n3, w->a};
  out[k++] = (ipc_state_field){IPC_STATE_TAG_CENTER, 3 * (uint64_t)sh->ndirichlet * sizeof(double),
                               w->center};
  if (sh->naff > 0) {
    out[k++] = (ipc_state_field){IPC_STATE_TAG_Q, n12, w->q};
    out[k++] = (ipc_state_field){IPC_STATE_TAG_QD, n12, w->qd};
    if (sh->accel) out[k++] = (ipc_state_field){IPC_STATE_TAG_QDD, n12, w->qdd};
  }
  return k;
}

static int put(FILE *f, const void *p, size_t n) {
  return n == 0 || fwrite(p, 1, n, f) == n;
}

ipcc_status ipc_state_save(const ipc_state *s, const ipc_state_shape *sh,
                           const ipc_state_field *extra, int nextra, FILE *f, ipcc_error *err) {
  ipc_state_field fs[9];
  int nf = ipc_state_fields(s, sh, fs);
  uint32_t head[7] = {IPC_STATE_VERSION,      (uint32_t)sh->mode,       (uint32_t)sh->nverts,
                      (uint32_t)sh->ntets,    (uint32_t)sh->ndirichlet, (uint32_t)sh->naff,
                      (uint32_t)(nf + nextra)};
  int ok = put(f, state_magic, sizeof state_magic) && put(f, head, sizeof head);
  for (int k = 0; ok && k < nf + nextra; ++k) {
    const ipc_state_field *x = k < nf ? &fs[k] : &extra[k - nf];
    ok = put(f, &x->tag, sizeof x->tag) && put(f, &x->bytes, sizeof x->bytes) &&
         put(f, x->data, (size_t)x->bytes);
  }
  if (!ok) return ipc_error_set(err, IPCC_ERR_INPUT, "world state: write failed");
  return IPCC_OK;
}

static long bytes_left(FILE *f) {
  long at = ftell(f);
  if (at < 0 || fseek(f, 0, SEEK_END) != 0) return -1;
  long end = ftell(f);
  if (fseek(f, at, SEEK_SET) != 0) return -1;
  return end - at;
}

void ipc_state_record_free(ipc_state_record *r) {
  for (int k = 0; k < r->n; ++k) ipc_free(r->f[k].data);
  r->n = 0;
}

static const char *const mode_names[2] = {"an IPC", "an LCP"};

ipcc_status ipc_state_record_read(ipc_state_record *r, FILE *f, const ipc_state_shape *sh,
                                  ipcc_error *err) {
  r->n = 0;
  long left = bytes_left(f);
  char magic[8];
  uint32_t head[7];
  if (left < (long)(sizeof magic + sizeof head) || fread(magic, 1, 8, f) != 8 ||
      fread(head, 1, sizeof head, f) != sizeof head)
    return ipc_error_set(err, IPCC_ERR_INPUT, "world state: not an ipcc world state record");
  left -= (long)(sizeof magic + sizeof head);
  if (!memcmp(magic, "IPCWSTAT", 8) || !memcmp(magic, "IPCLSTAT", 8))
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "world state: a record of an older ipcc (one per mode, before format %u "
                         "of both); start the run anew",
                         IPC_STATE_VERSION);
  if (memcmp(magic, state_magic, 8) != 0)
    return ipc_error_set(err, IPCC_ERR_INPUT, "world state: not an ipcc world state record");
  if (head[0] != IPC_STATE_VERSION)
    return ipc_error_set(err, IPCC_ERR_INPUT, "world state: version %u (expected %u)", head[0],
                         IPC_STATE_VERSION);
  if (head[1] != (uint32_t)sh->mode)
    return ipc_error_set(
        err, IPCC_ERR_INPUT, "world state: %s world's record (mode %u), not %s one",
        head[1] < 2 ? mode_names[head[1]] : "another", head[1], mode_names[sh->mode]);
  if (head[2] != (uint32_t)sh->nverts || head[3] != (uint32_t)sh->ntets ||
      head[4] != (uint32_t)sh->ndirichlet || head[5] != (uint32_t)sh->naff)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "world state: saved for %u vertices, %u tets, %u scripted regions, %u "
                         "affine bodies; the scene has %d, %d, %d, %d",
                         head[2], head[3], head[4], head[5], sh->nverts, sh->ntets, sh->ndirichlet,
                         sh->naff);
  if (head[6] > sizeof r->f / sizeof r->f[0])
    return ipc_error_set(err, IPCC_ERR_INPUT, "world state: %u fields (at most %zu)", head[6],
                         sizeof r->f / sizeof r->f[0]);
  const char *bad = NULL;
  uint32_t bad_tag = 0;
  for (uint32_t k = 0; !bad && k < head[6]; ++k) {
    uint32_t tag;
    uint64_t bytes;
    if (left < 12 || fread(&tag, 1, 4, f) != 4 || fread(&bytes, 1, 8, f) != 8) {
      bad = "truncated";
      break;
    }
    left -= 12;
    if (ipc_state_record_get(r, tag, NULL)) {
      bad = "appears twice";
      bad_tag = tag;
      break;
    }
    if (bytes > (uint64_t)left) {
      bad = "truncated";
      break;
    }
    ipc_state_field *x = &r->f[r->n++];
    *x = (ipc_state_field){tag, bytes, ipc_malloc((size_t)bytes + 1)};
    if (bytes > 0 && fread(x->data, 1, (size_t)bytes, f) != bytes) bad = "truncated";
    left -= (long)bytes;
  }
  if (!bad && left != 0) bad = "longer than its fields";
  if (!bad) return IPCC_OK;
  ipc_state_record_free(r);
  if (bad_tag) return ipc_error_set(err, IPCC_ERR_INPUT, "world state: field %u %s", bad_tag, bad);
  return ipc_error_set(err, IPCC_ERR_INPUT, "world state: %s", bad);
}

const void *ipc_state_record_get(const ipc_state_record *r, uint32_t tag, uint64_t *bytes) {
  for (int k = 0; k < r->n; ++k)
    if (r->f[k].tag == tag) {
      if (bytes) *bytes = r->f[k].bytes;
      return r->f[k].data;
    }
  return NULL;
}

ipcc_status ipc_state_record_check(const ipc_state_record *r, const ipc_state_shape *sh,
                                   const uint32_t *mode_tags, int nmode, ipcc_error *err) {
  ipc_state_field fs[9];
  int nf = ipc_state_fields(&(ipc_state){0}, sh, fs);
  for (int k = 0; k < r->n; ++k) {
    int known = 0;
    for (int j = 0; j < nf; ++j) known |= fs[j].tag == r->f[k].tag;
    for (int j = 0; j < nmode; ++j) known |= mode_tags[j] == r->f[k].tag;
    if (!known)
      return ipc_error_set(err, IPCC_ERR_INPUT, "world state: unknown field %u", r->f[k].tag);
  }
  for (int j = 0; j < nf; ++j) {
    uint64_t bytes;
    const unsigned char *d = ipc_state_record_get(r, fs[j].tag, &bytes);
    if (!d)
      return ipc_error_set(err, IPCC_ERR_INPUT, "world state: field %u is missing", fs[j].tag);
    if (bytes != fs[j].bytes)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "world state: field %u has %llu bytes (expected %llu)", fs[j].tag,
                           (unsigned long long)bytes, (unsigned long long)fs[j].bytes);
    if (fs[j].tag == IPC_STATE_TAG_STEP) {
      int step;
      memcpy(&step, d, sizeof step);
      if (step < 0) return ipc_error_set(err, IPCC_ERR_INPUT, "world state: step %d < 0", step);
      continue;
    }
    /* positions, velocities and the rest finite (the exact predicates of the intersection
       check need finite coordinates) */
    for (size_t i = 0; i < (size_t)bytes / sizeof(double); ++i) {
      double x;
      memcpy(&x, d + i * sizeof x, sizeof x);
      if (!isfinite(x))
        return ipc_error_set(err, IPCC_ERR_INPUT, "world state: field %u holds %g", fs[j].tag, x);
    }
  }
  return IPCC_OK;
}

void ipc_state_record_apply(const ipc_state_record *r, const ipc_state_shape *sh, ipc_state *s) {
  ipc_state_field fs[9];
  int nf = ipc_state_fields(s, sh, fs);
  for (int j = 0; j < nf; ++j) {
    const void *d = ipc_state_record_get(r, fs[j].tag, NULL);
    if (d && fs[j].bytes > 0) memcpy(fs[j].data, d, (size_t)fs[j].bytes);
  }
}
