/* mesh readers: IPC's meshes (counts against the file headers, closed oriented boundary,
   Euler characteristic, divergence-theorem volume; the vendored ones in tests/data/ipc-input, or
   all of DATA_DIR/ipc-input when given a data folder, see tools/validate.sh), hand-written files,
   broken files (message names file and line) and fuzzed input (clean error or a valid mesh) */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/surface.h"
#include "io/mesh_internal.h"
#include "ipcc/mesh.h"
#include "test.h"

#define DATA "tests/data/mesh/"
/* IPC's examples vendored in the repository: the fuzz always mutates these */
#define VENDORED_IPC_IN "tests/data/ipc-input/input/"

/* the input/ folder of IPC's examples, ending in '/'; set by main */
static char ipc_in[512];
/* 1 with a full copy of IPC's examples, 0 with the vendored subset */
static int ipc_full;

/* ipc_in followed by the formatted name */
static const char *ipc_path(char *buf, size_t size, const char *fmt, ...) {
  int n = snprintf(buf, size, "%s", ipc_in);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, size - (size_t)n, fmt, ap);
  va_end(ap);
  return buf;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* reads a whole file into *buf ('\0'-terminated); 0 on failure */
static int slurp(const char *path, char **buf, size_t *len) {
  ipcc_error err;
  ipcc_status st = ipc_file_slurp(path, buf, len, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  return st == IPCC_OK;
}

static double tet_volume(const double *x, const int *t) {
  const double *a = x + 3 * t[0], *b = x + 3 * t[1], *c = x + 3 * t[2], *d = x + 3 * t[3];
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k) {
    u[k] = b[k] - a[k];
    v[k] = c[k] - a[k];
    w[k] = d[k] - a[k];
  }
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
          u[2] * (v[0] * w[1] - v[1] * w[0])) /
         6.0;
}

/* volume enclosed by triangles via the divergence theorem: sum a . (b x c) / 6 */
static double surface_volume(const double *x, const int *tris, int ntris) {
  double vol = 0.0;
  for (int f = 0; f < ntris; ++f) {
    const double *a = x + 3 * tris[3 * f], *b = x + 3 * tris[3 * f + 1],
                 *c = x + 3 * tris[3 * f + 2];
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6.0;
  }
  return vol;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* checks every directed edge appears once and its reverse once (closed, consistently oriented
   2-manifold edges); returns the Euler characteristic V - E + F over the surface vertices */
static int closed_surface_euler(const int *tris, int ntris, int nverts, const char *name) {
  size_t n = 3 * (size_t)ntris;
  int64_t *d = IPC_NEW(int64_t, n);
  for (int f = 0; f < ntris; ++f)
    for (int k = 0; k < 3; ++k)
      d[3 * f + k] = (int64_t)tris[3 * f + k] * nverts + tris[3 * f + (k + 1) % 3];
  qsort(d, n, sizeof *d, cmp_i64);
  int dup = 0, unmatched = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && d[i] == d[i - 1]) ++dup;
    int64_t rev = (d[i] % nverts) * nverts + d[i] / nverts;
    if (!bsearch(&rev, d, n, sizeof *d, cmp_i64)) ++unmatched;
  }
  CHECK_MSG(dup == 0, "%s: %d directed edges repeat (inconsistent orientation)", name, dup);
  CHECK_MSG(unmatched == 0, "%s: %d edges without an opposite (open surface)", name, unmatched);
  ipc_free(d);
  unsigned char *used = IPC_NEW0(unsigned char, (size_t)nverts);
  int nv = 0;
  for (size_t i = 0; i < n; ++i)
    if (!used[tris[i]]) used[tris[i]] = 1, ++nv;
  ipc_free(used);
  return nv - (int)(n / 2) + ntris;
}

/* counts from an IPC .msh: $Nodes and $Elements headers (4.1) and the $Surface block */
typedef struct msh_counts {
  long nodes, elements, surface;
  int *surf; /* (surface x 3) 0-based */
} msh_counts;

