/* libFuzzer target: Matrix Market text through the from-memory parser; an accepted matrix
   must have its triplets inside its dimensions, which ipc_mm_to_dense then relies on */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "io/matrix_market.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* dense copies beyond this many entries are skipped (the parse is still checked) */
#define DENSE_MAX 4096

static void check_triplets(const ipc_mm_matrix *m) {
  for (int k = 0; k < m->nnz; ++k)
    if (m->ri[k] < 0 || m->ri[k] >= m->rows || m->ci[k] < 0 || m->ci[k] >= m->cols) {
      fprintf(stderr, "fuzz oracle: triplet %d (%d, %d) outside %d x %d\n", k, m->ri[k], m->ci[k],
              m->rows, m->cols);
      abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  ipc_mm_matrix m;
  ipcc_error err = {0};
  ipcc_status st = ipc_mm_parse("fuzz.mtx", text, size, &m, &err);
  fuzz_check_error(st, &err, "fuzz.mtx");
  if (st == IPCC_OK) {
    if (m.rows < 0 || m.cols < 0 || m.nnz < 0) abort();
    check_triplets(&m);
    if ((long)m.rows * m.cols <= DENSE_MAX) {
      double *dense = malloc(sizeof(double) * ((size_t)m.rows * (size_t)m.cols + 1));
      ipc_mm_to_dense(&m, dense);
      free(dense);
    }
  }
  ipc_mm_free(&m);
  free(text);
  return 0;
}
