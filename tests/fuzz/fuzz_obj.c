/* libFuzzer target: each input is read both as Wavefront .obj and as IPC's .seg (the same
   syntax plus 's i j' segments) through the from-memory parser, then the mesh oracle */
#include <stdlib.h>

#include "fuzz_common.h"
#include "io/mesh_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  static const char *const names[2] = {"fuzz.obj", "fuzz.seg"};
  for (int seg = 0; seg < 2; ++seg) {
    ipcc_mesh m;
    ipcc_error err = {0};
    ipcc_status st = ipc_obj_parse(names[seg], text, size, seg, &m, &err);
    fuzz_check_error(st, &err, names[seg]);
    if (st == IPCC_OK) fuzz_check_mesh(&m);
    ipcc_mesh_free(&m);
  }
  free(text);
  return 0;
}