static msh_counts msh_header_counts(const char *buf) {
  msh_counts c = {-1, -1, -1, NULL};
  const char *p = strstr(buf, "$Nodes\n");
  if (p) sscanf(p + 7, "%*d %ld", &c.nodes);
  p = strstr(buf, "$Elements\n");
  if (p) sscanf(p + 10, "%*d %ld", &c.elements);
  p = strstr(buf, "$Surface\n");
  int used = 0;
  if (p && sscanf(p + 9, "%ld%n", &c.surface, &used) == 1) {
    p += 9 + used;
    c.surf = IPC_NEW(int, 3 * (size_t)c.surface);
    for (long i = 0; i < 3 * c.surface; ++i) {
      int v = 0;
      if (sscanf(p, "%d%n", &v, &used) != 1) break;
      p += used;
      c.surf[i] = v - 1;
    }
  }
  return c;
}

static int cmp_tri(const void *a, const void *b) {
  const int *x = a, *y = b;
  for (int k = 0; k < 3; ++k)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* copies tris rotated so the smallest vertex is first (orientation kept), then sorted */
static int *canonical_tris(const int *tris, int n) {
  int *c = IPC_NEW(int, 3 * (size_t)n);
  for (int f = 0; f < n; ++f) {
    const int *t = tris + 3 * f;
    int m = t[0] < t[1] ? (t[0] < t[2] ? 0 : 2) : (t[1] < t[2] ? 1 : 2);
    for (int k = 0; k < 3; ++k) c[3 * f + k] = t[(m + k) % 3];
  }
  qsort(c, (size_t)n, 3 * sizeof(int), cmp_tri);
  return c;
}

/* reads one of IPC's tet meshes and checks it against its own headers and geometry */
static double check_ipc_tet_mesh(const char *path, int chi) {
  size_t len;
  char *buf;
  if (!slurp(path, &buf, &len)) return 0;
  msh_counts c = msh_header_counts(buf);
  ipc_free(buf);
  ipcc_mesh m;
  ipcc_error err;
  double t0 = now_seconds();
  ipcc_status st = ipcc_mesh_read(path, &m, &err);
  double dt = now_seconds() - t0;
  CHECK_MSG(st == IPCC_OK, "%s: %s", path, err.msg);
  if (st) return dt;
  CHECK_MSG(m.nverts == c.nodes, "%s: %d vertices, header says %ld", path, m.nverts, c.nodes);
  CHECK_MSG(m.ntets == c.elements, "%s: %d tets, header says %ld", path, m.ntets, c.elements);
  CHECK_MSG(m.ntris == c.surface, "%s: %d boundary tris, $Surface has %ld", path, m.ntris,
            c.surface);
  double vol = 0.0;
  int nonpos = 0;
  for (int t = 0; t < m.ntets; ++t) {
    double v = tet_volume(m.x, m.tets + 4 * t);
    nonpos += !(v > 0.0);
    vol += v;
  }
  CHECK_MSG(nonpos == 0, "%s: %d tets not positive", path, nonpos);
  CHECK_NEAR(surface_volume(m.x, m.tris, m.ntris) / vol, 1.0, 1e-9);
  int e = closed_surface_euler(m.tris, m.ntris, m.nverts, path);
  CHECK_MSG(e == chi, "%s: Euler characteristic %d, expected %d", path, e, chi);
  /* the boundary is IPC's own $Surface, with the same orientation */
  if (m.ntris == c.surface) {
    int *a = canonical_tris(m.tris, m.ntris), *b = canonical_tris(c.surf, m.ntris);
    CHECK_MSG(memcmp(a, b, sizeof(int) * 3 * (size_t)m.ntris) == 0,
              "%s: boundary differs from $Surface", path);
    ipc_free(a);
    ipc_free(b);
  }
  CHECK(m.nobjects == 1 && m.object_tri_start[0] == 0 && m.object_tri_start[1] == m.ntris);
  CHECK(m.nsegs == 0);
  ipc_free(c.surf);
  ipcc_mesh_free(&m);
  CHECK(m.x == NULL && m.nverts == 0);
  return dt;
}

static void test_ipc_tet_meshes(void) {
  static const struct {
    const char *file;
    int vendored; /* also in tests/data/ipc-input */
  } genus0[] = {{"Armadillo13K.msh", 0},  {"bunny.msh", 0},          {"cow_head.msh", 0},
                {"cube.msh", 1},          {"mat100x100t40.msh", 0},  {"mat20x20.msh", 1},
                {"mat40x40.msh", 0},      {"sphere1K.msh", 0},       {"sphere5K.msh", 0},
                {"tet.msh", 1},           {"tet-perp-edges.msh", 1}, {"tet-pyramid.msh", 1},
                {"erleben/spike.msh", 1}, {"erleben/wedge.msh", 1}};
  char path[1024];
  for (size_t i = 0; i < sizeof genus0 / sizeof *genus0; ++i) {
    if (!ipc_full && !genus0[i].vendored) continue;
    double dt = check_ipc_tet_mesh(ipc_path(path, sizeof path, "tetMeshes/%s", genus0[i].file), 2);
    if (!strcmp(genus0[i].file, "Armadillo13K.msh") ||
        !strcmp(genus0[i].file, "mat100x100t40.msh")) {
      fprintf(stderr, "load %s: %.1f ms\n", genus0[i].file, 1e3 * dt);
    }
  }
  check_ipc_tet_mesh(ipc_path(path, sizeof path, "tetMeshes/torus.msh"), 0);
  /* the arch's 25 voussoirs; the first two vendored */
  for (int i = 1; i <= (ipc_full ? 25 : 2); ++i)
    check_ipc_tet_mesh(ipc_path(path, sizeof path, "tetMeshes/arch/largeArch.%02d.msh", i), 2);
}

/* counts lines of an obj/seg file that start with key followed by a blank */
static int count_lines(const char *buf, const char *key) {
  int n = 0;
  size_t kl = strlen(key);
  for (const char *p = buf; p && *p;) {
    if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) ++n;
    p = strchr(p, '\n');
    if (p) ++p;
  }
  return n;
}

