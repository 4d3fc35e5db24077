/* libFuzzer target: JSON scenes. each input is written to scene.json in the scratch folder
   and read by ipcc_scene_load (which hands IPC scripts to the .txt reader) and by the LCP
   options reader; an accepted scene whose meshes are the linked test meshes (meshes/...)
   is then built into a world */
#include "fuzz_common.h"
#include "lcp/lcp_world.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_dir();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path(0, "scene.json");
  fuzz_write(path, data, size);
  ipcc_scene_def s;
  ipcc_error err = {0};
  ipcc_status st = ipcc_scene_load(path, &s, &err);
  fuzz_check_error(st, &err, path);
  if (st == IPCC_OK) fuzz_build_world(&s);
  ipcc_scene_def_free(&s);
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  int lcp_mode = 0;
  ipcc_error lerr = {0};
  fuzz_check_error(ipcc_lcp_scene_load(path, &d, &lcp_mode, &lerr), &lerr, path);
  return 0;
}
