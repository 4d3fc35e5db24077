/* run checkpoints for `ipcc run --resume`.

   layout (host byte order: a checkpoint is read back by the same build on the same machine):
     header, 32 bytes:
       "IPCCKPT\\0"          8 bytes magic
       u32 version, u32 sizeof(ipcc_step_stats)   both must match the reader
       u64 body length       the file is exactly header + body
       u64 body checksum     64-bit FNV-1a of the body bytes
     body:
       u32 scene path length, the path bytes, u64 scene hash
       u32 mesh file count, then one u64 hash per mesh file (ipc_checkpoint_hash_meshes)
       i64 steps_total; i32 every, formats, preview_every, check, frame; u64 frame hash
       the run summary, field by field (summary_io)
       u32 mode (0 IPC, 1 LCP), u32 sizeof(ipcc_lcp_step_stats) (must match in LCP mode)
       u64 nsteps, then nsteps raw ipcc_step_stats (LCP: ipcc_lcp_step_stats) records
       LCP: the options (lcp_def_io)
       u64 world state length, then the world state record (core/state.h; one format for both
       modes, written by ipc_world_save_state or ipc_lcp_world_save_state)
   the hashes (ipc_file_hash, FNV-1a too) tie the checkpoint to the bytes of the scene, of
   every mesh file and of the last frame it recorded; the checksum catches any damage of the
   file itself (FNV-1a changes with every single-byte change). a new summary field or step
   statistic bumps the version (old checkpoints are then refused with a message, never
   misread). version 3 added the mode and the LCP fields, 4 the LCP steps'
   prescribed_overlap, 5 the world state record both modes share. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/frame_pc2.h"
#include "io/mesh_internal.h"
#include "io/path.h"
#include "io/run_output.h"
#include "ipc/world_internal.h"
#include "lcp/lcp_world.h"
#include "lcp/lcp_world_internal.h"

#define IPC_CHECKPOINT_VERSION 5u

static const char ckpt_magic[8] = {'I', 'P', 'C', 'C', 'K', 'P', 'T', '\0'};

enum { HEADER_BYTES = 32 };

#define FNV_OFFSET 14695981039346656037ull

static uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* the body is written to memory first: its length and checksum go before it */
typedef struct stream {
  FILE *f;
  int ok;
} stream;

static void put(stream *s, const void *p, size_t n) {
  if (s->ok && n > 0 && fwrite(p, 1, n, s->f) != n) s->ok = 0;
}

#define PUT(s, v) put(s, &(v), sizeof(v))

/* reading: every byte goes through rd, which keeps the checksum and refuses to read past
   the body, so a damaged length fails here before anything of that length is allocated */
typedef struct reader {
  FILE *f;
  uint64_t left;   /* body bytes not yet read */
  uint64_t hash;   /* FNV-1a of the body bytes read so far */
  const char *bad; /* what was found damaged first, or NULL */
} reader;

static void rd(reader *r, void *p, size_t n, const char *what) {
  if (r->bad) {
    memset(p, 0, n);
    return;
  }
  if (n > r->left || fread(p, 1, n, r->f) != n) {
    memset(p, 0, n);
    r->bad = what;
    return;
  }
  r->left -= n;
  r->hash = fnv1a(r->hash, p, n);
}

#define RD(r, v, what) rd(r, &(v), sizeof(v), what)

/* count records of elem bytes, allocated only when the body still holds them */
static void *rd_array(reader *r, uint64_t count, size_t elem, size_t extra, const char *what) {
  if (r->bad || count > r->left / elem) {
    if (!r->bad) r->bad = what;
    return NULL;
  }
  void *p = ipc_malloc((size_t)count * elem + extra);
  rd(r, p, (size_t)count * elem, what);
  return p;
}

/* the summary fields that accumulate over a run (mode and scene are the run's) */
static void summary_io(stream *s, reader *r, ipc_run_summary *sum) {
#define io(v) (s ? put(s, &(v), sizeof(v)) : rd(r, &(v), sizeof(v), "summary"))
  io(sum->steps);
  io(sum->wall_seconds);
  io(sum->min_distance);
  io(sum->intersection_checked);
  io(sum->intersection_free);
  io(sum->frames_checked);
  io(sum->newton_iterations);
  io(sum->newton_capped_steps);
  io(sum->lcp_iterations);
  io(sum->contacts_max);
  io(sum->dirichlet_unmet_steps);
  io(sum->dhat);
#undef io
}

