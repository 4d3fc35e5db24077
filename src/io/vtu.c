/* VTK XML UnstructuredGrid (.vtu) reader for ascii data arrays: one Piece, its Points and
   its Cells (connectivity, offsets, types) of type vertex (1), line (3), polyline (4),
   triangle (5), polygon (7), quad (9) and tetrahedron (10). tets give their boundary
   triangles (and the mesh's tets), the other cells are surfaces, segments or points. ipcc's
   frames (frame_vtu.c) add a PointData array 'obstacle' (1 on kinematic obstacles), which
   becomes ipc_mesh.vert_obstacle. other arrays are skipped; binary, appended and compressed
   arrays are refused when they hold data the reader needs. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/surface.h"
#include "io/mesh_internal.h"

enum { MAX_DEPTH = 32, MAX_INDEX = 1 << 30 };

enum {
  VTK_VERTEX = 1,
  VTK_LINE = 3,
  VTK_POLY_LINE = 4,
  VTK_TRIANGLE = 5,
  VTK_POLYGON = 7,
  VTK_QUAD = 9,
  VTK_TETRA = 10
};

/* one <...> tag: name, the attribute text, and where it is */
typedef struct tag {
  const char *name, *attrs;
  size_t name_len, attrs_len;
  const char *at;  /* its '<' */
  const char *end; /* one past its '>' */
  int closing, empty;
} tag;

/* a data array as read: its values and the line of its tag */
typedef struct array {
  double *v;
  size_t n;
  int line;
} array;

typedef struct vtu_reader {
  const char *name, *buf, *end;
  const char *p;
  const char *open[MAX_DEPTH]; /* names of the open elements (NUL-free, in the buffer) */
  size_t open_len[MAX_DEPTH];
  int depth;
  int pieces, piece_line;
  long npoints, ncells;
  array points, conn, offsets, types, obstacle;
} vtu_reader;

static int line_of(const vtu_reader *r, const char *at) {
  int line = 1;
  for (const char *q = r->buf; q < at && q < r->end; ++q) line += *q == '\n';
  return line;
}

