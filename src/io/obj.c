/* Wavefront OBJ reader (and IPC's .seg, the same syntax with 's i j' as a segment):
   'v' positions, 'f' polygons (fan-triangulated, i, i/t, i//n, i/t/n and negative relative
   indices), 'l' polylines as segments, 'p' points, 'o'/'g' object names; texture, normal,
   material and smoothing statements are skipped. a vertex on no face or segment is an
   isolated point for the caller. each vertex belongs to the object of the first f, l or p
   statement that references it (ipcc_mesh.vert_object) */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "io/mesh_internal.h"

typedef struct obj_reader {
  ipc_scan s;
  int seg_mode;
  int nverts;
  size_t cap_v;
  double *x;
  int ntris;
  size_t cap_t;
  int *tris;
  int *tri_line;
  int nsegs;
  size_t cap_s;
  int *segs;
  int *seg_line;
  int nobjects;
  size_t cap_o;
  char **names;
  int *obj_start;
  int obj_used; /* the current object holds an f, l or p statement (it keeps its name) */
  int *seg_obj; /* (nsegs) object of each segment */
  int npts;     /* 'p' references: vertex, object and line of each */
  size_t cap_p;
  int *pts;
  unsigned char *vobs; /* (nverts) vertex defined inside an object marked as an obstacle */
  size_t cap_vobs;
  int cur_obstacle, any_obstacle;
  /* vertex references of the current statement */
  int nref;
  size_t cap_r;
  int *idx;
} obj_reader;

static void add_tri(obj_reader *r, int a, int b, int c, int line) {
  size_t need = (size_t)r->ntris + 1, cap = r->cap_t;
  ipc_reserve((void **)&r->tris, &cap, need, 3 * sizeof(int));
  cap = r->cap_t;
  ipc_reserve((void **)&r->tri_line, &cap, need, sizeof(int));
  r->cap_t = cap;
  int *t = r->tris + 3 * r->ntris;
  t[0] = a;
  t[1] = b;
  t[2] = c;
  r->tri_line[r->ntris++] = line;
}

/* the object of the statement being read: elements before the first o/g go to the object
   named after the file, which begin_object inserts at index 0 */
static int cur_object(const obj_reader *r) {
  return r->nobjects > 0 ? r->nobjects - 1 : 0;
}

static void add_seg(obj_reader *r, int a, int b, int line) {
  size_t need = (size_t)r->nsegs + 1, cap = r->cap_s;
  ipc_reserve((void **)&r->segs, &cap, need, 2 * sizeof(int));
  cap = r->cap_s;
  ipc_reserve((void **)&r->seg_line, &cap, need, sizeof(int));
  cap = r->cap_s;
  ipc_reserve((void **)&r->seg_obj, &cap, need, sizeof(int));
  r->cap_s = cap;
  r->segs[2 * r->nsegs] = a;
  r->segs[2 * r->nsegs + 1] = b;
  r->seg_obj[r->nsegs] = cur_object(r);
  r->seg_line[r->nsegs++] = line;
}

static void add_point(obj_reader *r, int v, int line) {
  ipc_reserve((void **)&r->pts, &r->cap_p, (size_t)r->npts + 1, 3 * sizeof(int));
  int *p = r->pts + 3 * r->npts++;
  p[0] = v;
  p[1] = cur_object(r);
  p[2] = line;
}

static void push_object(obj_reader *r, char *name) {
  size_t need = (size_t)r->nobjects + 2, cap = r->cap_o;
  ipc_reserve((void **)&r->names, &cap, need, sizeof(char *));
  cap = r->cap_o;
  ipc_reserve((void **)&r->obj_start, &cap, need, sizeof(int));
  r->cap_o = cap;
  r->names[r->nobjects] = name;
  r->obj_start[r->nobjects++] = r->ntris;
  r->obj_used = 0;
}

