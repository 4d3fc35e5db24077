/* run checkpoints for `ipcc run --resume`.

   layout (host byte order: a checkpoint is read back by the same build on the same machine):
     "IPCCKPT\\0"            8 bytes magic
     u32 version, u32 sizeof(ipc_step_stats)   both must match the reader
     u32 scene path length, the path bytes, u64 scene hash
     i64 steps_total; i32 every, formats, preview_every, check, frame
     the run summary, field by field (write_summary)
     u64 nsteps, then nsteps raw ipc_step_stats records
     u64 world state length, then the ipc_world_save_state record
   a new summary field or step statistic bumps the version (old checkpoints are then refused
   with a message, never misread). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "io/path.h"
#include "io/run_output.h"

#define IPC_CHECKPOINT_VERSION 1u

static const char ckpt_magic[8] = {'I', 'P', 'C', 'C', 'K', 'P', 'T', '\0'};

typedef struct stream {
  FILE *f;
  int ok;
} stream;

static void put(stream *s, const void *p, size_t n) {
  if (s->ok && n > 0 && fwrite(p, 1, n, s->f) != n) s->ok = 0;
}
static void get(stream *s, void *p, size_t n) {
  if (s->ok && n > 0 && fread(p, 1, n, s->f) != n) s->ok = 0;
}

#define PUT(s, v) put(s, &(v), sizeof(v))
#define GET(s, v) get(s, &(v), sizeof(v))

/* the summary fields that accumulate over a run (mode and scene are the run's) */
static void xfer(stream *s, void *p, size_t n, int writing) {
  if (writing)
    put(s, p, n);
  else
    get(s, p, n);
}

static void summary_io(stream *s, ipc_run_summary *sum, int writing) {
#define io(s, p, n) xfer(s, p, n, writing)
  io(s, &sum->steps, sizeof sum->steps);
  io(s, &sum->wall_seconds, sizeof sum->wall_seconds);
  io(s, &sum->min_distance, sizeof sum->min_distance);
  io(s, &sum->intersection_checked, sizeof sum->intersection_checked);
  io(s, &sum->intersection_free, sizeof sum->intersection_free);
  io(s, &sum->frames_checked, sizeof sum->frames_checked);
  io(s, &sum->newton_iterations, sizeof sum->newton_iterations);
  io(s, &sum->newton_capped_steps, sizeof sum->newton_capped_steps);
  io(s, &sum->lcp_iterations, sizeof sum->lcp_iterations);
  io(s, &sum->contacts_max, sizeof sum->contacts_max);
  io(s, &sum->dirichlet_unmet_steps, sizeof sum->dirichlet_unmet_steps);
  io(s, &sum->dhat, sizeof sum->dhat);
#undef io
}

ipc_status ipc_checkpoint_write(const char *path, const ipc_run_checkpoint *c, const ipc_world *w,
                                ipc_error *err) {
  ipc_atomic_file af;
  if (ipc_atomic_open(&af, path, err) != 0) return IPC_ERR_INPUT;
  stream s = {af.f, 1};
  uint32_t head[2] = {IPC_CHECKPOINT_VERSION, (uint32_t)sizeof(ipc_step_stats)};
  put(&s, ckpt_magic, sizeof ckpt_magic);
  put(&s, head, sizeof head);
  uint32_t plen = (uint32_t)strlen(c->scene);
  PUT(&s, plen);
  put(&s, c->scene, plen);
  PUT(&s, c->scene_hash);
  int64_t total = c->steps_total;
  int32_t ints[5] = {c->every, (int32_t)c->formats, c->preview_every, c->check, c->frame};
  PUT(&s, total);
  put(&s, ints, sizeof ints);
  ipc_run_summary sum = c->sum;
  summary_io(&s, &sum, 1);
  uint64_t n = c->nsteps;
  PUT(&s, n);
  put(&s, c->steps, c->nsteps * sizeof(ipc_step_stats));
  /* the world state, behind its length */
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  int ok = mem && ipc_world_save_state(w, mem, err) == IPC_OK;
  if (mem) fclose(mem);
  uint64_t wl = len;
  PUT(&s, wl);
  put(&s, buf, len);
  free(buf); /* open_memstream allocates with malloc */
  if (!ok || !s.ok) {
    ipc_atomic_abort(&af);
    return ipc_error_set(err, IPC_ERR_INPUT, "%s: checkpoint write failed", path);
  }
  return ipc_atomic_commit(&af, err) == 0 ? IPC_OK : IPC_ERR_INPUT;
}