static void check_obj_file(const char *path, int chi, int closed) {
  size_t len;
  char *buf;
  if (!slurp(path, &buf, &len)) return;
  int nv = count_lines(buf, "v"), nf = count_lines(buf, "f");
  ipc_free(buf);
  ipcc_mesh m;
  ipcc_error err;
  ipcc_status st = ipcc_mesh_read(path, &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s: %s", path, err.msg);
  if (st) return;
  CHECK_MSG(m.nverts == nv && m.ntris == nf, "%s: %d v %d f, expected %d %d", path, m.nverts,
            m.ntris, nv, nf);
  CHECK(m.ntets == 0 && m.tets == NULL && m.nsegs == 0);
  ipc_surface s;
  st = ipc_surface_build(&s, m.nverts, m.tris, m.ntris, m.segs, m.nsegs, NULL, 0, NULL, NULL, &err);
  CHECK(st == IPCC_OK);
  int e = s.nsv - s.nedges + s.nfaces;
  CHECK_MSG(e == chi, "%s: Euler characteristic %d, expected %d", path, e, chi);
  if (closed) CHECK_MSG(closed_surface_euler(m.tris, m.ntris, m.nverts, path) == chi, "%s", path);
  CHECK(m.nobjects == 1 && m.object_tri_start[1] == m.ntris);
  ipc_surface_free(&s);
  ipcc_mesh_free(&m);
}

static void test_ipc_obj_files(void) {
  static const struct {
    const char *file;
    int chi, closed;
  } objs[] = {{"cone-simple.obj", 2, 1},    {"cube.obj", 2, 1},
              {"cylinder.obj", 2, 1},       {"plane.obj", 1, 0},
              {"tet-perp-edges.obj", 2, 1}, {"tet-pyramid.obj", 2, 1},
              {"torus.obj", 0, 1},          {"triangle.obj", 1, 0},
              {"erleben/cliff.obj", 2, 1},  {"erleben/crack.obj", 2, 1},
              {"erleben/hole.obj", -2, 0},  {"erleben/internal_edges.obj", 2, 1},
              {"erleben/spike.obj", 2, 1},  {"erleben/wedge.obj", 2, 1}};
  char path[1024];
  for (size_t i = 0; i < sizeof objs / sizeof *objs; ++i)
    check_obj_file(ipc_path(path, sizeof path, "triMeshes/%s", objs[i].file), objs[i].chi,
                   objs[i].closed);

  /* a single point: no faces or edges, one isolated point for the surface */
  ipcc_mesh m;
  ipcc_error err;
  ipcc_status st = ipcc_mesh_read(ipc_path(path, sizeof path, "triMeshes/point.obj"), &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    CHECK(m.nverts == 1 && m.ntris == 0 && m.nsegs == 0);
    CHECK(m.x[0] == 0.0 && m.x[1] == 0.0 && m.x[2] == 0.0);
    int pt = 0;
    ipc_surface s;
    CHECK(ipc_surface_build(&s, m.nverts, m.tris, 0, m.segs, 0, &pt, 1, NULL, NULL, &err) == 0);
    CHECK(s.nsv == 1 && s.vert_point[0] == 1 && s.nedges == 0);
    ipc_surface_free(&s);
    ipcc_mesh_free(&m);
  }

  /* segments: edge.seg and every frame of the 201-frame sequence (the first 3 vendored) */
  int checked = 0, nframes = ipc_full ? 201 : 3;
  for (int i = -1; i < nframes; ++i) {
    if (i < 0)
      ipc_path(path, sizeof path, "segMeshes/edge.seg");
    else
      ipc_path(path, sizeof path, "segMeshes/sequence/%d.seg", i);
    size_t len;
    char *buf;
    if (!slurp(path, &buf, &len)) continue;
    int nv = count_lines(buf, "v"), ns = count_lines(buf, "s");
    ipc_free(buf);
    st = ipcc_mesh_read(path, &m, &err);
    CHECK_MSG(st == IPCC_OK, "%s", err.msg);
    if (st) continue;
    CHECK_MSG(m.nverts == nv && m.nsegs == ns && m.ntris == 0, "%s", path);
    int ok = 1;
    for (int e = 0; e < 2 * m.nsegs; ++e) ok &= m.segs[e] >= 0 && m.segs[e] < m.nverts;
    CHECK(ok);
    checked += ok;
    ipcc_mesh_free(&m);
  }
  CHECK(checked == nframes + 1);
}

static void check_same_mesh(const ipcc_mesh *a, const ipcc_mesh *b) {
  CHECK(a->nverts == b->nverts && a->ntets == b->ntets && a->ntris == b->ntris);
  if (a->nverts != b->nverts || a->ntets != b->ntets || a->ntris != b->ntris) return;
  CHECK(!memcmp(a->x, b->x, sizeof(double) * 3 * (size_t)a->nverts));
  CHECK(!memcmp(a->tets, b->tets, sizeof(int) * 4 * (size_t)a->ntets));
  CHECK(!memcmp(a->tris, b->tris, sizeof(int) * 3 * (size_t)a->ntris));
}

static double mesh_volume(const ipcc_mesh *m) {
  double v = 0.0;
  for (int t = 0; t < m->ntets; ++t) v += tet_volume(m->x, m->tets + 4 * t);
  return v;
}

static void test_handwritten(void) {
  ipcc_mesh ref, m;
  ipcc_error err;
  char path[1024];
  ipcc_status st = ipcc_mesh_read(ipc_path(path, sizeof path, "tetMeshes/cube.msh"), &ref, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);

  /* msh 2.2: node numbers 10..80, other element types and sections skipped */
  st = ipcc_mesh_read(DATA "cube_v22.msh", &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    check_same_mesh(&m, &ref);
    CHECK_NEAR(mesh_volume(&m), 1.0, 1e-15);
    CHECK(!strcmp(m.object_names[0], "cube_v22"));
    ipcc_mesh_free(&m);
  }

  /* msh 4.1: three node blocks (one parametric), sparse tags, a block of unknown type */
  st = ipcc_mesh_read(DATA "bipyramid_v41.msh", &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    static const int tets[8] = {0, 1, 2, 3, 0, 2, 1, 4};
    static const double x[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1};
    CHECK(m.nverts == 5 && m.ntets == 2 && m.ntris == 6);
    CHECK(!memcmp(m.tets, tets, sizeof tets) && !memcmp(m.x, x, sizeof x));
    CHECK_NEAR(mesh_volume(&m), 1.0 / 3.0, 1e-15);
    CHECK_NEAR(surface_volume(m.x, m.tris, m.ntris), 1.0 / 3.0, 1e-15);
    CHECK(closed_surface_euler(m.tris, m.ntris, m.nverts, "bipyramid") == 2);
    ipcc_mesh_free(&m);
  }

  /* TetGen: the same cube 0-based, reached from .node, .ele or no extension */
  static const char *const tg[] = {DATA "cube.node", DATA "cube.ele", DATA "cube"};
  for (int i = 0; i < 3; ++i) {
    st = ipcc_mesh_read(tg[i], &m, &err);
    CHECK_MSG(st == IPCC_OK, "%s: %s", tg[i], err.msg);
    if (st) continue;
    check_same_mesh(&m, &ref);
    CHECK(!strcmp(m.object_names[0], "cube"));
    ipcc_mesh_free(&m);
  }

  /* every tet negative: the file is flipped as a whole */
  st = ipcc_mesh_read(DATA "inverted.ele", &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    int pos = 0;
    for (int t = 0; t < m.ntets; ++t) pos += tet_volume(m.x, m.tets + 4 * t) > 0.0;
    CHECK(m.ntets == 6 && pos == 6);
    CHECK_NEAR(mesh_volume(&m), 1.0, 1e-15);
    CHECK_NEAR(surface_volume(m.x, m.tris, m.ntris), 1.0, 1e-15);
    ipcc_mesh_free(&m);
  }
  ipcc_mesh_free(&ref);

  /* obj: objects, polygons, v/vt/vn, negative indices, polylines, points */
  st = ipcc_mesh_read(DATA "objects.obj", &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    static const int tris[15] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 4, 7, 8};
    /* l 1 5 2 6 and l 2 1 5: 2-1 lies on a face and 1-5 repeats, both dropped */
    static const int segs[6] = {0, 4, 4, 1, 1, 5};
    CHECK(m.nverts == 10 && m.ntris == 5 && m.nsegs == 3 && m.ntets == 0);
    if (m.ntris == 5) CHECK(!memcmp(m.tris, tris, sizeof tris));
    if (m.nsegs == 3) CHECK(!memcmp(m.segs, segs, sizeof segs));
    CHECK(m.x[3 * 3 + 1] == 1.0 && m.x[3 * 6 + 0] == 2.0 && m.x[3 * 9 + 2] == 3.0);
    CHECK(m.nobjects == 2);
    if (m.nobjects == 2) {
      CHECK(!strcmp(m.object_names[0], "first") && !strcmp(m.object_names[1], "second part"));
      CHECK(m.object_tri_start[0] == 0 && m.object_tri_start[1] == 2 && m.object_tri_start[2] == 5);
    }
    ipcc_mesh_free(&m);
  }
  st = ipcc_mesh_read(DATA "forward.obj", &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    CHECK(m.nverts == 3 && m.ntris == 1 && m.tris[0] == 0 && m.tris[2] == 2);
    ipcc_mesh_free(&m);
  }

  /* a UTF-8 byte order mark is skipped; 's' is a smoothing group in .obj, a segment in .seg */
  static const char bom[] = "\xEF\xBB\xBFv 0 0 0\nv 1 0 0\ns 1 2\n";
  st = ipc_mesh_parse("mem/bom.obj", bom, sizeof bom - 1, &m, &err);
  CHECK_MSG(st == IPCC_OK && m.nverts == 2 && m.nsegs == 0, "%s", err.msg);
  ipcc_mesh_free(&m);
  st = ipc_mesh_parse("mem/bom.seg", bom, sizeof bom - 1, &m, &err);
  CHECK_MSG(st == IPCC_OK && m.nverts == 2 && m.nsegs == 1, "%s", err.msg);
  ipcc_mesh_free(&m);

  /* faces before the first 'o' form an object named after the file */
  static const char two[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no B\nf 3 2 1\ng\n";
  st = ipc_mesh_parse("mem/two.obj", two, sizeof two - 1, &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) {
    CHECK(m.nobjects == 2 && !strcmp(m.object_names[0], "two") && !strcmp(m.object_names[1], "B"));
    CHECK(m.object_tri_start[1] == 1 && m.object_tri_start[2] == 2);
    ipcc_mesh_free(&m);
  }
}

/* 1 when msg contains "file:line:" */
static int names_file_line(const char *msg, const char *file, int line) {
  char want[600];
  snprintf(want, sizeof want, "%s:%d:", file, line);
  return strstr(msg, want) != NULL;
}

static void test_bad_files(void) {
  static const struct {
    const char *path;  /* given to ipcc_mesh_read */
    const char *named; /* file the message must name */
    int line;          /* line it must name */
    const char *says;  /* and a word of the explanation */
  } cases[] = {
      {"bad_number.msh", "bad_number.msh", 8, "1.0x"},
      {"count_nodes.msh", "count_nodes.msh", 14, "$EndNodes"},
      {"count_elements.msh", "count_elements.msh", 22, "$EndElements"},
      {"count_blocks_v41.msh", "count_blocks_v41.msh", 17, "announces 3"},
      {"bad_index.msh", "bad_index.msh", 20, "node 99"},
      {"binary.msh", "binary.msh", 2, "binary"},
      {"version3.msh", "version3.msh", 2, "version"},
      {"version40.msh", "version40.msh", 2, "version"},
      {"version1.msh", "version1.msh", 1, "version 1"},
      {"missing_end.msh", "missing_end.msh", 22, "$EndElements"},
      {"short_element.msh", "short_element.msh", 21,
       "element 5 (type 4) has 3 node tags, expected 4"},
      {"no_elements.msh", "no_elements.msh", 14, "$Elements"},
      {"empty.msh", "empty.msh", 1, "empty"},
      {"not_msh.msh", "not_msh.msh", 1, "$MeshFormat"},
      {"inverted_one.msh", "inverted_one.msh", 19, "tetrahedron 3 has volume -0.166667"},
      {"degenerate.msh", "degenerate.msh", 21, "tetrahedron 5 has volume 0"},
      {"dup_node.msh", "dup_node.msh", 13, "node 3 defined twice"},
      {"nan.msh", "nan.msh", 11, "finite"},
      {"unterminated.msh", "unterminated.msh", 24, "$EndSurface"},
      {"nonmanifold.msh", "nonmanifold.msh", 16, "manifold"},
      {"overlap.msh", "overlap.msh", 16, "same side"},
      {"tet10_only_v41.msh", "tet10_only_v41.msh", 20, "type 11"},
      {"bad_index.obj", "bad_index.obj", 5, "vertex 4"},
      {"zero_index.obj", "zero_index.obj", 4, "index 0"},
      {"huge_index.obj", "huge_index.obj", 4, "'99999999999999999999' in the face is out of range"},
      {"huge_rel_index.obj", "huge_rel_index.obj", 4, "'-99999999999999999999' in the face"},
      {"bad_number.obj", "bad_number.obj", 3, "'x'"},
      {"degenerate.obj", "degenerate.obj", 5, "repeats vertex 1"},
      {"garbage.obj", "garbage.obj", 3, "@@@"},
      {"empty.obj", "empty.obj", 2, "no vertices"},
      {"rel_index.obj", "rel_index.obj", 4, "-5"},
      {"short.seg", "short.seg", 3, "at least 2"},
      {"trailing.obj", "trailing.obj", 2, "'8'"},
      {"bad_slash.obj", "bad_slash.obj", 4, "1/a"},
      {"dim2.ele", "dim2.node", 2, "dimension"},
      {"badref.node", "badref.ele", 3, "node 7"},
      {"short.ele", "short.node", 5, "point number"},
      {"extra.node", "extra.ele", 3, "end of the file"},
      {"quad.node", "quad.ele", 1, "10 nodes"},
  };
  char path[512], named[512];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    snprintf(path, sizeof path, DATA "bad/%s", cases[i].path);
    snprintf(named, sizeof named, DATA "bad/%s", cases[i].named);
    ipcc_mesh m;
    ipcc_error err;
    ipcc_status st = ipcc_mesh_read(path, &m, &err);
    CHECK_MSG(st == IPCC_ERR_INPUT, "%s: accepted", path);
    if (st != IPCC_ERR_INPUT) {
      ipcc_mesh_free(&m);
      continue;
    }
    CHECK_MSG(names_file_line(err.msg, named, cases[i].line), "%s: message '%s' lacks %s:%d:", path,
              err.msg, named, cases[i].line);
    CHECK_MSG(strstr(err.msg, cases[i].says) != NULL, "%s: message '%s' lacks '%s'", path, err.msg,
              cases[i].says);
    CHECK(m.x == NULL && m.nverts == 0 && m.tets == NULL);
  }

  /* files that cannot be read: the name and the system's reason */
  static const struct {
    const char *path, *named, *says;
  } missing[] = {
      {DATA "bad/noele.node", DATA "bad/noele.ele", "No such file"},
      {DATA "no_such_file.msh", DATA "no_such_file.msh", "No such file"},
      {DATA "bad", DATA "bad", "unknown mesh format"},
      {DATA "cube_v22.txt", DATA "cube_v22.txt", "unknown mesh format"},
  };
  for (size_t i = 0; i < sizeof missing / sizeof *missing; ++i) {
    ipcc_mesh m;
    ipcc_error err;
    ipcc_status st = ipcc_mesh_read(missing[i].path, &m, &err);
    CHECK(st == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, missing[i].named) && strstr(err.msg, missing[i].says),
              "%s: message '%s'", missing[i].path, err.msg);
  }
  ipcc_mesh_free(NULL);
}