/* the LCP options (not dump_dir) */
static void lcp_def_io(stream *s, reader *r, ipcc_lcp_world_def *d) {
#define io(v) (s ? put(s, &(v), sizeof(v)) : rd(r, &(v), sizeof(v), "LCP options"))
  int32_t ints[7] = {d->solver,   (int32_t)d->friction, d->pyramid_directions, (int32_t)d->coupling,
                     d->max_iter, d->warm_start,        d->split_regions};
  io(ints);
  io(d->contact_gap);
  io(d->baumgarte);
  io(d->restitution);
  io(d->tol);
  io(d->omega);
#undef io
  d->solver = ints[0];
  d->friction = (ipcc_lcp_friction)ints[1];
  d->pyramid_directions = ints[2];
  d->coupling = (ipcc_lcp_coupling)ints[3];
  d->max_iter = ints[4];
  d->warm_start = ints[5];
  d->split_regions = ints[6];
}

/* the ranges ipcc_lcp_world_def_set accepts (the world checks the combinations) */
static int lcp_def_ok(const ipcc_lcp_world_def *d) {
  return d->solver >= 0 && d->solver <= 3 && (int)d->friction >= 0 && (int)d->friction <= 3 &&
         d->pyramid_directions >= 3 && d->pyramid_directions <= 64 && (int)d->coupling >= 0 &&
         (int)d->coupling <= 1 && d->max_iter >= 1 && (d->warm_start & ~1) == 0 &&
         (d->split_regions & ~1) == 0 && d->contact_gap >= 0 && d->contact_gap <= 1e6 &&
         d->baumgarte >= 0 && d->baumgarte <= 1 && d->restitution >= 0 && d->restitution <= 1 &&
         d->tol >= 0 && d->tol <= 1 && d->omega > 0 && d->omega < 2;
}

/* the world's state record (ipcc_world_save_state) */
typedef ipcc_status (*state_saver)(const void *w, FILE *f, ipcc_error *err);

static ipcc_status save_world(const void *w, FILE *f, ipcc_error *err) {
  return ipcc_world_save_state(w, f, err);
}

static void write_body(stream *s, const ipc_run_checkpoint *c, state_saver save, const void *w,
                       ipcc_error *err) {
  uint32_t plen = (uint32_t)strlen(c->scene);
  PUT(s, plen);
  put(s, c->scene, plen);
  PUT(s, c->scene_hash);
  uint32_t nmesh = (uint32_t)c->nmesh_files;
  PUT(s, nmesh);
  put(s, c->mesh_hashes, nmesh * sizeof *c->mesh_hashes);
  int64_t total = c->steps_total;
  int32_t ints[5] = {c->every, (int32_t)c->formats, c->preview_every, c->check, c->frame};
  PUT(s, total);
  put(s, ints, sizeof ints);
  PUT(s, c->frame_hash);
  ipc_run_summary sum = c->sum;
  summary_io(s, NULL, &sum);
  uint32_t mode[2] = {(uint32_t)(c->lcp != 0), (uint32_t)sizeof(ipcc_lcp_step_stats)};
  put(s, mode, sizeof mode);
  uint64_t n = c->nsteps;
  PUT(s, n);
  if (c->lcp) {
    put(s, c->lcp_steps, c->nsteps * sizeof(ipcc_lcp_step_stats));
    ipcc_lcp_world_def d = *c->lcp_def;
    lcp_def_io(s, NULL, &d);
  } else {
    put(s, c->steps, c->nsteps * sizeof(ipcc_step_stats));
  }
  /* the world state, behind its length */
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (!mem || save(w, mem, err) != IPCC_OK) s->ok = 0;
  if (mem) fclose(mem);
  uint64_t wl = len;
  PUT(s, wl);
  put(s, buf, len);
  free(buf); /* open_memstream allocates with malloc */
}

static ipcc_status write_file(const char *path, const ipc_run_checkpoint *c, state_saver save,
                              const void *w, ipcc_error *err) {
  char *body = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&body, &len);
  stream s = {mem, mem != NULL};
  if (mem) {
    write_body(&s, c, save, w, err);
    fclose(mem);
  }
  ipc_atomic_file af;
  if (!s.ok) {
    free(body);
    return ipc_error_set(err, IPCC_ERR_IO, "%s: checkpoint could not be assembled in memory", path);
  }
  ipcc_status st = ipc_atomic_open(&af, path, err);
  if (st == IPCC_OK) {
    stream out = {af.f, 1};
    uint32_t head[2] = {IPC_CHECKPOINT_VERSION, (uint32_t)sizeof(ipcc_step_stats)};
    uint64_t blen = len, sum = fnv1a(FNV_OFFSET, body, len);
    put(&out, ckpt_magic, sizeof ckpt_magic);
    put(&out, head, sizeof head);
    PUT(&out, blen);
    PUT(&out, sum);
    put(&out, body, len);
    free(body);
    if (out.ok) return ipc_atomic_commit(&af, err);
    int e = errno;
    ipc_atomic_abort(&af);
    return ipc_error_set(err, IPCC_ERR_IO, "%s: checkpoint write failed: %s", path, strerror(e));
  }
  free(body);
  return st;
}