/* starts a new object at the current triangle count, or renames the current one if it
   holds no face, line or point yet (an object of segments or points keeps its name and an
   empty triangle range); elements before the first o/g form an object named after the
   file */
static void begin_object(obj_reader *r, const char *name, size_t len) {
  r->cur_obstacle = 0;
  char *s = IPC_NEW(char, len + 1);
  memcpy(s, name, len);
  s[len] = '\0';
  if (r->nobjects > 0 && !r->obj_used) {
    ipc_free(r->names[r->nobjects - 1]);
    r->names[r->nobjects - 1] = s;
    return;
  }
  if (r->nobjects == 0 && r->obj_used) {
    int n = r->ntris;
    r->ntris = 0;
    push_object(r, ipc_mesh_default_name(r->s.name));
    r->ntris = n;
  }
  push_object(r, s);
}

/* reads the vertex references of an f/l/p/s statement into r->idx (0-based, resolved
   against the vertices defined so far for negative indices; positive ones are checked at
   the end); requires at least min of them */
static ipcc_status read_refs(obj_reader *r, int min, const char *what, ipcc_error *err) {
  ipc_scan *s = &r->s;
  r->nref = 0;
  while (!ipc_scan_at_eol(s)) {
    const char *tok;
    size_t len = ipc_scan_peek(s, &tok);
    char *q;
    errno = 0;
    long v = strtol(tok, &q, 10);
    int huge = errno == ERANGE || v > (1L << 30) || v < -(1L << 30);
    /* the vertex index may be followed by /texture/normal, which are skipped */
    int ok = q > tok && (q == tok + len || *q == '/');
    if (ok && *q == '/') {
      for (const char *c = q; c < tok + len; ++c)
        if (!((*c >= '0' && *c <= '9') || *c == '/' || *c == '-')) ok = 0;
    }
    if (!ok) {
      char found[40];
      ipc_scan_describe(s, found, sizeof found);
      return ipc_scan_fail(s, err, "expected a vertex index in the %s, found %s", what, found);
    }
    if (huge) /* as written: strtol's clamped value would be misleading */
      return ipc_scan_fail(s, err, "vertex index '%.*s' in the %s is out of range (at most 2^30)",
                           (int)(q - tok > 40 ? 40 : q - tok), tok, what);
    if (v == 0)
      return ipc_scan_fail(s, err,
                           "vertex index 0 in the %s, expected indices from 1 (or "
                           "negative, relative to the last vertex)",
                           what);
    if (v < 0) {
      if (v < -(long)r->nverts)
        return ipc_scan_fail(s, err,
                             "relative vertex index %ld in the %s, but only %d "
                             "vertices are defined before it",
                             v, what, r->nverts);
      v = r->nverts + v;
    } else {
      v = v - 1;
    }
    size_t need = (size_t)r->nref + 1, cap = r->cap_r;
    ipc_reserve((void **)&r->idx, &cap, need, sizeof(int));
    r->cap_r = cap;
    r->idx[r->nref++] = (int)v;
    ipc_scan_advance(s, len);
  }
  if (r->nref < min)
    return ipc_scan_fail(s, err, "%s lists %d vertex indices, expected at least %d", what, r->nref,
                         min);
  return IPCC_OK;
}

static ipcc_status read_vertex(obj_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  double xyz[3];
  static const char *const axis[3] = {"vertex x coordinate", "vertex y coordinate",
                                      "vertex z coordinate"};
  for (int k = 0; k < 3; ++k) {
    ipcc_status st = ipc_scan_double(s, &xyz[k], axis[k], err);
    if (st) return st;
  }
  /* optional weight or r g b colour */
  for (int k = 0; k < 4 && !ipc_scan_at_eol(s); ++k) {
    double extra;
    ipcc_status st = ipc_scan_double(s, &extra, "vertex weight or colour", err);
    if (st) return st;
  }
  ipcc_status st = ipc_scan_expect_eol(s, err);
  if (st) return st;
  if (r->nverts >= (1 << 30)) return ipc_scan_fail(s, err, "too many vertices");
  size_t cap = r->cap_v;
  ipc_reserve((void **)&r->x, &cap, (size_t)r->nverts + 1, 3 * sizeof(double));
  r->cap_v = cap;
  ipc_reserve((void **)&r->vobs, &r->cap_vobs, (size_t)r->nverts + 1, 1);
  r->vobs[r->nverts] = (unsigned char)r->cur_obstacle;
  memcpy(r->x + 3 * r->nverts, xyz, sizeof xyz);
  r->nverts++;
  return IPCC_OK;
}