/* ---- fuzzing ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

static size_t rng_below(size_t n) {
  return n ? (size_t)(rng_next() % n) : 0;
}

/* a message for a mutated buffer must name the buffer and a line */
static int clean_error(const char *msg, const char *name) {
  const char *p = strstr(msg, name);
  if (!p) return 0;
  p += strlen(name);
  if (*p++ != ':') return 0;
  if (*p < '0' || *p > '9') return 0;
  while (*p >= '0' && *p <= '9') ++p;
  return *p == ':';
}

static int valid_mesh(const ipcc_mesh *m) {
  if (m->nverts <= 0 || !m->x) return 0;
  for (int i = 0; i < 3 * m->nverts; ++i)
    if (!isfinite(m->x[i])) return 0;
  for (int i = 0; i < 4 * m->ntets; ++i)
    if (m->tets[i] < 0 || m->tets[i] >= m->nverts) return 0;
  for (int t = 0; t < m->ntets; ++t)
    if (!(tet_volume(m->x, m->tets + 4 * t) > 0.0)) return 0;
  for (int i = 0; i < 3 * m->ntris; ++i)
    if (m->tris[i] < 0 || m->tris[i] >= m->nverts) return 0;
  for (int i = 0; i < 2 * m->nsegs; ++i)
    if (m->segs[i] < 0 || m->segs[i] >= m->nverts) return 0;
  if (m->nobjects < 1 || m->object_tri_start[0] != 0 ||
      m->object_tri_start[m->nobjects] != m->ntris)
    return 0;
  for (int o = 0; o < m->nobjects; ++o)
    if (m->object_tri_start[o] > m->object_tri_start[o + 1] || !m->object_names[o]) return 0;
  return 1;
}

