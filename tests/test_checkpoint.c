/* run checkpoints (src/io/checkpoint.c): a checkpoint reads back as written; any flipped
   byte is refused (checksum); lengths that lie, even under a recomputed checksum, are
   refused before anything is allocated; an intersecting saved state is refused on restore;
   mesh and frame hashes notice changed files; stale temporary files of dead processes go;
   LCP-mode checkpoints keep their options, step records and world state, and a state whose
   contacts name vertices the scene lacks is refused */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/run_output.h"
#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"
#include "lcp/lcp_world_internal.h"
#include "test.h"

static char dir[64];

static char *tmp_path(const char *name) {
  static char p[128];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return p;
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  fclose(f);
  return b;
}

static void spit(const char *path, const void *p, size_t n) {
  remove(path); /* not truncated: ext4 would flush a truncated file on close */
  FILE *f = fopen(path, "wb");
  fwrite(p, 1, n, f);
  fclose(f);
}

/* the body checksum of the format (64-bit FNV-1a of the bytes after the 32-byte header) */
static void reseal(unsigned char *b, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 32; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  memcpy(b + 24, &h, 8);
}

/* reads b (n bytes) as a checkpoint: the status, the message in err */
static ipcc_status read_bytes(const void *b, size_t n, ipcc_error *err) {
  spit(tmp_path("bad.bin"), b, n);
  ipc_run_checkpoint c;
  ipcc_error_clear(err);
  ipcc_status st = ipc_checkpoint_read(tmp_path("bad.bin"), &c, err);
  ipc_checkpoint_free(&c);
  return st;
}

static size_t state_len(const ipc_world *w) {
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  ipcc_error err;
  ipc_world_save_state(w, mem, &err);
  fclose(mem);
  free(buf);
  return len;
}

/* a one-step run of two_cubes, checkpointed at frame 0 */
static void fill(ipc_run_checkpoint *c, const ipcc_scene_def *def, ipc_world *w) {
  ipcc_error err;
  memset(c, 0, sizeof *c);
  ipc_checkpoint_set_scene(c, "scenes/two_cubes.json");
  CHECK(ipc_file_hash(c->scene, &c->scene_hash, &err) == IPCC_OK);
  CHECK(ipc_checkpoint_hash_meshes(c, def, &err) == IPCC_OK);
  ipc_checkpoint_set_total(c, 5);
  c->every = 1;
  c->formats = IPCC_FORMAT_OBJ;
  c->frame = 0;
  c->frame_hash = 42;
  c->sum.min_distance = 0.5;
  CHECK(ipc_world_step(w, ipc_checkpoint_next_step(c), &err) == IPCC_OK);
  c->nsteps = 1;
  c->sum.steps = 1;
}

static void round_trip(const ipc_run_checkpoint *c, const ipcc_scene_def *def, const ipc_world *w) {
  ipcc_error err;
  ipc_run_checkpoint d;
  CHECK(ipc_checkpoint_read(tmp_path("checkpoint.bin"), &d, &err) == IPCC_OK);
  CHECK(!strcmp(d.scene, c->scene) && d.scene_hash == c->scene_hash);
  CHECK(d.nmesh_files == 2 && d.nmesh_files == c->nmesh_files);
  CHECK(!memcmp(d.mesh_hashes, c->mesh_hashes, 2 * sizeof(uint64_t)));
  CHECK(d.steps_total == 5 && d.every == 1 && d.formats == IPCC_FORMAT_OBJ && d.frame == 0);
  CHECK(d.frame_hash == 42 && d.sum.min_distance == 0.5 && d.nsteps == 1);
  CHECK(!memcmp(d.steps, c->steps, sizeof *d.steps));
  CHECK(ipc_checkpoint_check_meshes(&d, def, &err) == IPCC_OK);
  ipc_world *w2 = ipc_world_create(def, &err);
  CHECK(ipc_checkpoint_restore_world(&d, w2, &err) == IPCC_OK);
  int n = ipc_world_vertex_count(w);
  CHECK(!memcmp(ipc_world_positions(w2), ipc_world_positions(w), 3 * (size_t)n * sizeof(double)));
  ipc_world_destroy(w2);
  ipc_checkpoint_free(&d);
}

/* every single flipped byte is refused */
static void flipped_bytes(const unsigned char *b, size_t n) {
  unsigned char *x = malloc(n);
  int refused = 0;
  for (size_t i = 0; i < n; ++i) {
    memcpy(x, b, n);
    x[i] ^= (unsigned char)(1u << (i % 8));
    ipcc_error err;
    refused += read_bytes(x, n, &err) == IPCC_ERR_INPUT;
  }
  CHECK_MSG(refused == (int)n, "%d of %zu flipped bytes refused", refused, n);
  free(x);
}

