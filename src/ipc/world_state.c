/* saving and restoring the changing state of a world (checkpoints for ipcc run --resume).

   record layout (host byte order; a checkpoint is read back by the same build):
     "IPCWSTAT"            8 bytes magic
     u32 version           IPC_WORLD_STATE_VERSION
     u32 nverts, ntets, ndirichlet   must match the world it is loaded into
     u32 nfields           number of tagged fields that follow
     per field: u32 tag, u64 byte count, the bytes
   version 1 covers every field of struct ipc_world that carries over from one step to the
   next:
     step, time                     (int, double)
     kappa                          adaptive barrier stiffness (0 = not yet set)
     min_d2                         smallest squared distance at the end of the last step
     x, v, a                        (nverts x 3) positions, velocities, Newmark accelerations
     dir_center                     (ndirichlet x 3) centers of the scripted regions
     affine_q, affine_qdot          (naff x 12) state and velocity of the affine bodies;
                                    present only when the scene has affine bodies, so the
                                    record of a deformable-only scene is unchanged
     affine_qddot                   (naff x 12) their Newmark acceleration: only with affine
                                    bodies and the Newmark integrator
   everything else in the world is either fixed by the scene (model, rest shapes, kappa
   bounds) or recomputed at the start of each step (candidates, contacts, targets, masks).
   not saved: the Newton solver's sparse pattern. a running world keeps the off-diagonal
   blocks of the previous step's last assembly as explicit zeros until a new block forces a
   rebuild; a loaded world starts without them. the first assembly of a step is at the
   positions the previous step ended on (scripted vertices aside, which are not in the
   system), so it needs the same contact blocks and the patterns agree; resumed runs of every
   scene in scenes/ matched uninterrupted ones bit for bit (tests/test_resume.sh). should a
   scene show otherwise, save the block list of the sparse assembler here.
   new lagged state (friction, ...) gets a new tag; a reader rejects unknown tags, and
   fields it knows but does not find keep their values from ipc_world_create. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "ipc/world_internal.h"

#define IPC_WORLD_STATE_VERSION 1u

static const char state_magic[8] = {'I', 'P', 'C', 'W', 'S', 'T', 'A', 'T'};

enum {
  TAG_STEP = 1,
  TAG_TIME = 2,
  TAG_KAPPA = 3,
  TAG_MIN_D2 = 4,
  TAG_X = 5,
  TAG_V = 6,
  TAG_A = 7,
  TAG_DIR_CENTER = 8,
  TAG_AFFINE_Q = 9,
  TAG_AFFINE_QDOT = 10,
  TAG_AFFINE_QDDOT = 11,
};

typedef struct field {
  uint32_t tag;
  void *data;
  uint64_t bytes;
} field;

/* the fields of version 1, pointing into w */
static int state_fields(ipc_world *w, field *f) {
  size_t n3 = 3 * (size_t)w->m.nverts * sizeof(double);
  int k = 0;
  f[k++] = (field){TAG_STEP, &w->step, sizeof w->step};
  f[k++] = (field){TAG_TIME, &w->time, sizeof w->time};
  f[k++] = (field){TAG_KAPPA, &w->kappa, sizeof w->kappa};
  f[k++] = (field){TAG_MIN_D2, &w->min_d2, sizeof w->min_d2};
  f[k++] = (field){TAG_X, w->x, n3};
  f[k++] = (field){TAG_V, w->v, n3};
  f[k++] = (field){TAG_A, w->a, n3};
  f[k++] = (field){TAG_DIR_CENTER, w->dir_center, 3 * (size_t)w->m.ndirichlet * sizeof(double)};
  if (w->rest.naff > 0) {
    size_t n12 = 12 * (size_t)w->rest.naff * sizeof(double);
    f[k++] = (field){TAG_AFFINE_Q, w->aq, n12};
    f[k++] = (field){TAG_AFFINE_QDOT, w->aqd, n12};
    if (w->m.params.integrator == IPC_NEWMARK) f[k++] = (field){TAG_AFFINE_QDDOT, w->aqa, n12};
  }
  return k;
}

static int put(FILE *f, const void *p, size_t n) {
  return fwrite(p, 1, n, f) == n;
}
static int get(FILE *f, void *p, size_t n) {
  return fread(p, 1, n, f) == n;
}

