/* PLY and VTU readers (src/io/ply.c, vtu.c): ipcc's own frames read back as the OBJ frame
   reads (same vertices, triangles, obstacle marks and objects), hand-written ascii/binary PLY
   and VTU files, planted intersections found, broken files refused naming the file, and
   fuzzed frames (a clean error or a valid mesh) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/surface.h"
#include "geometry/intersect_surface.h"
#include "io/mesh_internal.h"
#include "io/path.h"
#include "ipcc/ipcc.h"
#include "test.h"

static char dir[256];

static char *slurp(const char *path, size_t *len) {
  ipc_error err;
  *len = 0;
  return ipc_read_file_max(path, IPC_READ_MAX_MESH, len, &err);
}

/* writes frame 0 of scene in OBJ, PLY and VTU into dir */
static int write_frames(const char *scene) {
  ipc_scene_def def;
  ipc_error err;
  if (ipc_scene_load(scene, &def, &err) != IPC_OK) return 0;
  ipc_world *w = ipc_world_create(&def, &err);
  int ok = w && ipc_world_write_frame(w, dir, 0, IPC_FORMAT_OBJ | IPC_FORMAT_PLY | IPC_FORMAT_VTU,
                                      &err) == IPC_OK;
  ipc_world_destroy(w);
  ipc_scene_def_free(&def);
  return ok;
}

static int read_frame(const char *ext, ipc_mesh *m) {
  char path[512];
  snprintf(path, sizeof path, "%s/000000.%s", dir, ext);
  ipc_error err;
  ipc_status st = ipc_mesh_read(path, m, &err);
  CHECK_MSG(st == IPC_OK, "%s: %s", path, err.msg);
  return st == IPC_OK;
}

/* intersecting pairs of m (obstacle pairs skipped when marked), -1 if the surface fails */
static long intersections(const ipc_mesh *m) {
  ipc_surface s;
  ipc_error err;
  if (ipc_surface_build(&s, m->nverts, m->tris, m->ntris, m->segs, m->nsegs, NULL, 0, NULL,
                        m->vert_obstacle, &err) != IPC_OK)
    return -1;
  size_t n = ipc_surface_intersections(&s, m->x, m->vert_obstacle != NULL, NULL, 0);
  ipc_surface_free(&s);
  return (long)n;
}

static int count_marked(const ipc_mesh *m) {
  int n = 0;
  for (int i = 0; m->vert_obstacle && i < m->nverts; ++i) n += m->vert_obstacle[i];
  return n;
}

/* 1 when every vertex of m has an object in [0, n) and every object has a vertex */
static int objects_cover(const ipc_mesh *m, int n) {
  if (!m->vert_object || n <= 0) return 0;
  int *seen = IPC_NEW0(int, (size_t)n), ok = 1;
  for (int i = 0; i < m->nverts; ++i) {
    int o = m->vert_object[i];
    if (o < 0 || o >= n) ok = 0;
    if (ok) seen[o] = 1;
  }
  for (int o = 0; ok && o < n; ++o) ok = seen[o];
  ipc_free(seen);
  return ok;
}

/* the three formats of one frame of scene: PLY is the OBJ bit for bit, VTU has the same
   surface count and marks (plus interior tet vertices); OBJ and PLY know each vertex's body
   (OBJ: its object, PLY: object_id, the same indices), VTU does not */