ipcc_status ipc_checkpoint_write_world(const char *path, const ipc_run_checkpoint *c,
                                       const ipcc_world *w, ipcc_error *err) {
  return write_file(path, c, save_world, w, err);
}

ipcc_status ipc_checkpoint_write(const char *path, const ipc_run_checkpoint *c, const ipc_world *w,
                                 ipcc_error *err) {
  return ipc_checkpoint_write_world(path, c, &w->world, err);
}

ipcc_status ipc_checkpoint_write_lcp(const char *path, const ipc_run_checkpoint *c,
                                     const ipc_lcp_world *w, ipcc_error *err) {
  return ipc_checkpoint_write_world(path, c, &w->world, err);
}

/* the body's fields into c; a damaged field sets r->bad */
static void read_body(reader *r, ipc_run_checkpoint *c) {
  uint32_t plen = 0;
  RD(r, plen, "scene path length");
  c->scene = rd_array(r, plen, 1, 1, "scene path length");
  if (c->scene) c->scene[plen] = '\0';
  RD(r, c->scene_hash, "scene hash");
  uint32_t nmesh = 0;
  RD(r, nmesh, "mesh file count");
  if (nmesh > INT32_MAX) r->bad = "mesh file count";
  c->mesh_hashes = rd_array(r, nmesh, sizeof *c->mesh_hashes, 0, "mesh file count");
  c->nmesh_files = c->mesh_hashes ? (int)nmesh : 0;
  int64_t total = 0;
  int32_t ints[5] = {0, 0, 0, 0, 0};
  RD(r, total, "step count");
  rd(r, ints, sizeof ints, "run options");
  RD(r, c->frame_hash, "frame hash");
  /* the limits of the command line's --steps, --every and --format */
  if (!r->bad && (total < 0 || total > INT32_MAX)) r->bad = "step count";
  if (!r->bad &&
      (ints[0] < 1 || ints[1] < 1 || (ints[1] & ~IPCC_FORMAT_ALL) || ints[2] < 0 || ints[4] < 0))
    r->bad = "run options";
  c->steps_total = (long)total;
  c->every = ints[0];
  c->formats = (unsigned)ints[1];
  c->preview_every = ints[2];
  c->check = ints[3];
  c->frame = ints[4];
  summary_io(NULL, r, &c->sum);
  uint32_t mode[2] = {0, 0};
  rd(r, mode, sizeof mode, "mode");
  if (!r->bad && mode[0] > 1) r->bad = "mode";
  /* another build's LCP statistics would be misread */
  if (!r->bad && mode[0] == 1 && mode[1] != sizeof(ipcc_lcp_step_stats))
    r->bad = "LCP step record size";
  uint64_t n = 0;
  RD(r, n, "step record count");
  if (!r->bad && n > (uint64_t)total) r->bad = "step record count";
  /* one frame at most per step done, plus frame 0: a larger number would overflow the
     frame counter long before the run ends */
  if (!r->bad && (uint64_t)c->frame > n) r->bad = "run options";
  if (mode[0] == 1) {
    c->lcp = 1;
    c->lcp_steps = rd_array(r, n, sizeof(ipcc_lcp_step_stats), 0, "step record count");
    c->nsteps = c->lcp_steps ? (size_t)n : 0;
    c->lcp_def = IPC_NEW(ipcc_lcp_world_def, 1);
    *c->lcp_def = ipcc_default_lcp_world_def();
    lcp_def_io(NULL, r, c->lcp_def);
    if (!r->bad && !lcp_def_ok(c->lcp_def)) r->bad = "LCP options";
  } else {
    c->steps = rd_array(r, n, sizeof(ipcc_step_stats), 0, "step record count");
    c->nsteps = c->steps ? (size_t)n : 0;
  }
  c->steps_cap = c->nsteps;
  uint64_t wl = 0;
  RD(r, wl, "world state length");
  if (!r->bad && wl == 0) r->bad = "world state length";
  c->world_state = rd_array(r, wl, 1, 0, "world state length");
  c->world_state_len = c->world_state ? (size_t)wl : 0;
  if (!r->bad && r->left) r->bad = "body length";
}

