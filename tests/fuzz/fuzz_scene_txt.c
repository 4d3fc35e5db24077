/* libFuzzer target: IPC .txt scene scripts. each input is written to s/scene.txt in the
   scratch folder, whose input/ link holds small meshes under IPC's paths
   (input/tetMeshes/cube.msh, tet.msh, ...), and read by ipc_scene_load_txt in strict and in
   lenient mode; an accepted script is then built into a world */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_mkdir("s");
  return 0;
}

/* reads path with the given flags; the refusal must name the file */
static ipc_status load(const char *path, unsigned flags) {
  ipc_scene_def s;
  ipc_error err = {0};
  ipc_status st = ipc_scene_load_txt(path, flags, &s, &err);
  fuzz_check_error(st, &err, "scene.txt");
  if (st == IPC_OK) fuzz_build_world(&s);
  ipc_scene_def_free(&s);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path(0, "s/scene.txt");
  fuzz_write(path, data, size);
  /* lenient mode reads on past unsupported keywords, so it reaches more of the reader */
  if (load(path, 0) != IPC_OK) load(path, IPC_SCENE_LENIENT);
  return 0;
}
