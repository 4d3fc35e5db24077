/* PLY and VTU readers (src/io/ply.c, vtu.c): ipcc's own frames read back as the OBJ frame
   reads (same vertices, triangles, obstacle marks and objects), hand-written ascii/binary PLY
   and VTU files, planted intersections found, broken files refused naming the file, and
   fuzzed frames (a clean error or a valid mesh) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/surface.h"
#include "geometry/intersect_surface.h"
#include "io/frame_vtu.h"
#include "io/mesh_internal.h"
#include "io/path.h"
#include "ipcc/ipcc.h"
#include "test.h"

static char dir[256];

static char *slurp(const char *path, size_t *len) {
  ipcc_error err;
  *len = 0;
  return ipc_read_file_max(path, IPC_READ_MAX_MESH, len, &err);
}

/* writes frame 0 of scene in OBJ, PLY and VTU into dir */
static int write_frames(const char *scene) {
  ipcc_scene_def def;
  ipcc_error err;
  if (ipcc_scene_load(scene, &def, &err) != IPCC_OK) return 0;
  ipc_world *w = ipc_world_create(&def, &err);
  int ok =
      w && ipc_world_write_frame(w, dir, 0, IPCC_FORMAT_OBJ | IPCC_FORMAT_PLY | IPCC_FORMAT_VTU,
                                 &err) == IPCC_OK;
  ipc_world_destroy(w);
  ipcc_scene_def_free(&def);
  return ok;
}

static int read_frame(const char *ext, ipcc_mesh *m) {
  char path[512];
  snprintf(path, sizeof path, "%s/000000.%s", dir, ext);
  ipcc_error err;
  ipcc_status st = ipcc_mesh_read(path, m, &err);
  CHECK_MSG(st == IPCC_OK, "%s: %s", path, err.msg);
  return st == IPCC_OK;
}

/* intersecting pairs of m (obstacle pairs skipped when marked), -1 if the surface fails */
static long intersections(const ipcc_mesh *m) {
  ipc_surface s;
  ipcc_error err;
  if (ipc_surface_build(&s, m->nverts, m->tris, m->ntris, m->segs, m->nsegs, NULL, 0, NULL,
                        m->vert_obstacle, &err) != IPCC_OK)
    return -1;
  size_t n = ipc_surface_intersections(&s, m->x, m->vert_obstacle != NULL, NULL, 0);
  ipc_surface_free(&s);
  return (long)n;
}

static int count_marked(const ipcc_mesh *m) {
  int n = 0;
  for (int i = 0; m->vert_obstacle && i < m->nverts; ++i) n += m->vert_obstacle[i];
  return n;
}

