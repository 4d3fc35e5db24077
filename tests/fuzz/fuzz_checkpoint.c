/* libFuzzer target: run checkpoints (OUTDIR/checkpoint.bin). each input is written to
   checkpoint.bin in the scratch folder and read by ipc_checkpoint_read; the world state
   of an accepted checkpoint is restored into the world of tests/fuzz/data/
   checkpoint_scene.json, built once, as `ipcc run --resume` does */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/run_output.h"
#include "ipc/world.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ipc_world *world;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_dir();
  ipcc_scene_def s;
  ipcc_error err = {0};
  if (ipcc_scene_load(FUZZ_DATA_DIR "/checkpoint_scene.json", &s, &err) == IPCC_OK)
    world = ipc_world_create(&s, &err);
  ipcc_scene_def_free(&s);
  if (!world) {
    fprintf(stderr, "fuzz_checkpoint: %s\n", err.msg);
    abort();
  }
  return 0;
}

/* 64-bit FNV-1a, the checkpoint's checksum (src/io/checkpoint.c) */
static uint64_t fnv1a(const uint8_t *p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t k = 0; k < n; ++k) h = (h ^ p[k]) * 1099511628211ull;
  return h;
}

/* the header is magic (8), version and record size (2 x u32), body length (u64) and the
   body's checksum (u64). A mutated body almost always fails the checksum, which would
   keep the fuzzer at the door: when the header's magic is intact, even inputs get a body
   length and checksum that match, so the body parser sees the mutations (odd inputs keep
   theirs, so the checks of the header stay covered) */
static uint8_t *reseal(const uint8_t *d, size_t n) {
  uint8_t *b = malloc(n ? n : 1);
  memcpy(b, d, n);
  if (n >= 32 && memcmp(b, "IPCCKPT", 7) == 0 && n % 2 == 0) {
    uint64_t len = n - 32, sum = fnv1a(b + 32, n - 32);
    memcpy(b + 16, &len, 8);
    memcpy(b + 24, &sum, 8);
  }
  return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path(0, "checkpoint.bin");
  uint8_t *sealed = reseal(data, size);
  fuzz_write(path, sealed, size);
  free(sealed);
  ipc_run_checkpoint c;
  ipcc_error err = {0};
  ipcc_status st = ipc_checkpoint_read(path, &c, &err);
  fuzz_check_error(st, &err, path);
  if (st == IPCC_OK && ipc_checkpoint_restore_world(&c, world, &err) != IPCC_OK && !err.msg[0]) {
    fprintf(stderr, "fuzz oracle: world state refused without a message\n");
    abort();
  }
  ipc_checkpoint_free(&c);
  return 0;
}