/* a length field at off set to a huge value (u32 or u64), checksum recomputed */
static void huge_length(const unsigned char *b, size_t n, size_t off, size_t width,
                        const char *what) {
  unsigned char *x = malloc(n);
  memcpy(x, b, n);
  memset(x + off, 0xff, width);
  if (width == 8) x[off + 7] = 0x7f; /* also positive as a signed count */
  reseal(x, n);
  ipcc_error err;
  CHECK(read_bytes(x, n, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "corrupted") && strstr(err.msg, what), "%s: %s", what, err.msg);
  free(x);
}

static void lying_lengths(const unsigned char *b, size_t n, const ipc_run_checkpoint *c,
                          const ipc_world *w) {
  size_t plen = strlen(c->scene);
  size_t nmesh_off = 36 + plen + 8;
  size_t total_off = nmesh_off + 4 + 8 * (size_t)c->nmesh_files;
  size_t wl_off = n - state_len(w) - 8;
  size_t nsteps_off = wl_off - c->nsteps * sizeof(ipcc_step_stats) - 8;
  huge_length(b, n, 32, 4, "scene path length");
  huge_length(b, n, nmesh_off, 4, "mesh file count");
  huge_length(b, n, total_off, 8, "step count");
  huge_length(b, n, nsteps_off, 8, "step record count");
  huge_length(b, n, wl_off, 8, "world state length");
  /* the header's body length: the file is not that long */
  unsigned char *x = malloc(n);
  memcpy(x, b, n);
  memset(x + 16, 0xff, 8);
  ipcc_error err;
  CHECK(read_bytes(x, n, &err) == IPCC_ERR_INPUT && strstr(err.msg, "truncated"));
  /* another version */
  memcpy(x, b, n);
  x[8] = 1;
  CHECK(read_bytes(x, n, &err) == IPCC_ERR_INPUT && strstr(err.msg, "another version"));
  free(x);
  for (size_t k = 0; k < n; k += 97) {
    CHECK(read_bytes(b, k, &err) == IPCC_ERR_INPUT);
  }
}

/* the offset of the field with this tag in a world state record (src/core/state.h): magic,
   7 u32, then fields of (u32 tag, u64 bytes, data) */
static size_t field_offset(const char *buf, uint32_t want) {
  size_t off = 8 + 28;
  for (;;) {
    uint32_t tag;
    uint64_t bytes;
    memcpy(&tag, buf + off, 4);
    memcpy(&bytes, buf + off + 4, 8);
    off += 12;
    if (tag == want) return off;
    off += bytes;
  }
}

/* the positions: tag 5 */
static size_t positions_offset(const char *buf) {
  return field_offset(buf, 5);
}

/* a saved state whose positions intersect (the upper cube moved into the lower one) */
static void intersecting_state(ipc_run_checkpoint *c, const ipcc_scene_def *def) {
  ipcc_error err;
  ipc_world *w = ipc_world_create(def, &err);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  CHECK(ipc_world_save_state(w, mem, &err) == IPCC_OK);
  fclose(mem);
  size_t off = positions_offset(buf);
  int n = ipc_world_vertex_count(w);
  for (int i = 0; i < n / 2; ++i) { /* the upper cube's vertices come first */
    double y;
    memcpy(&y, buf + off + (3 * (size_t)i + 1) * 8, 8);
    y -= 1.5;
    memcpy(buf + off + (3 * (size_t)i + 1) * 8, &y, 8);
  }
  mem = fmemopen(buf, len, "rb");
  CHECK(ipc_world_load_state(w, mem, &err) == IPCC_OK);
  fclose(mem);
  free(buf);
  CHECK(!ipc_world_intersection_free(w, NULL, 0));
  CHECK(ipc_checkpoint_write(tmp_path("x.bin"), c, w, &err) == IPCC_OK);
  ipc_run_checkpoint d;
  CHECK(ipc_checkpoint_read(tmp_path("x.bin"), &d, &err) == IPCC_OK);
  ipc_world *w2 = ipc_world_create(def, &err);
  CHECK(ipc_checkpoint_restore_world(&d, w2, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "intersects") != NULL, "%s", err.msg);
  ipc_world_destroy(w2);
  ipc_world_destroy(w);
  ipc_checkpoint_free(&d);
}

