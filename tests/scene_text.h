/* scenes written inline in tests: the JSON text goes to a temporary folder with every
   @CUBE@ replaced by the absolute path of scenes/meshes/cube.msh (the tests run from the
   source root) and is loaded from there. Header-only, for the test programs. */
#ifndef IPCC_TESTS_SCENE_TEXT_H
#define IPCC_TESTS_SCENE_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "ipcc/ipcc.h"

/* loads the scene text into def (ipcc_scene_load's status; IPCC_ERR_INPUT when the temporary
   file cannot be written) */
static inline ipcc_status scene_text_load(const char *json, ipcc_scene_def *def, ipcc_error *err) {
  char dir[] = "/tmp/ipcc_scene_XXXXXX", file[64], cwd[4096];
  if (!mkdtemp(dir) || !getcwd(cwd, sizeof cwd))
    return ipc_error_set(err, IPCC_ERR_INPUT, "scene_text_load: no temporary folder");
  snprintf(file, sizeof file, "%s/scene.json", dir);
  FILE *f = fopen(file, "w");
  if (!f) {
    rmdir(dir);
    return ipc_error_set(err, IPCC_ERR_INPUT, "scene_text_load: cannot write %s", file);
  }
  for (const char *s = json; *s;) {
    const char *at = strstr(s, "@CUBE@");
    size_t n = at ? (size_t)(at - s) : strlen(s);
    fwrite(s, 1, n, f);
    if (!at) break;
    fprintf(f, "%s/scenes/meshes/cube.msh", cwd);
    s = at + 6;
  }
  fclose(f);
  ipcc_status st = ipcc_scene_load(file, def, err);
  remove(file);
  rmdir(dir);
  return st;
}

#endif
