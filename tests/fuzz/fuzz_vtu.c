/* libFuzzer target: VTK XML UnstructuredGrid (.vtu: ascii, inline base64, appended raw or
   base64 data, zlib blocks; src/io/vtu.c) through the from-memory parser, then the mesh
   oracle of fuzz_common.h */
#include <stdlib.h>

#include "fuzz_common.h"
#include "io/mesh_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  ipcc_mesh m;
  ipcc_error err = {0};
  ipcc_status st = ipc_vtu_parse("fuzz.vtu", text, size, &m, &err);
  fuzz_check_error(st, &err, "fuzz.vtu");
  if (st == IPCC_OK) fuzz_check_mesh(&m);
  ipcc_mesh_free(&m);
  free(text);
  return 0;
}
