/* Matrix Market reader and writers (format: Boisvert, Pozo, Remington, "The Matrix Market
 * exchange formats: initial design", NISTIR 5935); rules in matrix_market.h */
#include "io/matrix_market.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/path.h"

/* line cursor over the text */
typedef struct mm_lines {
  const char *name;
  const char *p, *end;
  int line;         /* number of the current line */
  const char *cur;  /* start of the current line */
  const char *stop; /* end of the current line (before '\n' / "\r\n") */
} mm_lines;

/* advances to the next line; 0 at end of text */
static int next_line(mm_lines *L) {
  if (L->p >= L->end) return 0;
  L->cur = L->p;
  const char *nl = memchr(L->p, '\n', (size_t)(L->end - L->p));
  const char *e = nl ? nl : L->end;
  L->p = nl ? nl + 1 : L->end;
  if (e > L->cur && e[-1] == '\r') --e;
  L->stop = e;
  ++L->line;
  return 1;
}

static int blank_or_comment(const mm_lines *L) {
  const char *s = L->cur;
  while (s < L->stop && (*s == ' ' || *s == '\t')) ++s;
  return s == L->stop || *s == '%';
}

/* next line with content; 0 at end of text */
static int next_data_line(mm_lines *L) {
  while (next_line(L))
    if (!blank_or_comment(L)) return 1;
  return 0;
}

/* token [*tb, *te) from *s within the line; 0 when none is left */
static int token(const mm_lines *L, const char **s, const char **tb, const char **te) {
  const char *q = *s;
  while (q < L->stop && (*q == ' ' || *q == '\t')) ++q;
  if (q == L->stop) return 0;
  *tb = q;
  while (q < L->stop && *q != ' ' && *q != '\t') ++q;
  *te = q;
  *s = q;
  return 1;
}

static ipcc_status fail_at(const mm_lines *L, ipcc_error *err, const char *what) {
  return ipc_error_set(err, IPCC_ERR_INPUT, "%s:%d: %s", L->name, L->line, what);
}

/* parses a whole token as a long */
static int parse_long(const char *tb, const char *te, long *v) {
  char buf[64];
  size_t n = (size_t)(te - tb);
  if (n == 0 || n >= sizeof buf) return 0;
  memcpy(buf, tb, n);
  buf[n] = '\0';
  char *e;
  errno = 0;
  long x = strtol(buf, &e, 10);
  if (*e != '\0' || errno) return 0;
  *v = x;
  return 1;
}

/* parses a whole token as a finite double */
static int parse_double(const char *tb, const char *te, double *v) {
  char buf[128];
  size_t n = (size_t)(te - tb);
  if (n == 0 || n >= sizeof buf) return 0;
  memcpy(buf, tb, n);
  buf[n] = '\0';
  char *e;
  double x = strtod(buf, &e);
  if (*e != '\0' || !isfinite(x)) return 0;
  *v = x;
  return 1;
}

static int word_is(const char *tb, const char *te, const char *w) {
  size_t n = (size_t)(te - tb);
  return strlen(w) == n && strncasecmp(tb, w, n) == 0;
}

static void push(ipc_mm_matrix *m, size_t *cap, int i, int j, double v) {
  if ((size_t)m->nnz == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    m->ri = ipc_realloc(m->ri, sizeof(int) * *cap);
    m->ci = ipc_realloc(m->ci, sizeof(int) * *cap);
    m->val = ipc_realloc(m->val, sizeof(double) * *cap);
  }
  m->ri[m->nnz] = i;
  m->ci[m->nnz] = j;
  m->val[m->nnz] = v;
  ++m->nnz;
}

static ipcc_status parse_header(mm_lines *L, ipc_mm_matrix *m, ipcc_error *err) {
  if (!next_line(L)) {
    L->line = 1;
    return fail_at(L, err, "empty file: expected the %%MatrixMarket banner");
  }
  const char *s = L->cur, *tb, *te;
  if (!token(L, &s, &tb, &te) || !word_is(tb, te, "%%MatrixMarket"))
    return fail_at(L, err, "expected the banner '%%MatrixMarket matrix FORMAT FIELD SYMMETRY'");
  if (!token(L, &s, &tb, &te) || !word_is(tb, te, "matrix"))
    return fail_at(L, err, "banner: expected object 'matrix'");
  if (!token(L, &s, &tb, &te) || !(word_is(tb, te, "coordinate") || word_is(tb, te, "array")))
    return fail_at(L, err, "banner: expected format 'coordinate' or 'array'");
  m->array = word_is(tb, te, "array");
  if (!token(L, &s, &tb, &te) || !(word_is(tb, te, "real") || word_is(tb, te, "integer")))
    return fail_at(L, err,
                   "banner: expected field 'real' or 'integer' (complex and pattern "
                   "are not supported)");
  if (!token(L, &s, &tb, &te) || !(word_is(tb, te, "general") || word_is(tb, te, "symmetric") ||
                                   word_is(tb, te, "skew-symmetric")))
    return fail_at(L, err,
                   "banner: expected symmetry 'general', 'symmetric' or "
                   "'skew-symmetric'");
  m->symmetry = word_is(tb, te, "general") ? 0 : (word_is(tb, te, "symmetric") ? 1 : -1);
  if (token(L, &s, &tb, &te)) return fail_at(L, err, "banner: unexpected text after symmetry");
  return IPCC_OK;
}