/* the header: IPCC_OK with the body's length and checksum, else IPCC_ERR_INPUT naming path */
static ipcc_status read_header(FILE *f, const char *path, uint64_t *blen, uint64_t *sum,
                               ipcc_error *err) {
  char magic[8];
  uint32_t head[2];
  uint64_t v[2];
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: not a regular file", path);
  if (fread(magic, 1, sizeof magic, f) != sizeof magic || memcmp(magic, ckpt_magic, 8) != 0 ||
      fread(head, 1, sizeof head, f) != sizeof head)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: not an ipcc checkpoint", path);
  if (head[0] != IPC_CHECKPOINT_VERSION || head[1] != sizeof(ipcc_step_stats))
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: checkpoint was written by another version of ipcc (format %u, "
                         "step record %u bytes; this one reads format %u, %u bytes); start "
                         "the run anew",
                         path, head[0], head[1], IPC_CHECKPOINT_VERSION,
                         (unsigned)sizeof(ipcc_step_stats));
  uint64_t size = (uint64_t)st.st_size;
  if (fread(v, 1, sizeof v, f) != sizeof v || v[0] > size - HEADER_BYTES)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: checkpoint is truncated (%llu bytes; its header promises more)", path,
                         (unsigned long long)size);
  if (v[0] != size - HEADER_BYTES)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: checkpoint is corrupted (%llu bytes; its header says %llu)", path,
                         (unsigned long long)size, (unsigned long long)(HEADER_BYTES + v[0]));
  *blen = v[0];
  *sum = v[1];
  return IPCC_OK;
}

ipcc_status ipc_checkpoint_read(const char *path, ipc_run_checkpoint *c, ipcc_error *err) {
  memset(c, 0, sizeof *c);
  FILE *f = ipc_open_input(path, IPC_READ_MAX_CHECKPOINT, NULL, err);
  if (!f) return IPCC_ERR_INPUT;
  uint64_t blen = 0, sum = 0;
  ipcc_status st = read_header(f, path, &blen, &sum, err);
  if (st != IPCC_OK) {
    fclose(f);
    return st;
  }
  reader r = {f, blen, FNV_OFFSET, NULL};
  read_body(&r, c);
  fclose(f);
  if (!r.bad && r.hash != sum) r.bad = "checksum mismatch";
  if (r.bad) {
    ipc_checkpoint_free(c);
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: checkpoint is corrupted (%s)", path, r.bad);
  }
  return IPCC_OK;
}

/* calls fn on every mesh file of def, in body order; stops at the first non-OK */
static ipcc_status each_mesh_file(const ipcc_scene_def *def, void *ctx,
                                  ipcc_status (*fn)(void *ctx, const char *file, ipcc_error *err),
                                  ipcc_error *err) {
  ipcc_status st = IPCC_OK;
  for (int b = 0; b < def->nbodies && st == IPCC_OK; ++b) {
    char *files[2];
    int n = ipc_mesh_files(def->bodies[b].mesh, files);
    for (int k = 0; k < n; ++k) {
      if (st == IPCC_OK) st = fn(ctx, files[k], err);
      ipc_free(files[k]);
    }
  }
  return st;
}

static ipcc_status add_hash(void *ctx, const char *file, ipcc_error *err) {
  ipc_run_checkpoint *c = ctx;
  uint64_t h = 0;
  if (ipc_file_hash(file, &h, err) != IPCC_OK) return IPCC_ERR_INPUT;
  c->mesh_hashes = ipc_realloc(c->mesh_hashes, (size_t)(c->nmesh_files + 1) * sizeof h);
  c->mesh_hashes[c->nmesh_files++] = h;
  return IPCC_OK;
}

ipcc_status ipc_checkpoint_hash_meshes(ipc_run_checkpoint *c, const ipcc_scene_def *def,
                                       ipcc_error *err) {
  ipc_free(c->mesh_hashes);
  c->mesh_hashes = NULL;
  c->nmesh_files = 0;
  return each_mesh_file(def, c, add_hash, err);
}

typedef struct mesh_check {
  const ipc_run_checkpoint *c;
  int next; /* index of the next file's hash in c */
} mesh_check;

