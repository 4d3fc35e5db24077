/* TetGen .node/.ele reader (TetGen manual, "File formats"): .node holds
   "<#points> <dim=3> <#attributes> <boundary marker 0|1>" then one line per point
   "<number> <x> <y> <z> [attributes] [marker]"; .ele holds "<#tets> <nodes per tet=4>
   <#attributes>" then "<number> <n1> <n2> <n3> <n4> [attributes]". point numbers are used
   as given (0- or 1-based); '#' starts a comment */
#include <string.h>

#include "core/alloc.h"
#include "io/mesh_internal.h"

static ipcc_status read_node_file(ipc_scan *s, ipc_tet_raw *raw, ipcc_error *err) {
  long n, dim, nattr, nmark;
  ipcc_status st = ipc_scan_long_in(s, &n, 0, 1L << 30, "number of points", err);
  if (!st) st = ipc_scan_long(s, &dim, "dimension", err);
  if (st) return st;
  if (dim != 3) return ipc_scan_fail(s, err, "dimension is %ld, expected 3", dim);
  st = ipc_scan_long_in(s, &nattr, 0, 1L << 20, "number of point attributes", err);
  if (!st) st = ipc_scan_long_in(s, &nmark, 0, 1, "number of boundary markers", err);
  if (st) return st;
  for (long i = 0; i < n; ++i) {
    long tag, mark;
    double xyz[3], attr;
    st = ipc_scan_long(s, &tag, "point number", err);
    if (st) return st;
    int line = s->line;
    static const char *const axis[3] = {"point x coordinate", "point y coordinate",
                                        "point z coordinate"};
    for (int k = 0; !st && k < 3; ++k) st = ipc_scan_double(s, &xyz[k], axis[k], err);
    for (long k = 0; !st && k < nattr; ++k) st = ipc_scan_double(s, &attr, "point attribute", err);
    if (!st && nmark) st = ipc_scan_long(s, &mark, "point boundary marker", err);
    if (st) return st;
    ipc_tet_raw_add_node(raw, tag, xyz, line);
  }
  if (!ipc_scan_at_eof(s)) {
    char found[40];
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err,
                         "found %s after the %ld points of the header, expected the end "
                         "of the file",
                         found, n);
  }
  return IPCC_OK;
}

static ipcc_status read_ele_file(ipc_scan *s, ipc_tet_raw *raw, ipcc_error *err) {
  long n, npt, nattr;
  ipcc_status st = ipc_scan_long_in(s, &n, 0, 1L << 30, "number of tetrahedra", err);
  if (!st) st = ipc_scan_long(s, &npt, "nodes per tetrahedron", err);
  if (st) return st;
  if (npt != 4)
    return ipc_scan_fail(s, err, "%ld nodes per tetrahedron, expected 4 (linear tetrahedra)", npt);
  st = ipc_scan_long_in(s, &nattr, 0, 1L << 20, "number of region attributes", err);
  if (st) return st;
  for (long i = 0; i < n; ++i) {
    long id, nodes[4];
    double attr;
    st = ipc_scan_long(s, &id, "tetrahedron number", err);
    if (st) return st;
    int line = s->line;
    for (int k = 0; !st && k < 4; ++k) st = ipc_scan_long(s, &nodes[k], "tetrahedron node", err);
    for (long k = 0; !st && k < nattr; ++k)
      st = ipc_scan_double(s, &attr, "tetrahedron attribute", err);
    if (st) return st;
    ipc_tet_raw_add_tet(raw, id, nodes, line);
  }
  if (!ipc_scan_at_eof(s)) {
    char found[40];
    ipc_scan_describe(s, found, sizeof found);
    return ipc_scan_fail(s, err,
                         "found %s after the %ld tetrahedra of the header, expected the "
                         "end of the file",
                         found, n);
  }
  return IPCC_OK;
}

ipcc_status ipc_tetgen_parse(const char *node_name, const char *node_buf, size_t node_len,
                             const char *ele_name, const char *ele_buf, size_t ele_len,
                             ipcc_mesh *out, ipcc_error *err) {
  memset(out, 0, sizeof *out);
  ipc_scan ns, es;
  ipc_scan_init(&ns, node_name, node_buf, node_len);
  ipc_scan_init(&es, ele_name, ele_buf, ele_len);
  ns.multiline = es.multiline = 1;
  ns.hash_comments = es.hash_comments = 1;
  ipc_tet_raw raw;
  memset(&raw, 0, sizeof raw);
  ipcc_status st = read_node_file(&ns, &raw, err);
  if (!st) st = read_ele_file(&es, &raw, err);
  if (!st) st = ipc_tet_raw_finish(&raw, &ns, &es, out, err);
  ipc_tet_raw_free(&raw);
  return st;
}