/* mutates src (len bytes) into a fresh '\0'-terminated buffer; *out_len gets its length */
static char *mutate(const char *src, size_t len, size_t *out_len) {
  static const char bytes[] = {'\0', '\n', ' ', '-',  '0', '1', '9', '.', 'e',  '$',
                               'x',  '/',  '#', '\t', '+', 'E', 'n', 'f', '\r', (char)0xff};
  char *b = IPC_NEW(char, len + 2);
  memcpy(b, src, len);
  size_t n = len;
  switch (rng_below(4)) {
    case 0: /* truncate */
      n = rng_below(len + 1);
      break;
    case 1: /* replace 1-3 bytes */
      for (size_t k = 1 + rng_below(3); k > 0 && n > 0; --k) {
        size_t at = rng_below(n);
        b[at] = rng_below(4) ? bytes[rng_below(sizeof bytes)] : (char)rng_below(256);
      }
      break;
    case 2: { /* delete one line */
      size_t at = rng_below(n);
      char *s = memchr(b + at, '\n', n - at);
      if (s) {
        char *e = memchr(s + 1, '\n', (size_t)(b + n - (s + 1)));
        if (e) {
          memmove(s, e, (size_t)(b + n - e));
          n -= (size_t)(e - s);
        }
      }
      break;
    }
    default: /* truncate, then replace a byte */
      n = rng_below(len + 1);
      if (n) b[rng_below(n)] = bytes[rng_below(sizeof bytes)];
      break;
  }
  b[n] = '\0';
  *out_len = n;
  return b;
}

