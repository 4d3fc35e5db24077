/* libFuzzer target: TetGen .node/.ele pairs through the from-memory parser. an input is the
   .node text, a NUL byte, then the .ele text (without a NUL the .ele file is empty) */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/mesh_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, '\0', size);
  size_t node_len = nul ? (size_t)(nul - data) : size;
  size_t ele_len = nul ? size - node_len - 1 : 0;
  char *node = fuzz_text(data, node_len);
  char *ele = fuzz_text(nul ? nul + 1 : data, ele_len);
  ipcc_mesh m;
  ipcc_error err = {0};
  ipcc_status st =
      ipc_tetgen_parse("fuzz.node", node, node_len, "fuzz.ele", ele, ele_len, &m, &err);
  fuzz_check_error(st, &err, "fuzz.");
  if (st == IPCC_OK) fuzz_check_mesh(&m);
  ipcc_mesh_free(&m);
  free(node);
  free(ele);
  return 0;
}
