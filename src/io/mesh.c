/* mesh reading: format dispatch by extension, the checks shared by the tet readers
   (node tags, positive volumes, manifold boundary), and ipcc_mesh_free */
#include "ipcc/mesh.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/surface.h"
#include "io/mesh_internal.h"

void ipcc_mesh_free(ipcc_mesh *m) {
  if (!m) return;
  ipc_free(m->x);
  ipc_free(m->tets);
  ipc_free(m->tris);
  ipc_free(m->segs);
  if (m->object_names)
    for (int i = 0; i < m->nobjects; ++i) ipc_free(m->object_names[i]);
  ipc_free(m->object_names);
  ipc_free(m->object_tri_start);
  ipc_free(m->vert_obstacle);
  ipc_free(m->vert_object);
  memset(m, 0, sizeof *m);
}

char *ipc_mesh_default_name(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  char *s = IPC_NEW(char, n + 1);
  memcpy(s, base, n);
  s[n] = '\0';
  return s;
}

int ipc_tet_raw_add_node(ipc_tet_raw *r, long tag, const double xyz[3], int line) {
  size_t need = (size_t)r->nnodes + 1, cap = r->cap_nodes;
  ipc_reserve((void **)&r->x, &cap, need, 3 * sizeof(double));
  cap = r->cap_nodes;
  ipc_reserve((void **)&r->node_tag, &cap, need, sizeof(long));
  cap = r->cap_nodes;
  ipc_reserve((void **)&r->node_line, &cap, need, sizeof(int));
  r->cap_nodes = cap;
  int i = r->nnodes++;
  memcpy(r->x + 3 * i, xyz, 3 * sizeof(double));
  r->node_tag[i] = tag;
  r->node_line[i] = line;
  return i;
}

void ipc_tet_raw_add_tet(ipc_tet_raw *r, long id, const long nodes[4], int line) {
  size_t need = (size_t)r->ntets + 1, cap = r->cap_tets;
  ipc_reserve((void **)&r->tet_nodes, &cap, need, 4 * sizeof(long));
  cap = r->cap_tets;
  ipc_reserve((void **)&r->tet_id, &cap, need, sizeof(long));
  cap = r->cap_tets;
  ipc_reserve((void **)&r->tet_line, &cap, need, sizeof(int));
  r->cap_tets = cap;
  int t = r->ntets++;
  memcpy(r->tet_nodes + 4 * t, nodes, 4 * sizeof(long));
  r->tet_id[t] = id;
  r->tet_line[t] = line;
}

void ipc_tet_raw_free(ipc_tet_raw *r) {
  ipc_free(r->x);
  ipc_free(r->node_tag);
  ipc_free(r->node_line);
  ipc_free(r->tet_nodes);
  ipc_free(r->tet_id);
  ipc_free(r->tet_line);
  memset(r, 0, sizeof *r);
}

/* node tag -> index: a dense table when the tags are compact, else a sorted list */
typedef struct tag_entry {
  long tag;
  int idx;
} tag_entry;

typedef struct tag_map {
  long lo;
  size_t range;
  int *dense;        /* (range) index or -1 */
  tag_entry *sorted; /* (n) by tag, then index */
  int n;
} tag_map;