static void test_own_frames(const char *scene, int nbodies, int obstacles) {
  CHECK_MSG(write_frames(scene), "%s: frames written", scene);
  ipc_mesh o, p, v;
  if (!read_frame("obj", &o) || !read_frame("ply", &p) || !read_frame("vtu", &v)) return;
  CHECK(p.nverts == o.nverts && p.ntris == o.ntris && p.nsegs == o.nsegs);
  CHECK(!memcmp(p.x, o.x, 3 * sizeof(double) * (size_t)o.nverts));
  CHECK(!memcmp(p.tris, o.tris, 3 * sizeof(int) * (size_t)o.ntris));
  CHECK(v.ntris == o.ntris && v.nsegs == o.nsegs && v.nverts >= o.nverts);
  CHECK((o.vert_obstacle != NULL) == obstacles);
  CHECK((p.vert_obstacle != NULL) == obstacles && (v.vert_obstacle != NULL) == obstacles);
  CHECK(count_marked(&p) == count_marked(&o) && count_marked(&v) == count_marked(&o));
  CHECK(intersections(&o) == 0 && intersections(&p) == 0 && intersections(&v) == 0);
  CHECK_MSG(o.nobjects == nbodies && objects_cover(&o, nbodies), "%s: OBJ objects", scene);
  CHECK_MSG(objects_cover(&p, nbodies), "%s: PLY object_id", scene);
  CHECK(o.vert_object && p.vert_object &&
        !memcmp(o.vert_object, p.vert_object, sizeof(int) * (size_t)o.nverts));
  CHECK(v.vert_object == NULL);
  ipc_mesh_free(&o);
  ipc_mesh_free(&p);
  ipc_mesh_free(&v);
}

/* the binary PLY of two_cubes with the upper cube moved into the lower one */
static void test_planted_binary_ply(void) {
  CHECK(write_frames("scenes/two_cubes.json"));
  char path[512];
  snprintf(path, sizeof path, "%s/000000.ply", dir);
  size_t len;
  char *b = slurp(path, &len);
  if (!b) return;
  ipc_mesh m;
  ipc_error err;
  CHECK(ipc_ply_parse("a.ply", b, len, &m, &err) == IPC_OK);
  /* vertex records: x y z (doubles), object_id (int32), right after the header */
  unsigned char *rec = (unsigned char *)strstr(b, "end_header\n") + 11;
  double lo0 = 1e300, lo1 = 1e300;
  for (int i = 0; i < m.nverts; ++i) {
    int32_t id;
    memcpy(&id, rec + 28 * (size_t)i + 24, 4);
    double *lo = id == 0 ? &lo0 : &lo1;
    if (m.x[3 * i + 1] < *lo) *lo = m.x[3 * i + 1];
  }
  for (int i = 0; i < m.nverts; ++i) {
    int32_t id;
    memcpy(&id, rec + 28 * (size_t)i + 24, 4);
    if (id != 0) continue;
    double y = m.x[3 * i + 1] - (lo0 - lo1) + 0.013; /* bottom just above the other's */
    memcpy(rec + 28 * (size_t)i + 8, &y, 8);
  }
  ipc_mesh_free(&m);
  CHECK(ipc_ply_parse("a.ply", b, len, &m, &err) == IPC_OK);
  CHECK_MSG(intersections(&m) > 0, "planted intersection found");
  ipc_mesh_free(&m);
  ipc_free(b);
}

static ipc_status parse(const char *name, const char *text, ipc_mesh *m, ipc_error *err) {
  return ipc_mesh_parse(name, text, strlen(text), m, err);
}

static const char crossing_ply[] =
    "ply\nformat ascii 1.0\ncomment two triangles through each other\n"
    "element vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
    "0 0 0\n1 0 0\n0 1 0\n0.2 0.2 -1\n0.2 0.2 1\n1 1 0.5\n3 0 1 2\n3 3 4 5\n";

static const char crossing_vtu[] =
    "<?xml version=\"1.0\"?>\n<!-- two tets through each other -->\n"
    "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\">\n<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"8\" NumberOfCells=\"2\">\n<Points>\n"
    "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n"
    "0 0 0 1 0 0 0 1 0 0 0 1\n0.1 0.1 0.1 1.1 0.1 0.1 0.1 1.1 0.1 0.1 0.1 1.1\n"
    "</DataArray>\n</Points>\n<Cells>\n"
    "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">0 1 2 3 4 5 6 7</DataArray>\n"
    "<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">4 8</DataArray>\n"
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">10 10</DataArray>\n"
    "</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";

