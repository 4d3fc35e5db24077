/* point cache frames, for renderers (Blender's Mesh Cache modifier, Houdini, 3ds Max): frame
   0 writes DIR/rest.obj, the surfaces of every body and obstacle (as the OBJ frame: same
   objects, same vertex numbering, frame_numbering.h) with area-weighted vertex normals, and
   starts DIR/motion.pc2; every frame k appends sample k, the positions of the same vertices
   in the same order.

   PC2 (little endian): char[12] "POINTCACHE2\0", int32 version 1, int32 numPoints, float32
   startFrame (0), float32 sampleRate (1: one sample per frame), int32 numSamples; then
   numSamples x numPoints x 3 float32.

   motion.pc2 is the one output file not written to a temporary name and renamed: rewriting a
   growing cache at every frame would cost time quadratic in the frames. it grows in place
   and is valid after every frame instead: sample k is written at its offset (whatever lay
   beyond it, from a killed run, cut off) and synced, then numSamples = k + 1 is written into
   the header and synced. a run stopped at any point leaves a cache of the frames counted so
   far (at most one sample more in the file, which readers skip); a resumed run cuts the
   cache to its checkpoint's frames (ipc_pc2_truncate) and appends. */
#include "io/frame_pc2.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/frame_numbering.h"
#include "io/frame_obj.h"
#include "io/path.h"
#include "io/world_output.h"

static const char pc2_magic[12] = "POINTCACHE2";

static void put_u32(unsigned char *p, uint32_t v) {
  for (int k = 0; k < 4; ++k) p[k] = (unsigned char)(v >> 8 * k);
}
static uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void put_f32(unsigned char *p, float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  put_u32(p, u);
}
static float get_f32(const unsigned char *p) {
  uint32_t u = get_u32(p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static void header_bytes(unsigned char b[IPC_PC2_HEADER_BYTES], int points, int samples) {
  memcpy(b, pc2_magic, 12);
  put_u32(b + 12, 1);
  put_u32(b + 16, (uint32_t)points);
  put_f32(b + 20, 0.0f);
  put_f32(b + 24, 1.0f);
  put_u32(b + 28, (uint32_t)samples);
}

/* dir/name (ipc_free it) */
static char *cache_path(const char *dir, const char *name) {
  return ipc_path_join(dir, name);
}

static ipcc_status io_fail(const char *path, const char *what, ipcc_error *err) {
  return ipc_error_set(err, IPCC_ERR_IO, "%s: %s failed: %s", path, what, strerror(errno));
}

/* opens the PC2 file at path (flags O_RDONLY or O_RDWR) and checks its header into *h;
   the descriptor, or -1 with err set */
static int cache_open(const char *path, int flags, ipc_pc2_header *h, ipcc_error *err) {
  int fd = open(path, flags | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  unsigned char b[IPC_PC2_HEADER_BYTES];
  const char *bad = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    bad = "not a regular file";
  else if (st.st_size < IPC_PC2_HEADER_BYTES || pread(fd, b, sizeof b, 0) != (ssize_t)sizeof b)
    bad = "shorter than the 32-byte PC2 header";
  else if (memcmp(b, pc2_magic, 12) != 0)
    bad = "not a PC2 point cache (expected the signature POINTCACHE2)";
  else if (get_u32(b + 12) != 1)
    bad = "PC2 version is not 1";
  if (!bad) {
    h->points = (int)get_u32(b + 16);
    h->start = get_f32(b + 20);
    h->rate = get_f32(b + 24);
    h->samples = (int)get_u32(b + 28);
    uint64_t room = (uint64_t)st.st_size - IPC_PC2_HEADER_BYTES;
    if (h->points < 0 || h->samples < 0)
      bad = "negative point or sample count";
    else if (h->points > 0 && (uint64_t)h->samples > room / (12 * (uint64_t)h->points))
      bad = "shorter than its samples (truncated)";
  }
  if (bad) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s", path, bad);
    close(fd);
    return -1;
  }
  return fd;
}

ipcc_status ipc_pc2_read_header(const char *path, ipc_pc2_header *h, ipcc_error *err) {
  int fd = cache_open(path, O_RDONLY, h, err);
  if (fd < 0) return IPCC_ERR_INPUT;
  close(fd);
  return IPCC_OK;
}

unsigned char *ipc_pc2_read_sample(const char *dir, int k, size_t *len, ipcc_error *err) {
  char *path = cache_path(dir, IPC_PC2_CACHE);
  ipc_pc2_header h;
  int fd = cache_open(path, O_RDONLY, &h, err);
  unsigned char *b = NULL;
  if (fd >= 0) {
    if (k < 0 || k >= h.samples) {
      ipc_error_set(err, IPCC_ERR_INPUT, "%s: holds %d samples, no sample for frame %d", path,
                    h.samples, k);
    } else {
      size_t n = 12 * (size_t)h.points;
      b = IPC_NEW(unsigned char, n + 1);
      if (pread(fd, b, n, IPC_PC2_HEADER_BYTES + (off_t)k * (off_t)n) != (ssize_t)n) {
        ipc_error_set(err, IPCC_ERR_INPUT, "%s: read error", path);
        ipc_free(b);
        b = NULL;
      } else {
        *len = n;
      }
    }
    close(fd);
  }
  ipc_free(path);
  return b;
}

/* writes all n bytes at offset `at` */
static int pwrite_all(int fd, const unsigned char *p, size_t n, off_t at) {
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
    at += w;
  }
  return 0;
}

/* the file's sample count set to `samples`: synced before and after, so the count never
   names bytes that are not on the disk */
static ipcc_status set_count(int fd, const char *path, int samples, ipcc_error *err) {
  unsigned char b[4];
  put_u32(b, (uint32_t)samples);
  if (fdatasync(fd) != 0 && errno != EINVAL) return io_fail(path, "sync", err);
  if (pwrite_all(fd, b, 4, 28) != 0) return io_fail(path, "write", err);
  if (fdatasync(fd) != 0 && errno != EINVAL) return io_fail(path, "sync", err);
  return IPCC_OK;
}

ipcc_status ipc_pc2_truncate(const char *dir, int samples, ipcc_error *err) {
  char *path = cache_path(dir, IPC_PC2_CACHE);
  ipc_pc2_header h;
  ipcc_status st = IPCC_OK;
  int fd = cache_open(path, O_RDWR, &h, err);
  if (fd < 0) {
    st = IPCC_ERR_INPUT;
  } else if (samples < 0 || h.samples < samples) {
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: holds %d samples, the run's checkpoint recorded %d frames", path,
                       h.samples, samples);
  } else {
    off_t end = IPC_PC2_HEADER_BYTES + (off_t)samples * 12 * (off_t)h.points;
    if (ftruncate(fd, end) != 0)
      st = io_fail(path, "truncate", err);
    else
      st = set_count(fd, path, samples, err);
  }
  if (fd >= 0) close(fd);
  ipc_free(path);
  return st;
}

