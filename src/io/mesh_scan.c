/* whole-file text scanning for the mesh readers: one read of the file, then strtod/strtol
   over the buffer with a line counter for messages */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/mesh_internal.h"
#include "io/path.h"

ipcc_status ipc_file_slurp(const char *path, char **buf, size_t *len, ipcc_error *err) {
  *len = 0;
  *buf = ipc_read_file_max(path, IPC_READ_MAX_MESH, len, err);
  return *buf ? IPCC_OK : IPCC_ERR_INPUT;
}

void ipc_scan_init(ipc_scan *s, const char *name, const char *buf, size_t len) {
  s->name = name;
  if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) { /* UTF-8 byte order mark */
    buf += 3;
    len -= 3;
  }
  s->p = buf;
  s->end = buf + len;
  s->line = 1;
  s->multiline = 0;
  s->hash_comments = 0;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_delim(const ipc_scan *s, const char *q) {
  return q >= s->end || is_blank(*q) || *q == '\n' || (s->hash_comments && *q == '#');
}

static void skip_blanks(ipc_scan *s) {
  while (s->p < s->end && is_blank(*s->p)) s->p++;
  if (s->hash_comments && s->p < s->end && *s->p == '#')
    while (s->p < s->end && *s->p != '\n') s->p++;
}

void ipc_scan_skip(ipc_scan *s) {
  skip_blanks(s);
  while (s->multiline && s->p < s->end && *s->p == '\n') {
    s->p++;
    s->line++;
    skip_blanks(s);
  }
}

int ipc_scan_at_eol(ipc_scan *s) {
  skip_blanks(s);
  return s->p >= s->end || *s->p == '\n';
}

int ipc_scan_at_eof(ipc_scan *s) {
  int ml = s->multiline;
  s->multiline = 1;
  ipc_scan_skip(s);
  s->multiline = ml;
  return s->p >= s->end;
}

void ipc_scan_next_line(ipc_scan *s) {
  const char *q = memchr(s->p, '\n', (size_t)(s->end - s->p));
  if (q) {
    s->p = q + 1;
    s->line++;
  } else {
    s->p = s->end;
  }
}

size_t ipc_scan_peek(ipc_scan *s, const char **tok) {
  ipc_scan_skip(s);
  *tok = s->p;
  const char *q = s->p;
  while (!is_delim(s, q)) q++;
  return (size_t)(q - s->p);
}

void ipc_scan_advance(ipc_scan *s, size_t len) {
  s->p += len;
}

int ipc_token_is(const char *tok, size_t len, const char *word) {
  return strlen(word) == len && memcmp(tok, word, len) == 0;
}

void ipc_scan_describe(ipc_scan *s, char *buf, size_t n) {
  const char *tok;
  size_t len = ipc_scan_peek(s, &tok);
  if (len == 0) {
    snprintf(buf, n, "%s", s->p >= s->end ? "end of file" : "end of line");
    return;
  }
  char t[28];
  size_t k = 0;
  for (; k < len && k < 24; ++k) {
    unsigned char c = (unsigned char)tok[k];
    t[k] = (c >= 32 && c < 127) ? (char)c : '?';
  }
  t[k] = '\0';
  snprintf(buf, n, "'%s%s'", t, len > 24 ? "..." : "");
}

static ipcc_status vfail(const ipc_scan *s, int line, ipcc_error *err, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static ipcc_status vfail(const ipc_scan *s, int line, ipcc_error *err, const char *fmt,
                         va_list ap) {
  char what[768];
  vsnprintf(what, sizeof what, fmt, ap);
  return ipc_error_set(err, IPCC_ERR_INPUT, "%s:%d: %s", s->name, line, what);
}

ipcc_status ipc_scan_fail_at(const ipc_scan *s, int line, ipcc_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ipcc_status st = vfail(s, line, err, fmt, ap);
  va_end(ap);
  return st;
}

ipcc_status ipc_scan_fail(const ipc_scan *s, ipcc_error *err, const char *fmt, ...) {
  /* at the end of a file that ends with a newline, name the last line, not the empty one */
  int line = s->line;
  if (s->p >= s->end && line > 1 && s->end[-1] == '\n') --line;
  va_list ap;
  va_start(ap, fmt);
  ipcc_status st = vfail(s, line, err, fmt, ap);
  va_end(ap);
  return st;
}

ipcc_status ipc_scan_long(ipc_scan *s, long *v, const char *what, ipcc_error *err) {
  const char *tok;
  size_t len = ipc_scan_peek(s, &tok);
  char found[40];
  if (len == 0) {
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "expected %s (an integer), found %s", what, found);
  }
  char *q;
  errno = 0;
  long r = strtol(tok, &q, 10);
  if (q != tok + len) {
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "expected %s (an integer), found %s", what, found);
  }
  if (errno == ERANGE) {
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "%s %s is out of range", what, found);
  }
  s->p = q;
  *v = r;
  return IPCC_OK;
}

ipcc_status ipc_scan_long_in(ipc_scan *s, long *v, long lo, long hi, const char *what,
                             ipcc_error *err) {
  ipcc_status st = ipc_scan_long(s, v, what, err);
  if (st) return st;
  if (*v < lo || *v > hi)
    return ipc_scan_fail(s, err, "%s is %ld, expected a value in [%ld, %ld]", what, *v, lo, hi);
  return IPCC_OK;
}

ipcc_status ipc_scan_double(ipc_scan *s, double *v, const char *what, ipcc_error *err) {
  const char *tok;
  size_t len = ipc_scan_peek(s, &tok);
  char found[40];
  if (len == 0) {
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "expected %s (a number), found %s", what, found);
  }
  char *q;
  double r = strtod(tok, &q);
  if (q != tok + len) {
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "expected %s (a number), found %s", what, found);
  }
  if (!isfinite(r)) {
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "%s is %s, expected a finite number", what, found);
  }
  s->p = q;
  *v = r;
  return IPCC_OK;
}

ipcc_status ipc_scan_expect(ipc_scan *s, const char *word, const char *why, ipcc_error *err) {
  const char *tok;
  size_t len = ipc_scan_peek(s, &tok);
  if (ipc_token_is(tok, len, word)) {
    s->p += len;
    return IPCC_OK;
  }
  char found[40];
  ipc_scan_describe(s, found, sizeof found);
  return ipc_scan_fail(s, err, "expected %s%s, found %s", word, why, found);
}

ipcc_status ipc_scan_expect_eol(ipc_scan *s, ipcc_error *err) {
  if (ipc_scan_at_eol(s)) return IPCC_OK;
  char found[40];
  ipc_scan_describe(s, found, sizeof found);
  return ipc_scan_fail(s, err, "unexpected %s, expected end of line", found);
}