static ipcc_status check_hash(void *ctx, const char *file, ipcc_error *err) {
  mesh_check *m = ctx;
  uint64_t h = 0;
  if (ipc_file_hash(file, &h, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (m->next >= m->c->nmesh_files)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: the scene now reads more mesh files than the run did (%d)", file,
                         m->c->nmesh_files);
  if (h != m->c->mesh_hashes[m->next++])
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: mesh file changed since the run started", file);
  return IPCC_OK;
}

ipcc_status ipc_checkpoint_check_meshes(const ipc_run_checkpoint *c, const ipcc_scene_def *def,
                                        ipcc_error *err) {
  mesh_check m = {c, 0};
  ipcc_status st = each_mesh_file(def, &m, check_hash, err);
  if (st == IPCC_OK && m.next != c->nmesh_files)
    return ipc_error_set(err, IPCC_ERR_INPUT, "the scene now reads %d mesh files, the run read %d",
                         m.next, c->nmesh_files);
  return st;
}

/* frames_dir/NNNNNN.EXT of c->frame in the first of c->formats (frames.c's names); NULL for
   a run that writes the point cache alone (its frames are samples of motion.pc2) */
static char *frame_file(const ipc_run_checkpoint *c, const char *frames_dir) {
  if (!(c->formats & (IPCC_FORMAT_OBJ | IPCC_FORMAT_PLY | IPCC_FORMAT_VTU))) return NULL;
  const char *ext = c->formats & IPCC_FORMAT_OBJ   ? "obj"
                    : c->formats & IPCC_FORMAT_PLY ? "ply"
                                                   : "vtu";
  size_t n = strlen(frames_dir) + 32;
  char *p = IPC_NEW(char, n);
  snprintf(p, n, "%s/%06d.%s", frames_dir, c->frame, ext);
  return p;
}

/* the hash of frame c->frame: its file's, or with the point cache alone its sample's bytes */
static ipcc_status frame_hash(const ipc_run_checkpoint *c, const char *frames_dir, uint64_t *h,
                              ipcc_error *err) {
  char *p = frame_file(c, frames_dir);
  if (p) {
    ipcc_status st = ipc_file_hash(p, h, err);
    ipc_free(p);
    return st;
  }
  size_t len = 0;
  unsigned char *b = ipc_pc2_read_sample(frames_dir, c->frame, &len, err);
  if (!b) return IPCC_ERR_INPUT;
  *h = fnv1a(FNV_OFFSET, b, len);
  ipc_free(b);
  return IPCC_OK;
}

ipcc_status ipc_checkpoint_hash_frame(ipc_run_checkpoint *c, const char *frames_dir,
                                      ipcc_error *err) {
  return frame_hash(c, frames_dir, &c->frame_hash, err);
}

ipcc_status ipc_checkpoint_check_frame(const ipc_run_checkpoint *c, const char *frames_dir,
                                       ipcc_error *err) {
  char *p = frame_file(c, frames_dir);
  /* with the point cache alone, the frame is sample c->frame of motion.pc2 */
  char *shown = p ? p : ipc_path_join(frames_dir, IPC_PC2_CACHE);
  uint64_t h = 0;
  ipcc_status st = IPCC_OK;
  if (access(shown, F_OK) != 0)
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: missing; the checkpoint recorded frame %d there (is it from "
                       "another run's folder?)",
                       shown, c->frame);
  else if (frame_hash(c, frames_dir, &h, err) != IPCC_OK)
    st = IPCC_ERR_INPUT;
  else if (h != c->frame_hash)
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: not the frame the checkpoint recorded (is the checkpoint from "
                       "another run's folder?)",
                       shown);
  ipc_free(shown);
  return st;
}

/* the pid of "NAME.tmp.PID" (ipc_atomic_open's names), or 0 for any other name */
static long tmp_pid(const char *name) {
  const char *t = NULL;
  for (const char *s = strstr(name, ".tmp."); s; s = strstr(s + 1, ".tmp.")) t = s;
  if (!t || t == name || t[5] < '0' || t[5] > '9') return 0;
  char *end;
  long pid = strtol(t + 5, &end, 10);
  return *end == '\0' && pid > 0 ? pid : 0;
}

int ipc_remove_stale_tmp(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int removed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    long pid = tmp_pid(e->d_name);
    /* a live process may be writing it (another run in the same folder): leave it */
    if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    char *p = IPC_NEW(char, n);
    snprintf(p, n, "%s/%s", dir, e->d_name);
    if (remove(p) == 0) removed++;
    ipc_free(p);
  }
  closedir(d);
  return removed;
}

