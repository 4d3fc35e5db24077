/* PLY reader (ascii and binary_little_endian): the 'vertex' element's x, y, z (any numeric
   type), the 'face' element's vertex_indices (or vertex_index) list, fan-triangulated, and
   the 'edge' element's vertex1, vertex2 as segments; other elements and properties are read
   and skipped. ipcc's frames (frame_ply.c) add a vertex property object_id and header lines
   "comment obstacle K" naming the objects that are kinematic obstacles, which become
   ipcc_mesh.vert_obstacle; object_id becomes ipcc_mesh.vert_object. every count is checked
   against the bytes left before anything of that size is allocated. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/mesh_internal.h"

enum { MAX_ELEMS = 16, MAX_PROPS = 64, MAX_POLY = 1 << 16 };

typedef enum ply_type { T_NONE, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64 } ply_type;

static const struct {
  const char *name, *alias;
  ply_type type;
  int size;
} ply_types[] = {{"char", "int8", T_I8, 1},      {"uchar", "uint8", T_U8, 1},
                 {"short", "int16", T_I16, 2},   {"ushort", "uint16", T_U16, 2},
                 {"int", "int32", T_I32, 4},     {"uint", "uint32", T_U32, 4},
                 {"float", "float32", T_F32, 4}, {"double", "float64", T_F64, 8}};

typedef struct ply_prop {
  char name[32];
  ply_type type;  /* of the value, or of the list entries */
  ply_type count; /* T_NONE, or the type of a list's length */
} ply_prop;

typedef struct ply_elem {
  char name[32];
  long n;
  int nprops;
  ply_prop props[MAX_PROPS];
  int line; /* of its 'element' header line */
} ply_elem;

typedef struct ply_reader {
  ipc_scan s; /* header, and an ascii body */
  int binary;
  const unsigned char *base, *bin, *bin_end; /* the file, the binary body */
  int nelems;
  ply_elem elems[MAX_ELEMS];
  long *obstacles; /* object ids of "comment obstacle K" lines */
  int nobstacles;
  size_t cap_obstacles;
  /* where the value being read is, for messages */
  const ply_elem *cur;
  long cur_index;
  /* the mesh */
  int nverts;
  double *x;
  int *vobj;    /* (nverts) object_id, or NULL */
  int has_vobj; /* the vertex element has the property object_id */
  int ntris, nsegs;
  size_t cap_t, cap_s;
  int *tris, *segs;
  long *poly; /* the current face's indices */
} ply_reader;

static int type_size(ply_type t) {
  for (size_t k = 0; k < sizeof ply_types / sizeof *ply_types; ++k)
    if (ply_types[k].type == t) return ply_types[k].size;
  return 0;
}

static ply_type type_named(const char *tok, size_t len) {
  for (size_t k = 0; k < sizeof ply_types / sizeof *ply_types; ++k)
    if (ipc_token_is(tok, len, ply_types[k].name) || ipc_token_is(tok, len, ply_types[k].alias))
      return ply_types[k].type;
  return T_NONE;
}

/* the message prefix of the current element: "NAME: element face 12" (binary) or
   "NAME:LINE" (ascii, through ipc_scan_fail) */
static ipcc_status fail_here(ply_reader *r, ipcc_error *err, const char *what) {
  if (!r->binary) return ipc_scan_fail(&r->s, err, "%s %ld: %s", r->cur->name, r->cur_index, what);
  return ipc_error_set(err, IPCC_ERR_INPUT, "%s: element %s %ld (byte %ld): %s", r->s.name,
                       r->cur->name, r->cur_index, (long)(r->bin - r->base), what);
}

/* ---- header ---- */

/* the next token of the header line into (tok, len); 0 at end of line */
static size_t word(ply_reader *r, const char **tok) {
  size_t len = ipc_scan_peek(&r->s, tok);
  ipc_scan_advance(&r->s, len);
  return len;
}

static ipcc_status header_name(ply_reader *r, char out[32], const char *what, ipcc_error *err) {
  const char *tok;
  size_t len = word(r, &tok);
  if (len == 0 || len >= 32)
    return ipc_scan_fail(&r->s, err, "expected %s (1 to 31 characters)", what);
  memcpy(out, tok, len);
  out[len] = '\0';
  return IPCC_OK;
}

static ipcc_status header_type(ply_reader *r, ply_type *t, ipcc_error *err) {
  const char *tok;
  size_t len = word(r, &tok);
  *t = type_named(tok, len);
  if (*t == T_NONE)
    return ipc_scan_fail(&r->s, err,
                         "unknown property type '%.*s', expected char, uchar, short, ushort, int, "
                         "uint, float or double",
                         (int)(len > 24 ? 24 : len), tok);
  return IPCC_OK;
}

