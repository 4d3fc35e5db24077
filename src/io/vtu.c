/* VTK XML UnstructuredGrid (.vtu) reader: one Piece, its Points and its Cells
   (connectivity, offsets, types) of type vertex (1), line (3), polyline (4), triangle (5),
   polygon (7), quad (9) and tetrahedron (10). tets give their boundary triangles (and the
   mesh's tets), the other cells are surfaces, segments or points. ipcc's frames (frame_vtu.c)
   add a PointData array 'obstacle' (1 on kinematic obstacles), which becomes
   ipcc_mesh.vert_obstacle, and 'object_id' (the body of each point), which becomes
   ipcc_mesh.vert_object (integers from -1 up, else an error); other arrays are skipped.
   the arrays read may be ascii, inline binary (format="binary": base64) or appended
   (format="appended" offset="N" into <AppendedData encoding="raw"> or "base64", the offset
   counting bytes or base64 characters after its '_'), of type Int8 to UInt64, Float32 or
   Float64. binary data start with a byte count of the VTKFile's header_type (UInt32 unless
   header_type="UInt64") in its byte_order (LittleEndian unless BigEndian); with
   compressor="vtkZLibDataCompressor" they are VTK's zlib blocks instead: [number of blocks]
   [block size][size of a last partial block, 0 if none][compressed size of each block], then
   the blocks. base64 decodes in groups of four characters, so that a header encoded apart
   from its data (padded) reads as one encoded with it. every count, size and offset is
   checked against the bytes there are before anything is read or allocated (a block may
   inflate to at most ZLIB_MAX_RATIO times its compressed size, zlib's bound), and a block must
   inflate to exactly its size using exactly its compressed bytes; errors name the file, the
   line of the array's tag and the array. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/surface.h"
#include "io/mesh_internal.h"

enum { MAX_DEPTH = 32, MAX_INDEX = 1 << 30, ZLIB_MAX_RATIO = 1032 };

/* the value types of binary arrays */
enum {
  T_INT8,
  T_UINT8,
  T_INT16,
  T_UINT16,
  T_INT32,
  T_UINT32,
  T_INT64,
  T_UINT64,
  T_FLOAT32,
  T_FLOAT64
};
static const struct {
  const char *name;
  int size;
} value_types[] = {{"Int8", 1},   {"UInt8", 1}, {"Int16", 2},  {"UInt16", 2},  {"Int32", 4},
                   {"UInt32", 4}, {"Int64", 8}, {"UInt64", 8}, {"Float32", 4}, {"Float64", 8}};
enum { NTYPES = sizeof value_types / sizeof *value_types };

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

/* a data array as read: its values and the line of its tag; an appended one waits for the
   <AppendedData> section with its offset and value type */
typedef struct array {
  double *v;
  size_t n;
  int line, seen;
  const char *name; /* its Name attribute, for messages */
  int name_len;
  long want; /* values expected, -1: any count */
  int type, appended;
  uint64_t offset;
} array;

typedef struct vtu_reader {
  const char *name, *buf, *end;
  const char *p;
  const char *open[MAX_DEPTH]; /* names of the open elements (NUL-free, in the buffer) */
  size_t open_len[MAX_DEPTH];
  int depth;
  int pieces, piece_line;
  long npoints, ncells;
  array points, conn, offsets, types, obstacle, object_id;
  /* the VTKFile attributes binary data need (NULL when absent) */
  const char *byte_order, *header_type, *compressor;
  size_t byte_order_len, header_type_len, compressor_len;
} vtu_reader;

static int line_of(const vtu_reader *r, const char *at) {
  int line = 1;
  for (const char *q = r->buf; q < at && q < r->end; ++q) line += *q == '\n';
  return line;
}