static void frame_hash(ipc_run_checkpoint *c) {
  ipcc_error err;
  spit(tmp_path("000000.obj"), "v 0 0 0\n", 8);
  CHECK(ipc_checkpoint_hash_frame(c, dir, &err) == IPCC_OK);
  CHECK(ipc_checkpoint_check_frame(c, dir, &err) == IPCC_OK);
  spit(tmp_path("000000.obj"), "v 0 0 1\n", 8);
  CHECK(ipc_checkpoint_check_frame(c, dir, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "000000.obj") != NULL);
  remove(tmp_path("000000.obj"));
  CHECK(ipc_checkpoint_check_frame(c, dir, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "missing") != NULL);
}

/* a run of 2^31 - 1 steps (--steps, or a checkpoint's count) allocates its step records as
   it goes (it used to allocate them all up front: 336 GB, out of memory, abort) */
static void huge_total(void) {
  ipc_run_checkpoint c;
  memset(&c, 0, sizeof c);
  ipc_checkpoint_set_total(&c, INT32_MAX);
  CHECK(ipc_checkpoint_next_step(&c) != NULL && c.steps_cap < 1000);
  ipc_checkpoint_free(&c);
}

/* a saved state with a non-finite position (found by tools/fuzz.sh: the exact intersection
   check asserted on it) is refused, and the world keeps its own state */
static void nonfinite_state(const ipcc_scene_def *def) {
  ipcc_error err;
  ipc_world *w = ipc_world_create(def, &err);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  CHECK(ipc_world_save_state(w, mem, &err) == IPCC_OK);
  fclose(mem);
  size_t off = positions_offset(buf);
  double x0 = ipc_world_positions(w)[0], bad = NAN;
  memcpy(buf + off, &bad, 8);
  mem = fmemopen(buf, len, "rb");
  CHECK(ipc_world_load_state(w, mem, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "field 5 holds nan") != NULL, "%s", err.msg);
  CHECK(ipc_world_positions(w)[0] == x0);
  fclose(mem);
  free(buf);
  ipc_world_destroy(w);
}

/* a frame number beyond the steps done (INT_MAX: the next frame's number would overflow) */
static void frame_beyond_steps(ipc_run_checkpoint *c, const ipc_world *w) {
  int saved = c->frame;
  c->frame = 2147483647;
  ipcc_error err;
  CHECK(ipc_checkpoint_write(tmp_path("x.bin"), c, w, &err) == IPCC_OK);
  ipc_run_checkpoint d;
  CHECK(ipc_checkpoint_read(tmp_path("x.bin"), &d, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "run options") != NULL, "%s", err.msg);
  c->frame = saved;
}

/* an LCP run of two_cubes (lumped, cone friction) checkpointed after the cubes met: options,
   records and state read back; the loaded world steps on to the same bits; a contact vertex
   beyond the scene's, under a recomputed checksum, is refused */