/* the size line: rows, cols and (coordinate) the entry count */
static ipcc_status parse_size(mm_lines *L, ipc_mm_matrix *m, long *count, ipcc_error *err) {
  if (!next_data_line(L)) return fail_at(L, err, "expected the size line, found end of file");
  const char *s = L->cur, *tb, *te;
  long v[3];
  int want = m->array ? 2 : 3;
  for (int k = 0; k < want; ++k) {
    if (!token(L, &s, &tb, &te) || !parse_long(tb, te, &v[k]) || v[k] < 0 || v[k] > INT_MAX)
      return fail_at(L, err,
                     m->array ? "size line: expected 'ROWS COLS' (integers >= 0)"
                              : "size line: expected 'ROWS COLS ENTRIES' (integers >= 0)");
  }
  if (token(L, &s, &tb, &te)) return fail_at(L, err, "size line: unexpected extra value");
  char msg[200];
  if (v[0] > IPC_MM_MAX_DIM || v[1] > IPC_MM_MAX_DIM) {
    snprintf(msg, sizeof msg, "size line: %ld x %ld matrix, expected at most %d rows and columns",
             v[0], v[1], IPC_MM_MAX_DIM);
    return fail_at(L, err, msg);
  }
  m->rows = (int)v[0];
  m->cols = (int)v[1];
  if (m->symmetry != 0 && m->rows != m->cols)
    return fail_at(L, err, "size line: a symmetric or skew-symmetric matrix must be square");
  long long full = (long long)m->rows * m->cols;
  if (m->array) {
    if (full > INT_MAX) return fail_at(L, err, "size line: matrix too large");
    long long n = m->rows, stored = full;
    if (m->symmetry == 1) stored = n * (n + 1) / 2;
    if (m->symmetry == -1) stored = n * (n - 1) / 2;
    *count = (long)stored;
  } else {
    if (v[2] > full) return fail_at(L, err, "size line: more entries than the matrix holds");
    *count = v[2];
  }
  /* each value takes at least 2 bytes ("1\n"), each entry 6 ("1 1 1\n"): a count the rest of
     the file cannot hold is refused before anything is read into memory */
  long long room = ((long long)(L->end - L->p) + 1) / (m->array ? 2 : 6);
  if (*count > room) {
    snprintf(msg, sizeof msg,
             "size line: %ld %s announced, but the %lld bytes after it hold at most %lld", *count,
             m->array ? "values" : "entries", (long long)(L->end - L->p), room);
    return fail_at(L, err, msg);
  }
  return IPCC_OK;
}

static ipcc_status parse_coordinate(mm_lines *L, ipc_mm_matrix *m, long count, size_t *cap,
                                    ipcc_error *err) {
  char msg[160];
  for (long k = 0; k < count; ++k) {
    if (!next_data_line(L)) {
      snprintf(msg, sizeof msg, "expected %ld entries, found %ld before the end of file", count, k);
      return fail_at(L, err, msg);
    }
    const char *s = L->cur, *tb, *te;
    long i, j;
    double v;
    if (!token(L, &s, &tb, &te) || !parse_long(tb, te, &i) || !token(L, &s, &tb, &te) ||
        !parse_long(tb, te, &j))
      return fail_at(L, err, "expected an entry 'ROW COL VALUE' (1-based integers)");
    if (!token(L, &s, &tb, &te) || !parse_double(tb, te, &v))
      return fail_at(L, err, "expected a finite real value after the indices");
    if (token(L, &s, &tb, &te)) return fail_at(L, err, "unexpected extra value in the entry");
    if (i < 1 || i > m->rows || j < 1 || j > m->cols) {
      snprintf(msg, sizeof msg, "entry (%ld, %ld) outside the %d x %d matrix", i, j, m->rows,
               m->cols);
      return fail_at(L, err, msg);
    }
    if ((m->symmetry == 1 && i < j) || (m->symmetry == -1 && i <= j)) {
      snprintf(msg, sizeof msg,
               "entry (%ld, %ld): a %s file stores the %slower triangle (row %s column)", i, j,
               m->symmetry == 1 ? "symmetric" : "skew-symmetric", m->symmetry == 1 ? "" : "strict ",
               m->symmetry == 1 ? ">=" : ">");
      return fail_at(L, err, msg);
    }
    push(m, cap, (int)i - 1, (int)j - 1, v);
    if (m->symmetry != 0 && i != j) push(m, cap, (int)j - 1, (int)i - 1, m->symmetry * v);
  }
  return IPCC_OK;
}

