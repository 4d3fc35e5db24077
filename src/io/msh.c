/* Gmsh MSH reader, ASCII versions 2.x (2.0-2.2) and 4.1. linear tetrahedra (element type 4)
   form the volume; other element types are skipped; unknown $Sections (such as IPC's
   $Surface) are skipped up to their $End line. format reference: the Gmsh manual, section
   "MSH file format" (versions 4.1 and 2.2) */
#include <string.h>

#include "core/alloc.h"
#include "io/mesh_internal.h"

/* nodes per element type for the Gmsh types 1..31; 0 = unknown */
static const int type_nodes[32] = {0, 2,  3,  4,  4, 8,  6,  5,  3,  6,  9, 10, 27, 18, 14, 1,
                                   8, 20, 15, 13, 9, 10, 12, 15, 15, 21, 4, 5,  6,  20, 35, 56};

static int nodes_of_type(long type) {
  return type >= 1 && type < 32 ? type_nodes[type] : 0;
}

typedef struct msh_reader {
  ipc_scan s;
  ipc_tet_raw raw;
  int version; /* 2 or 4 */
  int have_nodes, have_elements;
  long nquadratic; /* 10-node tetrahedra seen (not supported) */
} msh_reader;

static ipcc_status read_format(msh_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  const char *tok;
  size_t len = ipc_scan_peek(s, &tok);
  if (ipc_token_is(tok, len, "2") || ipc_token_is(tok, len, "2.0") ||
      ipc_token_is(tok, len, "2.1") || ipc_token_is(tok, len, "2.2")) {
    r->version = 2;
  } else if (ipc_token_is(tok, len, "4.1")) {
    r->version = 4;
  } else {
    char found[40];
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err, "unsupported MSH version %s, expected 2.2 or 4.1", found);
  }
  ipc_scan_advance(s, len);
  long file_type, data_size;
  ipcc_status st = ipc_scan_long(s, &file_type, "file type", err);
  if (st) return st;
  if (file_type == 1)
    return ipc_scan_fail(s, err, "binary MSH is not supported, expected file type 0 (ASCII)");
  if (file_type != 0)
    return ipc_scan_fail(s, err, "file type is %ld, expected 0 (ASCII)", file_type);
  st = ipc_scan_long(s, &data_size, "data size", err);
  if (st) return st;
  return ipc_scan_expect(s, "$EndMeshFormat", " after the version line", err);
}

static ipcc_status read_node_coords(msh_reader *r, long tag, int line, int nparam,
                                    ipcc_error *err) {
  double xyz[3], uvw;
  static const char *const axis[3] = {"node x coordinate", "node y coordinate",
                                      "node z coordinate"};
  for (int k = 0; k < 3; ++k) {
    ipcc_status st = ipc_scan_double(&r->s, &xyz[k], axis[k], err);
    if (st) return st;
  }
  for (int k = 0; k < nparam; ++k) {
    ipcc_status st = ipc_scan_double(&r->s, &uvw, "node parametric coordinate", err);
    if (st) return st;
  }
  ipc_tet_raw_add_node(&r->raw, tag, xyz, line);
  return IPCC_OK;
}

static ipcc_status end_of_section(msh_reader *r, const char *end, const char *what, long count,
                                  ipcc_error *err) {
  const char *tok;
  size_t len = ipc_scan_peek(&r->s, &tok);
  if (ipc_token_is(tok, len, end)) {
    ipc_scan_advance(&r->s, len);
    return IPCC_OK;
  }
  char found[40];
  ipc_scan_describe(&r->s, found, sizeof found);
  if (len == 0) return ipc_scan_fail(&r->s, err, "expected %s, found %s", end, found);
  return ipc_scan_fail(&r->s, err,
                       "expected %s after %ld %s, found %s (more %s than the header "
                       "says)",
                       end, count, what, found, what);
}

static ipcc_status read_nodes_v2(msh_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  long n;
  ipcc_status st = ipc_scan_long_in(s, &n, 0, 1L << 30, "number of nodes", err);
  if (st) return st;
  for (long i = 0; i < n; ++i) {
    long tag;
    st = ipc_scan_long(s, &tag, "node number", err);
    if (st) return st;
    st = read_node_coords(r, tag, s->line, 0, err);
    if (st) return st;
  }
  return end_of_section(r, "$EndNodes", "nodes", n, err);
}

