/* CCD benchmark query files: rational vertex coordinates, 8 lines per query, ground truth
   in a 7th column or in a separate mma_bool JSON file (see ccd_queries.h) */
#include "io/ccd_queries.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/path.h"

#define CCDQ_MAX_FIELD 400

static int ccdq_ends_with(const char *s, size_t n, const char *suffix) {
  size_t m = strlen(suffix);
  return n >= m && !memcmp(s + n - m, suffix, m);
}

ipc_ccd_kind ipc_ccd_kind_from_path(const char *path) {
  size_t n = strlen(path);
  if (ccdq_ends_with(path, n, "vf.csv")) return IPC_CCD_KIND_VF;
  if (ccdq_ends_with(path, n, "ee.csv")) return IPC_CCD_KIND_EE;
  /* walk the folder components from the innermost outwards */
  size_t end = n;
  while (end > 0 && path[end - 1] != '/') --end; /* strip the file name */
  while (end > 0) {
    while (end > 0 && path[end - 1] == '/') --end;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/') --start;
    size_t len = end - start;
    if (len == 11 && !memcmp(path + start, "vertex-face", 11)) return IPC_CCD_KIND_VF;
    if (len == 9 && !memcmp(path + start, "edge-edge", 9)) return IPC_CCD_KIND_EE;
    end = start;
  }
  return IPC_CCD_KIND_FROM_PATH;
}

/* parses an integer field [s, e) (optional sign when allow_sign); returns 0 if malformed */
static int ccdq_integer(const char *s, const char *e, int allow_sign, double *out) {
  while (s < e && (*s == ' ' || *s == '\t')) ++s;
  while (e > s && (e[-1] == ' ' || e[-1] == '\t')) --e;
  const char *d = s;
  if (allow_sign && d < e && (*d == '-' || *d == '+')) ++d;
  if (d == e || e - s >= CCDQ_MAX_FIELD) return 0;
  for (const char *c = d; c < e; ++c)
    if (*c < '0' || *c > '9') return 0;
  char buf[CCDQ_MAX_FIELD + 1];
  memcpy(buf, s, (size_t)(e - s));
  buf[e - s] = '\0';
  errno = 0;
  /* correctly rounded; exact for integers of at most 53 bits and for powers of two */
  *out = strtod(buf, NULL);
  return isfinite(*out);
}

/* <dir of path>/../mma_bool/<stem>_mma_bool.json */
static char *ccdq_json_path(const char *path) {
  size_t n = strlen(path);
  size_t slash = n;
  while (slash > 0 && path[slash - 1] != '/') --slash;
  const char *name = path + slash;
  size_t stem = strlen(name);
  if (ccdq_ends_with(name, stem, ".csv")) stem -= 4;
  size_t need = slash + stem + 64;
  char *out = IPC_NEW(char, need);
  if (slash == 0)
    snprintf(out, need, "../mma_bool/%.*s_mma_bool.json", (int)stem, name);
  else
    snprintf(out, need, "%.*s../mma_bool/%.*s_mma_bool.json", (int)slash, path, (int)stem, name);
  return out;
}

static ipcc_status ccdq_read_json(const char *json_path, const char *path, ipc_ccd_queries *q,
                                  ipcc_error *err) {
  size_t len = 0;
  if (access(json_path, F_OK) != 0) return IPCC_OK; /* no ground truth file */
  char *text = ipc_read_file_max(json_path, IPC_READ_MAX_MATRIX, &len, err);
  if (!text) return IPCC_ERR_INPUT;
  ipcc_status st = IPCC_OK;
  cJSON *root = cJSON_ParseWithLength(text, len);
  if (!root || !cJSON_IsArray(root)) {
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: expected a JSON array of true/false, one per query of %s", json_path,
                       path);
  } else if (cJSON_GetArraySize(root) != q->n) {
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s: expected %d entries (one per query of %s), found %d", json_path, q->n,
                       path, cJSON_GetArraySize(root));
  } else {
    q->truth = IPC_NEW0(unsigned char, q->n > 0 ? q->n : 1);
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
      if (!cJSON_IsBool(item)) {
        st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: entry %d: expected true or false", json_path,
                           i);
        break;
      }
      q->truth[i++] = cJSON_IsTrue(item) ? 1 : 0;
    }
    if (st == IPCC_OK) q->has_truth = 1;
  }
  cJSON_Delete(root);
  ipc_free(text);
  return st;
}