/* the rest shape: the OBJ frame's objects and numbering, with vertex normals (the sum of the
   adjacent triangles' area-weighted normals; ipc_obj_write_model normalises them) */
static ipcc_status write_rest(const ipc_model *m, const double *xs, double time, int npoints,
                              const char *path, ipcc_error *err) {
  const ipc_surface *s = &m->surface;
  double *nrm = IPC_NEW0(double, 3 * (size_t)m->nverts + 1);
  for (int k = 0; k < s->nfaces; ++k) {
    const int *t = s->faces + 3 * k;
    const double *a = xs + 3 * (size_t)t[0], *b = xs + 3 * (size_t)t[1], *c = xs + 3 * (size_t)t[2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int j = 0; j < 3; ++j)
      for (int d = 0; d < 3; ++d) nrm[3 * (size_t)t[j] + d] += n[d];
  }
  char comment[192];
  snprintf(comment, sizeof comment,
           "ipcc rest shape: frame 0, t = %.17g s; %s holds these %d vertices, in this order, "
           "one sample per frame",
           time, IPC_PC2_CACHE, npoints);
  ipcc_status st = ipc_obj_write_model(m, xs, nrm, comment, path, err);
  ipc_free(nrm);
  return st;
}

/* sample `frame` (bytes, len) appended to the cache at path: written at its offset, the rest
   of the file cut off, then counted (set_count) */
static ipcc_status cache_append(const char *path, const unsigned char *bytes, size_t len,
                                int points, int frame, ipcc_error *err) {
  ipc_pc2_header h;
  int fd = cache_open(path, O_RDWR, &h, err);
  if (fd < 0) return IPCC_ERR_INPUT;
  ipcc_status st = IPCC_OK;
  off_t at = IPC_PC2_HEADER_BYTES + (off_t)frame * (off_t)len;
  if (h.points != points)
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: %d points per sample, the frame has %d (a cache of another scene?)",
                       path, h.points, points);
  else if (h.samples < frame)
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: holds %d samples: frame %d cannot follow them (frames are "
                       "appended in order from frame 0)",
                       path, h.samples, frame);
  else if (pwrite_all(fd, bytes, len, at) != 0)
    st = io_fail(path, "write", err);
  else if (ftruncate(fd, at + (off_t)len) != 0)
    st = io_fail(path, "truncate", err);
  else
    st = set_count(fd, path, frame + 1, err);
  close(fd);
  return st;
}

/* frame `frame` of model m at positions xs (nverts x 3) and time t into dir */
static ipcc_status write_pc2(const ipc_model *m, const double *xs, double time, const char *dir,
                             int frame, ipcc_error *err) {
  if (frame < 0)
    return ipc_error_set(err, IPCC_ERR_INPUT, "point cache: frame %d: expected 0 or more", frame);
  int *file_of = IPC_NEW(int, (size_t)m->nverts + 1);
  int n = ipc_frame_numbering(m, file_of);
  size_t len = 12 * (size_t)n;
  unsigned char *bytes = IPC_NEW(unsigned char, len + 1);
  for (int i = 0; i < m->nverts; ++i)
    if (file_of[i] >= 0)
      for (int d = 0; d < 3; ++d)
        put_f32(bytes + 12 * (size_t)file_of[i] + 4 * d, (float)xs[3 * (size_t)i + d]);
  char *path = cache_path(dir, IPC_PC2_CACHE);
  ipcc_status st = IPCC_OK;
  if (frame == 0) {
    /* a new cache: the rest shape, then the cache of one sample, both atomically */
    char *rest = cache_path(dir, IPC_PC2_REST);
    st = write_rest(m, xs, time, n, rest, err);
    ipc_free(rest);
    ipc_atomic_file af;
    if (st == IPCC_OK && (st = ipc_atomic_open(&af, path, err)) == IPCC_OK) {
      unsigned char h[IPC_PC2_HEADER_BYTES];
      header_bytes(h, n, 1);
      fwrite(h, 1, sizeof h, af.f);
      fwrite(bytes, 1, len, af.f);
      st = ipc_atomic_commit(&af, err);
    }
  } else {
    st = cache_append(path, bytes, len, n, frame, err);
  }
  ipc_free(path);
  ipc_free(bytes);
  ipc_free(file_of);
  return st;
}

ipcc_status ipcc_world_write_pc2(const ipcc_world *w, const char *dir, int frame, ipcc_error *err) {
  return write_pc2(w->m, w->s->x, w->s->time, dir, frame, err);
}