static ipc_status fail_at(const vtu_reader *r, int line, ipc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ipc_status fail_at(const vtu_reader *r, int line, ipc_error *err, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ipc_error_set(err, IPC_ERR_INPUT, "%s:%d: %s", r->name, line, what);
}

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_name_char(char c) {
  return c && !is_space(c) && c != '>' && c != '/' && c != '=' && c != '<';
}

/* the text after what, at or after p, or NULL */
static const char *find(const vtu_reader *r, const char *p, const char *what) {
  size_t n = strlen(what);
  for (; p + n <= r->end; ++p) {
    p = memchr(p, what[0], (size_t)(r->end - p));
    if (!p || p + n > r->end) return NULL;
    if (!memcmp(p, what, n)) return p + n;
  }
  return NULL;
}

/* the next element tag at or after r->p (declarations and comments skipped): 1, 0 at the
   end of the file, or -1 with err set */
static int next_tag(vtu_reader *r, tag *t, ipc_error *err) {
  for (;;) {
    const char *lt = memchr(r->p, '<', (size_t)(r->end - r->p));
    if (!lt) return 0;
    const char *skip_to = NULL;
    if (r->end - lt >= 4 && !memcmp(lt, "<!--", 4))
      skip_to = find(r, lt + 4, "-->");
    else if (r->end - lt >= 2 && (lt[1] == '?' || lt[1] == '!'))
      skip_to = find(r, lt + 2, ">");
    else
      break;
    if (!skip_to) {
      fail_at(r, line_of(r, lt), err, "unterminated comment or declaration");
      return -1;
    }
    r->p = skip_to;
  }
  memset(t, 0, sizeof *t);
  t->at = memchr(r->p, '<', (size_t)(r->end - r->p));
  const char *q = t->at + 1;
  t->closing = q < r->end && *q == '/';
  q += t->closing;
  t->name = q;
  while (q < r->end && is_name_char(*q)) ++q;
  t->name_len = (size_t)(q - t->name);
  const char *gt = memchr(q, '>', (size_t)(r->end - q));
  if (t->name_len == 0 || !gt) {
    fail_at(r, line_of(r, t->at), err, "malformed tag, expected <NAME ...>");
    return -1;
  }
  t->empty = gt[-1] == '/' && gt - 1 >= q;
  t->attrs = q;
  t->attrs_len = (size_t)(gt - q - t->empty);
  t->end = gt + 1;
  r->p = t->end;
  return 1;
}

static int name_is(const char *s, size_t len, const char *name) {
  return strlen(name) == len && !memcmp(s, name, len);
}

static int tag_is(const tag *t, const char *name) {
  return name_is(t->name, t->name_len, name);
}

/* the value of attribute key of t (not NUL-terminated) or NULL */
static const char *attr(const tag *t, const char *key, size_t *len) {
  const char *p = t->attrs, *e = t->attrs + t->attrs_len;
  size_t kn = strlen(key);
  while (p < e) {
    while (p < e && is_space(*p)) ++p;
    const char *k = p;
    while (p < e && is_name_char(*p)) ++p;
    size_t klen = (size_t)(p - k);
    while (p < e && is_space(*p)) ++p;
    if (p >= e || *p != '=') return NULL;
    ++p;
    while (p < e && is_space(*p)) ++p;
    if (p >= e || (*p != '"' && *p != '\'')) return NULL;
    char quote = *p++;
    const char *v = p;
    while (p < e && *p != quote) ++p;
    if (p >= e) return NULL;
    if (klen == kn && !memcmp(k, key, kn)) {
      *len = (size_t)(p - v);
      return v;
    }
    ++p;
  }
  return NULL;
}

static int attr_is(const tag *t, const char *key, const char *want) {
  size_t n = 0;
  const char *v = attr(t, key, &n);
  return v && n == strlen(want) && !memcmp(v, want, n);
}

/* a non-negative integer attribute of at most MAX_INDEX */
static ipc_status attr_count(const vtu_reader *r, const tag *t, const char *key, long *out,
                             ipc_error *err) {
  size_t n = 0;
  const char *v = attr(t, key, &n);
  char buf[24];
  if (v && n > 0 && n < sizeof buf) {
    memcpy(buf, v, n);
    buf[n] = '\0';
    char *q;
    long x = strtol(buf, &q, 10);
    if (*q == '\0' && x >= 0 && x <= MAX_INDEX) {
      *out = x;
      return IPC_OK;
    }
  }
  return fail_at(r, line_of(r, t->at), err, "<%.*s>: expected %s=\"N\" with N in [0, %d]",
                 (int)t->name_len, t->name, key, MAX_INDEX);
}

/* the numbers of the data array opened by t (up to the next '<') into a; want values
   (-1: any count) */
static ipc_status read_array(vtu_reader *r, const tag *t, long want, array *a, ipc_error *err) {
  size_t nl = 0;
  const char *name = attr(t, "Name", &nl);
  int line = line_of(r, t->at);
  if (!name) name = "";
  if (a->v) return fail_at(r, line, err, "DataArray '%.*s' given twice", (int)nl, name);
  if (!attr_is(t, "format", "ascii"))
    return fail_at(r, line, err,
                   "DataArray '%.*s' is not format=\"ascii\"; only ascii arrays are read "
                   "(save the file as ascii in ParaView)",
                   (int)nl, name);
  const char *p = t->end, *e = memchr(p, '<', (size_t)(r->end - p));
  if (!e) e = r->end;
  /* every value takes a character and a separator: count is bounded by the text */
  size_t cap = (size_t)(e - p) / 2 + 1;
  if (want > 0 && (size_t)want > cap)
    return fail_at(r, line, err, "DataArray '%.*s': expected %ld values, the text holds fewer",
                   (int)nl, name, want);
  a->v = IPC_NEW(double, cap);
  a->line = line;
  while (p < e) {
    while (p < e && is_space(*p)) ++p;
    if (p >= e) break;
    char *q;
    double v = strtod(p, &q);
    if (q == p || q > e || (q < e && !is_space(*q)) || !isfinite(v)) {
      const char *w = p;
      while (w < e && !is_space(*w) && w - p < 20) ++w;
      return fail_at(r, line_of(r, p), err,
                     "DataArray '%.*s': expected a finite number, found '%.*s'", (int)nl, name,
                     (int)(w - p), p);
    }
    a->v[a->n++] = v;
    p = q;
  }
  if (want >= 0 && a->n != (size_t)want)
    return fail_at(r, line, err, "DataArray '%.*s': expected %ld values, found %zu", (int)nl, name,
                   want, a->n);
  r->p = e;
  return IPC_OK;
}

/* a DataArray inside the innermost open element: the ones the mesh needs are read */
static ipc_status data_array(vtu_reader *r, const tag *t, ipc_error *err) {
  const char *parent = r->open[r->depth - 1];
  size_t plen = r->open_len[r->depth - 1];
  if (r->pieces != 1) return IPC_OK;
  if (name_is(parent, plen, "Points")) return read_array(r, t, 3 * r->npoints, &r->points, err);
  if (name_is(parent, plen, "Cells")) {
    if (attr_is(t, "Name", "connectivity")) return read_array(r, t, -1, &r->conn, err);
    if (attr_is(t, "Name", "offsets")) return read_array(r, t, r->ncells, &r->offsets, err);
    if (attr_is(t, "Name", "types")) return read_array(r, t, r->ncells, &r->types, err);
  }
  if (name_is(parent, plen, "PointData") && attr_is(t, "Name", "obstacle"))
    return read_array(r, t, r->npoints, &r->obstacle, err);
  return IPC_OK;
}

/* the element tag t opens or closes (lines are counted only for messages: counting them
   at every tag would take quadratic time) */
static ipc_status element(vtu_reader *r, const tag *t, ipc_error *err) {
  if (t->closing) {
    if (r->depth == 0 || r->open_len[r->depth - 1] != t->name_len ||
        memcmp(r->open[r->depth - 1], t->name, t->name_len) != 0)
      return fail_at(r, line_of(r, t->at), err, "</%.*s> closes no open <%.*s>", (int)t->name_len,
                     t->name, (int)t->name_len, t->name);
    r->depth--;
    return IPC_OK;
  }
  if (r->depth == 0 && !tag_is(t, "VTKFile"))
    return fail_at(r, line_of(r, t->at), err, "expected <VTKFile>, found <%.*s>", (int)t->name_len,
                   t->name);
  if (tag_is(t, "VTKFile") && !attr_is(t, "type", "UnstructuredGrid"))
    return fail_at(r, line_of(r, t->at), err, "expected <VTKFile type=\"UnstructuredGrid\">");
  ipc_status st = IPC_OK;
  if (tag_is(t, "Piece")) {
    if (++r->pieces > 1)
      return fail_at(r, line_of(r, t->at), err,
                     "a second <Piece>; only one Piece is read (first on line %d)", r->piece_line);
    r->piece_line = line_of(r, t->at);
    st = attr_count(r, t, "NumberOfPoints", &r->npoints, err);
    if (!st) st = attr_count(r, t, "NumberOfCells", &r->ncells, err);
  } else if (tag_is(t, "DataArray") && r->depth > 0) {
    st = data_array(r, t, err);
  }
  if (st || t->empty) return st;
  if (r->depth == MAX_DEPTH) return fail_at(r, line_of(r, t->at), err, "elements nested too deep");
  r->open[r->depth] = t->name;
  r->open_len[r->depth++] = t->name_len;
  return IPC_OK;
}

static ipc_status scan_xml(vtu_reader *r, ipc_error *err) {
  tag t;
  int k;
  while ((k = next_tag(r, &t, err)) == 1) {
    /* raw binary follows: nothing the reader needs is in it */
    if (tag_is(&t, "AppendedData")) return IPC_OK;
    ipc_status st = element(r, &t, err);
    if (st) return st;
  }
  if (k < 0) return IPC_ERR_INPUT;
  if (r->depth > 0)
    return fail_at(r, line_of(r, r->end), err, "file ends inside <%.*s>",
                   (int)r->open_len[r->depth - 1], r->open[r->depth - 1]);
  return IPC_OK;
}

/* ---- cells to mesh ---- */

typedef struct cells_out {
  int *tets, *tris, *segs;
  int ntets, ntris, nsegs;
  size_t cap_tet, cap_tri, cap_seg;
} cells_out;

static void push(int **a, int *n, size_t *cap, int k, const int *v) {
  ipc_reserve((void **)a, cap, (size_t)*n + 1, (size_t)k * sizeof(int));
  memcpy(*a + (size_t)k * (size_t)*n, v, (size_t)k * sizeof(int));
  (*n)++;
}

/* the vertex count type t needs (0: any of at least min) */
static int cell_size(int type, int *min) {
  *min = 0;
  switch (type) {
    case VTK_VERTEX:
      return 1;
    case VTK_LINE:
      return 2;
    case VTK_TRIANGLE:
      return 3;
    case VTK_QUAD:
    case VTK_TETRA:
      return 4;
    case VTK_POLY_LINE:
      *min = 2;
      return 0;
    case VTK_POLYGON:
      *min = 3;
      return 0;
    default:
      return -1;
  }
}

static ipc_status add_cell(const vtu_reader *r, cells_out *c, long k, int type, const int *v, int n,
                           ipc_error *err) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (v[i] == v[j] && type != VTK_POLY_LINE && type != VTK_POLYGON)
        return fail_at(r, r->conn.line, err, "cell %ld (VTK type %d) repeats point %d", k, type,
                       v[i]);
  if (type == VTK_TETRA) push(&c->tets, &c->ntets, &c->cap_tet, 4, v);
  if (type == VTK_LINE || type == VTK_POLY_LINE)
    for (int i = 0; i + 1 < n; ++i) {
      if (v[i] == v[i + 1])
        return fail_at(r, r->conn.line, err, "cell %ld: segment from point %d to itself", k, v[i]);
      push(&c->segs, &c->nsegs, &c->cap_seg, 2, v + i);
    }
  if (type == VTK_TRIANGLE || type == VTK_QUAD || type == VTK_POLYGON)
    for (int i = 1; i + 1 < n; ++i) {
      int t[3] = {v[0], v[i], v[i + 1]};
      if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
        return fail_at(r, r->conn.line, err, "cell %ld (VTK type %d) repeats point %d", k, type,
                       t[1] == t[2] ? t[1] : t[0]);
      push(&c->tris, &c->ntris, &c->cap_tri, 3, t);
    }
  return IPC_OK;
}