/* 1 when every vertex of m has an object in [0, n) and every object has a vertex */
static int objects_cover(const ipcc_mesh *m, int n) {
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
   surface count and marks (plus interior tet vertices); all three know each vertex's body
   (OBJ: its object, PLY and VTU: object_id, the same indices) */
static void test_own_frames(const char *scene, int nbodies, int obstacles) {
  CHECK_MSG(write_frames(scene), "%s: frames written", scene);
  ipcc_mesh o, p, v;
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
  CHECK_MSG(objects_cover(&v, nbodies), "%s: VTU object_id", scene);
  /* the VTU's surface vertices (the OBJ's, in order: tet interiors in between) in the same
     bodies */
  int same = v.vert_object != NULL;
  for (int i = 0, j = 0; same && i < o.nverts; ++i) {
    while (j < v.nverts && memcmp(v.x + 3 * j, o.x + 3 * i, 3 * sizeof(double)) != 0) ++j;
    same = j < v.nverts && v.vert_object[j] == o.vert_object[i];
  }
  CHECK_MSG(same, "%s: VTU and OBJ put a vertex in different bodies", scene);
  ipcc_mesh_free(&o);
  ipcc_mesh_free(&p);
  ipcc_mesh_free(&v);
}

/* the binary PLY of two_cubes with the upper cube moved into the lower one */
static void test_planted_binary_ply(void) {
  CHECK(write_frames("scenes/two_cubes.json"));
  char path[512];
  snprintf(path, sizeof path, "%s/000000.ply", dir);
  size_t len;
  char *b = slurp(path, &len);
  if (!b) return;
  ipcc_mesh m;
  ipcc_error err;
  CHECK(ipc_ply_parse("a.ply", b, len, &m, &err) == IPCC_OK);
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
  ipcc_mesh_free(&m);
  CHECK(ipc_ply_parse("a.ply", b, len, &m, &err) == IPCC_OK);
  CHECK_MSG(intersections(&m) > 0, "planted intersection found");
  ipcc_mesh_free(&m);
  ipc_free(b);
}

static ipcc_status parse(const char *name, const char *text, ipcc_mesh *m, ipcc_error *err) {
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
  ipcc_mesh m;
  ipcc_error err;
  /* general PLY: a quad, an extra property and element, an edge list */
  static const char quad[] =
      "ply\r\nformat ascii 1.0\r\nobj_info made by hand\r\nelement vertex 5\r\n"
      "property double x\r\nproperty double y\r\nproperty double z\r\nproperty uchar red\r\n"
      "element face 1\r\nproperty uchar flags\r\nproperty list uchar uint vertex_indices\r\n"
      "element material 1\r\nproperty list uchar float rgb\r\n"
      "element edge 1\r\nproperty int vertex1\r\nproperty int vertex2\r\nend_header\r\n"
      "0 0 0 255\n1 0 0 0\n1 1 0 0\n0 1 0 0\n5 5 5 0\n7 4 0 1 2 3\n3 0.1 0.2 0.3\n2 4\n";
  CHECK_MSG(parse("q.ply", quad, &m, &err) == IPCC_OK, "%s", err.msg);
  CHECK(m.nverts == 5 && m.ntris == 2 && m.nsegs == 1 && m.vert_obstacle == NULL);
  CHECK(m.x[3 * 4] == 5 && m.tris[3] == 0 && m.tris[4] == 2 && m.tris[5] == 3);
  CHECK(m.vert_object == NULL); /* no object_id */
  ipcc_mesh_free(&m);
  CHECK(parse("c.ply", crossing_ply, &m, &err) == IPCC_OK && intersections(&m) > 0);
  ipcc_mesh_free(&m);
  CHECK_MSG(parse("c.vtu", crossing_vtu, &m, &err) == IPCC_OK, "%s", err.msg);
  CHECK(m.ntets == 2 && m.ntris == 8 && intersections(&m) > 0);
  ipcc_mesh_free(&m);
  /* obstacle marks: both triangles on obstacles, so the crossing is not counted */
  static const char marked[] =
      "ply\nformat ascii 1.0\ncomment obstacle 3\ncomment obstacle 4\n"
      "element vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
      "property int object_id\nelement face 2\nproperty list uchar int vertex_indices\n"
      "end_header\n0 0 0 3\n1 0 0 3\n0 1 0 3\n0.2 0.2 -1 4\n0.2 0.2 1 4\n1 1 0.5 4\n"
      "3 0 1 2\n3 3 4 5\n";
  CHECK(parse("o.ply", marked, &m, &err) == IPCC_OK && count_marked(&m) == 6);
  CHECK(intersections(&m) == 0);
  CHECK(m.vert_object && m.vert_object[0] == 3 && m.vert_object[5] == 4);
  ipcc_mesh_free(&m);
  /* OBJ objects of vertices listed first: each vertex takes the object of the first face,
     line or point that uses it (vertex 3 is in both triangles: the first, A's); an object of
     lines or points keeps its name; vertex 8 is in nothing (-1) */
  static const char listed[] =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 0 0\nv 3 0 0\nv 4 0 0\nv 5 0 0\n"
      "o A\nf 1 2 3\no B\nf 3 2 4\no rod\nl 5 6\no dust\np 7\n";
  CHECK_MSG(parse("l.obj", listed, &m, &err) == IPCC_OK, "%s", err.msg);
  static const int want[8] = {0, 0, 0, 1, 2, 2, 3, -1};
  CHECK(m.vert_object && !memcmp(m.vert_object, want, sizeof want));
  CHECK(m.nobjects == 4 && !strcmp(m.object_names[2], "rod") && !strcmp(m.object_names[3], "dust"));
  CHECK(m.object_tri_start[2] == 2 && m.object_tri_start[4] == 2);
  ipcc_mesh_free(&m);
}

/* broken files: IPCC_ERR_INPUT, the message names the file and what is wrong */
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
       "a.vtu:2: DataArray '' is binary and its type is not one of"},
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
      {"a.vtu",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"2\" "
       "NumberOfCells=\"0\">\n<Points><DataArray format=\"ascii\">0 0 0 1 0 0</DataArray>"
       "</Points><PointData>\n\n<DataArray Name=\"object_id\" format=\"ascii\">0 1.5</DataArray>"
       "</PointData></Piece></UnstructuredGrid></VTKFile>",
       "a.vtu:4: DataArray 'object_id': point 1 has 1.5, expected an integer object id"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k) {
    ipcc_mesh m;
    ipcc_error err = {IPCC_OK, ""};
    ipcc_status st = parse(cases[k].name, cases[k].text, &m, &err);
    CHECK_MSG(st == IPCC_ERR_INPUT && strstr(err.msg, cases[k].want), "case %zu: '%s'", k, err.msg);
    CHECK(m.x == NULL);
    ipcc_mesh_free(&m);
  }
}

/* ---- VTU encodings (frame_vtu.c: IPC_VTU_ENCODING; vtu.c: binary arrays) ---- */

static const char *const encodings[3] = {"ascii", "raw", "zlib"};

/* frame 0 of scene in OBJ, PLY and VTU, the VTU in encoding enc (IPC_VTU_ENCODING) */
static int write_frames_as(const char *scene, const char *enc) {
  setenv("IPC_VTU_ENCODING", enc, 1);
  int ok = write_frames(scene);
  unsetenv("IPC_VTU_ENCODING");
  return ok;
}

/* the corners of triangle t of m in a canonical order: sorted, so that the triangles of two
   meshes numbering their vertices differently compare */
typedef struct tri_key {
  double c[9];
} tri_key;

static int cmp_corner(const double *a, const double *b) {
  for (int d = 0; d < 3; ++d)
    if (a[d] != b[d]) return a[d] < b[d] ? -1 : 1;
  return 0;
}

static int cmp_key(const void *a, const void *b) {
  const tri_key *x = a, *y = b;
  for (int k = 0; k < 3; ++k) {
    int c = cmp_corner(x->c + 3 * k, y->c + 3 * k);
    if (c) return c;
  }
  return 0;
}