ipcc_status ipc_ccd_queries_read(const char *path, ipc_ccd_kind kind, ipc_ccd_queries *out,
                                 ipcc_error *err) {
  memset(out, 0, sizeof *out);
  if (kind == IPC_CCD_KIND_FROM_PATH) kind = ipc_ccd_kind_from_path(path);
  if (kind == IPC_CCD_KIND_FROM_PATH)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: cannot tell the query kind: expected a folder named vertex-face "
                         "or edge-edge, or a file name ending in vf.csv or ee.csv",
                         path);
  size_t len = 0;
  char *text = ipc_read_file_max(path, IPC_READ_MAX_MATRIX, &len, err);
  if (!text) return IPCC_ERR_INPUT;

  ipcc_status st = IPCC_OK;
  double *x = NULL;
  unsigned char *gt = NULL;
  size_t xcap = 0, gtcap = 0;
  size_t nlines = 0; /* vertex lines so far */
  int ncols = 0;     /* 6 or 7, fixed by the first vertex line */
  long lineno = 0;
  char *p = text, *end = text + len;
  while (p < end && st == IPCC_OK) {
    char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    ++lineno;
    char *le = eol;
    if (le > p && le[-1] == '\r') --le;
    char *s = p;
    p = eol + 1;
    while (s < le && (*s == ' ' || *s == '\t')) ++s;
    if (s == le || *s == '#') continue;

    double v[7];
    int nf = 0;
    char *f = s;
    for (;;) {
      char *c = memchr(f, ',', (size_t)(le - f));
      char *fe = c ? c : le;
      if (nf == 7) {
        nf = 8;
        break;
      }
      int ok = ccdq_integer(f, fe, nf % 2 == 0 || nf == 6, &v[nf]);
      if (!ok || (nf < 6 && nf % 2 == 1 && !(v[nf] > 0.0)) ||
          (nf == 6 && v[nf] != 0.0 && v[nf] != 1.0)) {
        const char *what = nf == 6       ? "a ground-truth value 0 or 1"
                           : nf % 2 == 0 ? "an integer numerator"
                                         : "a positive integer denominator";
        st = ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s:%ld: field %d: expected %s (line format xn,xd,yn,yd,zn,zd[,gt])",
                           path, lineno, nf + 1, what);
        break;
      }
      ++nf;
      if (!c) break;
      f = c + 1;
    }
    if (st != IPCC_OK) break;
    if (nf != 6 && nf != 7) {
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s:%ld: expected 6 or 7 comma-separated integers "
                         "(xn,xd,yn,yd,zn,zd[,gt]), found %s",
                         path, lineno, nf < 6 ? "fewer" : "more");
      break;
    }
    if (ncols == 0) ncols = nf;
    if (nf != ncols) {
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s:%ld: expected %d fields like the first vertex line, found %d", path,
                         lineno, ncols, nf);
      break;
    }
    ipc_reserve((void **)&x, &xcap, 3 * (nlines + 1), sizeof(double));
    for (int a = 0; a < 3; ++a) x[3 * nlines + (size_t)a] = v[2 * a] / v[2 * a + 1];
    if (nf == 7 && nlines % 8 == 0) {
      ipc_reserve((void **)&gt, &gtcap, nlines / 8 + 1, 1);
      gt[nlines / 8] = (unsigned char)(v[6] != 0.0);
    }
    ++nlines;
  }
  ipc_free(text);
  if (st == IPCC_OK && nlines % 8 != 0)
    st = ipc_error_set(err, IPCC_ERR_INPUT,
                       "%s:%ld: expected 8 vertex lines per query, found %zu lines in all", path,
                       lineno, nlines);
  if (st == IPCC_OK && nlines > 8 * (size_t)0x7fffffff)
    st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: too many queries", path);
  if (st != IPCC_OK) {
    ipc_free(x);
    ipc_free(gt);
    return st;
  }
  out->kind = kind;
  out->n = (int)(nlines / 8);
  out->x = x ? x : IPC_NEW0(double, 3);
  if (ncols == 7) {
    out->truth = gt;
    out->has_truth = 1;
  } else {
    char *jp = ccdq_json_path(path);
    st = ccdq_read_json(jp, path, out, err);
    ipc_free(jp);
    if (st != IPCC_OK) ipc_ccd_queries_free(out);
  }
  return st;
}

void ipc_ccd_queries_free(ipc_ccd_queries *q) {
  if (!q) return;
  ipc_free(q->x);
  ipc_free(q->truth);
  memset(q, 0, sizeof *q);
}
