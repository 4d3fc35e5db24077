/* Matrix Market reader/writer: array and coordinate round trips (exact), symmetric and
 * skew-symmetric storage, comments/CRLF/case, and bad files whose errors name file and line */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "io/matrix_market.h"
#include "test.h"

static char tmpdir[64];

static void tmp_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", tmpdir, name);
}

static int parse(const char *text, ipc_mm_matrix *m, ipcc_error *err) {
  return ipc_mm_parse("bad.mtx", text, strlen(text), m, err);
}

static void test_round_trip(void) {
  char path[128];
  const double a[6] = {1.0 / 3.0, -1e-300, 1e300, 0.0, -2.5, 123456789.123456789};
  tmp_path(path, sizeof path, "a.mtx");
  ipcc_error err;
  CHECK(ipc_mm_write_array(path, 3, 2, a, &err) == IPCC_OK);
  ipc_mm_matrix m;
  CHECK(ipc_mm_read(path, &m, &err) == IPCC_OK);
  CHECK(m.rows == 3 && m.cols == 2 && m.array == 1 && m.symmetry == 0 && m.nnz == 6);
  double d[6];
  ipc_mm_to_dense(&m, d);
  CHECK(memcmp(d, a, sizeof d) == 0);
  ipc_mm_free(&m);

  /* a vector n x 1 */
  const double v[4] = {0.1, -0.2, 3e-17, 4};
  tmp_path(path, sizeof path, "v.mtx");
  CHECK(ipc_mm_write_array(path, 4, 1, v, &err) == IPCC_OK);
  CHECK(ipc_mm_read(path, &m, &err) == IPCC_OK);
  CHECK(m.rows == 4 && m.cols == 1);
  double dv[4];
  ipc_mm_to_dense(&m, dv);
  CHECK(memcmp(dv, v, sizeof dv) == 0);
  ipc_mm_free(&m);
  /* no temporary file left behind */
  char tmpname[160];
  snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", path, (long)getpid());
  CHECK(access(tmpname, F_OK) != 0);

  /* coordinate, with a duplicate that the dense view sums */
  const int ri[4] = {0, 2, 1, 2}, ci[4] = {0, 1, 3, 1};
  const double cv[4] = {1.5, -0.1, 7e-8, 0.4};
  tmp_path(path, sizeof path, "c.mtx");
  CHECK(ipc_mm_write_coordinate(path, 3, 4, 4, ri, ci, cv, &err) == IPCC_OK);
  CHECK(ipc_mm_read(path, &m, &err) == IPCC_OK);
  CHECK(m.rows == 3 && m.cols == 4 && m.nnz == 4 && m.array == 0);
  for (int k = 0; k < 4; ++k) CHECK(m.ri[k] == ri[k] && m.ci[k] == ci[k] && m.val[k] == cv[k]);
  double dc[12];
  ipc_mm_to_dense(&m, dc);
  CHECK(dc[0] == 1.5 && dc[2 * 4 + 1] == -0.1 + 0.4 && dc[1 * 4 + 3] == 7e-8);
  ipc_mm_free(&m);

  /* writing into a missing folder fails and names the file */
  CHECK(ipc_mm_write_array("/nonexistent-dir/z.mtx", 4, 1, v, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "/nonexistent-dir/z.mtx") != NULL);
}

static void test_symmetric(void) {
  ipc_mm_matrix m;
  ipcc_error err;
  double d[9];
  /* coordinate, lower triangle, comments, blank lines, CRLF, upper-case keywords */
  const char *sym =
      "%%MatrixMarket MATRIX Coordinate Real Symmetric\r\n"
      "% a comment\r\n"
      "\r\n"
      "3 3 4\r\n"
      "1 1 2.0\r\n"
      "2 1 -1\r\n"
      "% between entries\r\n"
      "3 2 -1e0\r\n"
      "3 3 4\r\n";
  CHECK(parse(sym, &m, &err) == IPCC_OK);
  CHECK(m.symmetry == 1 && m.nnz == 6);
  ipc_mm_to_dense(&m, d);
  const double want[9] = {2, -1, 0, -1, 0, -1, 0, -1, 4};
  CHECK(memcmp(d, want, sizeof d) == 0);
  ipc_mm_free(&m);

  /* array, symmetric: lower triangle column by column; integer field */
  const char *arr = "%%MatrixMarket matrix array integer symmetric\n3 3\n2\n-1\n0\n0\n-1\n4\n";
  CHECK(parse(arr, &m, &err) == IPCC_OK);
  ipc_mm_to_dense(&m, d);
  CHECK(memcmp(d, want, sizeof d) == 0);
  ipc_mm_free(&m);

  /* skew-symmetric, both formats: strict lower triangle, mirrored with a sign */
  const double skew[9] = {0, -1, -2, 1, 0, -3, 2, 3, 0};
  const char *sk =
      "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n"
      "2 1 1\n3 1 2\n3 2 3\n";
  CHECK(parse(sk, &m, &err) == IPCC_OK);
  ipc_mm_to_dense(&m, d);
  CHECK(memcmp(d, skew, sizeof d) == 0);
  ipc_mm_free(&m);
  const char *ska = "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1 2\n3\n";
  CHECK(parse(ska, &m, &err) == IPCC_OK);
  ipc_mm_to_dense(&m, d);
  CHECK(memcmp(d, skew, sizeof d) == 0);
  ipc_mm_free(&m);

  /* general array: column-major order in the file */
  const char *ga = "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n";
  CHECK(parse(ga, &m, &err) == IPCC_OK);
  double g[6];
  ipc_mm_to_dense(&m, g);
  const double gw[6] = {1, 3, 5, 2, 4, 6};
  CHECK(memcmp(g, gw, sizeof g) == 0);
  ipc_mm_free(&m);
}