static ipcc_status header_property(ply_reader *r, ipcc_error *err) {
  if (r->nelems == 0) return ipc_scan_fail(&r->s, err, "property before any 'element' line");
  ply_elem *e = &r->elems[r->nelems - 1];
  if (e->nprops == MAX_PROPS)
    return ipc_scan_fail(&r->s, err, "element %s has more than %d properties", e->name, MAX_PROPS);
  ply_prop *p = &e->props[e->nprops++];
  p->count = T_NONE;
  const char *tok;
  size_t len = ipc_scan_peek(&r->s, &tok);
  ipcc_status st = IPCC_OK;
  if (ipc_token_is(tok, len, "list")) {
    ipc_scan_advance(&r->s, len);
    st = header_type(r, &p->count, err);
    if (!st && (p->count == T_F32 || p->count == T_F64))
      st = ipc_scan_fail(&r->s, err, "a list length must have an integer type");
  }
  if (!st) st = header_type(r, &p->type, err);
  if (!st) st = header_name(r, p->name, "a property name", err);
  return st;
}

static ipcc_status header_element(ply_reader *r, ipcc_error *err) {
  if (r->nelems == MAX_ELEMS)
    return ipc_scan_fail(&r->s, err, "more than %d elements in the header", MAX_ELEMS);
  ply_elem *e = &r->elems[r->nelems++];
  memset(e, 0, sizeof *e);
  e->line = r->s.line;
  ipcc_status st = header_name(r, e->name, "an element name", err);
  if (!st) st = ipc_scan_long_in(&r->s, &e->n, 0, 1L << 30, "element count", err);
  return st;
}

/* "comment obstacle K" (ipcc's frames); other comments are free text */
static ipcc_status header_comment(ply_reader *r, ipcc_error *err) {
  const char *tok;
  size_t len = ipc_scan_peek(&r->s, &tok);
  if (ipc_token_is(tok, len, "obstacle")) {
    ipc_scan_advance(&r->s, len);
    long k = 0;
    ipcc_status st = ipc_scan_long_in(&r->s, &k, 0, INT32_MAX, "obstacle object id", err);
    if (st) return st;
    ipc_reserve((void **)&r->obstacles, &r->cap_obstacles, (size_t)r->nobstacles + 1, sizeof(long));
    r->obstacles[r->nobstacles++] = k;
  }
  const char *nl = memchr(r->s.p, '\n', (size_t)(r->s.end - r->s.p));
  r->s.p = nl ? nl : r->s.end;
  return IPCC_OK;
}

static ipcc_status header_format(ply_reader *r, ipcc_error *err) {
  const char *tok;
  size_t len = word(r, &tok);
  if (ipc_token_is(tok, len, "ascii")) {
    r->binary = 0;
  } else if (ipc_token_is(tok, len, "binary_little_endian")) {
    r->binary = 1;
  } else {
    return ipc_scan_fail(&r->s, err,
                         "format '%.*s' is not supported, expected ascii or binary_little_endian",
                         (int)(len > 24 ? 24 : len), tok);
  }
  return ipc_scan_expect(&r->s, "1.0", " (the PLY version)", err);
}

static ipcc_status read_header(ply_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  if (s->end - s->p < 3 || memcmp(s->p, "ply", 3) != 0)
    return ipc_scan_fail(s, err, "expected 'ply' on the first line (not a PLY file)");
  ipc_scan_advance(s, 3);
  ipcc_status st = ipc_scan_expect_eol(s, err);
  int have_format = 0;
  while (!st) {
    ipc_scan_next_line(s);
    if (s->p >= s->end) return ipc_scan_fail(s, err, "no 'end_header' line");
    const char *tok;
    size_t len = word(r, &tok);
    if (ipc_token_is(tok, len, "end_header")) {
      st = ipc_scan_expect_eol(s, err);
      if (!st && !have_format) st = ipc_scan_fail(s, err, "no 'format' line in the header");
      if (!st) ipc_scan_next_line(s);
      return st;
    }
    if (ipc_token_is(tok, len, "format")) {
      st = header_format(r, err);
      have_format = 1;
    } else if (ipc_token_is(tok, len, "element")) {
      st = header_element(r, err);
    } else if (ipc_token_is(tok, len, "property")) {
      st = header_property(r, err);
    } else if (ipc_token_is(tok, len, "comment") || ipc_token_is(tok, len, "obj_info")) {
      st = header_comment(r, err);
    } else if (len > 0) {
      return ipc_scan_fail(s, err,
                           "unknown header line '%.*s', expected format, element, property, "
                           "comment or end_header",
                           (int)(len > 24 ? 24 : len), tok);
    }
    if (!st) st = ipc_scan_expect_eol(s, err);
  }
  return st;
}