static tri_key *tri_keys(const ipcc_mesh *m) {
  tri_key *keys = IPC_NEW(tri_key, (size_t)m->ntris + 1);
  for (int t = 0; t < m->ntris; ++t) {
    const double *p[3];
    for (int k = 0; k < 3; ++k) p[k] = m->x + 3 * (size_t)m->tris[3 * t + k];
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j)
        if (cmp_corner(p[j], p[i]) < 0) {
          const double *s = p[i];
          p[i] = p[j];
          p[j] = s;
        }
    for (int k = 0; k < 3; ++k) memcpy(keys[t].c + 3 * k, p[k], 3 * sizeof(double));
  }
  qsort(keys, (size_t)m->ntris, sizeof *keys, cmp_key);
  return keys;
}

/* 1 when a and b have the same triangles at the same positions, bit for bit, whatever
   their vertex numbers */
static int same_triangles(const ipcc_mesh *a, const ipcc_mesh *b) {
  if (a->ntris != b->ntris) return 0;
  tri_key *ka = tri_keys(a), *kb = tri_keys(b);
  int same = !memcmp(ka, kb, sizeof *ka * (size_t)a->ntris);
  ipc_free(ka);
  ipc_free(kb);
  return same;
}

/* 1 when a and b are the same mesh: vertices bit for bit, cells and marks */
static int same_mesh(const ipcc_mesh *a, const ipcc_mesh *b) {
  size_t nv = (size_t)a->nverts;
  return a->nverts == b->nverts && !memcmp(a->x, b->x, 3 * sizeof(double) * nv) &&
         a->ntets == b->ntets && !memcmp(a->tets, b->tets, 4 * sizeof(int) * (size_t)a->ntets) &&
         a->ntris == b->ntris && !memcmp(a->tris, b->tris, 3 * sizeof(int) * (size_t)a->ntris) &&
         a->nsegs == b->nsegs && !memcmp(a->segs, b->segs, 2 * sizeof(int) * (size_t)a->nsegs) &&
         (a->vert_obstacle != NULL) == (b->vert_obstacle != NULL) &&
         (!a->vert_obstacle || !memcmp(a->vert_obstacle, b->vert_obstacle, nv));
}

/* a run's frame in each encoding reads back as its OBJ frame: the same triangles at the same
   positions, bit for bit, and the same obstacle marks; the three VTU meshes are identical */