ipcc_status ipc_checkpoint_restore(const ipc_run_checkpoint *c, ipcc_world *w, ipcc_error *err) {
  FILE *mem = fmemopen(c->world_state, c->world_state_len, "rb");
  if (!mem) return ipc_error_set(err, IPCC_ERR_INPUT, "checkpoint: cannot read the world state");
  ipcc_status st = ipcc_world_load_state(w, mem, err);
  fclose(mem);
  /* the checksum only proves the bytes are those written; an edited state with a
     recomputed checksum must not step on from intersecting positions (a mode that allows
     small penetrations saves states that may intersect) */
  char what[256];
  if (st == IPCC_OK && !w->strategy->allows_penetration &&
      !ipcc_world_intersection_free(w, what, sizeof what))
    return ipc_error_set(err, IPCC_ERR_INPUT, "the saved state intersects: %s", what);
  return st;
}

ipcc_status ipc_checkpoint_restore_world(const ipc_run_checkpoint *c, ipc_world *w,
                                         ipcc_error *err) {
  return ipc_checkpoint_restore(c, &w->world, err);
}

ipcc_status ipc_checkpoint_restore_lcp_world(const ipc_run_checkpoint *c, ipc_lcp_world *w,
                                             ipcc_error *err) {
  return ipc_checkpoint_restore(c, &w->world, err);
}

void ipc_checkpoint_set_scene(ipc_run_checkpoint *c, const char *scene) {
  size_t n = strlen(scene) + 1;
  ipc_free(c->scene);
  c->scene = IPC_NEW(char, n);
  memcpy(c->scene, scene, n);
}

void ipc_checkpoint_set_total(ipc_run_checkpoint *c, long total) {
  c->steps_total = total;
}

void ipc_checkpoint_set_lcp(ipc_run_checkpoint *c, const ipcc_lcp_world_def *def) {
  c->lcp = 1;
  if (!c->lcp_def) c->lcp_def = IPC_NEW(ipcc_lcp_world_def, 1);
  *c->lcp_def = *def;
  c->lcp_def->dump_dir = NULL;
}

/* room for record c->nsteps in *steps (elem bytes each), zeroed; NULL when out of memory */
static void *next_record(ipc_run_checkpoint *c, void **steps, size_t elem) {
  if (c->nsteps >= c->steps_cap) {
    /* plain realloc, not ipc_reserve: running out of memory is the caller's clean error */
    size_t cap = c->steps_cap < 64 ? 64 : 2 * c->steps_cap;
    void *p = realloc(*steps, cap * elem);
    if (!p) return NULL;
    *steps = p;
    c->steps_cap = cap;
  }
  char *rec = (char *)*steps + c->nsteps * elem;
  memset(rec, 0, elem);
  return rec;
}

ipcc_step_stats *ipc_checkpoint_next_step(ipc_run_checkpoint *c) {
  return next_record(c, (void **)&c->steps, sizeof *c->steps);
}

ipcc_lcp_step_stats *ipc_checkpoint_next_lcp_step(ipc_run_checkpoint *c) {
  return next_record(c, (void **)&c->lcp_steps, sizeof *c->lcp_steps);
}

void *ipc_checkpoint_next_record(ipc_run_checkpoint *c) {
  return c->lcp ? (void *)ipc_checkpoint_next_lcp_step(c) : (void *)ipc_checkpoint_next_step(c);
}

void ipc_checkpoint_free(ipc_run_checkpoint *c) {
  if (!c) return;
  ipc_free(c->scene);
  ipc_free(c->mesh_hashes);
  ipc_free(c->steps);
  ipc_free(c->lcp_steps);
  ipc_free(c->lcp_def);
  ipc_free(c->world_state);
  memset(c, 0, sizeof *c);
}

ipcc_status ipc_file_hash(const char *path, uint64_t *hash, ipcc_error *err) {
  /* streamed in blocks: frames and meshes can be far larger than any scene cap, and a
     hash needs no more than a block in memory (a regular file only, as every reader) */
  FILE *f = ipc_open_input(path, (size_t)-1, NULL, err);
  if (!f) return IPCC_ERR_INPUT;
  unsigned char buf[1 << 16];
  uint64_t h = FNV_OFFSET;
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = fnv1a(h, buf, n);
  int bad = ferror(f);
  fclose(f);
  if (bad) return ipc_error_set(err, IPCC_ERR_INPUT, "%s: read error", path);
  *hash = h;
  return IPCC_OK;
}