static ipcc_status read_nodes_v4(msh_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  long nblocks, n, lo, hi;
  ipc_scan_skip(s);
  int header_line = s->line;
  ipcc_status st = ipc_scan_long_in(s, &nblocks, 0, 1L << 30, "number of node blocks", err);
  if (!st) st = ipc_scan_long_in(s, &n, 0, 1L << 30, "number of nodes", err);
  if (!st) st = ipc_scan_long(s, &lo, "smallest node tag", err);
  if (!st) st = ipc_scan_long(s, &hi, "largest node tag", err);
  if (st) return st;
  long total = 0;
  for (long b = 0; b < nblocks; ++b) {
    long dim, tag, param, count;
    st = ipc_scan_long_in(s, &dim, 0, 3, "node block dimension", err);
    if (!st) st = ipc_scan_long(s, &tag, "node block entity tag", err);
    if (!st) st = ipc_scan_long_in(s, &param, 0, 1, "node block parametric flag", err);
    if (!st) st = ipc_scan_long_in(s, &count, 0, 1L << 30, "nodes in block", err);
    if (st) return st;
    if (count > n - total)
      return ipc_scan_fail(s, err,
                           "node block %ld holds %ld nodes, but only %ld of the %ld in "
                           "the $Nodes header remain",
                           b + 1, count, n - total, n);
    int first = r->raw.nnodes;
    for (long i = 0; i < count; ++i) {
      long t;
      st = ipc_scan_long(s, &t, "node tag", err);
      if (st) return st;
      static const double zero[3] = {0, 0, 0};
      ipc_tet_raw_add_node(&r->raw, t, zero, s->line);
    }
    for (long i = 0; i < count; ++i) {
      double *x = r->raw.x + 3 * (first + i);
      static const char *const axis[3] = {"node x coordinate", "node y coordinate",
                                          "node z coordinate"};
      for (int k = 0; k < 3; ++k) {
        st = ipc_scan_double(s, &x[k], axis[k], err);
        if (st) return st;
      }
      for (long k = 0; param && k < dim; ++k) {
        double uvw;
        st = ipc_scan_double(s, &uvw, "node parametric coordinate", err);
        if (st) return st;
      }
    }
    total += count;
  }
  if (total != n)
    return ipc_scan_fail_at(s, header_line, err,
                            "the $Nodes header announces %ld nodes, but its blocks hold %ld", n,
                            total);
  return end_of_section(r, "$EndNodes", "nodes", n, err);
}

/* reads the node tags of one element of the given type; tets are kept */
static ipcc_status read_element_nodes(msh_reader *r, long id, long type, int line,
                                      ipcc_error *err) {
  int nn = nodes_of_type(type);
  long nodes[4];
  for (int k = 0; k < nn; ++k) {
    /* an element is one line: a short one is reported there, not where the scan of the
       next lines fails (such as the $EndElements line) */
    if (ipc_scan_at_eol(&r->s))
      return ipc_scan_fail_at(&r->s, line, err,
                              "element %ld (type %ld) has %d node tags, expected %d on its line",
                              id, type, k, nn);
    long v;
    ipcc_status st = ipc_scan_long(&r->s, &v, "element node tag", err);
    if (st) return st;
    if (k < 4) nodes[k] = v;
  }
  if (type == 4) ipc_tet_raw_add_tet(&r->raw, id, nodes, line);
  if (type == 11) r->nquadratic++;
  return IPCC_OK;
}

static ipcc_status read_elements_v2(msh_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  long n;
  ipcc_status st = ipc_scan_long_in(s, &n, 0, 1L << 30, "number of elements", err);
  if (st) return st;
  for (long i = 0; i < n; ++i) {
    long id, type, ntags, tag;
    st = ipc_scan_long(s, &id, "element number", err);
    if (st) return st;
    int line = s->line;
    st = ipc_scan_long_in(s, &type, 1, 1L << 30, "element type", err);
    if (!st) st = ipc_scan_long_in(s, &ntags, 0, 1L << 20, "number of element tags", err);
    if (st) return st;
    for (long k = 0; k < ntags; ++k) {
      st = ipc_scan_long(s, &tag, "element tag", err);
      if (st) return st;
    }
    if (nodes_of_type(type)) {
      st = read_element_nodes(r, id, type, line, err);
      if (st) return st;
    } else {
      ipc_scan_next_line(s); /* unknown type: its record is the rest of the line */
    }
  }
  return end_of_section(r, "$EndElements", "elements", n, err);
}

static ipcc_status read_elements_v4(msh_reader *r, ipcc_error *err) {
  ipc_scan *s = &r->s;
  long nblocks, n, lo, hi;
  ipc_scan_skip(s);
  int header_line = s->line;
  ipcc_status st = ipc_scan_long_in(s, &nblocks, 0, 1L << 30, "number of element blocks", err);
  if (!st) st = ipc_scan_long_in(s, &n, 0, 1L << 30, "number of elements", err);
  if (!st) st = ipc_scan_long(s, &lo, "smallest element tag", err);
  if (!st) st = ipc_scan_long(s, &hi, "largest element tag", err);
  if (st) return st;
  long total = 0;
  for (long b = 0; b < nblocks; ++b) {
    long dim, tag, type, count;
    st = ipc_scan_long_in(s, &dim, 0, 3, "element block dimension", err);
    if (!st) st = ipc_scan_long(s, &tag, "element block entity tag", err);
    if (!st) st = ipc_scan_long_in(s, &type, 1, 1L << 30, "element type", err);
    if (!st) st = ipc_scan_long_in(s, &count, 0, 1L << 30, "elements in block", err);
    if (st) return st;
    if (count > n - total)
      return ipc_scan_fail(s, err,
                           "element block %ld holds %ld elements, but only %ld of the "
                           "%ld in the $Elements header remain",
                           b + 1, count, n - total, n);
    if (!nodes_of_type(type)) {
      /* unknown type: one element per line */
      ipc_scan_next_line(s);
      for (long i = 0; i < count; ++i) {
        if (ipc_scan_at_eof(s))
          return ipc_scan_fail(s, err, "file ends inside element block %ld (element %ld of %ld)",
                               b + 1, i + 1, count);
        ipc_scan_next_line(s);
      }
    } else {
      for (long i = 0; i < count; ++i) {
        long id;
        st = ipc_scan_long(s, &id, "element tag", err);
        if (st) return st;
        st = read_element_nodes(r, id, type, s->line, err);
        if (st) return st;
      }
    }
    total += count;
  }
  if (total != n)
    return ipc_scan_fail_at(s, header_line, err,
                            "the $Elements header announces %ld elements, but its blocks hold %ld",
                            n, total);
  return end_of_section(r, "$EndElements", "elements", n, err);
}

