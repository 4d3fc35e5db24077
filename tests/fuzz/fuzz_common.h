/* shared by the libFuzzer targets tests/fuzz/fuzz_*.c: a private scratch folder for the
   readers that take a path, with the small meshes of tests/fuzz/data linked into it so
   that scene scripts and JSON scenes find input/... and meshes/... */
#ifndef IPCC_FUZZ_COMMON_H
#define IPCC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "ipcc/error.h"
#include "ipcc/mesh.h"
#include "ipcc/scene.h"

/* the scratch folder: $IPCC_FUZZ_DIR when set (tools/fuzz.sh makes and removes it), else a
   new folder under /dev/shm (or $TMPDIR) removed at exit; holds the links input/ and meshes/
   to tests/fuzz/data */
const char *fuzz_dir(void);

/* scratch folder + "/" + rel in a static buffer per call site slot (slot 0..3) */
const char *fuzz_path(int slot, const char *rel);

/* creates the folder rel (and its parents) inside the scratch folder */
void fuzz_mkdir(const char *rel);

/* writes n bytes to path (replacing it); aborts when it cannot, which is not a finding of the
   reader but of the machine */
void fuzz_write(const char *path, const uint8_t *data, size_t n);

/* the n bytes as a NUL-terminated heap copy (free it), as the from-memory parsers want */
char *fuzz_text(const uint8_t *data, size_t n);

/* the oracles beyond the sanitizers: a reader that fails says why (a message naming
   name or another file in the scratch folder), and a mesh it accepts is consistent (indices in
   range, finite positions, object ranges covering the triangles); abort() otherwise */
void fuzz_check_error(ipcc_status st, const ipcc_error *err, const char *name);
void fuzz_check_mesh(const ipcc_mesh *m);

/* builds the world of an accepted scene (reading its meshes and checking its start state)
   when every mesh path lies inside the scratch folder, so that a fuzzed path never reads
   the rest of the machine; a refusal must say why */
void fuzz_build_world(const ipcc_scene_def *s);

#endif