ipc_status ipc_world_save_state(const ipc_world *w, FILE *f, ipc_error *err) {
  field fs[16];
  int nf = state_fields((ipc_world *)w, fs); /* read only */
  uint32_t head[5] = {IPC_WORLD_STATE_VERSION, (uint32_t)w->m.nverts, (uint32_t)w->m.ntets,
                      (uint32_t)w->m.ndirichlet, (uint32_t)nf};
  int ok = put(f, state_magic, sizeof state_magic) && put(f, head, sizeof head);
  for (int k = 0; ok && k < nf; ++k)
    ok = put(f, &fs[k].tag, sizeof fs[k].tag) && put(f, &fs[k].bytes, sizeof fs[k].bytes) &&
         put(f, fs[k].data, (size_t)fs[k].bytes);
  if (!ok) return ipc_error_set(err, IPC_ERR_INPUT, "world state: write failed");
  return IPC_OK;
}

ipc_status ipc_world_load_state(ipc_world *w, FILE *f, ipc_error *err) {
  char magic[8];
  uint32_t head[5];
  if (!get(f, magic, sizeof magic) || memcmp(magic, state_magic, sizeof magic) != 0 ||
      !get(f, head, sizeof head))
    return ipc_error_set(err, IPC_ERR_INPUT, "world state: not an ipcc world state record");
  if (head[0] != IPC_WORLD_STATE_VERSION)
    return ipc_error_set(err, IPC_ERR_INPUT, "world state: version %u (expected %u)", head[0],
                         IPC_WORLD_STATE_VERSION);
  if (head[1] != (uint32_t)w->m.nverts || head[2] != (uint32_t)w->m.ntets ||
      head[3] != (uint32_t)w->m.ndirichlet)
    return ipc_error_set(err, IPC_ERR_INPUT,
                         "world state: saved for %u vertices, %u tets, %u scripted regions; the "
                         "scene has %d, %d, %d",
                         head[1], head[2], head[3], w->m.nverts, w->m.ntets, w->m.ndirichlet);
  field fs[16];
  int nf = state_fields(w, fs);
  /* read into scratch copies; the world changes only once every field has been read and
     checked (a refused record leaves it as it was) */
  unsigned char *tmp[16] = {NULL};
  ipc_status st = IPC_OK;
  for (int k = 0; k < nf; ++k) tmp[k] = ipc_malloc((size_t)fs[k].bytes + 1);
  for (uint32_t r = 0; st == IPC_OK && r < head[4]; ++r) {
    uint32_t tag;
    uint64_t bytes;
    int k = 0;
    if (!get(f, &tag, sizeof tag) || !get(f, &bytes, sizeof bytes)) {
      st = ipc_error_set(err, IPC_ERR_INPUT, "world state: truncated");
      break;
    }
    while (k < nf && fs[k].tag != tag) ++k;
    if (k == nf)
      st = ipc_error_set(err, IPC_ERR_INPUT, "world state: unknown field %u", tag);
    else if (fs[k].bytes >> 63)
      st = ipc_error_set(err, IPC_ERR_INPUT, "world state: field %u appears twice", tag);
    else if (bytes != fs[k].bytes)
      st = ipc_error_set(err, IPC_ERR_INPUT, "world state: field %u has %llu bytes (expected %llu)",
                         tag, (unsigned long long)bytes, (unsigned long long)fs[k].bytes);
    else if (!get(f, tmp[k], (size_t)bytes))
      st = ipc_error_set(err, IPC_ERR_INPUT, "world state: truncated");
    else
      fs[k].bytes |= 1ull << 63; /* read */
  }
  /* every field once; positions, velocities and the rest finite (the exact predicates of
     the intersection check need finite coordinates) */
  for (int k = 0; st == IPC_OK && k < nf; ++k) {
    if (!(fs[k].bytes >> 63)) {
      st = ipc_error_set(err, IPC_ERR_INPUT, "world state: field %u is missing", fs[k].tag);
      break;
    }
    fs[k].bytes &= ~(1ull << 63);
    if (fs[k].tag == TAG_STEP) {
      int step;
      memcpy(&step, tmp[k], sizeof step);
      if (step < 0) st = ipc_error_set(err, IPC_ERR_INPUT, "world state: step %d < 0", step);
      continue;
    }
    size_t nd = (size_t)fs[k].bytes / sizeof(double);
    for (size_t i = 0; i < nd; ++i) {
      double d;
      memcpy(&d, tmp[k] + i * sizeof d, sizeof d);
      if (!isfinite(d) && !(fs[k].tag == TAG_MIN_D2 && d == INFINITY)) {
        st = ipc_error_set(err, IPC_ERR_INPUT, "world state: field %u holds %g", fs[k].tag, d);
        break;
      }
    }
  }
  for (int k = 0; k < nf; ++k) {
    if (st == IPC_OK) memcpy(fs[k].data, tmp[k], (size_t)fs[k].bytes);
    ipc_free(tmp[k]);
  }
  return st;
}