static int cmp_tag_entry(const void *a, const void *b) {
  const tag_entry *x = a, *y = b;
  if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

/* builds the map; on a duplicate tag sets *dup_a < *dup_b to the two node indices */
static int tag_map_build(tag_map *m, const long *tags, int n, int *dup_a, int *dup_b) {
  memset(m, 0, sizeof *m);
  m->n = n;
  long lo = tags[0], hi = tags[0];
  for (int i = 1; i < n; ++i) {
    if (tags[i] < lo) lo = tags[i];
    if (tags[i] > hi) hi = tags[i];
  }
  unsigned long range = (unsigned long)hi - (unsigned long)lo + 1ul;
  if (range != 0 && range <= 4ul * (unsigned long)n + 1024ul) {
    m->lo = lo;
    m->range = range;
    m->dense = IPC_NEW(int, range);
    for (size_t k = 0; k < range; ++k) m->dense[k] = -1;
    for (int i = 0; i < n; ++i) {
      size_t k = (size_t)((unsigned long)tags[i] - (unsigned long)lo);
      if (m->dense[k] >= 0) {
        *dup_a = m->dense[k];
        *dup_b = i;
        return 0;
      }
      m->dense[k] = i;
    }
    return 1;
  }
  m->sorted = IPC_NEW(tag_entry, n);
  for (int i = 0; i < n; ++i) m->sorted[i] = (tag_entry){tags[i], i};
  qsort(m->sorted, (size_t)n, sizeof *m->sorted, cmp_tag_entry);
  for (int i = 1; i < n; ++i) {
    if (m->sorted[i].tag == m->sorted[i - 1].tag) {
      *dup_a = m->sorted[i - 1].idx;
      *dup_b = m->sorted[i].idx;
      return 0;
    }
  }
  return 1;
}

static int tag_map_find(const tag_map *m, long tag) {
  if (m->dense) {
    unsigned long k = (unsigned long)tag - (unsigned long)m->lo;
    if (tag < m->lo || k >= m->range) return -1;
    return m->dense[k];
  }
  int a = 0, b = m->n;
  while (a < b) {
    int c = a + (b - a) / 2;
    if (m->sorted[c].tag < tag)
      a = c + 1;
    else
      b = c;
  }
  return a < m->n && m->sorted[a].tag == tag ? m->sorted[a].idx : -1;
}

static void tag_map_free(tag_map *m) {
  ipc_free(m->dense);
  ipc_free(m->sorted);
}

ipcc_status ipc_tet_raw_finish(ipc_tet_raw *r, const ipc_scan *node_s, const ipc_scan *ele_s,
                               ipcc_mesh *out, ipcc_error *err) {
  memset(out, 0, sizeof *out);
  if (r->nnodes == 0)
    return ipc_scan_fail(node_s, err, "no nodes in the file, expected at least 4");
  if (r->ntets == 0)
    return ipc_scan_fail(ele_s, err, "no tetrahedra in the file, expected at least one");

  tag_map map;
  int da = 0, db = 0;
  if (!tag_map_build(&map, r->node_tag, r->nnodes, &da, &db)) {
    tag_map_free(&map);
    return ipc_scan_fail_at(node_s, r->node_line[db], err,
                            "node %ld defined twice (first on line %d), expected unique node "
                            "numbers",
                            r->node_tag[db], r->node_line[da]);
  }
  int *tets = IPC_NEW(int, 4 * (size_t)r->ntets);
  for (int t = 0; t < r->ntets; ++t) {
    for (int k = 0; k < 4; ++k) {
      long tag = r->tet_nodes[4 * t + k];
      int i = tag_map_find(&map, tag);
      if (i < 0) {
        tag_map_free(&map);
        ipc_free(tets);
        return ipc_scan_fail_at(ele_s, r->tet_line[t], err,
                                "tetrahedron %ld refers to node %ld, which is not defined "
                                "(expected a node number from the node list)",
                                r->tet_id[t], tag);
      }
      tets[4 * t + k] = i;
    }
  }
  tag_map_free(&map);

  /* positive orientation; a file whose tets are all negative uses the opposite convention
     and is flipped as a whole (swap of the last two corners) */
  int nneg = 0, nbad = 0, first_bad = -1;
  double first_bad_vol = 0.0;
  for (int t = 0; t < r->ntets; ++t) {
    double vol = ipc_tet_volume(r->x, tets + 4 * t);
    if (vol < 0.0) ++nneg;
    if (!(vol > 0.0) && nbad++ == 0) {
      first_bad = t;
      first_bad_vol = vol;
    }
  }
  if (nneg == r->ntets) {
    for (int t = 0; t < r->ntets; ++t) {
      int tmp = tets[4 * t + 2];
      tets[4 * t + 2] = tets[4 * t + 3];
      tets[4 * t + 3] = tmp;
    }
  } else if (first_bad >= 0) {
    ipc_free(tets);
    return ipc_scan_fail_at(ele_s, r->tet_line[first_bad], err,
                            "tetrahedron %ld has volume %.6g, expected a positive volume "
                            "(%d of %d tetrahedra are not positive)",
                            r->tet_id[first_bad], first_bad_vol == 0.0 ? 0.0 : first_bad_vol, nbad,
                            r->ntets);
  }

  int bad[2] = {-1, -1};
  int *tris = NULL;
  int ntris = ipc_tets_boundary_checked(tets, r->ntets, r->nnodes, &tris, bad);
  if (ntris < 0) {
    ipc_free(tets);
    int t0 = bad[0], t1 = bad[1];
    if (ntris == -1)
      return ipc_scan_fail_at(ele_s, r->tet_line[t1], err,
                              "tetrahedra %ld and %ld (line %d) and at least one more share a "
                              "face; expected a manifold mesh (each face in at most two "
                              "tetrahedra)",
                              r->tet_id[t1], r->tet_id[t0], r->tet_line[t0]);
    return ipc_scan_fail_at(ele_s, r->tet_line[t1], err,
                            "tetrahedra %ld and %ld (line %d) lie on the same side of their "
                            "shared face; expected non-overlapping tetrahedra",
                            r->tet_id[t1], r->tet_id[t0], r->tet_line[t0]);
  }

  out->nverts = r->nnodes;
  out->x = r->x;
  r->x = NULL;
  out->ntets = r->ntets;
  out->tets = tets;
  out->ntris = ntris;
  out->tris = tris;
  out->nobjects = 1;
  out->object_names = IPC_NEW(char *, 1);
  out->object_names[0] = ipc_mesh_default_name(ele_s->name);
  out->object_tri_start = IPC_NEW(int, 2);
  out->object_tri_start[0] = 0;
  out->object_tri_start[1] = ntris;
  return IPCC_OK;
}

static const char *extension(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  return dot && dot != base ? dot + 1 : "";
}

static int ext_is(const char *ext, const char *want) {
  for (; *ext && *want; ++ext, ++want)
    if (tolower((unsigned char)*ext) != *want) return 0;
  return *ext == '\0' && *want == '\0';
}

ipcc_status ipc_mesh_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                           ipcc_error *err) {
  const char *ext = extension(name);
  if (ext_is(ext, "msh")) return ipc_msh_parse(name, buf, len, out, err);
  if (ext_is(ext, "obj")) return ipc_obj_parse(name, buf, len, 0, out, err);
  if (ext_is(ext, "seg")) return ipc_obj_parse(name, buf, len, 1, out, err);
  if (ext_is(ext, "ply")) return ipc_ply_parse(name, buf, len, out, err);
  if (ext_is(ext, "vtu")) return ipc_vtu_parse(name, buf, len, out, err);
  memset(out, 0, sizeof *out);
  return ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: unknown mesh format '.%s', expected .msh, .obj, .seg, .ply, .vtu, "
                       ".node or .ele",
                       name, ext);
}

