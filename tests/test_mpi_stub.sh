#!/bin/sh
# a build without MPI runs (-Dpetsc=disabled or -Dmpi=disabled, src/linalg/mpi_run_stub.c)
# started as one of several processes by a launcher (its environment: OMPI_COMM_WORLD_SIZE,
# PMI_SIZE, SLURM_STEP_NUM_TASKS) refuses with exit 2 instead of running copies that would
# write over each other's files; one process, or a launcher's single one, runs as usual.
# Registered only in such builds (tests/meson.build).
# usage: test_mpi_stub.sh path/to/ipcc   (from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"

scene=scenes/two_cubes.json
for var in OMPI_COMM_WORLD_SIZE PMI_SIZE SLURM_STEP_NUM_TASKS; do
  expect 2 "$var=2" env "$var=2" "$IPCC" run $scene -o "$T/o-$var" --steps 1 --quiet
  contains "started as one of 2 MPI processes, but this build of ipcc has no MPI" "$var: the message"
  [ ! -e "$T/o-$var" ] && ok "$var: no folder" || bad "$var: a folder was made"
done
expect 0 "OMPI_COMM_WORLD_SIZE=1" env OMPI_COMM_WORLD_SIZE=1 "$IPCC" run $scene -o "$T/one" --steps 1 --quiet
expect 0 "no launcher" "$IPCC" run $scene -o "$T/none" --steps 1 --quiet
echo "$fails failed"
[ "$fails" -eq 0 ]