static void test_encodings(const char *scene, int obstacles) {
  ipcc_mesh ascii;
  memset(&ascii, 0, sizeof ascii);
  for (int e = 0; e < 3; ++e) {
    CHECK_MSG(write_frames_as(scene, encodings[e]), "%s: %s frames written", scene, encodings[e]);
    char path[512];
    snprintf(path, sizeof path, "%s/000000.vtu", dir);
    size_t len;
    char *b = slurp(path, &len);
    if (!b) continue;
    /* the XML before the appended data holds no NUL byte: strstr sees all of it */
    int appended = strstr(b, "<AppendedData encoding=\"raw\">\n_") != NULL;
    int zlib = strstr(b, "compressor=\"vtkZLibDataCompressor\"") != NULL;
    CHECK_MSG(appended == (e > 0) && zlib == (e == 2), "%s: %s frame: appended %d, zlib %d", scene,
              encodings[e], appended, zlib);
    CHECK(strstr(b, "Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">") != NULL);
    CHECK((strstr(b, "Name=\"Points\" NumberOfComponents=\"3\" format=\"appended\"") != NULL) ==
          (e > 0));
    ipc_free(b);
    ipcc_mesh o, v;
    if (!read_frame("obj", &o)) continue;
    if (read_frame("vtu", &v)) {
      CHECK_MSG(same_triangles(&v, &o), "%s: %s VTU triangles are the OBJ's", scene, encodings[e]);
      CHECK(v.nsegs == o.nsegs && count_marked(&v) == count_marked(&o));
      CHECK((v.vert_obstacle != NULL) == obstacles);
      if (e == 0)
        ascii = v;
      else
        CHECK_MSG(same_mesh(&v, &ascii), "%s: %s VTU reads as the ascii one", scene, encodings[e]);
      if (e > 0) ipcc_mesh_free(&v);
    }
    ipcc_mesh_free(&o);
  }
  ipcc_mesh_free(&ascii);
}

static uint64_t get_le(const unsigned char *p, int size) {
  uint64_t u = 0;
  for (int k = size - 1; k >= 0; --k) u = u << 8 | p[k];
  return u;
}

/* the values of the array named name (the first after `after`) of a VTU frame: ascii, or
   appended as frame_vtu.c writes it (UInt64 headers, little-endian, zlib blocks when
   compressed), decoded here with zlib itself; NULL when it is not there */
static double *frame_array(const char *b, const char *after, const char *name, size_t *n) {
  char key[96];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *p = after ? strstr(b, after) : b;
  p = p ? strstr(p, key) : NULL;
  *n = 0;
  if (!p) return NULL;
  const char *tag = p;
  while (tag > b && *tag != '<') --tag;
  const char *gt = strchr(p, '>');
  const char *ascii = strstr(tag, "format=\"ascii\"");
  if (ascii && ascii < gt) {
    const char *end = strstr(gt, "</DataArray>");
    double *v = IPC_NEW(double, (size_t)(end - gt));
    for (char *q = (char *)gt + 1;;) {
      const char *s = q;
      double x = strtod(s, &q);
      if (q == s || q > end) break;
      v[(*n)++] = x;
    }
    return v;
  }
  const char *ty = strstr(tag, "type=\"") + 6, *off = strstr(tag, "offset=\"");
  if (!off || off > gt) return NULL;
  const unsigned char *d = (const unsigned char *)strstr(b, "<AppendedData encoding=\"raw\">\n_") +
                           31 + strtoull(off + 8, NULL, 10);
  int zlib = strstr(b, "compressor=\"vtkZLibDataCompressor\"") != NULL;
  size_t nbytes;
  unsigned char *bytes;
  if (!zlib) {
    nbytes = (size_t)get_le(d, 8);
    bytes = IPC_NEW(unsigned char, nbytes + 1);
    memcpy(bytes, d + 8, nbytes);
  } else {
    size_t nb = (size_t)get_le(d, 8), bs = (size_t)get_le(d + 8, 8),
           last = (size_t)get_le(d + 16, 8);
    nbytes = nb ? (nb - 1) * bs + (last ? last : bs) : 0;
    bytes = IPC_NEW(unsigned char, nbytes + 1);
    const unsigned char *z = d + 24 + 8 * nb;
    for (size_t k = 0; k < nb; ++k) {
      uLongf got = k + 1 < nb || !last ? bs : last;
      uLong cs = (uLong)get_le(d + 24 + 8 * k, 8);
      CHECK(uncompress(bytes + k * bs, &got, z, cs) == Z_OK);
      z += cs;
    }
  }
  int size = !strncmp(ty, "Float64", 7) ? 8 : !strncmp(ty, "Int32", 5) ? 4 : 1;
  double *v = IPC_NEW(double, nbytes / (size_t)size + 1);
  for (size_t i = 0; i < nbytes / (size_t)size; ++i) {
    uint64_t u = get_le(bytes + (size_t)size * i, size);
    if (size == 8)
      memcpy(&v[i], &u, 8);
    else
      v[i] = size == 4 ? (double)(int32_t)(uint32_t)u : (double)u;
  }
  *n = nbytes / (size_t)size;
  ipc_free(bytes);
  return v;
}

/* every array of the binary frames (written through the encoding parameter, not the
   environment) holds the values of the ascii frame, bit for bit; a bad IPC_VTU_ENCODING is
   an error naming it; the LCP writer too */
static void test_binary_arrays(void) {
  ipcc_scene_def def;
  ipcc_error err;
  if (ipcc_scene_load("scenes/incline_obstacle.json", &def, &err) != IPCC_OK) return;
  ipc_world *w = ipc_world_create(&def, &err);
  ipcc_step_stats st;
  for (int k = 0; k < 3 && w; ++k) CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
  static const struct {
    const char *after, *name;
  } arrays[] = {{NULL, "TimeValue"}, {NULL, "velocity"},       {NULL, "object_id"},
                {NULL, "obstacle"},  {NULL, "energy_density"}, {"<CellData", "object_id"},
                {NULL, "Points"},    {NULL, "connectivity"},   {NULL, "offsets"},
                {NULL, "types"}};
  char *text[3] = {NULL, NULL, NULL};
  for (int e = 0; e < 3 && w; ++e) {
    char path[512];
    snprintf(path, sizeof path, "%s/arrays_%s.vtu", dir, encodings[e]);
    CHECK(ipc_world_write_vtu_encoded(w, path, (ipc_vtu_encoding)(IPC_VTU_ASCII + e), &err) ==
          IPCC_OK);
    size_t len;
    text[e] = slurp(path, &len);
  }
  for (size_t k = 0; k < sizeof arrays / sizeof *arrays && text[0] && text[1] && text[2]; ++k) {
    size_t n0, n;
    double *a = frame_array(text[0], arrays[k].after, arrays[k].name, &n0);
    CHECK_MSG(a && n0 > 0, "ascii array %s", arrays[k].name);
    for (int e = 1; e < 3; ++e) {
      double *v = frame_array(text[e], arrays[k].after, arrays[k].name, &n);
      CHECK_MSG(v && a && n == n0 && !memcmp(v, a, n * sizeof(double)),
                "%s array %s: %zu values, the ascii one %zu", encodings[e], arrays[k].name, n, n0);
      ipc_free(v);
    }
    ipc_free(a);
  }
  double vmax = 0;
  size_t nv;
  double *vel = text[2] ? frame_array(text[2], NULL, "velocity", &nv) : NULL;
  for (size_t i = 0; vel && i < nv; ++i) vmax = fmax(vmax, fabs(vel[i]));
  CHECK(vmax > 0); /* the comparison saw moving points */
  ipc_free(vel);
  for (int e = 0; e < 3; ++e) ipc_free(text[e]);
  /* the environment: a bad name refused, naming the variable */
  char path[512];
  snprintf(path, sizeof path, "%s/env.vtu", dir);
  setenv("IPC_VTU_ENCODING", "gzip", 1);
  ipcc_error e2 = {IPCC_OK, ""};
  CHECK(w && ipc_world_write_vtu(w, path, &e2) == IPCC_ERR_INPUT &&
        strstr(e2.msg, "IPC_VTU_ENCODING is 'gzip', expected ascii, raw or zlib"));
  CHECK(access(path, F_OK) != 0);
  setenv("IPC_VTU_ENCODING", "raw", 1);
  CHECK(w && ipc_world_write_vtu(w, path, &e2) == IPCC_OK);
  unsetenv("IPC_VTU_ENCODING");
  size_t len;
  char *b = slurp(path, &len);
  CHECK(b && strstr(b, "<AppendedData encoding=\"raw\">") && !strstr(b, "compressor="));
  ipc_free(b);
  ipc_vtu_encoding enc;
  CHECK(ipc_vtu_encoding_parse("zlib", &enc) == 0 && enc == IPC_VTU_ZLIB);
  CHECK(ipc_vtu_encoding_parse("ZLIB", &enc) == -1);
  CHECK(ipc_vtu_encoding_from_env(&enc, &e2) == IPCC_OK && enc == IPC_VTU_DEFAULT_ENCODING);
  ipc_world_destroy(w);
  /* LCP: the raw and zlib frames read as the ascii one */
  ipc_lcp_world *lw = ipc_lcp_world_create(&def, NULL, &err);
  ipcc_lcp_step_stats ls;
  for (int k = 0; k < 3 && lw; ++k) CHECK(ipc_lcp_world_step(lw, &ls, &err) == IPCC_OK);
  ipcc_mesh m[3];
  for (int e = 0; e < 3 && lw; ++e) {
    snprintf(path, sizeof path, "%s/lcp_%s.vtu", dir, encodings[e]);
    CHECK(ipc_lcp_world_write_vtu_encoded(lw, path, (ipc_vtu_encoding)(IPC_VTU_ASCII + e), &err) ==
          IPCC_OK);
    CHECK_MSG(ipcc_mesh_read(path, &m[e], &err) == IPCC_OK, "%s", err.msg);
  }
  if (lw) {
    CHECK(same_mesh(&m[1], &m[0]) && same_mesh(&m[2], &m[0]) && m[0].ntets > 0);
    for (int e = 0; e < 3; ++e) ipcc_mesh_free(&m[e]);
  }
  ipc_lcp_world_destroy(lw);
  ipcc_scene_def_free(&def);
}

/* hand-made binary VTU files (base64 by Python's base64, zlib and struct): crossing_vtu's two
   tets in inline base64 (UInt32 headers encoded with the data; UInt64 headers encoded apart,
   as VTK does; zlib blocks of 80 bytes) and in appended base64 (zlib, UInt32 headers, the
   'obstacle' marks) */
static const char inline_u32_vtu[] =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    "<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"8\" NumberOfCells=\"2\">\n"
    "<Points>\n"
    "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"binary\">wAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA8D8AAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADwP5qZmZmZmbk/mpmZmZmZuT+amZmZmZm5P5qZmZmZmfE/mpmZmZmZuT+am"
    "ZmZmZm5P5qZmZmZmbk/mpmZmZmZ8T+amZmZmZm5P5qZmZmZmbk/mpmZmZmZuT+amZmZmZnxPw==</DataArray>\n"
    "</Points>\n"
    "<Cells>\n"
    "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"binary\">IAAAAAAAAAABAAAAAgAAAAMAAA"
    "AEAAAABQAAAAYAAAAHAAAA</DataArray>\n"
    "<DataArray type=\"Int64\" Name=\"offsets\" format=\"binary\">EAAAAAQAAAAAAAAACAAAAAAAAAA=</D"
    "ataArray>\n"
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"binary\">\n"
    "  AgAAAAoK\n"
    "  </DataArray>\n"
    "</Cells>\n"
    "</Piece>\n"
    "</UnstructuredGrid>\n"
    "</VTKFile>\n";
static const char inline_u64_vtu[] =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type="
    "\"UInt64\">\n"
    "<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"8\" NumberOfCells=\"2\">\n"
    "<Points>\n"
    "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"binary\">wAAAA"
    "AAAAAA=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA8D8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADwP"
    "wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPA/mpmZmZmZuT+amZmZmZm5P5qZmZmZmbk/mpmZmZmZ8T+amZmZm"
    "Zm5P5qZmZmZmbk/mpmZmZmZuT+amZmZmZnxP5qZmZmZmbk/mpmZmZmZuT+amZmZmZm5P5qZmZmZmfE/</DataArray>"
    "\n"
    "</Points>\n"
    "<Cells>\n"
    "<DataArray type=\"UInt16\" Name=\"connectivity\" format=\"binary\">EAAAAAAAAAA=AAABAAIAAwAEA"
    "AUABgAHAA==</DataArray>\n"
    "<DataArray type=\"Int64\" Name=\"offsets\" format=\"binary\">EAAAAAAAAAA=BAAAAAAAAAAIAAAAAAA"
    "AAA==</DataArray>\n"
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"binary\">AgAAAAAAAAA=Cgo=</DataArray>\n"
    "</Cells>\n"
    "</Piece>\n"
    "</UnstructuredGrid>\n"
    "</VTKFile>\n";
static const char inline_zlib_vtu[] =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type="
    "\"UInt64\" compressor=\"vtkZLibDataCompressor\">\n"
    "<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"8\" NumberOfCells=\"2\">\n"
    "<Points>\n"
    "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"binary\">AwAAA"
    "AAAAABQAAAAAAAAACAAAAAAAAAAEgAAAAAAAAAXAAAAAAAAABMAAAAAAAAAeJxjYMAHPtjjlcYiDwBQTgJfeJxjYEAGH"
    "+xnzQSBnTjojwTlAf77Jhh4nJs1EwR22s/CSn+0BwAxNxJ1</DataArray>\n"
    "</Points>\n"
    "<Cells>\n"
    "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"binary\">AQAAAAAAAABQAAAAAAAAAEAAAA"
    "AAAAAAHgAAAAAAAAA=eJxjYIAARijNBKWZoTQLlGaF0mxQmh1KAwAC4AAd</DataArray>\n"
    "<DataArray type=\"Int64\" Name=\"offsets\" format=\"binary\">AQAAAAAAAABQAAAAAAAAABAAAAAAAAA"
    "ADgAAAAAAAAA=eJxjYYAADigNAACQAA0=</DataArray>\n"
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"binary\">AQAAAAAAAABQAAAAAAAAAAIAAAAAAAAAC"
    "gAAAAAAAAA=eJzj4gIAACAAFQ==</DataArray>\n"
    "</Cells>\n"
    "</Piece>\n"
    "</UnstructuredGrid>\n"
    "</VTKFile>\n";
static const char appended_b64_vtu[] =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" compressor=\""
    "vtkZLibDataCompressor\">\n"
    "<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"8\" NumberOfCells=\"2\">\n"
    "<PointData>\n"
    "<DataArray type=\"UInt8\" Name=\"obstacle\" format=\"appended\" offset=\"236\"/>\n"
    "</PointData>\n"
    "<Points>\n"
    "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"appended\" off"
    "set=\"0\"/>\n"
    "</Points>\n"
    "<Cells>\n"
    "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"appended\" offset=\"88\"/>\n"
    "<DataArray type=\"Int32\" Name=\"offsets\" format=\"appended\" offset=\"152\"/>\n"
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"appended\" offset=\"196\"/>\n"
    "</Cells>\n"
    "</Piece>\n"
    "</UnstructuredGrid>\n"
    "<AppendedData encoding=\"base64\">\n"
    " _AgAAAGQAAABcAAAAFgAAABcAAAA=eJxjYMAHPtjjlSZCftbMmTMBjJMF83icmzlzp/2smSCATn/EIU68PACdMTT4AQ"
    "AAAGQAAAAgAAAAHQAAAA==eJxjYGBgYARiJiBmBmIWIGYFYjYgZgdiAAFwAB0=AQAAAGQAAAAIAAAADgAAAA==eJxjYW"
    "Bg4ABiAABIAA0=AQAAAGQAAAACAAAACgAAAA==eJzj4gIAACAAFQ==AQAAAGQAAAAIAAAACwAAAA==eJxjZIQAAAAsAA"
    "k=\n"
    "</AppendedData>\n"
    "</VTKFile>\n";

static void put_be(unsigned char *p, uint64_t v, int size) {
  for (int k = size - 1; k >= 0; --k, v >>= 8) p[k] = (unsigned char)v;
}

/* crossing_vtu's tets as raw appended data in big-endian byte order (UInt32 headers) */
static size_t big_endian_vtu(char *b) {
  static const double x[24] = {0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0,   1,
                               0.1, 0.1, 0.1, 1.1, 0.1, 0.1, 0.1, 1.1, 0.1, 0.1, 0.1, 1.1};
  int n =
      sprintf(b,
              "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"BigEndian\">\n"
              "<UnstructuredGrid><Piece NumberOfPoints=\"8\" NumberOfCells=\"2\"><Points>\n"
              "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"appended\" "
              "offset=\"0\"/>\n</Points><Cells>\n"
              "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"appended\" "
              "offset=\"196\"/>\n"
              "<DataArray type=\"Int16\" Name=\"offsets\" format=\"appended\" offset=\"232\"/>\n"
              "<DataArray type=\"UInt8\" Name=\"types\" format=\"appended\" offset=\"240\"/>\n"
              "</Cells></Piece></UnstructuredGrid>\n<AppendedData encoding=\"raw\">\n   _");
  unsigned char *p = (unsigned char *)b + n;
  put_be(p, 192, 4);
  for (int i = 0; i < 24; ++i) {
    uint64_t u;
    memcpy(&u, &x[i], 8);
    put_be(p + 4 + 8 * i, u, 8);
  }
  p += 196;
  put_be(p, 32, 4);
  for (int i = 0; i < 8; ++i) put_be(p + 4 + 4 * i, (uint64_t)i, 4);
  p += 36;
  put_be(p, 4, 4);
  put_be(p + 4, 4, 2);
  put_be(p + 6, 8, 2);
  p += 8;
  put_be(p, 2, 4);
  p[4] = p[5] = 10;
  p += 6;
  n = (int)((char *)p - b);
  return (size_t)n + (size_t)sprintf((char *)p, "\n</AppendedData>\n</VTKFile>\n");
}

static void test_binary_handwritten(void) {
  ipcc_mesh ref, m;
  ipcc_error err;
  if (parse("c.vtu", crossing_vtu, &ref, &err) != IPCC_OK) return;
  static const struct {
    const char *name, *text;
  } files[] = {{"inline_u32.vtu", inline_u32_vtu},
               {"inline_u64.vtu", inline_u64_vtu},
               {"inline_zlib.vtu", inline_zlib_vtu},
               {"appended_b64.vtu", appended_b64_vtu}};
  for (size_t k = 0; k < sizeof files / sizeof *files; ++k) {
    ipcc_status st = parse(files[k].name, files[k].text, &m, &err);
    CHECK_MSG(st == IPCC_OK, "%s: %s", files[k].name, err.msg);
    if (st) continue;
    int marked = k == 3; /* appended_b64 marks every point an obstacle */
    CHECK(m.vert_obstacle ? marked && count_marked(&m) == 8 : !marked);
    if (marked) {
      ipc_free(m.vert_obstacle);
      m.vert_obstacle = NULL;
    }
    CHECK_MSG(same_mesh(&m, &ref), "%s reads as crossing_vtu", files[k].name);
    ipcc_mesh_free(&m);
  }
  char big[2048];
  size_t n = big_endian_vtu(big);
  ipcc_status st = ipc_mesh_parse("big.vtu", big, n, &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (!st) CHECK_MSG(same_mesh(&m, &ref), "big-endian raw appended data read");
  ipcc_mesh_free(&m);
  ipcc_mesh_free(&ref);
}

/* text with the first `what` after `after` replaced by `with` (ipc_free it) */
static char *replaced(const char *text, size_t len, const char *after, const char *what,
                      const char *with, size_t *out_len) {
  const char *a = after ? strstr(text, after) : text;
  const char *p = a ? strstr(a, what) : NULL;
  CHECK_MSG(p != NULL, "'%s' after '%s'", what, after ? after : "");
  if (!p) p = text + len;
  size_t head = (size_t)(p - text), wl = p < text + len ? strlen(what) : 0, nw = strlen(with);
  char *b = IPC_NEW(char, len - wl + nw + 1);
  memcpy(b, text, head);
  memcpy(b + head, with, nw);
  memcpy(b + head + nw, p + wl, len - head - wl);
  *out_len = len - wl + nw;
  b[*out_len] = '\0';
  return b;
}

/* where the appended data of the array named name begin in b (frame_vtu.c's frames) */
static unsigned char *appended_at(char *b, const char *name) {
  char key[96];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *off = strstr(strstr(b, key), "offset=\"") + 8;
  return (unsigned char *)strstr(b, "<AppendedData encoding=\"raw\">\n_") + 31 +
         strtoull(off, NULL, 10);
}

static void expect_error(const char *name, const char *b, size_t len, const char *want) {
  ipcc_mesh m;
  ipcc_error err = {IPCC_OK, ""};
  ipcc_status st = ipc_mesh_parse(name, b, len, &m, &err);
  CHECK_MSG(st == IPCC_ERR_INPUT && !strncmp(err.msg, name, strlen(name)) && strstr(err.msg, want),
            "%s: want '%s', got '%s'", name, want, err.msg);
  CHECK(m.x == NULL);
  ipcc_mesh_free(&m);
}

/* malformed binary data: made from two_cubes' raw and zlib frames and the hand-made files;
   each a clear error naming the file, the line of the array and the array */
static void test_binary_bad(void) {
  char *frame[3] = {NULL, NULL, NULL};
  size_t flen[3] = {0, 0, 0};
  for (int e = 1; e < 3; ++e) {
    CHECK(write_frames_as("scenes/two_cubes.json", encodings[e]));
    char path[512];
    snprintf(path, sizeof path, "%s/000000.vtu", dir);
    frame[e] = slurp(path, &flen[e]);
  }
  if (!frame[1] || !frame[2]) return;
  char *raw = frame[1], *z = frame[2];
  size_t rl = flen[1], zl = flen[2], n;
  char *b;
  /* raw: an offset past the end of the appended data */
  b = replaced(raw, rl, "Name=\"Points\"", "offset=\"", "offset=\"99999", &n);
  expect_error("m.vtu", b, n, "m.vtu:20: DataArray 'Points': offset 99999");
  expect_error("m.vtu", b, n, "is past the end of the appended data (");
  ipc_free(b);
  /* raw: the data cut inside the connectivity (the closing tags kept) */
  b = IPC_NEW(char, rl + 64);
  n = (size_t)((char *)appended_at(raw, "connectivity") - raw) + 8 + 20;
  memcpy(b, raw, n);
  n += (size_t)sprintf(b + n, "\n</AppendedData>\n</VTKFile>\n");
  expect_error("m.vtu", b, n,
               "m.vtu:23: DataArray 'connectivity': the byte count is 192, 21 bytes follow");
  ipc_free(b);
  /* raw: byte counts that lie */
  b = IPC_NEW(char, rl + 1);
  memcpy(b, raw, rl);
  unsigned char *at = appended_at(b, "Points");
  at[0] += 8;
  expect_error("m.vtu", b, rl, "DataArray 'Points': expected 48 values, the data hold 49");
  at[0] -= 5;
  expect_error("m.vtu", b, rl, "DataArray 'Points': 387 bytes are not a whole number of Float64");
  at[0] -= 3;
  at = appended_at(b, "types");
  at[2] = 1;
  expect_error("m.vtu", b, rl, "DataArray 'types': expected 12 values, the data hold 65548");
  ipc_free(b);
  /* raw: no appended section, no '_', another encoding */
  b = replaced(raw, strstr(raw, "<AppendedData") - raw, NULL, "</UnstructuredGrid>\n",
               "</UnstructuredGrid>\n</VTKFile>\n", &n);
  expect_error("m.vtu", b, n,
               "m.vtu:20: DataArray 'Points' is appended, and the file has no "
               "<AppendedData>");
  ipc_free(b);
  b = replaced(raw, rl, NULL, "encoding=\"raw\">\n_", "encoding=\"rot\">\n_", &n);
  expect_error("m.vtu", b, n, "<AppendedData>: expected encoding=\"raw\" or \"base64\"");
  ipc_free(b);
  b = replaced(raw, rl, NULL, "encoding=\"raw\">\n_", "encoding=\"raw\">\n-", &n);
  expect_error("m.vtu", b, n, "<AppendedData>: expected '_' before the data");
  ipc_free(b);
  b = IPC_NEW(char, rl + 1);
  n = (size_t)((char *)appended_at(raw, "types") - raw);
  memcpy(b, raw, n);
  expect_error("m.vtu", b, n, "<AppendedData> has no </AppendedData>");
  ipc_free(b);
  /* zlib: compressed sizes that lie, a broken stream, block counts and sizes that lie */
  b = IPC_NEW(char, zl + 1);
  memcpy(b, z, zl);
  at = appended_at(b, "Points");
  CHECK(get_le(at, 8) == 1 && get_le(at + 8, 8) == 32768 && get_le(at + 16, 8) == 384);
  at[24] += 1;
  expect_error("m.vtu", b, zl, "DataArray 'Points': block 0 of 1 inflates to 384 bytes from ");
  at[24] -= 2;
  expect_error("m.vtu", b, zl, "DataArray 'Points': block 0 of 1 is not a zlib stream of ");
  at[24] += 1;
  at[24 + 8 + 20] ^= 0x55;
  expect_error("m.vtu", b, zl, "DataArray 'Points': block 0 of 1 is not a zlib stream of ");
  at[24 + 8 + 20] ^= 0x55;
  at[5] = 1;
  expect_error("m.vtu", b, zl,
               "DataArray 'Points': the compression header gives 1099511627777 "
               "blocks, the data cannot hold their sizes");
  at[5] = 0;
  at[16] += 8;
  expect_error("m.vtu", b, zl, "DataArray 'Points': expected 48 values, the data hold 49");
  at[16] -= 8;
  at[8] = 0;
  at[9] = 1; /* blocks of 256 bytes, the last of 384 */
  expect_error("m.vtu", b, zl, "gives 1 blocks of 256 bytes, the last of 384; expected blocks");
  at[9] = 0x80;
  /* the connectivity (any count): a full block of 32768 bytes */
  at = appended_at(b, "connectivity");
  at[16] = at[17] = 0;
  expect_error("m.vtu", b, zl, "DataArray 'connectivity': block 0 of 1 inflates to 192 bytes from");
  at[24] = 1;
  at[25] = 0;
  expect_error("m.vtu", b, zl, "block 0 of 1: 1 compressed bytes cannot inflate to 32768");
  ipc_free(b);
  b = replaced(z, zl, NULL, "vtkZLibDataCompressor", "vtkLZ4DataCompressor", &n);
  expect_error("m.vtu", b, n,
               "m.vtu:20: DataArray 'Points' is binary, and <VTKFile> has compressor=\"vtkLZ4Data"
               "Compressor\"; only vtkZLibDataCompressor is read");
  ipc_free(b);
  b = replaced(z, zl, NULL, "header_type=\"UInt64\"", "header_type=\"UInt16\"", &n);
  expect_error("m.vtu", b, n, "header_type=\"UInt16\", expected UInt32 or UInt64");
  ipc_free(b);
  /* base64: a character outside base64, a cut, text after the data, a bad type, a bad format */
  size_t il = strlen(inline_u64_vtu);
  b = replaced(inline_u64_vtu, il, "Name=\"Points\"", "AAAA", "AA*A", &n);
  expect_error("i.vtu", b, n,
               "i.vtu:6: DataArray 'Points': the byte count holds a character that is "
               "not base64");
  ipc_free(b);
  b = replaced(inline_u64_vtu, il, "Name=\"Points\"", "mfE/</DataArray>", "</DataArray>", &n);
  expect_error("i.vtu", b, n,
               "i.vtu:6: DataArray 'Points': the byte count is 192, 189 bytes follow");
  ipc_free(b);
  b = replaced(inline_u64_vtu, il, "Name=\"types\"", "</DataArray>", "AAAA</DataArray>", &n);
  expect_error("i.vtu", b, n, "DataArray 'types': text after its 2 values");
  ipc_free(b);
  b = replaced(inline_u64_vtu, il, NULL, "type=\"UInt16\"", "type=\"Float16\"", &n);
  expect_error("i.vtu", b, n, "DataArray 'connectivity' is binary and its type is not one of");
  ipc_free(b);
  b = replaced(inline_u64_vtu, il, "Name=\"offsets\"", "binary", "binery", &n);
  expect_error("i.vtu", b, n, "DataArray 'offsets' has format=\"binery\", expected ascii, binary");
  ipc_free(b);
  size_t al = strlen(appended_b64_vtu);
  b = replaced(appended_b64_vtu, al, "Name=\"types\"", "offset=\"", "offset=\"1", &n);
  expect_error("a.vtu", b, n, "DataArray 'types': offset 1");
  ipc_free(b);
  ipc_free(raw);
  ipc_free(z);
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

static int valid_mesh(const ipcc_mesh *m) {
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
    ipcc_mesh m;
    ipcc_error err = {IPCC_OK, ""};
    ipcc_status st = ipc_mesh_parse(name, b, n, &m, &err);
    if (st == IPCC_OK) {
      CHECK_MSG(valid_mesh(&m), "%s round %d: accepted an invalid mesh", name, r);
      ++*ok;
    } else {
      CHECK_MSG(st == IPCC_ERR_INPUT && !strncmp(err.msg, name, strlen(name)) &&
                    err.msg[strlen(name)] == ':',
                "%s round %d: '%s'", name, r, err.msg);
      CHECK(m.x == NULL);
      ++*bad;
    }
    ipcc_mesh_free(&m);
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
  ipcc_error err;
  CHECK(ipc_mkdir_p(dir, &err) == 0);
  test_own_frames("scenes/two_cubes.json", 2, 0);
  test_own_frames("scenes/incline_obstacle.json", 2, 1);
  test_planted_binary_ply();
  test_handwritten();
  test_bad();
  test_encodings("scenes/two_cubes.json", 0);
  test_encodings("scenes/incline_obstacle.json", 1);
  test_binary_arrays();
  test_binary_handwritten();
  test_binary_bad();
  test_fuzz();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  TEST_MAIN_END();
}
