#!/bin/bash
# one `ipcc run` on NP MPI ranks, measured (README, Beyond one machine; docs/scaling.md):
# CPU seconds (user + system) and peak RSS of every rank (/usr/bin/time), the Newton and
# Krylov iterations (stats.json), and what the ranks sent each other (Open MPI's monitoring
# component, which counts every point-to-point message, those of MUMPS and of collectives
# too, unlike PETSc's -log_view): bytes and messages per Newton iteration.
# usage: tests/bench/mpi_run.sh NP SCENE OUTDIR [ipcc run options...]
#   IPCC=path/to/ipcc (default build-rel/src/cli/ipcc); NP 0: no mpirun (the serial run)
# e.g. tests/bench/mpi_run.sh 2 scenes/mat_twist.json /tmp/m2 --steps 20 --linear-solver petsc-mumps
set -eu
np=$1 scene=$2 out=$3
shift 3
ipcc=${IPCC:-build-rel/src/cli/ipcc}
mkdir -p "$out"
rm -rf "$out/run" "$out"/time.* "$out"/mon.*
if [ "$np" = 0 ]; then
  /usr/bin/time -f '%U %S %e %M' -o "$out/time.0" "$ipcc" run "$scene" -o "$out/run" --quiet \
    --no-checkpoint "$@"
else
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  mpirun -np "$np" --oversubscribe --bind-to none --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$out/mon" \
    sh -c 'exec /usr/bin/time -f "%U %S %e %M" -o "$0/time.$OMPI_COMM_WORLD_RANK" "$@"' "$out" \
    "$ipcc" run "$scene" -o "$out/run" --quiet --no-checkpoint "$@"
fi
its=$(sed -n 's/.*"newton_iterations":[[:space:]]*\([0-9]*\),*$/\1/p' "$out/run/stats.json" | head -1)
lin=$(sed -n 's/.*"linear_iterations":[[:space:]]*\([0-9]*\),*$/\1/p' "$out/run/stats.json" | head -1)
steps=$(sed -n 's/.*"steps":[[:space:]]*\([0-9]*\),*$/\1/p' "$out/run/stats.json" | head -1)
cat "$out"/time.* | awk -v its="$its" -v lin="$lin" -v steps="$steps" -v np="$np" '
  { cpu = $1 + $2; if (cpu > mx) mx = cpu; sum += cpu; if ($4 > rss) rss = $4; if ($3 > wall) wall = $3 }
  END {
    printf "ranks %d: %d steps, %d Newton iterations, %d Krylov iterations\n", np, steps, its, lin
    printf "CPU s per rank (largest) %.2f, all ranks %.2f; per step %.3f, per Newton iteration %.3f (largest rank)\n", mx, sum, mx / steps, mx / its
    printf "wall s %.2f; peak RSS per rank (largest) %.1f MB\n", wall, rss / 1024
  }'
if [ "$np" != 0 ]; then
  # E: the program'"'"'s own point-to-point messages (PETSc, MUMPS), I: those of collectives;
  # a rank'"'"'s messages to itself are left out
  cat "$out"/mon.*.prof | awk -v its="$its" '
    ($1 == "E" || $1 == "I") && $2 != $3 { b += $4; m += $6 }
    END { printf "sent between ranks: %.3g MB in %d messages, per Newton iteration %.3g MB in %.0f messages\n", b / 1e6, m, b / 1e6 / its, m / its }'
fi