/* ---- values ---- */

static double get_le(const unsigned char *b, ply_type t) {
  uint64_t u = 0;
  int n = type_size(t);
  for (int k = n - 1; k >= 0; --k) u = u << 8 | b[k];
  switch (t) {
    case T_I8:
      return (double)(int8_t)u;
    case T_U8:
      return (double)(uint8_t)u;
    case T_I16:
      return (double)(int16_t)u;
    case T_U16:
      return (double)(uint16_t)u;
    case T_I32:
      return (double)(int32_t)u;
    case T_U32:
      return (double)(uint32_t)u;
    case T_F32: {
      uint32_t w = (uint32_t)u;
      float f;
      memcpy(&f, &w, 4);
      return f;
    }
    default: {
      double d;
      memcpy(&d, &u, 8);
      return d;
    }
  }
}

/* one value of type t (a number; integer types must hold an integer) */
static ipcc_status value(ply_reader *r, ply_type t, const char *what, double *v, ipcc_error *err) {
  char msg[96];
  if (r->binary) {
    int n = type_size(t);
    if (r->bin_end - r->bin < n) {
      snprintf(msg, sizeof msg, "file ends inside the %s", what);
      return fail_here(r, err, msg);
    }
    *v = get_le(r->bin, t);
    r->bin += n;
    if (!isfinite(*v)) {
      snprintf(msg, sizeof msg, "the %s is not a finite number", what);
      return fail_here(r, err, msg);
    }
    return IPCC_OK;
  }
  ipcc_status st = ipc_scan_double(&r->s, v, what, err);
  if (!st && t != T_F32 && t != T_F64 && *v != floor(*v)) {
    snprintf(msg, sizeof msg, "the %s is %g, expected an integer", what, *v);
    st = fail_here(r, err, msg);
  }
  return st;
}

/* a list's length, at most max */
static ipcc_status list_length(ply_reader *r, const ply_prop *p, long max, long *n,
                               ipcc_error *err) {
  double v = 0;
  char what[64];
  snprintf(what, sizeof what, "length of the list %s", p->name);
  ipcc_status st = value(r, p->count, what, &v, err);
  if (!st && !(v >= 0 && v <= (double)max)) {
    char msg[128];
    snprintf(msg, sizeof msg, "list %s has %g entries, expected 0 to %ld", p->name, v, max);
    st = fail_here(r, err, msg);
  }
  *n = (long)v;
  return st;
}

static ipcc_status skip_property(ply_reader *r, const ply_prop *p, ipcc_error *err) {
  long n = 1;
  ipcc_status st = p->count == T_NONE ? IPCC_OK : list_length(r, p, INT32_MAX, &n, err);
  double v;
  for (long k = 0; !st && k < n; ++k) st = value(r, p->type, p->name, &v, err);
  return st;
}

/* a vertex index into [0, nverts) */
static ipcc_status vertex_index(ply_reader *r, double v, long *i, ipcc_error *err) {
  if (v >= 0 && v < r->nverts) {
    *i = (long)v;
    return IPCC_OK;
  }
  char msg[96];
  snprintf(msg, sizeof msg, "vertex index %.0f, expected an index in [0, %d]", v, r->nverts - 1);
  return fail_here(r, err, msg);
}

/* ---- elements ---- */

static ipcc_status read_vertex(ply_reader *r, const ply_elem *e, long i, ipcc_error *err) {
  ipcc_status st = IPCC_OK;
  for (int k = 0; !st && k < e->nprops; ++k) {
    const ply_prop *p = &e->props[k];
    int axis = !strcmp(p->name, "x")   ? 0
               : !strcmp(p->name, "y") ? 1
               : !strcmp(p->name, "z") ? 2
                                       : -1;
    int is_obj = !strcmp(p->name, "object_id") && p->count == T_NONE;
    if ((axis < 0 && !is_obj) || p->count != T_NONE) {
      st = skip_property(r, p, err);
      continue;
    }
    double v = 0;
    st = value(r, p->type, p->name, &v, err);
    if (!st && axis >= 0) r->x[3 * i + axis] = v;
    if (!st && is_obj) {
      if (!(v >= 0 && v <= INT32_MAX)) return fail_here(r, err, "object_id out of range");
      r->vobj[i] = (int)v;
    }
  }
  return st;
}