static void test_handwritten(void) {
  ipc_mesh m;
  ipc_error err;
  /* general PLY: a quad, an extra property and element, an edge list */
  static const char quad[] =
      "ply\r\nformat ascii 1.0\r\nobj_info made by hand\r\nelement vertex 5\r\n"
      "property double x\r\nproperty double y\r\nproperty double z\r\nproperty uchar red\r\n"
      "element face 1\r\nproperty uchar flags\r\nproperty list uchar uint vertex_indices\r\n"
      "element material 1\r\nproperty list uchar float rgb\r\n"
      "element edge 1\r\nproperty int vertex1\r\nproperty int vertex2\r\nend_header\r\n"
      "0 0 0 255\n1 0 0 0\n1 1 0 0\n0 1 0 0\n5 5 5 0\n7 4 0 1 2 3\n3 0.1 0.2 0.3\n2 4\n";
  CHECK_MSG(parse("q.ply", quad, &m, &err) == IPC_OK, "%s", err.msg);
  CHECK(m.nverts == 5 && m.ntris == 2 && m.nsegs == 1 && m.vert_obstacle == NULL);
  CHECK(m.x[3 * 4] == 5 && m.tris[3] == 0 && m.tris[4] == 2 && m.tris[5] == 3);
  CHECK(m.vert_object == NULL); /* no object_id */
  ipc_mesh_free(&m);
  CHECK(parse("c.ply", crossing_ply, &m, &err) == IPC_OK && intersections(&m) > 0);
  ipc_mesh_free(&m);
  CHECK_MSG(parse("c.vtu", crossing_vtu, &m, &err) == IPC_OK, "%s", err.msg);
  CHECK(m.ntets == 2 && m.ntris == 8 && intersections(&m) > 0);
  ipc_mesh_free(&m);
  /* obstacle marks: both triangles on obstacles, so the crossing is not counted */
  static const char marked[] =
      "ply\nformat ascii 1.0\ncomment obstacle 3\ncomment obstacle 4\n"
      "element vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
      "property int object_id\nelement face 2\nproperty list uchar int vertex_indices\n"
      "end_header\n0 0 0 3\n1 0 0 3\n0 1 0 3\n0.2 0.2 -1 4\n0.2 0.2 1 4\n1 1 0.5 4\n"
      "3 0 1 2\n3 3 4 5\n";
  CHECK(parse("o.ply", marked, &m, &err) == IPC_OK && count_marked(&m) == 6);
  CHECK(intersections(&m) == 0);
  CHECK(m.vert_object && m.vert_object[0] == 3 && m.vert_object[5] == 4);
  ipc_mesh_free(&m);
  /* OBJ objects of vertices listed first: each vertex takes the object of the first face,
     line or point that uses it (vertex 3 is in both triangles: the first, A's); an object of
     lines or points keeps its name; vertex 8 is in nothing (-1) */
  static const char listed[] =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 0 0\nv 3 0 0\nv 4 0 0\nv 5 0 0\n"
      "o A\nf 1 2 3\no B\nf 3 2 4\no rod\nl 5 6\no dust\np 7\n";
  CHECK_MSG(parse("l.obj", listed, &m, &err) == IPC_OK, "%s", err.msg);
  static const int want[8] = {0, 0, 0, 1, 2, 2, 3, -1};
  CHECK(m.vert_object && !memcmp(m.vert_object, want, sizeof want));
  CHECK(m.nobjects == 4 && !strcmp(m.object_names[2], "rod") && !strcmp(m.object_names[3], "dust"));
  CHECK(m.object_tri_start[2] == 2 && m.object_tri_start[4] == 2);
  ipc_mesh_free(&m);
}