/* path with its extension (if any) replaced by ext */
static char *with_extension(const char *path, const char *ext) {
  const char *e = extension(path);
  size_t stem = *e ? (size_t)(e - path - 1) : strlen(path);
  size_t n = stem + 1 + strlen(ext);
  char *s = IPC_NEW(char, n + 1);
  memcpy(s, path, stem);
  s[stem] = '.';
  strcpy(s + stem + 1, ext);
  return s;
}

static ipcc_status read_tetgen(const char *path, ipcc_mesh *out, ipcc_error *err) {
  char *node_path = with_extension(path, "node");
  char *ele_path = with_extension(path, "ele");
  char *nb = NULL, *eb = NULL;
  size_t nl = 0, el = 0;
  ipcc_status st = ipc_file_slurp(node_path, &nb, &nl, err);
  if (!st) st = ipc_file_slurp(ele_path, &eb, &el, err);
  if (!st) st = ipc_tetgen_parse(node_path, nb, nl, ele_path, eb, el, out, err);
  ipc_free(nb);
  ipc_free(eb);
  ipc_free(node_path);
  ipc_free(ele_path);
  return st;
}

int ipc_mesh_files(const char *path, char *files[2]) {
  const char *ext = extension(path);
  if (ext_is(ext, "node") || ext_is(ext, "ele") || *ext == '\0') {
    files[0] = with_extension(path, "node");
    files[1] = with_extension(path, "ele");
    return 2;
  }
  files[0] = with_extension(path, ext);
  return 1;
}

ipcc_status ipcc_mesh_read(const char *path, ipcc_mesh *out, ipcc_error *err) {
  memset(out, 0, sizeof *out);
  const char *ext = extension(path);
  if (ext_is(ext, "node") || ext_is(ext, "ele")) return read_tetgen(path, out, err);
  if (*ext == '\0') {
    char *node_path = with_extension(path, "node");
    int is_tetgen = access(node_path, F_OK) == 0;
    ipc_free(node_path);
    if (is_tetgen) return read_tetgen(path, out, err);
  }
  if (!ext_is(ext, "msh") && !ext_is(ext, "obj") && !ext_is(ext, "seg") && !ext_is(ext, "ply") &&
      !ext_is(ext, "vtu"))
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: unknown mesh format, expected the extension .msh, .obj, .seg, "
                         ".ply, .vtu, .node or .ele",
                         path);
  char *buf = NULL;
  size_t len = 0;
  ipcc_status st = ipc_file_slurp(path, &buf, &len, err);
  if (!st) st = ipc_mesh_parse(path, buf, len, out, err);
  ipc_free(buf);
  return st;
}