static int is_keyword(const char *tok, size_t len) {
  if (len == 0 || !((tok[0] >= 'a' && tok[0] <= 'z') || (tok[0] >= 'A' && tok[0] <= 'Z'))) return 0;
  for (size_t k = 1; k < len; ++k) {
    char c = tok[k];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return 0;
  }
  return 1;
}

static ipcc_status read_statement(obj_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  const char *tok;
  size_t len = ipc_scan_peek(s, &tok);
  int line = s->line;
  ipcc_status st = IPCC_OK;
  if (ipc_token_is(tok, len, "v")) {
    ipc_scan_advance(s, len);
    return read_vertex(r, err);
  }
  if (ipc_token_is(tok, len, "f")) {
    ipc_scan_advance(s, len);
    st = read_refs(r, 3, "face", err);
    r->obj_used |= !st;
    for (int k = 1; !st && k + 1 < r->nref; ++k)
      add_tri(r, r->idx[0], r->idx[k], r->idx[k + 1], line);
    return st;
  }
  if (ipc_token_is(tok, len, "l") || (r->seg_mode && ipc_token_is(tok, len, "s"))) {
    ipc_scan_advance(s, len);
    st = read_refs(r, 2, tok[0] == 'l' ? "line" : "segment", err);
    r->obj_used |= !st;
    for (int k = 0; !st && k + 1 < r->nref; ++k) add_seg(r, r->idx[k], r->idx[k + 1], line);
    return st;
  }
  if (ipc_token_is(tok, len, "p")) {
    ipc_scan_advance(s, len);
    st = read_refs(r, 1, "point", err);
    for (int k = 0; !st && k < r->nref; ++k)
      if (r->idx[k] >= r->nverts)
        return ipc_scan_fail(s, err, "point refers to vertex %d, but only %d are defined",
                             r->idx[k] + 1, r->nverts);
    r->obj_used |= !st;
    for (int k = 0; !st && k < r->nref; ++k) add_point(r, r->idx[k], line);
    return st;
  }
  if (ipc_token_is(tok, len, "o") || ipc_token_is(tok, len, "g")) {
    ipc_scan_advance(s, len);
    ipc_scan_at_eol(s);
    const char *a = s->p;
    const char *e = memchr(a, '\n', (size_t)(s->end - a));
    if (!e) e = s->end;
    while (e > a && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) --e;
    s->p = e;
    if (e > a) begin_object(r, a, (size_t)(e - a));
    return IPCC_OK;
  }
  if (is_keyword(tok, len)) {
    /* vt, vn, s, usemtl, mtllib and other statements: skipped to the end of the line */
    const char *e = memchr(s->p, '\n', (size_t)(s->end - s->p));
    s->p = e ? e : s->end;
    return IPCC_OK;
  }
  char found[40];
  ipc_scan_describe(s, found, sizeof found);
  return ipc_scan_fail(s, err, "expected an OBJ statement (v, f, l, p, o, g, ...), found %s",
                       found);
}