static ipc_status read_cells(const vtu_reader *r, cells_out *c, ipc_error *err) {
  int *v = IPC_NEW(int, r->conn.n + 1);
  ipc_status st = IPC_OK;
  for (size_t i = 0; i < r->conn.n && !st; ++i) {
    double d = r->conn.v[i];
    if (!(d >= 0 && d < (double)r->npoints && d == floor(d)))
      st = fail_at(r, r->conn.line, err,
                   "connectivity entry %zu is %g, expected a point index in [0, %ld]", i, d,
                   r->npoints - 1);
    else
      v[i] = (int)d;
  }
  size_t start = 0;
  for (long k = 0; k < r->ncells && !st; ++k) {
    double off = r->offsets.v[k], ty = r->types.v[k];
    int min = 0, size = cell_size(ty == floor(ty) && fabs(ty) < 256 ? (int)ty : -1, &min);
    if (size < 0) {
      st = fail_at(r, r->types.line, err,
                   "cell %ld has VTK type %g, expected 1, 3, 4, 5, 7, 9 or 10 (vertex, line, "
                   "polyline, triangle, polygon, quad, tetra)",
                   k, ty);
    } else if (!(off >= (double)start && off <= (double)r->conn.n && off == floor(off))) {
      st = fail_at(r, r->offsets.line, err,
                   "offset %ld is %g, expected an end in [%zu, %zu] (offsets rise to the "
                   "connectivity length)",
                   k, off, start, r->conn.n);
    } else {
      int n = (int)((size_t)off - start);
      if ((size > 0 && n != size) || (size == 0 && n < min))
        st = fail_at(r, r->offsets.line, err, "cell %ld (VTK type %d) has %d points, expected %s%d",
                     k, (int)ty, n, size ? "" : "at least ", size ? size : min);
      else
        st = add_cell(r, c, k, (int)ty, v + start, n, err);
      start = (size_t)off;
    }
  }
  if (!st && start != r->conn.n)
    st = fail_at(r, r->offsets.line, err,
                 "the last offset is %zu, expected the connectivity length %zu", start, r->conn.n);
  ipc_free(v);
  return st;
}