static void add_tri(ply_reader *r, const long *v) {
  ipc_reserve((void **)&r->tris, &r->cap_t, (size_t)r->ntris + 1, 3 * sizeof(int));
  for (int c = 0; c < 3; ++c) r->tris[3 * r->ntris + c] = (int)v[c];
  r->ntris++;
}

/* the polygon's indices (n of them in r->poly), fan-triangulated */
static ipcc_status add_polygon(ply_reader *r, long n, ipcc_error *err) {
  if (n < 3) {
    char msg[80];
    snprintf(msg, sizeof msg, "face lists %ld vertices, expected at least 3", n);
    return fail_here(r, err, msg);
  }
  for (long k = 1; k + 1 < n; ++k) {
    long t[3] = {r->poly[0], r->poly[k], r->poly[k + 1]};
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
      char msg[128];
      snprintf(msg, sizeof msg,
               "face repeats a vertex (triangle %ld %ld %ld), expected distinct "
               "vertices",
               t[0], t[1], t[2]);
      return fail_here(r, err, msg);
    }
    add_tri(r, t);
  }
  return IPCC_OK;
}

static ipcc_status read_face(ply_reader *r, const ply_elem *e, ipcc_error *err) {
  ipcc_status st = IPCC_OK;
  for (int k = 0; !st && k < e->nprops; ++k) {
    const ply_prop *p = &e->props[k];
    if (p->count == T_NONE ||
        (strcmp(p->name, "vertex_indices") != 0 && strcmp(p->name, "vertex_index") != 0)) {
      st = skip_property(r, p, err);
      continue;
    }
    long n = 0;
    st = list_length(r, p, MAX_POLY, &n, err);
    for (long j = 0; !st && j < n; ++j) {
      double v = 0;
      st = value(r, p->type, "vertex index", &v, err);
      if (!st) st = vertex_index(r, v, &r->poly[j], err);
    }
    if (!st) st = add_polygon(r, n, err);
  }
  return st;
}

static ipcc_status read_edge(ply_reader *r, const ply_elem *e, ipcc_error *err) {
  ipcc_status st = IPCC_OK;
  long v[2] = {-1, -1};
  for (int k = 0; !st && k < e->nprops; ++k) {
    const ply_prop *p = &e->props[k];
    int end = !strcmp(p->name, "vertex1") ? 0 : !strcmp(p->name, "vertex2") ? 1 : -1;
    if (end < 0 || p->count != T_NONE) {
      st = skip_property(r, p, err);
      continue;
    }
    double d = 0;
    st = value(r, p->type, p->name, &d, err);
    if (!st) st = vertex_index(r, d, &v[end], err);
  }
  if (st || v[0] < 0 || v[1] < 0) return st;
  if (v[0] == v[1]) return fail_here(r, err, "edge from a vertex to itself");
  ipc_reserve((void **)&r->segs, &r->cap_s, (size_t)r->nsegs + 1, 2 * sizeof(int));
  r->segs[2 * r->nsegs] = (int)v[0];
  r->segs[2 * r->nsegs + 1] = (int)v[1];
  r->nsegs++;
  return IPCC_OK;
}

/* the fewest bytes (binary) or characters (ascii: a digit and a separator per value) one
   instance of e takes */
static size_t min_bytes(const ply_reader *r, const ply_elem *e) {
  size_t n = 0;
  for (int k = 0; k < e->nprops; ++k) {
    const ply_prop *p = &e->props[k];
    n += r->binary ? (size_t)type_size(p->count == T_NONE ? p->type : p->count) : 2;
  }
  return n;
}

/* the vertex element's x, y, z are required; the counts must fit in the bytes left */
static ipcc_status check_layout(ply_reader *r, ipcc_error *err) {
  size_t left = r->binary ? (size_t)(r->bin_end - r->bin) : (size_t)(r->s.end - r->s.p) + 1;
  int have_vertex = 0;
  for (int i = 0; i < r->nelems; ++i) {
    const ply_elem *e = &r->elems[i];
    size_t need = min_bytes(r, e);
    if (e->n > 0 && (need == 0 || (size_t)e->n > left / need))
      return ipc_scan_fail_at(&r->s, e->line, err,
                              "element %s: %ld of them cannot fit in the %zu bytes after the "
                              "header (truncated file?)",
                              e->name, e->n, left);
    left -= (size_t)e->n * need;
    if (strcmp(e->name, "vertex") != 0) continue;
    have_vertex = 1;
    static const char *const axis[3] = {"x", "y", "z"};
    int axes = 0, object_id = 0;
    for (int k = 0; k < e->nprops; ++k) {
      const ply_prop *p = &e->props[k];
      for (int a = 0; a < 3; ++a)
        if (p->count == T_NONE && !strcmp(p->name, axis[a])) axes |= 1 << a;
      object_id |= p->count == T_NONE && !strcmp(p->name, "object_id");
    }
    if (axes != 7)
      return ipc_scan_fail_at(&r->s, e->line, err, "element vertex lacks a property x, y or z");
    r->has_vobj = object_id;
    if (r->nobstacles > 0 && !object_id)
      return ipc_scan_fail_at(&r->s, e->line, err,
                              "'comment obstacle' lines need a vertex property object_id");
  }
  if (!have_vertex) return ipc_scan_fail(&r->s, err, "no 'element vertex' in the header");
  return IPCC_OK;
}