static ipcc_status fail_at(const vtu_reader *r, int line, ipcc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ipcc_status fail_at(const vtu_reader *r, int line, ipcc_error *err, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ipc_error_set(err, IPCC_ERR_INPUT, "%s:%d: %s", r->name, line, what);
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
static int next_tag(vtu_reader *r, tag *t, ipcc_error *err) {
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
static ipcc_status attr_count(const vtu_reader *r, const tag *t, const char *key, long *out,
                              ipcc_error *err) {
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
      return IPCC_OK;
    }
  }
  return fail_at(r, line_of(r, t->at), err, "<%.*s>: expected %s=\"N\" with N in [0, %d]",
                 (int)t->name_len, t->name, key, MAX_INDEX);
}

/* ---- binary data: base64 or raw bytes, byte counts or zlib blocks ---- */

/* where the bytes of a binary array come from: raw bytes in [p, end), or base64 text there
   decoded four characters at a time (carry: the decoded bytes not yet taken) */
typedef struct source {
  const unsigned char *p, *end;
  int base64;
  int bad_char; /* base64: stopped at a character outside the alphabet */
  unsigned char carry[3];
  int ncarry, taken;
} source;

static void source_init(source *s, const char *p, const char *end, int base64) {
  memset(s, 0, sizeof *s);
  s->p = (const unsigned char *)p;
  s->end = (const unsigned char *)end;
  s->base64 = base64;
}

/* at least as many bytes as s can still give (base64: every 4 characters give at most 3) */
static size_t source_left(const source *s) {
  size_t n = (size_t)(s->end - s->p);
  return (size_t)(s->ncarry - s->taken) + (s->base64 ? n / 4 * 3 : n);
}

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* the next four base64 characters (white space skipped) into s->carry: 1 and up to three
   bytes ('=' pads a group to fewer), or 0 when the text ends first or holds another character
   (s->bad_char) */
static int b64_group(source *s) {
  int v[4] = {0, 0, 0, 0}, pad = 0;
  for (int k = 0; k < 4;) {
    while (s->p < s->end && is_space((char)*s->p)) ++s->p;
    if (s->p >= s->end) return 0;
    unsigned char c = *s->p;
    if (c == '=' && k >= 2) {
      pad++;
    } else {
      v[k] = b64_value(c);
      if (v[k] < 0 || pad) {
        s->bad_char = 1;
        return 0;
      }
    }
    ++s->p;
    ++k;
  }
  uint32_t bits =
      (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
  s->carry[0] = (unsigned char)(bits >> 16);
  s->carry[1] = (unsigned char)(bits >> 8);
  s->carry[2] = (unsigned char)bits;
  s->ncarry = 3 - pad;
  s->taken = 0;
  return 1;
}

/* n bytes of s into dst: 0, or -1 when s ends first */
static int source_read(source *s, unsigned char *dst, size_t n) {
  if (!s->base64) {
    if ((size_t)(s->end - s->p) < n) return -1;
    if (n) memcpy(dst, s->p, n);
    s->p += n;
    return 0;
  }
  for (size_t i = 0; i < n;) {
    if (s->taken == s->ncarry) {
      if (!b64_group(s)) return -1;
      continue;
    }
    size_t k = (size_t)(s->ncarry - s->taken);
    if (k > n - i) k = n - i;
    memcpy(dst + i, s->carry + s->taken, k);
    s->taken += (int)k;
    i += k;
  }
  return 0;
}

/* the unsigned integer of size bytes at p in the file's byte order */
static uint64_t load_uint(const unsigned char *p, int size, int big) {
  uint64_t u = 0;
  for (int k = 0; k < size; ++k) u = u << 8 | p[big ? k : size - 1 - k];
  return u;
}

static double load_value(const unsigned char *p, int type, int big) {
  uint64_t u = load_uint(p, value_types[type].size, big);
  switch (type) {
    case T_INT8:
      return (int8_t)(uint8_t)u;
    case T_INT16:
      return (int16_t)(uint16_t)u;
    case T_INT32:
      return (int32_t)(uint32_t)u;
    case T_INT64:
      return (double)(int64_t)u;
    case T_FLOAT32: {
      uint32_t b = (uint32_t)u;
      float f;
      memcpy(&f, &b, 4);
      return f;
    }
    case T_FLOAT64: {
      double d;
      memcpy(&d, &u, 8);
      return d;
    }
    default:
      return (double)u;
  }
}

static int eq(const char *s, size_t n, const char *want) {
  return s && name_is(s, n, want);
}

/* what the file says of binary data: big-endian, 8-byte headers, zlib blocks */
typedef struct binary_layout {
  int big, header, zlib;
} binary_layout;

static ipcc_status layout(const vtu_reader *r, const array *a, binary_layout *b, ipcc_error *err) {
  b->big = eq(r->byte_order, r->byte_order_len, "BigEndian");
  if (r->byte_order && !b->big && !eq(r->byte_order, r->byte_order_len, "LittleEndian"))
    return fail_at(r, a->line, err,
                   "DataArray '%.*s' is binary, and <VTKFile> has byte_order=\"%.*s\", expected "
                   "LittleEndian or BigEndian",
                   a->name_len, a->name, (int)r->byte_order_len, r->byte_order);
  b->header = eq(r->header_type, r->header_type_len, "UInt64") ? 8 : 4;
  if (r->header_type && b->header == 4 && !eq(r->header_type, r->header_type_len, "UInt32"))
    return fail_at(r, a->line, err,
                   "DataArray '%.*s' is binary, and <VTKFile> has header_type=\"%.*s\", expected "
                   "UInt32 or UInt64",
                   a->name_len, a->name, (int)r->header_type_len, r->header_type);
  b->zlib = r->compressor_len > 0;
  if (b->zlib && !eq(r->compressor, r->compressor_len, "vtkZLibDataCompressor"))
    return fail_at(r, a->line, err,
                   "DataArray '%.*s' is binary, and <VTKFile> has compressor=\"%.*s\"; only "
                   "vtkZLibDataCompressor is read (save the file uncompressed or with zlib)",
                   a->name_len, a->name, (int)r->compressor_len, r->compressor);
  return IPCC_OK;
}

/* the end of a source s that gave out: cut short, or a character outside base64 */
static ipcc_status cut_short(const vtu_reader *r, const array *a, const source *s, const char *what,
                             ipcc_error *err) {
  return fail_at(r, a->line, err, "DataArray '%.*s': %s %s", a->name_len, a->name, what,
                 s->bad_char ? "holds a character that is not base64" : "is cut short");
}

/* n header words of s into w */
static int read_words(source *s, const binary_layout *b, uint64_t *w, size_t n) {
  unsigned char buf[8];
  for (size_t k = 0; k < n; ++k) {
    if (source_read(s, buf, (size_t)b->header)) return -1;
    w[k] = load_uint(buf, b->header, b->big);
  }
  return 0;
}

/* nbytes of values fit a: whole values, the count a wants, no more than the values there can
   be */
static ipcc_status check_bytes(const vtu_reader *r, const array *a, uint64_t nbytes,
                               ipcc_error *err) {
  int size = value_types[a->type].size;
  if (nbytes % (uint64_t)size)
    return fail_at(r, a->line, err, "DataArray '%.*s': %llu bytes are not a whole number of %s",
                   a->name_len, a->name, (unsigned long long)nbytes, value_types[a->type].name);
  uint64_t n = nbytes / (uint64_t)size;
  if (a->want >= 0 && n != (uint64_t)a->want)
    return fail_at(r, a->line, err, "DataArray '%.*s': expected %ld values, the data hold %llu",
                   a->name_len, a->name, a->want, (unsigned long long)n);
  return IPCC_OK;
}

/* the uncompressed bytes of a: a byte count, then the bytes */
static ipcc_status read_plain(const vtu_reader *r, const array *a, source *s,
                              const binary_layout *b, unsigned char **bytes, uint64_t *nbytes,
                              ipcc_error *err) {
  if (read_words(s, b, nbytes, 1)) return cut_short(r, a, s, "the byte count", err);
  ipcc_status st = check_bytes(r, a, *nbytes, err);
  if (st) return st;
  if (*nbytes > source_left(s))
    return fail_at(r, a->line, err, "DataArray '%.*s': the byte count is %llu, %zu bytes follow",
                   a->name_len, a->name, (unsigned long long)*nbytes, source_left(s));
  *bytes = IPC_NEW(unsigned char, *nbytes + 1);
  if (source_read(s, *bytes, *nbytes)) return cut_short(r, a, s, "the data", err);
  return IPCC_OK;
}

/* the bytes of a from VTK's zlib blocks */
static ipcc_status read_zlib(const vtu_reader *r, const array *a, source *s, const binary_layout *b,
                             unsigned char **bytes, uint64_t *nbytes, ipcc_error *err) {
  uint64_t h[3];
  if (read_words(s, b, h, 3)) return cut_short(r, a, s, "the compression header", err);
  uint64_t nb = h[0], bs = h[1], last = h[2];
  if (nb > source_left(s) / (size_t)b->header)
    return fail_at(r, a->line, err,
                   "DataArray '%.*s': the compression header gives %llu blocks, the data cannot "
                   "hold their sizes",
                   a->name_len, a->name, (unsigned long long)nb);
  if (nb > 0 && (bs == 0 || last > bs || (nb - 1) > (UINT64_MAX >> 4) / bs))
    return fail_at(r, a->line, err,
                   "DataArray '%.*s': the compression header gives %llu blocks of %llu bytes, the "
                   "last of %llu; expected blocks of at least one byte, the last no larger",
                   a->name_len, a->name, (unsigned long long)nb, (unsigned long long)bs,
                   (unsigned long long)last);
  *nbytes = nb == 0 ? 0 : (nb - 1) * bs + (last ? last : bs);
  ipcc_status st = check_bytes(r, a, *nbytes, err);
  if (st) return st;
  uint64_t *csize = IPC_NEW(uint64_t, nb + 1), sum = 0, cmax = 0;
  if (read_words(s, b, csize, nb)) st = cut_short(r, a, s, "the compression header", err);
  for (uint64_t k = 0; k < nb && !st; ++k) {
    uint64_t usize = k + 1 < nb || !last ? bs : last;
    if (csize[k] > source_left(s) - sum)
      st = fail_at(r, a->line, err,
                   "DataArray '%.*s': block %llu of %llu has %llu compressed bytes, %llu bytes "
                   "are left",
                   a->name_len, a->name, (unsigned long long)k, (unsigned long long)nb,
                   (unsigned long long)csize[k], (unsigned long long)(source_left(s) - sum));
    else if (usize / ZLIB_MAX_RATIO > csize[k])
      st = fail_at(r, a->line, err,
                   "DataArray '%.*s': block %llu of %llu: %llu compressed bytes cannot inflate to "
                   "%llu",
                   a->name_len, a->name, (unsigned long long)k, (unsigned long long)nb,
                   (unsigned long long)csize[k], (unsigned long long)usize);
    sum += csize[k];
    if (csize[k] > cmax) cmax = csize[k];
  }
  unsigned char *z = st ? NULL : IPC_NEW(unsigned char, cmax + 1);
  if (!st) *bytes = IPC_NEW(unsigned char, *nbytes + 1);
  uint64_t at = 0;
  for (uint64_t k = 0; k < nb && !st; ++k) {
    uint64_t usize = k + 1 < nb || !last ? bs : last;
    if (source_read(s, z, csize[k])) {
      st = cut_short(r, a, s, "the compressed blocks", err);
      break;
    }
    uLongf got = (uLongf)usize;
    uLong used = (uLong)csize[k];
    int zs = uncompress2(*bytes + at, &got, z, &used);
    if (zs != Z_OK)
      st = fail_at(r, a->line, err,
                   "DataArray '%.*s': block %llu of %llu is not a zlib stream of %llu bytes "
                   "inflating to %llu (zlib: %s)",
                   a->name_len, a->name, (unsigned long long)k, (unsigned long long)nb,
                   (unsigned long long)csize[k], (unsigned long long)usize, zError(zs));
    else if (got != usize || used != csize[k])
      st = fail_at(r, a->line, err,
                   "DataArray '%.*s': block %llu of %llu inflates to %llu bytes from %llu "
                   "compressed bytes, the header gives %llu from %llu",
                   a->name_len, a->name, (unsigned long long)k, (unsigned long long)nb,
                   (unsigned long long)got, (unsigned long long)used, (unsigned long long)usize,
                   (unsigned long long)csize[k]);
    at += usize;
  }
  ipc_free(z);
  ipc_free(csize);
  return st;
}

/* the values of the binary array a from s, into a->v */
static ipcc_status read_binary(const vtu_reader *r, array *a, source *s, ipcc_error *err) {
  binary_layout b;
  ipcc_status st = layout(r, a, &b, err);
  if (st) return st;
  unsigned char *bytes = NULL;
  uint64_t nbytes = 0;
  st = b.zlib ? read_zlib(r, a, s, &b, &bytes, &nbytes, err)
              : read_plain(r, a, s, &b, &bytes, &nbytes, err);
  if (st) {
    ipc_free(bytes);
    return st;
  }
  int size = value_types[a->type].size;
  size_t n = (size_t)(nbytes / (uint64_t)size);
  a->v = IPC_NEW(double, n + 1);
  for (size_t i = 0; i < n && !st; ++i) {
    double v = load_value(bytes + (size_t)size * i, a->type, b.big);
    if (!isfinite(v))
      st = fail_at(r, a->line, err, "DataArray '%.*s': value %zu is %g, expected a finite number",
                   a->name_len, a->name, i, v);
    a->v[a->n++] = v;
  }
  ipc_free(bytes);
  return st;
}

/* an offset="N" attribute: N up to 2^62 */
static int attr_offset(const tag *t, uint64_t *out) {
  size_t n = 0;
  const char *v = attr(t, "offset", &n);
  if (!v || n == 0 || n > 19) return -1;
  uint64_t x = 0;
  for (size_t k = 0; k < n; ++k) {
    if (v[k] < '0' || v[k] > '9') return -1;
    x = 10 * x + (uint64_t)(v[k] - '0');
  }
  if (x > (uint64_t)1 << 62) return -1;
  *out = x;
  return 0;
}

/* the numbers of an ascii data array opened by t (up to the next '<') into a */
static ipcc_status read_ascii(vtu_reader *r, const tag *t, array *a, ipcc_error *err) {
  const char *p = t->end, *e = memchr(p, '<', (size_t)(r->end - p));
  if (!e) e = r->end;
  /* every value takes a character and a separator: count is bounded by the text */
  size_t cap = (size_t)(e - p) / 2 + 1;
  if (a->want > 0 && (size_t)a->want > cap)
    return fail_at(r, a->line, err, "DataArray '%.*s': expected %ld values, the text holds fewer",
                   a->name_len, a->name, a->want);
  a->v = IPC_NEW(double, cap);
  while (p < e) {
    while (p < e && is_space(*p)) ++p;
    if (p >= e) break;
    char *q;
    double v = strtod(p, &q);
    if (q == p || q > e || (q < e && !is_space(*q)) || !isfinite(v)) {
      const char *w = p;
      while (w < e && !is_space(*w) && w - p < 20) ++w;
      return fail_at(r, line_of(r, p), err,
                     "DataArray '%.*s': expected a finite number, found '%.*s'", a->name_len,
                     a->name, (int)(w - p), p);
    }
    a->v[a->n++] = v;
    p = q;
  }
  if (a->want >= 0 && a->n != (size_t)a->want)
    return fail_at(r, a->line, err, "DataArray '%.*s': expected %ld values, found %zu", a->name_len,
                   a->name, a->want, a->n);
  r->p = e;
  return IPCC_OK;
}

/* the data array opened by t into a (an appended one: its offset and type, read at
   <AppendedData>); want values (-1: any count) */
static ipcc_status read_array(vtu_reader *r, const tag *t, long want, array *a, ipcc_error *err) {
  size_t nl = 0;
  const char *name = attr(t, "Name", &nl);
  a->line = line_of(r, t->at);
  a->name = name ? name : "";
  a->name_len = (int)(nl < 64 ? nl : 64);
  if (a->seen)
    return fail_at(r, a->line, err, "DataArray '%.*s' given twice", a->name_len, a->name);
  a->seen = 1;
  a->want = want;
  if (attr_is(t, "format", "ascii")) return read_ascii(r, t, a, err);
  int binary = attr_is(t, "format", "binary");
  if (!binary && !attr_is(t, "format", "appended")) {
    size_t fl = 0;
    const char *f = attr(t, "format", &fl);
    return fail_at(r, a->line, err,
                   "DataArray '%.*s' has format=\"%.*s\", expected ascii, binary or appended",
                   a->name_len, a->name, (int)(f && fl < 32 ? fl : 0), f ? f : "");
  }
  a->type = -1;
  for (int k = 0; k < NTYPES; ++k)
    if (attr_is(t, "type", value_types[k].name)) a->type = k;
  if (a->type < 0)
    return fail_at(r, a->line, err,
                   "DataArray '%.*s' is binary and its type is not one of Int8, UInt8, Int16, "
                   "UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64",
                   a->name_len, a->name);
  if (!binary) {
    if (attr_offset(t, &a->offset))
      return fail_at(r, a->line, err,
                     "DataArray '%.*s' is appended, expected offset=\"N\" with N in [0, 2^62]",
                     a->name_len, a->name);
    a->appended = 1;
    return IPCC_OK;
  }
  const char *e = memchr(t->end, '<', (size_t)(r->end - t->end));
  if (!e) e = r->end;
  source s;
  source_init(&s, t->end, e, 1);
  ipcc_status st = read_binary(r, a, &s, err);
  if (st) return st;
  while (s.p < s.end && is_space((char)*s.p)) ++s.p;
  if (s.p < s.end || s.taken < s.ncarry)
    return fail_at(r, a->line, err, "DataArray '%.*s': text after its %zu values", a->name_len,
                   a->name, a->n);
  r->p = e;
  return IPCC_OK;
}

/* the last occurrence of what in [p, r->end), or NULL */
static const char *find_last(const vtu_reader *r, const char *p, const char *what) {
  size_t n = strlen(what), avail = (size_t)(r->end - p);
  if (avail < n) return NULL;
  for (size_t i = avail - n + 1; i-- > 0;)
    if (p[i] == what[0] && !memcmp(p + i, what, n)) return p + i;
  return NULL;
}

/* the appended arrays, from the <AppendedData> section tag t opens */
static ipcc_status appended_data(vtu_reader *r, const tag *t, ipcc_error *err) {
  array *all[] = {&r->points, &r->conn, &r->offsets, &r->types, &r->obstacle, &r->object_id};
  enum { NALL = sizeof all / sizeof all[0] };
  int any = 0;
  for (int k = 0; k < NALL; ++k) any |= all[k]->appended && !all[k]->v;
  if (!any) return IPCC_OK; /* nothing the reader needs is in it */
  int line = line_of(r, t->at), base64 = attr_is(t, "encoding", "base64");
  if (!base64 && !attr_is(t, "encoding", "raw"))
    return fail_at(r, line, err, "<AppendedData>: expected encoding=\"raw\" or \"base64\"");
  if (t->empty) return fail_at(r, line, err, "<AppendedData/> is empty, arrays are appended");
  const char *p = t->end;
  while (p < r->end && is_space(*p)) ++p;
  if (p >= r->end || *p != '_')
    return fail_at(r, line, err, "<AppendedData>: expected '_' before the data");
  const char *start = p + 1, *stop = find_last(r, start, "</AppendedData>");
  if (!stop) return fail_at(r, line, err, "<AppendedData> has no </AppendedData>");
  size_t len = (size_t)(stop - start);
  for (int k = 0; k < NALL; ++k) {
    array *a = all[k];
    if (!a->appended || a->v) continue;
    if (a->offset > len)
      return fail_at(r, a->line, err,
                     "DataArray '%.*s': offset %llu is past the end of the appended data (%zu %s)",
                     a->name_len, a->name, (unsigned long long)a->offset, len,
                     base64 ? "characters" : "bytes");
    source s;
    source_init(&s, start + a->offset, stop, base64);
    ipcc_status st = read_binary(r, a, &s, err);
    if (st) return st;
  }
  return IPCC_OK;
}

/* a DataArray inside the innermost open element: the ones the mesh needs are read */
static ipcc_status data_array(vtu_reader *r, const tag *t, ipcc_error *err) {
  const char *parent = r->open[r->depth - 1];
  size_t plen = r->open_len[r->depth - 1];
  if (r->pieces != 1) return IPCC_OK;
  if (name_is(parent, plen, "Points")) return read_array(r, t, 3 * r->npoints, &r->points, err);
  if (name_is(parent, plen, "Cells")) {
    if (attr_is(t, "Name", "connectivity")) return read_array(r, t, -1, &r->conn, err);
    if (attr_is(t, "Name", "offsets")) return read_array(r, t, r->ncells, &r->offsets, err);
    if (attr_is(t, "Name", "types")) return read_array(r, t, r->ncells, &r->types, err);
  }
  if (name_is(parent, plen, "PointData") && attr_is(t, "Name", "obstacle"))
    return read_array(r, t, r->npoints, &r->obstacle, err);
  if (name_is(parent, plen, "PointData") && attr_is(t, "Name", "object_id"))
    return read_array(r, t, r->npoints, &r->object_id, err);
  return IPCC_OK;
}

/* the element tag t opens or closes (lines are counted only for messages: counting them
   at every tag would take quadratic time) */
static ipcc_status element(vtu_reader *r, const tag *t, ipcc_error *err) {
  if (t->closing) {
    if (r->depth == 0 || r->open_len[r->depth - 1] != t->name_len ||
        memcmp(r->open[r->depth - 1], t->name, t->name_len) != 0)
      return fail_at(r, line_of(r, t->at), err, "</%.*s> closes no open <%.*s>", (int)t->name_len,
                     t->name, (int)t->name_len, t->name);
    r->depth--;
    return IPCC_OK;
  }
  if (r->depth == 0 && !tag_is(t, "VTKFile"))
    return fail_at(r, line_of(r, t->at), err, "expected <VTKFile>, found <%.*s>", (int)t->name_len,
                   t->name);
  if (tag_is(t, "VTKFile") && !attr_is(t, "type", "UnstructuredGrid"))
    return fail_at(r, line_of(r, t->at), err, "expected <VTKFile type=\"UnstructuredGrid\">");
  if (tag_is(t, "VTKFile") && r->depth == 0) {
    /* checked when a binary array needs them */
    r->byte_order = attr(t, "byte_order", &r->byte_order_len);
    r->header_type = attr(t, "header_type", &r->header_type_len);
    r->compressor = attr(t, "compressor", &r->compressor_len);
  }
  ipcc_status st = IPCC_OK;
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
  return IPCC_OK;
}

static ipcc_status scan_xml(vtu_reader *r, ipcc_error *err) {
  tag t;
  int k;
  while ((k = next_tag(r, &t, err)) == 1) {
    /* binary data follow: no tag after it is read */
    if (tag_is(&t, "AppendedData") && !t.closing) return appended_data(r, &t, err);
    ipcc_status st = element(r, &t, err);
    if (st) return st;
  }
  if (k < 0) return IPCC_ERR_INPUT;
  if (r->depth > 0)
    return fail_at(r, line_of(r, r->end), err, "file ends inside <%.*s>",
                   (int)r->open_len[r->depth - 1], r->open[r->depth - 1]);
  const array *all[] = {&r->points, &r->conn, &r->offsets, &r->types, &r->obstacle};
  for (int j = 0; j < 5; ++j)
    if (all[j]->appended)
      return fail_at(r, all[j]->line, err,
                     "DataArray '%.*s' is appended, and the file has no <AppendedData>",
                     all[j]->name_len, all[j]->name);
  return IPCC_OK;
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

static ipcc_status add_cell(const vtu_reader *r, cells_out *c, long k, int type, const int *v,
                            int n, ipcc_error *err) {
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
  return IPCC_OK;
}

static ipcc_status read_cells(const vtu_reader *r, cells_out *c, ipcc_error *err) {
  int *v = IPC_NEW(int, r->conn.n + 1);
  ipcc_status st = IPCC_OK;
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
static ipcc_status tets_to_surface(const vtu_reader *r, const double *x, cells_out *c,
                                   ipcc_error *err) {
  if (c->ntets == 0) return IPCC_OK;
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
  return IPCC_OK;
}

static void reader_free(vtu_reader *r) {
  ipc_free(r->points.v);
  ipc_free(r->conn.v);
  ipc_free(r->offsets.v);
  ipc_free(r->types.v);
  ipc_free(r->obstacle.v);
  ipc_free(r->object_id.v);
}

static ipcc_status check_arrays(const vtu_reader *r, ipcc_error *err) {
  int last = line_of(r, r->end);
  if (r->pieces == 0) return fail_at(r, last, err, "no <Piece>, expected one");
  if (r->npoints == 0) return fail_at(r, r->piece_line, err, "no points, expected at least one");
  if (!r->points.v) return fail_at(r, r->piece_line, err, "no <Points> DataArray");
  if (r->ncells > 0 && (!r->conn.v || !r->offsets.v || !r->types.v))
    return fail_at(r, r->piece_line, err,
                   "<Cells> needs the DataArrays connectivity, offsets and types");
  return IPCC_OK;
}

/* the 'object_id' array as ints into *out (NULL when there is none); an error naming its
   line for a value that is not an integer from -1 to INT_MAX */
static ipcc_status object_ids(const vtu_reader *r, int **out, ipcc_error *err) {
  *out = NULL;
  if (!r->object_id.v) return IPCC_OK;
  for (size_t i = 0; i < r->object_id.n; ++i) {
    double v = r->object_id.v[i];
    if (!(v >= -1 && v <= INT_MAX && v == floor(v)))
      return fail_at(r, r->object_id.line, err,
                     "DataArray 'object_id': point %zu has %g, expected an integer object id "
                     "(-1 for none)",
                     i, v);
  }
  *out = IPC_NEW(int, r->object_id.n);
  for (size_t i = 0; i < r->object_id.n; ++i) (*out)[i] = (int)r->object_id.v[i];
  return IPCC_OK;
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

ipcc_status ipc_vtu_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                          ipcc_error *err) {
  memset(out, 0, sizeof *out);
  vtu_reader r;
  memset(&r, 0, sizeof r);
  r.name = name;
  r.buf = r.p = buf;
  r.end = buf + len;
  cells_out c;
  memset(&c, 0, sizeof c);
  ipcc_status st = scan_xml(&r, err);
  if (!st) st = check_arrays(&r, err);
  if (!st && r.ncells > 0) st = read_cells(&r, &c, err);
  if (!st) st = tets_to_surface(&r, r.points.v, &c, err);
  int *vobj = NULL;
  if (!st) st = object_ids(&r, &vobj, err);
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
  out->vert_object = vobj;
  reader_free(&r);
  return IPCC_OK;
}
