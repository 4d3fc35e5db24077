/* libFuzzer target: IPC .txt scene scripts. each input is written to s/scene.txt in the
   scratch folder, whose input/ link holds small meshes under IPC's paths
   (input/tetMeshes/cube.msh, tet.msh, ...), and read by ipcc_scene_load_txt in strict and in
   lenient mode; an accepted script is then built into a world */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_mkdir("s");
  return 0;
}

/* reads path with the given flags; the refusal must name the file */
static ipcc_status load(const char *path, unsigned flags) {
  ipcc_scene_def s;
  ipcc_error err = {0};
  ipcc_status st = ipcc_scene_load_txt(path, flags, &s, &err);
  fuzz_check_error(st, &err, "scene.txt");
  if (st == IPCC_OK) fuzz_build_world(&s);
  ipcc_scene_def_free(&s);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path(0, "s/scene.txt");
  fuzz_write(path, data, size);
  /* lenient mode reads on past unsupported keywords, so it reaches more of the reader */
  if (load(path, 0) != IPCC_OK) load(path, IPCC_SCENE_LENIENT);
  return 0;
}