static void reader_free(obj_reader *r) {
  ipc_free(r->x);
  ipc_free(r->tris);
  ipc_free(r->tri_line);
  ipc_free(r->segs);
  ipc_free(r->seg_line);
  ipc_free(r->seg_obj);
  ipc_free(r->pts);
  ipc_free(r->vobs);
  for (int i = 0; i < r->nobjects; ++i) ipc_free(r->names[i]);
  ipc_free(r->names);
  ipc_free(r->obj_start);
  ipc_free(r->idx);
}

typedef struct seg_key {
  int64_t key; /* lo * nverts + hi */
  int idx;     /* segment index, or -1 for a triangle edge */
} seg_key;

static int cmp_seg_key(const void *a, const void *b) {
  const seg_key *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

/* drops segments that lie on a triangle edge or repeat an earlier segment, keeping order */
static void drop_redundant_segments(obj_reader *r) {
  if (r->nsegs == 0) return;
  size_t n = 3 * (size_t)r->ntris + (size_t)r->nsegs;
  seg_key *k = IPC_NEW(seg_key, n);
  size_t m = 0;
  for (int t = 0; t < r->ntris; ++t)
    for (int c = 0; c < 3; ++c) {
      int a = r->tris[3 * t + c], b = r->tris[3 * t + (c + 1) % 3];
      k[m++] = (seg_key){(int64_t)(a < b ? a : b) * r->nverts + (a < b ? b : a), -1};
    }
  for (int e = 0; e < r->nsegs; ++e) {
    int a = r->segs[2 * e], b = r->segs[2 * e + 1];
    k[m++] = (seg_key){(int64_t)(a < b ? a : b) * r->nverts + (a < b ? b : a), e};
  }
  qsort(k, n, sizeof *k, cmp_seg_key);
  unsigned char *drop = IPC_NEW0(unsigned char, (size_t)r->nsegs);
  for (size_t i = 1; i < n; ++i)
    if (k[i].key == k[i - 1].key && k[i].idx >= 0) drop[k[i].idx] = 1;
  int kept = 0;
  for (int e = 0; e < r->nsegs; ++e) {
    if (drop[e]) continue;
    r->segs[2 * kept] = r->segs[2 * e];
    r->segs[2 * kept + 1] = r->segs[2 * e + 1];
    ++kept;
  }
  r->nsegs = kept;
  ipc_free(drop);
  ipc_free(k);
}

/* positive indices may refer to vertices defined later in the file: checked here */
static ipcc_status check_elements(obj_reader *r, ipcc_error *err) {
  for (int t = 0; t < r->ntris; ++t) {
    const int *v = r->tris + 3 * t;
    for (int k = 0; k < 3; ++k)
      if (v[k] >= r->nverts)
        return ipc_scan_fail_at(&r->s, r->tri_line[t], err,
                                "face refers to vertex %d, expected an index in [1, %d]", v[k] + 1,
                                r->nverts);
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
      return ipc_scan_fail_at(&r->s, r->tri_line[t], err,
                              "face repeats vertex %d, expected distinct vertices (degenerate "
                              "triangle %d %d %d)",
                              (v[0] == v[1] || v[0] == v[2] ? v[0] : v[1]) + 1, v[0] + 1, v[1] + 1,
                              v[2] + 1);
  }
  for (int e = 0; e < r->nsegs; ++e) {
    const int *v = r->segs + 2 * e;
    for (int k = 0; k < 2; ++k)
      if (v[k] >= r->nverts)
        return ipc_scan_fail_at(&r->s, r->seg_line[e], err,
                                "segment refers to vertex %d, expected an index in [1, %d]",
                                v[k] + 1, r->nverts);
    if (v[0] == v[1])
      return ipc_scan_fail_at(&r->s, r->seg_line[e], err,
                              "segment from vertex %d to itself, expected two distinct vertices",
                              v[0] + 1);
  }
  return IPCC_OK;
}

/* the object of each vertex: that of the first face, segment or point (by line) referencing
   it, -1 for none. call after check_elements and before segments are dropped */
static int *vertex_objects(const obj_reader *r) {
  int *obj = IPC_NEW(int, (size_t)r->nverts + 1), *first = IPC_NEW(int, (size_t)r->nverts + 1);
  for (int i = 0; i < r->nverts; ++i) {
    obj[i] = -1;
    first[i] = INT32_MAX;
  }
  for (int o = 0, t = 0; t < r->ntris; ++t) {
    while (o + 1 < r->nobjects && r->obj_start[o + 1] <= t) ++o;
    for (int c = 0; c < 3; ++c) {
      int v = r->tris[3 * t + c];
      if (r->tri_line[t] < first[v]) {
        first[v] = r->tri_line[t];
        obj[v] = o;
      }
    }
  }
  for (int e = 0; e < r->nsegs; ++e)
    for (int c = 0; c < 2; ++c) {
      int v = r->segs[2 * e + c];
      if (r->seg_line[e] < first[v]) {
        first[v] = r->seg_line[e];
        obj[v] = r->seg_obj[e];
      }
    }
  for (int k = 0; k < r->npts; ++k) {
    const int *p = r->pts + 3 * k;
    if (p[2] < first[p[0]]) {
      first[p[0]] = p[2];
      obj[p[0]] = p[1];
    }
  }
  ipc_free(first);
  return obj;
}

ipcc_status ipc_obj_parse(const char *name, const char *buf, size_t len, int seg, ipcc_mesh *out,
                          ipcc_error *err) {
  obj_reader r;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  r.seg_mode = seg;
  ipc_scan_init(&r.s, name, buf, len);
  r.s.hash_comments = 1;
  ipcc_status st = IPCC_OK;
  static const char marker[] = "# ipcc obstacle";
  while (!st && r.s.p < r.s.end) {
    /* ipcc's frames mark kinematic obstacles, so `ipcc check` can skip obstacle pairs */
    if ((size_t)(r.s.end - r.s.p) >= sizeof marker - 1 &&
        !memcmp(r.s.p, marker, sizeof marker - 1)) {
      r.cur_obstacle = r.any_obstacle = 1;
    }
    if (ipc_scan_at_eol(&r.s)) {
      ipc_scan_next_line(&r.s);
      continue;
    }
    st = read_statement(&r, err);
    if (!st && !ipc_scan_at_eol(&r.s)) st = ipc_scan_expect_eol(&r.s, err);
  }
  if (!st && r.nverts == 0)
    st = ipc_scan_fail(&r.s, err, "no vertices, expected at least one 'v' line");
  if (!st) st = check_elements(&r, err);
  if (st) {
    reader_free(&r);
    return st;
  }
  /* objects: a default one named after the file when the file names none; a trailing object
     without faces, lines or points is dropped unless it is the only one */
  if (r.nobjects == 0) {
    push_object(&r, ipc_mesh_default_name(name));
    r.obj_start[0] = 0;
  } else if (r.nobjects > 1 && !r.obj_used)
    ipc_free(r.names[--r.nobjects]);
  int *vobj = vertex_objects(&r);
  drop_redundant_segments(&r);
  r.obj_start[r.nobjects] = r.ntris;

  out->nverts = r.nverts;
  out->x = r.x;
  out->ntris = r.ntris;
  out->tris = r.tris ? r.tris : IPC_NEW(int, 0);
  out->nsegs = r.nsegs;
  out->segs = r.segs ? r.segs : IPC_NEW(int, 0);
  out->nobjects = r.nobjects;
  out->object_names = r.names;
  out->object_tri_start = r.obj_start;
  out->vert_obstacle = r.any_obstacle ? r.vobs : NULL;
  out->vert_object = vobj;
  if (!r.any_obstacle) ipc_free(r.vobs);
  ipc_free(r.tri_line);
  ipc_free(r.seg_line);
  ipc_free(r.seg_obj);
  ipc_free(r.pts);
  ipc_free(r.idx);
  return IPCC_OK;
}