/* tets positive (a file with all of them negative is flipped, as the other tet readers do),
   their boundary triangles in front of the surface cells */
static ipc_status tets_to_surface(const vtu_reader *r, const double *x, cells_out *c,
                                  ipc_error *err) {
  if (c->ntets == 0) return IPC_OK;
  int nneg = 0;
  for (int t = 0; t < c->ntets; ++t) nneg += ipc_tet_volume(x, c->tets + 4 * t) < 0;
  for (int t = 0; t < c->ntets; ++t) {
    int *tt = c->tets + 4 * t;
    if (nneg == c->ntets) {
      int s = tt[2];
      tt[2] = tt[3];
      tt[3] = s;
    } else if (!(ipc_tet_volume(x, tt) > 0)) {
      return fail_at(r, r->conn.line, err,
                     "tetrahedron %d (among the tets) has volume %g, expected a positive volume", t,
                     ipc_tet_volume(x, tt));
    }
  }
  int *bt = NULL, bad[2] = {-1, -1};
  int nb = ipc_tets_boundary_checked(c->tets, c->ntets, (int)r->npoints, &bt, bad);
  if (nb < 0)
    return fail_at(r, r->conn.line, err,
                   "tetrahedra %d and %d (among the tets) %s; expected a manifold tet mesh", bad[0],
                   bad[1],
                   nb == -1 ? "share a face with a third" : "lie on the same side of their face");
  int *all = IPC_NEW(int, 3 * ((size_t)nb + (size_t)c->ntris) + 1);
  memcpy(all, bt, 3 * (size_t)nb * sizeof(int));
  if (c->ntris) memcpy(all + 3 * (size_t)nb, c->tris, 3 * (size_t)c->ntris * sizeof(int));
  ipc_free(bt);
  ipc_free(c->tris);
  c->tris = all;
  c->ntris += nb;
  c->cap_tri = (size_t)c->ntris;
  return IPC_OK;
}

