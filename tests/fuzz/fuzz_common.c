#define _XOPEN_SOURCE 700

#include "fuzz_common.h"

#include "ipc/world.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[PATH_MAX];

static void die(const char *what, const char *path) {
  fprintf(stderr, "fuzz harness: %s %s: %s\n", what, path, strerror(errno));
  abort();
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

static void remove_dir(void) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void link_data(const char *name) {
  char target[PATH_MAX], link[PATH_MAX];
  snprintf(target, sizeof target, "%s/%s", FUZZ_DATA_DIR, name);
  snprintf(link, sizeof link, "%s/%s", dir, name);
  if (symlink(target, link) != 0 && errno != EEXIST) die("cannot link", link);
}

const char *fuzz_dir(void) {
  if (dir[0]) return dir;
  const char *given = getenv("IPCC_FUZZ_DIR");
  if (given && given[0]) {
    snprintf(dir, sizeof dir, "%s", given);
  } else {
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ipcc-fuzz-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(dir)) die("cannot make", dir);
    atexit(remove_dir);
  }
  link_data("input");
  link_data("meshes");
  return dir;
}

const char *fuzz_path(int slot, const char *rel) {
  static char buf[4][PATH_MAX];
  snprintf(buf[slot], sizeof buf[slot], "%s/%s", fuzz_dir(), rel);
  return buf[slot];
}

void fuzz_mkdir(const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", fuzz_dir(), rel);
  for (char *s = p + strlen(fuzz_dir()) + 1; *s; ++s) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) die("cannot make", p);
    *s = '/';
  }
  if (mkdir(p, 0700) != 0 && errno != EEXIST) die("cannot make", p);
}

void fuzz_write(const char *path, const uint8_t *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || (n > 0 && fwrite(data, 1, n, f) != n) || fclose(f) != 0) die("cannot write", path);
}

char *fuzz_text(const uint8_t *data, size_t n) {
  char *s = malloc(n + 1);
  if (!s) abort();
  memcpy(s, data, n);
  s[n] = '\0';
  return s;
}

void fuzz_check_error(ipcc_status st, const ipcc_error *err, const char *name) {
  if (st == IPCC_OK) return;
  /* a refusal may name another input file it read (a mesh, a script alias) instead */
  if (!strstr(err->msg, name) && !(dir[0] && strstr(err->msg, dir))) {
    fprintf(stderr, "fuzz oracle: error message does not name %s: '%s'\n", name, err->msg);
    abort();
  }
}

static void check_indices(const char *what, const int *idx, int n, int per, int nverts) {
  for (long i = 0; i < (long)n * per; ++i)
    if (idx[i] < 0 || idx[i] >= nverts) {
      fprintf(stderr, "fuzz oracle: %s index %d out of [0, %d)\n", what, idx[i], nverts);
      abort();
    }
}

void fuzz_check_mesh(const ipcc_mesh *m) {
  int ok = m->nverts >= 0 && m->ntets >= 0 && m->ntris >= 0 && m->nsegs >= 0 && m->nobjects >= 1 &&
           m->object_tri_start && m->object_names && m->object_tri_start[0] == 0 &&
           m->object_tri_start[m->nobjects] == m->ntris;
  for (int o = 0; ok && o < m->nobjects; ++o)
    ok = m->object_names[o] && m->object_tri_start[o] <= m->object_tri_start[o + 1];
  for (long i = 0; ok && i < 3L * m->nverts; ++i) ok = isfinite(m->x[i]);
  if (!ok) {
    fprintf(stderr, "fuzz oracle: inconsistent mesh (%d verts, %d tris, %d objects)\n", m->nverts,
            m->ntris, m->nobjects);
    abort();
  }
  check_indices("tet", m->tets, m->ntets, 4, m->nverts);
  check_indices("triangle", m->tris, m->ntris, 3, m->nverts);
  check_indices("segment", m->segs, m->nsegs, 2, m->nverts);
}

static int inside_dir(const char *path) {
  size_t n = strlen(fuzz_dir());
  return path && !strncmp(path, fuzz_dir(), n) && path[n] == '/' && !strstr(path, "..");
}

void fuzz_build_world(const ipcc_scene_def *s) {
  for (int i = 0; i < s->nbodies; ++i)
    if (!inside_dir(s->bodies[i].mesh)) return;
  ipcc_error err = {0};
  ipc_world *w = ipc_world_create(s, &err);
  if (!w && !err.msg[0]) {
    fprintf(stderr, "fuzz oracle: ipc_world_create failed without a message\n");
    abort();
  }
  ipc_world_destroy(w);
}