/* each bad text fails with "bad.mtx:LINE:" and a phrase naming what was expected */
static void expect_bad(const char *text, int line, const char *phrase) {
  ipc_mm_matrix m;
  ipcc_error err;
  ipcc_error_clear(&err);
  ipcc_status st = parse(text, &m, &err);
  char where[32];
  snprintf(where, sizeof where, "bad.mtx:%d:", line);
  CHECK_MSG(st == IPCC_ERR_INPUT, "accepted: %s", text);
  CHECK_MSG(strncmp(err.msg, where, strlen(where)) == 0, "'%s' lacks '%s'", err.msg, where);
  CHECK_MSG(strstr(err.msg, phrase) != NULL, "'%s' lacks '%s'", err.msg, phrase);
  CHECK(m.nnz == 0 && m.ri == NULL && m.val == NULL);
}

static void test_bad(void) {
  const char *hdr = "%%MatrixMarket matrix coordinate real general\n";
  char buf[512];
  expect_bad("", 1, "banner");
  expect_bad("3 3 1\n1 1 1\n", 1, "banner");
  expect_bad("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1, "real");
  expect_bad("%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n", 1, "real");
  expect_bad("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1, "symmetry");
  expect_bad("%%MatrixMarket vector coordinate real general\n", 1, "matrix");
  snprintf(buf, sizeof buf, "%s%% comment\n3 x 1\n1 1 1\n", hdr);
  expect_bad(buf, 3, "size line");
  snprintf(buf, sizeof buf, "%s2 2\n", hdr);
  expect_bad(buf, 2, "ROWS COLS ENTRIES");
  snprintf(buf, sizeof buf, "%s2 2 5\n", hdr);
  expect_bad(buf, 2, "more entries than the matrix holds");
  snprintf(buf, sizeof buf, "%s2 2 2\n1 1 1\n3 1 1\n", hdr);
  expect_bad(buf, 4, "outside the 2 x 2 matrix");
  snprintf(buf, sizeof buf, "%s2 2 2\n1 1 1\n\n2 0 1\n", hdr);
  expect_bad(buf, 5, "outside");
  snprintf(buf, sizeof buf, "%s2 2 2\n1 1 1\n2 2 abc\n", hdr);
  expect_bad(buf, 4, "finite real value");
  snprintf(buf, sizeof buf, "%s2 2 2\n1 1 nan\n2 2 1\n", hdr);
  expect_bad(buf, 3, "finite real value");
  snprintf(buf, sizeof buf, "%s2 2 2\n1 1 1\n2.5 2 1\n", hdr);
  expect_bad(buf, 4, "ROW COL VALUE");
  snprintf(buf, sizeof buf, "%s2 2 2\n1 1 1 7\n2 2 1\n", hdr);
  expect_bad(buf, 3, "extra value");
  snprintf(buf, sizeof buf, "%s2 2 3\n1 1 1\n2 2 1\n%% end\n", hdr);
  expect_bad(buf, 5, "expected 3 entries, found 2");
  snprintf(buf, sizeof buf, "%s2 2 1\n1 1 1\n2 2 1\n", hdr);
  expect_bad(buf, 4, "more entries than the size line gives");
  expect_bad("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", 3,
             "lower triangle");
  expect_bad("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", 3,
             "strict lower triangle");
  expect_bad("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", 2, "square");
  expect_bad("%%MatrixMarket matrix array real general\n2 1\n1\n", 2, "2 values announced");
  expect_bad("%%MatrixMarket matrix array real general\n2 1\n1\n\n\n", 5, "expected 2 values");
  /* sizes are checked before any entry is read: a cap on rows and columns, and a count
     the rest of the file must be able to hold */
  snprintf(buf, sizeof buf, "%s2000000000 1 0\n", hdr);
  expect_bad(buf, 2, "expected at most 10000000 rows and columns");
  snprintf(buf, sizeof buf, "%s10 10000001 0\n", hdr);
  expect_bad(buf, 2, "10 x 10000001 matrix");
  snprintf(buf, sizeof buf, "%s1000000 1000000 1000000\n1 1 1\n", hdr);
  expect_bad(buf, 2, "1000000 entries announced, but the 6 bytes after it hold at most 1");
  expect_bad("%%MatrixMarket matrix array real general\n3000 3000\n1\n", 2,
             "9000000 values announced");
  expect_bad("%%MatrixMarket matrix array real general\n2 1\n1\n2\n3\n", 5, "more values");
  expect_bad("%%MatrixMarket matrix array real general\n2 1\n1 2 3\n", 3, "more values");
  expect_bad("%%MatrixMarket matrix array real general\n2 1\n1\n1e999\n", 4, "finite");

  /* a missing file names the file */
  ipc_mm_matrix m;
  ipcc_error err;
  CHECK(ipc_mm_read("tests/data/no-such-file.mtx", &m, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "tests/data/no-such-file.mtx") != NULL);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/ipcc_mm_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  test_round_trip();
  test_symmetric();
  test_bad();
  const char *names[] = {"a.mtx", "v.mtx", "c.mtx"};
  for (int k = 0; k < 3; ++k) {
    char path[128];
    tmp_path(path, sizeof path, names[k]);
    remove(path);
  }
  rmdir(tmpdir);
  TEST_MAIN_END();
}