/* skips an unknown section whose header token (name, len) was just read */
static ipcc_status skip_section(msh_reader *r, const char *name, size_t len, ipcc_error *err) {
  ipc_scan *s = &r->s;
  int start = s->line;
  char end[72];
  if (len > 64) len = 64;
  memcpy(end, "$End", 4);
  memcpy(end + 4, name + 1, len - 1);
  end[len + 3] = '\0';
  for (;;) {
    ipc_scan_next_line(s);
    if (ipc_scan_at_eof(s)) break;
    const char *tok;
    size_t tl = ipc_scan_peek(s, &tok);
    if (ipc_token_is(tok, tl, end)) {
      ipc_scan_advance(s, tl);
      return IPCC_OK;
    }
  }
  char shown[72];
  size_t k = 0;
  for (; k < len; ++k) shown[k] = (name[k] >= 32 && name[k] < 127) ? name[k] : '?';
  shown[k] = '\0';
  return ipc_scan_fail_at(s, start, err,
                          "section %s has no %s line, expected one before the "
                          "end of the file",
                          shown, end);
}

ipcc_status ipc_msh_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                          ipcc_error *err) {
  msh_reader r;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  ipc_scan_init(&r.s, name, buf, len);
  r.s.multiline = 1;
  ipc_scan *s = &r.s;
  ipcc_status st = IPCC_OK;
  int first = 1;
  while (!st && !ipc_scan_at_eof(s)) {
    const char *tok;
    size_t tl = ipc_scan_peek(s, &tok);
    if (first && !ipc_token_is(tok, tl, "$MeshFormat")) {
      char found[40];
      ipc_scan_describe(s, found, sizeof found);
      if (ipc_token_is(tok, tl, "$NOD") || ipc_token_is(tok, tl, "$NOE"))
        st = ipc_scan_fail(s, err,
                           "MSH version 1 is not supported, expected $MeshFormat "
                           "(version 2.2 or 4.1)");
      else
        st = ipc_scan_fail(s, err, "expected $MeshFormat, found %s", found);
      break;
    }
    first = 0;
    if (tl < 2 || tok[0] != '$') {
      char found[40];
      ipc_scan_describe(s, found, sizeof found);
      st = ipc_scan_fail(s, err, "expected a section header such as $Nodes or $Elements, found %s",
                         found);
      break;
    }
    ipc_scan_advance(s, tl);
    if (ipc_token_is(tok, tl, "$MeshFormat")) {
      if (r.version)
        st = ipc_scan_fail(s, err, "second $MeshFormat section, expected only one");
      else
        st = read_format(&r, err);
    } else if (ipc_token_is(tok, tl, "$Nodes") || ipc_token_is(tok, tl, "$Elements")) {
      int nodes = tok[1] == 'N';
      int *have = nodes ? &r.have_nodes : &r.have_elements;
      if (*have) {
        st = ipc_scan_fail(s, err, "second %s section, expected only one",
                           nodes ? "$Nodes" : "$Elements");
      } else {
        *have = 1;
        if (nodes)
          st = r.version == 2 ? read_nodes_v2(&r, err) : read_nodes_v4(&r, err);
        else
          st = r.version == 2 ? read_elements_v2(&r, err) : read_elements_v4(&r, err);
      }
    } else {
      st = skip_section(&r, tok, tl, err);
    }
  }
  if (!st && first) st = ipc_scan_fail(s, err, "empty file, expected $MeshFormat");
  if (!st && !r.have_nodes) st = ipc_scan_fail(s, err, "no $Nodes section, expected one");
  if (!st && !r.have_elements) st = ipc_scan_fail(s, err, "no $Elements section, expected one");
  if (!st && r.raw.ntets == 0 && r.nquadratic)
    st = ipc_scan_fail(s, err,
                       "only 10-node tetrahedra (type 11), expected linear tetrahedra "
                       "(type 4)");
  if (!st) st = ipc_tet_raw_finish(&r.raw, s, s, out, err);
  ipc_tet_raw_free(&r.raw);
  return st;
}
