#!/bin/sh
# the linear solver on the command line: --linear-solver NAME and --petsc-options "..." on
# `ipcc run` (PETSC_OPTIONS read by PETSc itself), newton.linear_solver in a scene; bad names
# and PETSc solvers in a build without PETSc exit 2 naming the option or key.
# usage: test_petsc_cli.sh path/to/ipcc HAVE_PETSC(0|1)   (run from the project root)
set -u
IPCC=$1
HAVE_PETSC=$2
. "$(dirname "$0")/lib.sh"

scene="$T/ball.json"
cat >"$scene" <<EOF
{"time_step": 0.02, "duration": 0.1, "gravity": [0, -9.81, 0],
 "bodies": [{"mesh": "$PWD/scenes/meshes/ball_coarse.msh", "scale": 0.5,
   "translation": [0.02, 0.27, 0.01], "rotation": [17, 29, 5],
   "material": {"density": 1000, "young": 1e5, "poisson": 0.4}}],
 "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]}
EOF
with_key() { # with_key NAME: the scene with newton.linear_solver NAME, in $T/NAME.json
  sed "s/\"gravity\"/\"newton\": {\"linear_solver\": \"$1\"}, \"gravity\"/" "$scene" >"$T/$1.json"
}

expect 2 "--linear-solver with an unknown name" "$IPCC" run "$scene" -o "$T/o" --linear-solver superlu
contains "--linear-solver: expected \"cholmod\", \"petsc-mumps\", \"petsc-cg-gamg\" or \"petsc\", got 'superlu'" \
  "the message lists the names"
expect 2 "--linear-solver without a value" "$IPCC" run "$scene" -o "$T/o" --linear-solver
with_key superlu
expect 2 "newton.linear_solver with an unknown name" "$IPCC" run "$T/superlu.json" -o "$T/o"
contains "key 'newton.linear_solver': expected" "the message names the key"
expect 0 "--linear-solver cholmod" "$IPCC" run "$scene" -o "$T/c" --steps 3 --quiet --linear-solver cholmod
if grep -q '"linear_iterations":[[:space:]]*0' "$T/c/stats.json" &&
   ! grep -q '"linear_iterations":[[:space:]]*[1-9]' "$T/c/stats.json"; then
  ok "stats.json: no Krylov iterations with CHOLMOD"
else
  bad "stats.json: linear_iterations missing or nonzero with CHOLMOD"
fi

if [ "$HAVE_PETSC" = 1 ]; then
  with_key petsc-mumps
  expect 0 "newton.linear_solver petsc-mumps" "$IPCC" run "$T/petsc-mumps.json" -o "$T/m" --steps 3 --quiet
  expect 0 "--linear-solver petsc-cg-gamg" "$IPCC" run "$scene" -o "$T/g" --steps 3 --quiet \
    --linear-solver petsc-cg-gamg
  # stats.json counts the CG iterations (summary and per step), 0 for CHOLMOD
  cg=$(sed -n 's/.*"linear_iterations":[[:space:]]*\([0-9]*\).*/\1/p' "$T/g/stats.json" | head -1)
  [ "${cg:-0}" -gt 0 ] && ok "stats.json: $cg CG iterations" || bad "stats.json: linear_iterations '$cg' for CG"
  steps_cg=$(grep -c '"linear_iterations":[[:space:]]*[1-9]' "$T/g/stats.json")
  [ "$steps_cg" -ge 3 ] && ok "CG iterations in $steps_cg records" || bad "CG iterations in $steps_cg records, expected the summary and 3 steps"
  expect 0 "--linear-solver petsc with --petsc-options" "$IPCC" run "$scene" -o "$T/p" --steps 3 \
    --quiet --linear-solver petsc --petsc-options "-ksp_type cg -pc_type jacobi -ksp_view"
  contains "type: jacobi" "the options reached PETSc (-ksp_view shows PCJACOBI)"
  PETSC_OPTIONS="-ksp_type cg -pc_type none -ksp_view" expect 0 "PETSC_OPTIONS" "$IPCC" run "$scene" \
    -o "$T/e" --steps 3 --quiet --linear-solver petsc
  contains "type: none" "PETSC_OPTIONS reached PETSc"
  expect 0 "--petsc-options overrides the mumps preset" "$IPCC" run "$T/petsc-mumps.json" \
    -o "$T/m2" --steps 2 --quiet --petsc-options "-pc_factor_mat_solver_type petsc -ksp_view"
  contains "package used to perform factorization: petsc" "PETSc's own Cholesky instead of MUMPS"
  expect 2 "--petsc-options with an unknown KSP" "$IPCC" run "$scene" -o "$T/x" --steps 2 --quiet \
    --linear-solver petsc --petsc-options "-ksp_type no_such_ksp"
  contains "newton.linear_solver \"petsc\": PETSc rejected the solver's options" \
    "the message says PETSc rejected the options"
  # the command line chooses over the scene's key: CHOLMOD's frames for the mumps scene
  expect 0 "--linear-solver cholmod over the scene's petsc-mumps" "$IPCC" run "$T/petsc-mumps.json" \
    -o "$T/c2" --steps 3 --quiet --linear-solver cholmod
  if cmp -s "$T/c/frames/000003.obj" "$T/c2/frames/000003.obj"; then ok "CHOLMOD's frame"; else
    bad "--linear-solver cholmod did not give CHOLMOD's frame"; fi
  # a resumed run takes the solver options too
  expect 0 "--resume with --linear-solver" "$IPCC" run --resume "$T/m" --steps 4 --quiet \
    --linear-solver petsc-cg-gamg
else
  for k in petsc-mumps petsc-cg-gamg petsc; do
    with_key $k
    expect 2 "newton.linear_solver $k without PETSc" "$IPCC" run "$T/$k.json" -o "$T/o"
    contains "key 'newton.linear_solver': \"$k\" needs PETSc" "the message names the key and PETSc"
    expect 2 "--linear-solver $k without PETSc" "$IPCC" run "$scene" -o "$T/o" --linear-solver $k
    contains "this build of ipcc has no PETSc" "the message says the build lacks PETSc"
  done
  expect 2 "--petsc-options without PETSc" "$IPCC" run "$scene" -o "$T/o" --petsc-options "-ksp_type cg"
  contains "no PETSc" "the message says the build lacks PETSc"
fi
echo "$fails failed"
[ "$fails" -eq 0 ]
