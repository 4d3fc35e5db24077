/* libFuzzer target: CCD benchmark query files. an input is the query file, then optionally a
   NUL byte and its ground-truth JSON; they are written to vertex-face/q.csv and
   mma_bool/q_mma_bool.json in the scratch folder (the JSON removed when absent) and read by
   ipc_ccd_queries_read, which takes the kind from the folder name */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/ccd_queries.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_mkdir("vertex-face");
  fuzz_mkdir("mma_bool");
  return 0;
}

static void check_queries(const ipc_ccd_queries *q) {
  int ok = q->n >= 0 && q->x && q->kind == IPC_CCD_KIND_VF && (!q->has_truth || q->truth);
  for (long i = 0; ok && i < q->n; ++i) ok = !q->has_truth || q->truth[i] <= 1;
  if (!ok) {
    fprintf(stderr, "fuzz oracle: inconsistent queries (n %d)\n", q->n);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, '\0', size);
  size_t csv_len = nul ? (size_t)(nul - data) : size;
  const char *csv = fuzz_path(0, "vertex-face/q.csv");
  const char *json = fuzz_path(1, "mma_bool/q_mma_bool.json");
  fuzz_write(csv, data, csv_len);
  if (nul)
    fuzz_write(json, nul + 1, size - csv_len - 1);
  else
    remove(json);
  ipc_ccd_queries q;
  ipcc_error err = {0};
  ipcc_status st = ipc_ccd_queries_read(csv, IPC_CCD_KIND_FROM_PATH, &q, &err);
  fuzz_check_error(st, &err, csv);
  if (st == IPCC_OK) check_queries(&q);
  ipc_ccd_queries_free(&q);
  return 0;
}