static void fuzz_one(const char *name, const char *src, size_t len, int rounds, int *ok,
                     int *failed) {
  for (int r = 0; r < rounds; ++r) {
    size_t n;
    char *b = mutate(src, len, &n);
    ipcc_mesh m;
    ipcc_error err = {IPCC_OK, ""};
    ipcc_status st = ipc_mesh_parse(name, b, n, &m, &err);
    if (st == IPCC_OK) {
      CHECK_MSG(valid_mesh(&m), "%s round %d: accepted an invalid mesh", name, r);
      ++*ok;
    } else {
      CHECK_MSG(st == IPCC_ERR_INPUT && clean_error(err.msg, name), "%s round %d: '%s'", name, r,
                err.msg);
      CHECK(m.x == NULL && m.tets == NULL);
      ++*failed;
    }
    ipcc_mesh_free(&m);
    ipc_free(b);
  }
}

static void test_fuzz(void) {
  static const char *const files[] = {DATA "cube_v22.msh",
                                      DATA "bipyramid_v41.msh",
                                      DATA "objects.obj",
                                      VENDORED_IPC_IN "tetMeshes/cube.msh",
                                      VENDORED_IPC_IN "tetMeshes/torus.msh",
                                      VENDORED_IPC_IN "triMeshes/cube.obj",
                                      VENDORED_IPC_IN "segMeshes/sequence/0.seg"};
  int ok = 0, failed = 0;
  for (size_t i = 0; i < sizeof files / sizeof *files; ++i) {
    size_t len;
    char *src;
    if (!slurp(files[i], &src, &len)) continue;
    fuzz_one(files[i], src, len, 400, &ok, &failed);
    ipc_free(src);
  }
  /* TetGen pairs: mutate one file of the pair */
  size_t nl, el;
  char *node = NULL, *ele = NULL;
  int have = slurp(DATA "cube.node", &node, &nl) && slurp(DATA "cube.ele", &ele, &el);
  for (int r = 0; have && r < 400; ++r) {
    int which = (int)rng_below(2);
    size_t n;
    char *b = which ? mutate(ele, el, &n) : mutate(node, nl, &n);
    ipcc_mesh m;
    ipcc_error err = {IPCC_OK, ""};
    ipcc_status st = which ? ipc_tetgen_parse("f.node", node, nl, "f.ele", b, n, &m, &err)
                           : ipc_tetgen_parse("f.node", b, n, "f.ele", ele, el, &m, &err);
    if (st == IPCC_OK) {
      CHECK(valid_mesh(&m));
      ++ok;
    } else {
      CHECK_MSG(
          st == IPCC_ERR_INPUT && (clean_error(err.msg, "f.node") || clean_error(err.msg, "f.ele")),
          "tetgen round %d: '%s'", r, err.msg);
      ++failed;
    }
    ipcc_mesh_free(&m);
    ipc_free(b);
  }
  ipc_free(node);
  ipc_free(ele);
  fprintf(stderr, "fuzz: %d accepted, %d rejected cleanly\n", ok, failed);
  CHECK(ok > 0 && failed > 0);
}

/* usage: test_mesh [DATA_DIR]: every IPC mesh in DATA_DIR/ipc-input (tools/validate.sh);
   without it the vendored ones in tests/data/ipc-input */
int main(int argc, char **argv) {
  ipc_full = argc > 1;
  if (ipc_full)
    snprintf(ipc_in, sizeof ipc_in, "%s/ipc-input/input/", argv[1]);
  else
    snprintf(ipc_in, sizeof ipc_in, "%s", VENDORED_IPC_IN);
  test_ipc_tet_meshes();
  test_ipc_obj_files();
  test_handwritten();
  test_bad_files();
  test_fuzz();
  TEST_MAIN_END();
}