ipc_status ipc_checkpoint_read(const char *path, ipc_run_checkpoint *c, ipc_error *err) {
  memset(c, 0, sizeof *c);
  FILE *f = fopen(path, "rb");
  if (!f) return ipc_error_set(err, IPC_ERR_INPUT, "%s: no checkpoint to resume from", path);
  stream s = {f, 1};
  char magic[8];
  uint32_t head[2] = {0, 0};
  get(&s, magic, sizeof magic);
  get(&s, head, sizeof head);
  if (!s.ok || memcmp(magic, ckpt_magic, sizeof magic) != 0) {
    fclose(f);
    return ipc_error_set(err, IPC_ERR_INPUT, "%s: not an ipcc checkpoint", path);
  }
  if (head[0] != IPC_CHECKPOINT_VERSION || head[1] != sizeof(ipc_step_stats)) {
    fclose(f);
    return ipc_error_set(err, IPC_ERR_INPUT,
                         "%s: checkpoint version %u (record %u bytes) written by another ipcc "
                         "build (expected version %u, %u bytes)",
                         path, head[0], head[1], IPC_CHECKPOINT_VERSION,
                         (unsigned)sizeof(ipc_step_stats));
  }
  uint32_t plen = 0;
  GET(&s, plen);
  if (s.ok && plen < 1u << 20) {
    c->scene = IPC_NEW(char, (size_t)plen + 1);
    get(&s, c->scene, plen);
    c->scene[plen] = '\0';
  } else {
    s.ok = 0;
  }
  GET(&s, c->scene_hash);
  int64_t total = 0;
  int32_t ints[5] = {0, 0, 0, 0, 0};
  GET(&s, total);
  get(&s, ints, sizeof ints);
  c->steps_total = (long)total;
  c->every = ints[0];
  c->formats = (unsigned)ints[1];
  c->preview_every = ints[2];
  c->check = ints[3];
  c->frame = ints[4];
  summary_io(&s, &c->sum, 0);
  uint64_t n = 0;
  GET(&s, n);
  if (s.ok && n <= (uint64_t)total && n < (1u << 30)) {
    c->nsteps = (size_t)n;
    c->steps = IPC_NEW0(ipc_step_stats, c->nsteps + 1);
    get(&s, c->steps, c->nsteps * sizeof(ipc_step_stats));
  } else {
    s.ok = 0;
  }
  uint64_t wl = 0;
  GET(&s, wl);
  if (s.ok && wl > 0 && wl < ((uint64_t)1 << 40)) {
    c->world_state_len = (size_t)wl;
    c->world_state = IPC_NEW(unsigned char, c->world_state_len);
    get(&s, c->world_state, c->world_state_len);
  } else {
    s.ok = 0;
  }
  fclose(f);
  if (!s.ok || c->every < 1 || c->frame < 0) {
    ipc_checkpoint_free(c);
    return ipc_error_set(err, IPC_ERR_INPUT, "%s: checkpoint is truncated or damaged", path);
  }
  return IPC_OK;
}

ipc_status ipc_checkpoint_restore_world(const ipc_run_checkpoint *c, ipc_world *w, ipc_error *err) {
  FILE *mem = fmemopen(c->world_state, c->world_state_len, "rb");
  if (!mem) return ipc_error_set(err, IPC_ERR_INPUT, "checkpoint: cannot read the world state");
  ipc_status st = ipc_world_load_state(w, mem, err);
  fclose(mem);
  return st;
}

void ipc_checkpoint_set_scene(ipc_run_checkpoint *c, const char *scene) {
  size_t n = strlen(scene) + 1;
  ipc_free(c->scene);
  c->scene = IPC_NEW(char, n);
  memcpy(c->scene, scene, n);
}

void ipc_checkpoint_set_total(ipc_run_checkpoint *c, long total) {
  size_t cap = (size_t)(total > (long)c->nsteps ? total : (long)c->nsteps) + 1;
  ipc_step_stats *s = IPC_NEW0(ipc_step_stats, cap);
  if (c->steps) memcpy(s, c->steps, c->nsteps * sizeof *s);
  ipc_free(c->steps);
  c->steps = s;
  c->steps_total = total;
}

void ipc_checkpoint_free(ipc_run_checkpoint *c) {
  if (!c) return;
  ipc_free(c->scene);
  ipc_free(c->steps);
  ipc_free(c->world_state);
  memset(c, 0, sizeof *c);
}

ipc_status ipc_file_hash(const char *path, uint64_t *hash, ipc_error *err) {
  size_t len = 0;
  char *text = ipc_read_file(path, &len, err);
  if (!text) return IPC_ERR_INPUT;
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < len; ++i) {
    h ^= (unsigned char)text[i];
    h *= 1099511628211ull;
  }
  ipc_free(text);
  *hash = h;
  return IPC_OK;
}