static ipcc_status parse_array(mm_lines *L, ipc_mm_matrix *m, long count, size_t *cap,
                               ipcc_error *err) {
  char msg[160];
  int i = 0, j = 0; /* next position, column by column */
  if (m->symmetry == -1) i = 1;
  long k = 0;
  while (k < count) {
    if (!next_data_line(L)) {
      snprintf(msg, sizeof msg, "expected %ld values, found %ld before the end of file", count, k);
      return fail_at(L, err, msg);
    }
    const char *s = L->cur, *tb, *te;
    while (k < count && token(L, &s, &tb, &te)) {
      double v;
      if (!parse_double(tb, te, &v)) return fail_at(L, err, "expected a finite real value");
      push(m, cap, i, j, v);
      if (m->symmetry != 0 && i != j) push(m, cap, j, i, m->symmetry * v);
      ++k;
      if (++i == m->rows) {
        ++j;
        i = m->symmetry == 0 ? 0 : j + (m->symmetry == -1);
      }
    }
    if (token(L, &s, &tb, &te)) return fail_at(L, err, "more values than the size line gives");
  }
  return IPCC_OK;
}

ipcc_status ipc_mm_parse(const char *name, const char *text, size_t len, ipc_mm_matrix *m,
                         ipcc_error *err) {
  memset(m, 0, sizeof *m);
  mm_lines L = {name, text, text + len, 0, text, text};
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) L.p += 3;
  ipc_mm_matrix t;
  memset(&t, 0, sizeof t);
  size_t cap = 0;
  long count = 0;
  ipcc_status st = parse_header(&L, &t, err);
  if (st == IPCC_OK) st = parse_size(&L, &t, &count, err);
  if (st == IPCC_OK)
    st = t.array ? parse_array(&L, &t, count, &cap, err)
                 : parse_coordinate(&L, &t, count, &cap, err);
  if (st == IPCC_OK && next_data_line(&L))
    st = fail_at(
        &L, err,
        t.array ? "more values than the size line gives" : "more entries than the size line gives");
  if (st != IPCC_OK) {
    ipc_mm_free(&t);
    return st;
  }
  *m = t;
  return IPCC_OK;
}

ipcc_status ipc_mm_read(const char *path, ipc_mm_matrix *m, ipcc_error *err) {
  memset(m, 0, sizeof *m);
  size_t len = 0;
  char *text = ipc_read_file_max(path, IPC_READ_MAX_MATRIX, &len, err);
  if (!text) return IPCC_ERR_INPUT;
  ipcc_status st = ipc_mm_parse(path, text, len, m, err);
  ipc_free(text);
  return st;
}

void ipc_mm_free(ipc_mm_matrix *m) {
  if (!m) return;
  ipc_free(m->ri);
  ipc_free(m->ci);
  ipc_free(m->val);
  memset(m, 0, sizeof *m);
}

void ipc_mm_to_dense(const ipc_mm_matrix *m, double *out) {
  memset(out, 0, sizeof(double) * (size_t)m->rows * (size_t)m->cols);
  for (int k = 0; k < m->nnz; ++k) out[(long)m->ri[k] * m->cols + m->ci[k]] += m->val[k];
}

ipcc_status ipc_mm_write_array(const char *path, int rows, int cols, const double *a,
                               ipcc_error *err) {
  ipc_atomic_file af;
  ipcc_status st_open = ipc_atomic_open(&af, path, err);
  if (st_open != IPCC_OK) return st_open;
  fprintf(af.f, "%%%%MatrixMarket matrix array real general\n%d %d\n", rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) fprintf(af.f, "%.17g\n", a[(long)i * cols + j]);
  return ipc_atomic_commit(&af, err);
}

ipcc_status ipc_mm_write_coordinate(const char *path, int rows, int cols, int nnz, const int *ri,
                                    const int *ci, const double *v, ipcc_error *err) {
  ipc_atomic_file af;
  ipcc_status st_open = ipc_atomic_open(&af, path, err);
  if (st_open != IPCC_OK) return st_open;
  fprintf(af.f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", rows, cols, nnz);
  for (int k = 0; k < nnz; ++k) fprintf(af.f, "%d %d %.17g\n", ri[k] + 1, ci[k] + 1, v[k]);
  return ipc_atomic_commit(&af, err);
}