/* broken files: IPC_ERR_INPUT, the message names the file and what is wrong */
static void test_bad(void) {
  static const struct {
    const char *name, *text, *want;
  } cases[] = {
      {"a.ply", "plx\n", "a.ply:1: expected 'ply'"},
      {"a.ply", "ply\nformat binary_big_endian 1.0\nend_header\n", "a.ply:2: format"},
      {"a.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n0\n",
       "a.ply:3: element vertex lacks"},
      {"a.ply",
       "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\n"
       "property float z\nend_header\n0 0 0\n",
       "a.ply:3: element vertex: 2 of them cannot fit"},
      {"a.ply",
       "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
       "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
       "0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n",
       "a.ply:13: face 0: vertex index 7"},
      {"a.ply",
       "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
       "property float z\nend_header\n0 0 zz\n",
       "a.ply:8: expected z"},
      {"a.ply",
       "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
       "property float z\nend_header\n0 0 0 9\n",
       "text after the last element"},
      {"a.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n", "no 'end_header'"},
      {"b.ply",
       "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n"
       "property float y\nproperty float z\nend_header\n\x01\x02",
       "b.ply:3: element vertex: 1 of them cannot fit"},
      {"a.vtu", "<VTKFile type=\"PolyData\">",
       "a.vtu:1: expected <VTKFile type=\"UnstructuredGrid\">"},
      {"a.vtu", "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid>\n<Piece>",
       "a.vtu:2: <Piece>: expected NumberOfPoints"},
      {"a.vtu",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"1\" "
       "NumberOfCells=\"0\">\n<Points><DataArray format=\"binary\">AAAA</DataArray></Points>"
       "</Piece></UnstructuredGrid></VTKFile>",
       "a.vtu:2: DataArray '' is not format=\"ascii\""},
      {"a.vtu",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"1\" "
       "NumberOfCells=\"0\">\n<Points><DataArray format=\"ascii\">0 0</DataArray></Points>"
       "</Piece></UnstructuredGrid></VTKFile>",
       "a.vtu:2: DataArray '': expected 3 values"},
      {"a.vtu",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"1\" "
       "NumberOfCells=\"0\">\n<Points><DataArray format=\"ascii\">0 0 0</DataArray></Points>"
       "</Piece></UnstructuredGrid>",
       "file ends inside <VTKFile>"},
      {"a.vtu",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"3\" "
       "NumberOfCells=\"1\">\n<Points><DataArray format=\"ascii\">0 0 0 1 0 0 0 1 0</DataArray>"
       "</Points><Cells>\n<DataArray Name=\"connectivity\" format=\"ascii\">0 1 3</DataArray>\n"
       "<DataArray Name=\"offsets\" format=\"ascii\">3</DataArray>\n"
       "<DataArray Name=\"types\" format=\"ascii\">5</DataArray></Cells>"
       "</Piece></UnstructuredGrid></VTKFile>",
       "a.vtu:3: connectivity entry 2 is 3"},
      {"a.vtu",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"3\" "
       "NumberOfCells=\"1\">\n<Points><DataArray format=\"ascii\">0 0 0 1 0 0 0 1 0</DataArray>"
       "</Points><Cells>\n<DataArray Name=\"connectivity\" format=\"ascii\">0 1 2</DataArray>\n"
       "<DataArray Name=\"offsets\" format=\"ascii\">3</DataArray>\n"
       "<DataArray Name=\"types\" format=\"ascii\">12</DataArray></Cells>"
       "</Piece></UnstructuredGrid></VTKFile>",
       "a.vtu:5: cell 0 has VTK type 12"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k) {
    ipc_mesh m;
    ipc_error err = {IPC_OK, ""};
    ipc_status st = parse(cases[k].name, cases[k].text, &m, &err);
    CHECK_MSG(st == IPC_ERR_INPUT && strstr(err.msg, cases[k].want), "case %zu: '%s'", k, err.msg);
    CHECK(m.x == NULL);
    ipc_mesh_free(&m);
  }
}

/* ---- fuzzing ---- */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static size_t rng_below(size_t n) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  rng_state = x;
  return n ? (size_t)(x % n) : 0;
}