static ipcc_status read_body(ply_reader *r, ipcc_error *err) {
  ipcc_status st = IPCC_OK;
  for (int i = 0; !st && i < r->nelems; ++i) {
    const ply_elem *e = &r->elems[i];
    r->cur = e;
    int kind = !strcmp(e->name, "vertex") ? 1
               : !strcmp(e->name, "face") ? 2
               : !strcmp(e->name, "edge") ? 3
                                          : 0;
    if (kind == 1) {
      r->nverts = (int)e->n;
      r->x = IPC_NEW0(double, 3 * (size_t)e->n + 1);
      r->vobj = IPC_NEW0(int, (size_t)e->n + 1);
    }
    for (long j = 0; !st && j < e->n; ++j) {
      r->cur_index = j;
      if (kind == 1)
        st = read_vertex(r, e, j, err);
      else if (kind == 2)
        st = read_face(r, e, err);
      else if (kind == 3)
        st = read_edge(r, e, err);
      else
        for (int k = 0; !st && k < e->nprops; ++k) st = skip_property(r, &e->props[k], err);
    }
  }
  if (st) return st;
  if (r->binary && r->bin != r->bin_end)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %ld bytes after the last element, expected the end of the file",
                         r->s.name, (long)(r->bin_end - r->bin));
  if (!r->binary && !ipc_scan_at_eof(&r->s))
    return ipc_scan_fail(&r->s, err, "text after the last element, expected the end of the file");
  return IPCC_OK;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* the vertices of the objects the header marks as obstacles; NULL when it marks none */
static unsigned char *obstacle_vertices(ply_reader *r) {
  if (r->nobstacles == 0) return NULL;
  qsort(r->obstacles, (size_t)r->nobstacles, sizeof *r->obstacles, cmp_long);
  unsigned char *vo = IPC_NEW0(unsigned char, (size_t)r->nverts + 1);
  for (int i = 0; i < r->nverts; ++i) {
    long id = r->vobj[i];
    vo[i] = bsearch(&id, r->obstacles, (size_t)r->nobstacles, sizeof id, cmp_long) != NULL;
  }
  return vo;
}

static void reader_free(ply_reader *r) {
  ipc_free(r->obstacles);
  ipc_free(r->x);
  ipc_free(r->vobj);
  ipc_free(r->tris);
  ipc_free(r->segs);
  ipc_free(r->poly);
}

ipcc_status ipc_ply_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                          ipcc_error *err) {
  ply_reader r;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  ipc_scan_init(&r.s, name, buf, len);
  r.base = (const unsigned char *)buf;
  ipcc_status st = read_header(&r, err);
  if (!st) {
    r.bin = (const unsigned char *)r.s.p;
    r.bin_end = (const unsigned char *)r.s.end;
    r.s.multiline = 1;
    st = check_layout(&r, err);
  }
  if (!st) {
    r.poly = IPC_NEW(long, MAX_POLY);
    st = read_body(&r, err);
  }
  if (!st && r.nverts == 0) st = ipc_scan_fail(&r.s, err, "no vertices, expected at least one");
  if (st) {
    reader_free(&r);
    return st;
  }
  out->nverts = r.nverts;
  out->x = r.x;
  out->ntris = r.ntris;
  out->tris = r.tris ? r.tris : IPC_NEW(int, 0);
  out->nsegs = r.nsegs;
  out->segs = r.segs ? r.segs : IPC_NEW(int, 0);
  out->nobjects = 1;
  out->object_names = IPC_NEW(char *, 1);
  out->object_names[0] = ipc_mesh_default_name(name);
  out->object_tri_start = IPC_NEW(int, 2);
  out->object_tri_start[0] = 0;
  out->object_tri_start[1] = r.ntris;
  out->vert_obstacle = obstacle_vertices(&r);
  if (r.has_vobj) {
    out->vert_object = r.vobj;
    r.vobj = NULL;
  }
  r.x = NULL;
  r.tris = r.segs = NULL;
  reader_free(&r);
  return IPCC_OK;
}