static void reader_free(vtu_reader *r) {
  ipc_free(r->points.v);
  ipc_free(r->conn.v);
  ipc_free(r->offsets.v);
  ipc_free(r->types.v);
  ipc_free(r->obstacle.v);
}

static ipc_status check_arrays(const vtu_reader *r, ipc_error *err) {
  int last = line_of(r, r->end);
  if (r->pieces == 0) return fail_at(r, last, err, "no <Piece>, expected one");
  if (r->npoints == 0) return fail_at(r, r->piece_line, err, "no points, expected at least one");
  if (!r->points.v) return fail_at(r, r->piece_line, err, "no <Points> DataArray");
  if (r->ncells > 0 && (!r->conn.v || !r->offsets.v || !r->types.v))
    return fail_at(r, r->piece_line, err,
                   "<Cells> needs the DataArrays connectivity, offsets and types");
  return IPC_OK;
}

/* 1 on the points the 'obstacle' array marks; NULL when it marks none */
static unsigned char *obstacle_points(const vtu_reader *r) {
  unsigned char *o = NULL;
  for (size_t i = 0; i < r->obstacle.n; ++i)
    if (r->obstacle.v[i] != 0) {
      if (!o) o = IPC_NEW0(unsigned char, r->obstacle.n);
      o[i] = 1;
    }
  return o;
}

ipc_status ipc_vtu_parse(const char *name, const char *buf, size_t len, ipc_mesh *out,
                         ipc_error *err) {
  memset(out, 0, sizeof *out);
  vtu_reader r;
  memset(&r, 0, sizeof r);
  r.name = name;
  r.buf = r.p = buf;
  r.end = buf + len;
  cells_out c;
  memset(&c, 0, sizeof c);
  ipc_status st = scan_xml(&r, err);
  if (!st) st = check_arrays(&r, err);
  if (!st && r.ncells > 0) st = read_cells(&r, &c, err);
  if (!st) st = tets_to_surface(&r, r.points.v, &c, err);
  if (st) {
    reader_free(&r);
    ipc_free(c.tets);
    ipc_free(c.tris);
    ipc_free(c.segs);
    return st;
  }
  out->nverts = (int)r.npoints;
  out->x = r.points.v;
  r.points.v = NULL;
  out->ntets = c.ntets;
  out->tets = c.tets;
  out->ntris = c.ntris;
  out->tris = c.tris ? c.tris : IPC_NEW(int, 0);
  out->nsegs = c.nsegs;
  out->segs = c.segs ? c.segs : IPC_NEW(int, 0);
  out->nobjects = 1;
  out->object_names = IPC_NEW(char *, 1);
  out->object_names[0] = ipc_mesh_default_name(name);
  out->object_tri_start = IPC_NEW(int, 2);
  out->object_tri_start[0] = 0;
  out->object_tri_start[1] = c.ntris;
  out->vert_obstacle = obstacle_points(&r);
  reader_free(&r);
  return IPC_OK;
}