static int valid_mesh(const ipc_mesh *m) {
  if (m->nverts <= 0 || !m->x || m->nobjects != 1) return 0;
  for (int i = 0; i < 3 * m->nverts; ++i)
    if (!isfinite(m->x[i])) return 0;
  for (int i = 0; i < 4 * m->ntets; ++i)
    if (m->tets[i] < 0 || m->tets[i] >= m->nverts) return 0;
  for (int i = 0; i < 3 * m->ntris; ++i)
    if (m->tris[i] < 0 || m->tris[i] >= m->nverts) return 0;
  for (int i = 0; i < 2 * m->nsegs; ++i)
    if (m->segs[i] < 0 || m->segs[i] >= m->nverts) return 0;
  return m->object_tri_start[1] == m->ntris;
}

/* mutated copies of src: truncated, bytes replaced, or both; each a clean error naming the
   file or a valid mesh */
static void fuzz(const char *name, const char *src, size_t len, int rounds, int *ok, int *bad) {
  static const char bytes[] = {'\0', '\n', ' ', '-', '0', '1', '9',  '.',        'e',       '<',
                               '>',  '"',  '/', 'x', '3', 'E', '\r', (char)0xff, (char)0x7f};
  for (int r = 0; r < rounds; ++r) {
    char *b = IPC_NEW(char, len + 1);
    memcpy(b, src, len);
    size_t n = rng_below(3) ? len : rng_below(len + 1);
    for (size_t k = rng_below(4); k > 0 && n > 0; --k)
      b[rng_below(n)] = rng_below(3) ? bytes[rng_below(sizeof bytes)] : (char)rng_below(256);
    b[n] = '\0';
    ipc_mesh m;
    ipc_error err = {IPC_OK, ""};
    ipc_status st = ipc_mesh_parse(name, b, n, &m, &err);
    if (st == IPC_OK) {
      CHECK_MSG(valid_mesh(&m), "%s round %d: accepted an invalid mesh", name, r);
      ++*ok;
    } else {
      CHECK_MSG(st == IPC_ERR_INPUT && !strncmp(err.msg, name, strlen(name)) &&
                    err.msg[strlen(name)] == ':',
                "%s round %d: '%s'", name, r, err.msg);
      CHECK(m.x == NULL);
      ++*bad;
    }
    ipc_mesh_free(&m);
    ipc_free(b);
  }
}

static void test_fuzz(void) {
  CHECK(write_frames("scenes/incline_obstacle.json"));
  int ok = 0, bad = 0;
  static const char *const ext[] = {"ply", "vtu"};
  for (int k = 0; k < 2; ++k) {
    char path[512], name[16];
    snprintf(path, sizeof path, "%s/000000.%s", dir, ext[k]);
    snprintf(name, sizeof name, "f.%s", ext[k]);
    size_t len;
    char *src = slurp(path, &len);
    CHECK(src != NULL);
    if (src) fuzz(name, src, len, 1500, &ok, &bad);
    ipc_free(src);
  }
  fuzz("c.ply", crossing_ply, sizeof crossing_ply - 1, 1500, &ok, &bad);
  fuzz("c.vtu", crossing_vtu, sizeof crossing_vtu - 1, 1500, &ok, &bad);
  fprintf(stderr, "fuzz: %d accepted, %d rejected cleanly\n", ok, bad);
  CHECK(ok > 0 && bad > 0);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/ipcc_test_frame_read_%d", (int)getpid());
  ipc_error err;
  CHECK(ipc_mkdir_p(dir, &err) == 0);
  test_own_frames("scenes/two_cubes.json", 2, 0);
  test_own_frames("scenes/incline_obstacle.json", 2, 1);
  test_planted_binary_ply();
  test_handwritten();
  test_bad();
  test_fuzz();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
