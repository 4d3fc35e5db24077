/* a build without PETSc, in any build: this program links src/linalg/petsc_stub.c itself, so
   the library's PETSc backend (if any) is left out of it and the scene reader, the solver
   interface and Newton see what a build without PETSc sees. Asking for a PETSc solver is bad
   input naming newton.linear_solver, at load, at world creation through the C API (at the
   first step), and for --petsc-options; CHOLMOD still runs. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"
#include "linalg/linear_solver.h"
#include "test.h"

static const char *scene_text =
    "{\"time_step\": 0.02, \"duration\": 0.04, \"newton\": {\"linear_solver\": \"%s\"},"
    " \"bodies\": [{\"mesh\": \"../../scenes/meshes/cube.msh\","
    "   \"material\": {\"density\": 1000, \"young\": 1e5, \"poisson\": 0.4}}],"
    " \"planes\": [{\"point\": [0, -0.6, 0], \"normal\": [0, 1, 0]}]}";

static ipcc_status load(const char *solver, ipcc_scene_def *def, ipcc_error *err) {
  char path[96], text[1024];
  snprintf(path, sizeof path, "tests/data/tmp_petsc_stub_%d.json", (int)getpid());
  snprintf(text, sizeof text, scene_text, solver);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  ipcc_status s = ipcc_scene_load(path, def, err);
  remove(path);
  return s;
}

int main(void) {
  ipcc_scene_def def;
  ipcc_error err;
  CHECK(!ipc_linear_solver_kind_available(IPCC_LINEAR_SOLVER_PETSC));
  CHECK(ipc_linear_solver_kind_available(IPCC_LINEAR_SOLVER_CHOLMOD));
  const char *petsc_kinds[] = {"petsc-mumps", "petsc-cg-gamg", "petsc"};
  for (int k = 0; k < 3; ++k) {
    CHECK(load(petsc_kinds[k], &def, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "key 'newton.linear_solver'") && strstr(err.msg, petsc_kinds[k]) &&
                  strstr(err.msg, "needs PETSc") && strstr(err.msg, "-Dpetsc=enabled"),
              "%s", err.msg);
  }
  CHECK(ipc_linear_solver_set_petsc_options("-ksp_type cg", &err) == 1);
  CHECK_MSG(err.status == IPCC_ERR_INPUT && strstr(err.msg, "no PETSc"), "%s", err.msg);
  CHECK(ipc_linear_solver_set_petsc_options(NULL, &err) == 0);

  /* the C API sets the field without the reader: the first step refuses it */
  CHECK_MSG(load("cholmod", &def, &err) == IPCC_OK, "%s", err.msg);
  def.linear_solver = IPCC_LINEAR_SOLVER_PETSC_MUMPS;
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (w) {
    ipcc_step_stats st;
    CHECK(ipc_world_step(w, &st, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "newton.linear_solver") && strstr(err.msg, "petsc-mumps") &&
                  strstr(err.msg, "no PETSc"),
              "%s", err.msg);
    ipc_world_destroy(w);
  }
  /* and CHOLMOD runs */
  def.linear_solver = IPCC_LINEAR_SOLVER_CHOLMOD;
  w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (w) {
    ipcc_step_stats st;
    CHECK_MSG(ipc_world_step(w, &st, &err) == IPCC_OK, "%s", err.msg);
    ipc_world_destroy(w);
  }
  ipcc_scene_def_free(&def);
  TEST_MAIN_END();
}