static void lcp_checkpoint(const ipcc_scene_def *def) {
  ipcc_error err;
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  ld.coupling = IPCC_LCP_LUMPED;
  ld.friction = IPCC_LCP_FRICTION_CONE;
  ld.restitution = 0.25;
  ipc_lcp_world *w = ipc_lcp_world_create(def, &ld, &err);
  CHECK(w != NULL);
  if (!w) return;
  ipc_run_checkpoint c;
  memset(&c, 0, sizeof c);
  ipc_checkpoint_set_scene(&c, "scenes/two_cubes.json");
  ipc_checkpoint_set_lcp(&c, &ld);
  ipc_checkpoint_set_total(&c, 40);
  c.every = 1;
  c.formats = IPCC_FORMAT_OBJ;
  for (int k = 0; k < 25; ++k) {
    CHECK(ipc_lcp_world_step(w, ipc_checkpoint_next_lcp_step(&c), &err) == IPCC_OK);
    c.nsteps++;
  }
  c.frame = 25;
  CHECK(w->contacts.n > 0 && w->prev_n > 0);
  CHECK(ipc_checkpoint_write_lcp(tmp_path("lcp.bin"), &c, w, &err) == IPCC_OK);
  ipc_run_checkpoint d;
  CHECK(ipc_checkpoint_read(tmp_path("lcp.bin"), &d, &err) == IPCC_OK);
  CHECK(d.lcp && d.nsteps == 25 && d.steps == NULL && d.lcp_def);
  CHECK(d.lcp_def->coupling == IPCC_LCP_LUMPED && d.lcp_def->friction == IPCC_LCP_FRICTION_CONE &&
        d.lcp_def->restitution == 0.25);
  CHECK(!memcmp(d.lcp_steps, c.lcp_steps, 25 * sizeof *d.lcp_steps));
  ipc_lcp_world *w2 = ipc_lcp_world_create(def, d.lcp_def, &err);
  CHECK(ipc_checkpoint_restore_lcp_world(&d, w2, &err) == IPCC_OK);
  ipcc_lcp_step_stats s1, s2;
  size_t n3 = 3 * (size_t)ipc_lcp_world_vertex_count(w);
  for (int k = 0; k < 5; ++k) {
    CHECK(ipc_lcp_world_step(w, &s1, &err) == IPCC_OK &&
          ipc_lcp_world_step(w2, &s2, &err) == IPCC_OK);
    CHECK(s1.lcp_iterations == s2.lcp_iterations && s1.contacts == s2.contacts);
  }
  CHECK(!memcmp(ipc_lcp_world_positions(w), ipc_lcp_world_positions(w2), n3 * sizeof(double)));
  CHECK(!memcmp(ipc_lcp_world_velocities(w), ipc_lcp_world_velocities(w2), n3 * sizeof(double)));
  /* the first contact's first vertex: the LCP contacts are field 33 */
  unsigned char *st = d.world_state;
  size_t off = field_offset((const char *)st, 33) + offsetof(ipc_lcp_contact, vert);
  int bad_vertex = ipc_lcp_world_vertex_count(w) + 7;
  memcpy(st + off, &bad_vertex, sizeof bad_vertex);
  CHECK(ipc_checkpoint_restore_lcp_world(&d, w2, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "contact") != NULL, "%s", err.msg);
  /* an IPC world's record is not an LCP one */
  ipc_world *iw = ipc_world_create(def, &err);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  CHECK(ipc_world_save_state(iw, mem, &err) == IPCC_OK);
  fclose(mem);
  mem = fmemopen(buf, len, "rb");
  CHECK(ipc_lcp_world_load_state(w2, mem, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "an IPC world's record") != NULL, "%s", err.msg);
  fclose(mem);
  /* a record of the formats before both modes shared one is refused with a message */
  memcpy(buf, "IPCWSTAT", 8);
  mem = fmemopen(buf, len, "rb");
  CHECK(ipc_world_load_state(iw, mem, &err) == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "older ipcc") != NULL, "%s", err.msg);
  fclose(mem);
  free(buf);
  ipc_world_destroy(iw);
  ipc_lcp_world_destroy(w2);
  ipc_lcp_world_destroy(w);
  ipc_checkpoint_free(&d);
  ipc_checkpoint_free(&c);
  remove(tmp_path("lcp.bin"));
}

static void stale_tmp(void) {
  char own[64];
  snprintf(own, sizeof own, "b.obj.tmp.%ld", (long)getpid());
  const char *names[] = {"a.obj.tmp.999999999", own, "c.tmp.x", "d.tmp.12y", ".tmp.5"};
  for (int k = 0; k < 5; ++k) spit(tmp_path(names[k]), "", 0);
  CHECK(ipc_remove_stale_tmp(dir) == 1);
  CHECK(access(tmp_path(names[0]), F_OK) != 0);
  for (int k = 1; k < 5; ++k) CHECK(access(tmp_path(names[k]), F_OK) == 0);
  for (int k = 1; k < 5; ++k) remove(tmp_path(names[k]));
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/ipcc_ckptXXXXXX");
  if (!mkdtemp(dir)) return 1;
  ipcc_error err;
  ipcc_scene_def def;
  CHECK(ipcc_scene_load("scenes/two_cubes.json", &def, &err) == IPCC_OK);
  ipc_world *w = ipc_world_create(&def, &err);
  ipc_run_checkpoint c;
  fill(&c, &def, w);
  CHECK(ipc_checkpoint_write(tmp_path("checkpoint.bin"), &c, w, &err) == IPCC_OK);
  round_trip(&c, &def, w);
  size_t n = 0;
  unsigned char *b = slurp(tmp_path("checkpoint.bin"), &n);
  flipped_bytes(b, n);
  lying_lengths(b, n, &c, w);
  intersecting_state(&c, &def);
  frame_hash(&c);
  frame_beyond_steps(&c, w);
  nonfinite_state(&def);
  stale_tmp();
  huge_total();
  lcp_checkpoint(&def);
  free(b);
  remove(tmp_path("checkpoint.bin"));
  remove(tmp_path("bad.bin"));
  remove(tmp_path("x.bin"));
  rmdir(dir);
  ipc_checkpoint_free(&c);
  ipc_world_destroy(w);
  ipcc_scene_def_free(&def);
  TEST_MAIN_END();
}
