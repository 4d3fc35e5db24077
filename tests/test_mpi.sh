#!/bin/sh
# `mpirun -np 2 ipcc run` (issue 22, stage 1; README, Beyond one machine): the frames of a run
# on 2 ranks with petsc-mumps and petsc-cg-gamg against the serial CHOLMOD run's, every frame
# within the Newton tolerance and the Newton iterations of every step within +-1, on the first
# steps of the mat twist and on two cubes falling onto the ground until they rest on it;
# rank 0 alone writes and prints; checkpoints of a 2-rank run resume on 1 rank and the reverse;
# CHOLMOD and LCP mode are refused on 2 ranks; the ranks' agreement (test_mpi_agree); the
# work of the step's loops over pairs and tets, and of the Newton systems' assembly (tets,
# contacts), split between the 2 ranks (stage 2), and not split with IPCC_MPI_SPLIT=0.
# Registered only in builds with PETSc and MPI (tests/meson.build).
# usage: test_mpi.sh path/to/ipcc path/to/mpirun path/to/test_mpi_agree  (from the project root)
set -u
IPCC=$1
MPIRUN=$2
AGREE=$3
. "$(dirname "$0")/lib.sh"

# Open MPI refuses to start as root unless told (CI containers run as root); here, not in the
# user's command. --oversubscribe: 2 ranks on a machine that may have fewer free cores;
# --bind-to none: the other tests' processes share the cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# no network probing in a container: shared memory and loopback only
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
np2() { "$MPIRUN" -np 2 --oversubscribe --bind-to none "$@"; }
# under the sanitizers (ASAN_OPTIONS set by the meson test setup) LeakSanitizer names Open MPI's
# start-up leaks only with full malloc stacks (tests/lsan_petsc.supp), which made these runs
# 10 times slower (a 2-rank start 16 s instead of 1.6 s): the first 2-rank run below is
# leak-checked as such, the others run with detect_leaks=0 and fast stacks (the code paths
# they share with the serial runs are leak-checked by test_cli and test_petsc_cli)
asan_full=${ASAN_OPTIONS:-}
[ -n "$asan_full" ] && export ASAN_OPTIONS="$asan_full:detect_leaks=0:fast_unwind_on_malloc=1"

# newton ITS of the steps of a run folder, one a line
newton() {
  awk '/"steps":[[:space:]]*\[/ { s = 1 } s && /"newton_iterations":/ { gsub(/[^0-9]/, "", $2); print $2 }' "$1/stats.json"
}

# same DESCRIPTION REF RUN TOL: every OBJ frame of RUN within TOL (m, largest coordinate
# difference) of REF's, and the Newton iterations of every step within 1
same() {
  what=$1; ref=$2; run=$3; tol=$4
  nref=$(ls "$ref/frames" | grep -c '\.obj$'); nrun=$(ls "$run/frames" 2>/dev/null | grep -c '\.obj$')
  if [ "$nref" -eq 0 ] || [ "$nref" -ne "$nrun" ]; then bad "$what: $nrun frames, expected $nref"; return; fi
  worst=0
  for f in "$ref"/frames/*.obj; do
    d=$(grep '^v ' "$f" >"$T/a"; grep '^v ' "$run/frames/$(basename "$f")" >"$T/b";
        paste -d' ' "$T/a" "$T/b" | awk 'NF != 8 { bad = 1 }
             { for (i = 2; i <= 4; ++i) { d = $i - $(i + 4); if (d < 0) d = -d; if (d > m) m = d } }
             END { if (bad || NR == 0) print "mismatch"; else printf "%.3g\n", m }')
    if [ "$d" = mismatch ]; then bad "$what: $(basename "$f") has other vertices"; return; fi
    worst=$(awk -v a="$worst" -v b="$d" 'BEGIN { print (b > a ? b : a) }')
  done
  newton "$ref" >"$T/na"; newton "$run" >"$T/nb"
  off=$(paste "$T/na" "$T/nb" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print NR == 0 ? -1 : m + 0 }')
  steps=$(wc -l <"$T/na")
  if [ "$off" -lt 0 ] || [ "$(wc -l <"$T/nb")" -ne "$steps" ]; then bad "$what: Newton iterations of $steps steps missing"; return; fi
  if awk -v w="$worst" -v t="$tol" 'BEGIN { exit !(w <= t) }' && [ "$off" -le 1 ]; then
    ok "$what: $nref frames within $worst m (tolerance $tol), Newton iterations of $steps steps within $off"
  else
    bad "$what: frames within $worst m (tolerance $tol), Newton iterations off by $off"
  fi
}

# the ranks' agreement itself
expect 0 "test_mpi_agree on 2 ranks" np2 "$AGREE"
# one 2-rank run leak-checked (when under the sanitizers)
fast=${ASAN_OPTIONS:-}
[ -n "$asan_full" ] && export ASAN_OPTIONS="$asan_full"
expect 0 "two cubes, 2 ranks, 3 steps, leak-checked" np2 "$IPCC" run scenes/two_cubes.json \
  -o "$T/leak" --steps 3 --quiet --linear-solver petsc-mumps
[ -n "$asan_full" ] && export ASAN_OPTIONS="$fast"

# the Newton tolerance of a step: newton.tolerance (1e-2) x the bounding-box diagonal x h.
# mat twist: the 1 x 1 x 0.008 mat, h 0.04: 5.7e-4 m
mat=scenes/mat_twist.json
tol_mat=5.6e-4
# IPCC_WORK_STATS=1: every rank prints the pairs and tets its share of the step's loops took
# (stage 2: CCD, the broad phase's tree traversal and the narrowing of its candidates, the
# barrier energy and contact sets, the elastic energy of trials, the assembly's tets and
# contacts; linalg/mpi_run.h)
export IPCC_WORK_STATS=1
expect 0 "mat twist, serial CHOLMOD" "$IPCC" run $mat -o "$T/mat" --steps 4 --quiet --no-checkpoint
grep '^ipcc work:' "$T/out" >"$T/work1"
for s in petsc-mumps petsc-cg-gamg; do
  expect 0 "mat twist, 2 ranks, $s" np2 "$IPCC" run $mat -o "$T/mat-$s" --steps 4 --quiet \
    --no-checkpoint --linear-solver $s
  grep '^ipcc work:' "$T/out" >"$T/work2-$s"
  same "mat twist, 2 ranks, $s" "$T/mat" "$T/mat-$s" $tol_mat
done
unset IPCC_WORK_STATS

# split WHAT SERIAL TWO KIND...: for each kind the two ranks' counts (file TWO) add up to the serial
# run's (file SERIAL; within 5%: regrouped sums may change a line search's trial count) and
# each rank took 40-60% of it
split() {
  what=$1; w1=$2; w2=$3; shift 3
  for k in "$@"; do
    msg=$(awk -v k=$k 'FNR == 1 { f++ } { for (i = 1; i < NF; ++i) if ($i == k) v[f, $4] = $(i + 1) }
      END { s = v[1, 0]; a = v[2, 0]; b = v[2, 1]
            if (s == "" || a == "" || b == "" || s <= 0) { print "missing"; exit }
            t = a + b
            if (t < 0.95 * s || t > 1.05 * s || a < 0.4 * t || a > 0.6 * t) print "bad " s " " a " " b
            else print "ok " s " " a " " b }' "$w1" "$w2")
    case $msg in
      ok*) set -- $msg; ok "$what: $k split over 2 ranks: $3 + $4 (serial $2)" ;;
      *) bad "$what: $k not split over 2 ranks: $msg"; cat "$w1" "$w2" ;;
    esac
  done
}
split "mat twist, MUMPS" "$T/work1" "$T/work2-petsc-mumps" ccd_pairs narrow_pairs barrier_pairs elastic_tets broad_nodes \
  assembly_tets
split "mat twist, CG" "$T/work1" "$T/work2-petsc-cg-gamg" assembly_tets

# the terms are assembled by the rank of their rows (newton.c, assemble_split; the rows laid out
# along a space-filling curve from the first assembly on), so a rank sends the other only the
# entries of the terms across the cut: on these 4 steps rank 0, which takes the tets on the cut,
# sends 1,900 (MUMPS, the upper triangle) and 5,700 (CG, both triangles) entries per assembly,
# rank 1 none, against the 53,000-156,000 each rank sent when every rank added a block of the
# terms wherever their rows were
for s in petsc-mumps petsc-cg-gamg; do
  msg=$(awk '{ for (i = 1; i < NF; ++i) { if ($i == "assembly_sent") e = $(i + 1); if ($i == "assemblies") a = $(i + 1) }
             if (a > 0 && e / a > m) m = e / a; if (a > 0) n++ }
             END { if (n != 2) print "missing"; else if (m > 10000) print "bad " m; else print "ok " m }' "$T/work2-$s")
  case $msg in
    ok*) ok "mat twist, $s: at most ${msg#ok } entries sent per assembly and rank" ;;
    *) bad "mat twist, $s: entries sent per assembly and rank: ${msg} (expected <= 10,000)"; cat "$T/work2-$s" ;;
  esac
done

# the renumbering along a space-filling curve (petsc_solver.c): on 2 ranks each rank's
# matrix-vector products fetch the 80 vertices along the cut across the mat (240 values),
# not the other rank's 4,800 values (the mesh's numbering interleaves the mat's two layers)
expect 0 "mat twist, 2 ranks, CG, the matrix's layout" np2 "$IPCC" run $mat -o "$T/layout" --steps 1 \
  --quiet --no-checkpoint --linear-solver petsc-cg-gamg --petsc-options "-ksp_view_mat ::ascii_info_detail"
ghosts=$(sed -n 's/.*\[0\] Number of roots=4800, leaves=\([0-9]*\),.*/\1/p' "$T/out" | head -1)
if [ -n "$ghosts" ] && [ "$ghosts" -le 480 ]; then ok "rank 0 fetches $ghosts values per product"; else
  bad "rank 0 fetches '$ghosts' values per product, expected at most 480"; fi

# two unit cubes falling onto the ground (3.3 m tall at the start, h 0.025: 8.3e-4 m), 25
# steps: the lower one lands (step 18) and rests, up to 24 contacts. (Later the upper one lands
# on it; from there CG's inexact directions take another trajectory than CHOLMOD's on one
# process as on two; MUMPS keeps to CHOLMOD's within 1e-12 m for the whole 80 steps)
cubes=scenes/two_cubes.json
tol_cubes=8.3e-4
export IPCC_WORK_STATS=1
expect 0 "two cubes, serial CHOLMOD" "$IPCC" run $cubes -o "$T/cubes" --steps 25 --quiet --no-checkpoint
grep '^ipcc work:' "$T/out" >"$T/cwork1"
if grep -q '"contacts_max":[[:space:]]*[1-9]' "$T/cubes/stats.json"; then ok "two cubes: contacts"; else
  bad "two cubes: no contacts in 25 steps"; fi
for s in petsc-mumps petsc-cg-gamg; do
  expect 0 "two cubes, 2 ranks, $s" np2 "$IPCC" run $cubes -o "$T/cubes-$s" --steps 25 --quiet \
    --no-checkpoint --linear-solver $s
  grep '^ipcc work:' "$T/out" >"$T/cwork2-$s"
  same "two cubes, 2 ranks, $s" "$T/cubes" "$T/cubes-$s" $tol_cubes
done
# the assembly's tets split; its contacts (the lower cube on the ground, steps 18-25) each
# assembled once, by the rank of their vertices' rows
split "two cubes, MUMPS" "$T/cwork1" "$T/cwork2-petsc-mumps" assembly_tets
msg=$(awk -v k=assembly_contacts 'FNR == 1 { f++ } { for (i = 1; i < NF; ++i) if ($i == k) v[f] += $(i + 1) }
  END { print (v[1] > 0 && v[1] == v[2]) ? "ok" : "bad", v[1] + 0, v[2] + 0 }' "$T/cwork1" "$T/cwork2-petsc-mumps")
case $msg in
  ok*) ok "two cubes, MUMPS: the ranks assembled ${msg##* } contacts, as the serial run" ;;
  *) bad "two cubes, MUMPS: contacts assembled (serial, 2 ranks): $msg" ;;
esac
# affine bodies: 100 cubes falling into a pen (h 0.01, bounding box 1.41 m: 1.4e-4 m), 20 steps,
# the lower ones landing from step 7 (up to 1,754 contacts). The bodies' inertia and
# orthogonality terms, their contacts and friction are assembled by the rank of the bodies'
# rows (laid out along the curve by a point of each body), and the body-by-body broad phase's
# body pairs are split. (Later the pile's contacts make the run chaotic: by step 40 one MUMPS
# process is 8 cm away from CHOLMOD's frames, as 2 ranks are)
pile=scenes/cube_pile.json
tol_pile=1.4e-4
# (the serial run without the body-by-body broad phase's superset, which over MPI ranks is not
# used: every call searches all its body pairs, the work compared)
export IPCC_BODIES_SUPERSET=0
expect 0 "cube pile, serial CHOLMOD" "$IPCC" run $pile -o "$T/pile" --steps 20 --quiet --no-checkpoint
unset IPCC_BODIES_SUPERSET
grep '^ipcc work:' "$T/out" >"$T/pwork1"
expect 0 "cube pile, 2 ranks, petsc-mumps" np2 "$IPCC" run $pile -o "$T/pile2" --steps 20 --quiet \
  --no-checkpoint --linear-solver petsc-mumps
grep '^ipcc work:' "$T/out" >"$T/pwork2"
same "cube pile, 2 ranks, petsc-mumps" "$T/pile" "$T/pile2" $tol_pile
split "cube pile, MUMPS" "$T/pwork1" "$T/pwork2" body_pairs assembly_contacts assembly_friction
# every assembly adds each body's inertia and orthogonality once, both ranks a share
aff=$(awk '{ for (i = 1; i < NF; ++i) { if ($i == "assembly_affine") a = a " " $(i + 1); if ($i == "assemblies") n = $(i + 1) } }
  END { print n a }' "$T/pwork2")
set -- $aff
if [ $# -eq 3 ] && [ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ $(($2 + $3)) -eq $((100 * $1)) ]; then
  ok "cube pile: the 100 bodies assembled once per assembly: $2 + $3 in $1 assemblies"
else bad "cube pile: affine bodies assembled '$aff' (assemblies, then each rank's), expected 100 per assembly"; fi

# IPCC_MPI_SPLIT=0: stage 1, every rank assembles everything (and the same answers)
export IPCC_MPI_SPLIT=0
expect 0 "two cubes, 2 ranks, IPCC_MPI_SPLIT=0" np2 "$IPCC" run $cubes -o "$T/cubes-whole" \
  --steps 25 --quiet --no-checkpoint --linear-solver petsc-mumps
unset IPCC_WORK_STATS IPCC_MPI_SPLIT
same "two cubes, 2 ranks, IPCC_MPI_SPLIT=0" "$T/cubes" "$T/cubes-whole" $tol_cubes
whole=$(awk '/^ipcc work:/ { for (i = 1; i < NF; ++i) if ($i == "assembly_tets" || $i == "assembly_contacts") v = v " " $(i + 1) }
  END { print v }' "$T/out")
want=$(awk '{ for (i = 1; i < NF; ++i) if ($i == "assembly_tets" || $i == "assembly_contacts") v = v " " $(i + 1) }
  END { print v v }' "$T/cwork1")
[ -n "$whole" ] && [ "$whole" = "$want" ] && ok "IPCC_MPI_SPLIT=0: each rank assembled all:$whole" ||
  bad "IPCC_MPI_SPLIT=0: ranks assembled '$whole', expected '$want'"

# rank 0 alone prints the summary and writes the folder
expect 0 "2 ranks, not quiet" np2 "$IPCC" run $cubes -o "$T/loud" --steps 3 --no-checkpoint \
  --linear-solver petsc-mumps
n=$(grep -c 'Newton iterations/step' "$T/out")
[ "$n" -eq 1 ] && ok "one summary" || bad "$n summaries printed by 2 ranks"
[ -f "$T/loud/stats.json" ] && ok "stats.json written" || bad "no stats.json"

# checkpoints: 2 ranks -> 1 and 1 -> 2, against the uninterrupted serial CHOLMOD run
expect 0 "mat twist, 2 ranks, 2 steps" np2 "$IPCC" run $mat -o "$T/r21" --steps 2 --quiet \
  --linear-solver petsc-mumps
expect 0 "... resumed on 1 rank to 4" "$IPCC" run --resume "$T/r21" --steps 4 --quiet \
  --linear-solver petsc-mumps
same "2 ranks -> 1 rank" "$T/mat" "$T/r21" $tol_mat
expect 0 "mat twist, 1 rank, 2 steps" "$IPCC" run $mat -o "$T/r12" --steps 2 --quiet \
  --linear-solver petsc-mumps
expect 0 "... resumed on 2 ranks to 4" np2 "$IPCC" run --resume "$T/r12" --steps 4 --quiet \
  --linear-solver petsc-mumps
same "1 rank -> 2 ranks" "$T/mat" "$T/r12" $tol_mat

# the mat twist's first contacts (steps 37-38), on 2 ranks from the serial run's
# checkpoint of step 36 against the serial run resumed likewise: the contacts' terms assembled by
# the rank of their rows. (On this scene MUMPS with the rows along the Morton curve once ran out
# of workspace at step 37, INFOG(1) = -9, from delayed pivots: the factorization is then redone
# with more, petsc_solver.c's more_workspace)
expect 0 "mat twist, serial, 36 steps" "$IPCC" run $mat -o "$T/m36" --steps 36 --checkpoint-every 36 \
  --quiet
cp -r "$T/m36" "$T/m38s" && cp -r "$T/m36" "$T/m38p"
expect 0 "... resumed to 38" "$IPCC" run --resume "$T/m38s" --steps 38 --quiet
expect 0 "... resumed to 38 on 2 ranks, petsc-mumps" np2 "$IPCC" run --resume "$T/m38p" --steps 38 \
  --quiet --linear-solver petsc-mumps
if grep -q '"contacts_max":[[:space:]]*[1-9]' "$T/m38s/stats.json"; then ok "mat twist, steps 37-38: contacts"
else bad "mat twist, steps 37-38: no contacts"; fi
same "mat twist, steps 37-38, 2 ranks" "$T/m38s" "$T/m38p" $tol_mat

# what cannot run on several ranks says so, and creates no folder
expect 2 "CHOLMOD on 2 ranks" np2 "$IPCC" run $cubes -o "$T/chol2" --steps 2
contains 'started on 2 MPI ranks, but the linear solver "cholmod" runs on one process' \
  "the message names the solver and the way out"
[ ! -e "$T/chol2" ] && ok "no folder" || bad "CHOLMOD on 2 ranks created $T/chol2"
expect 2 "LCP mode on 2 ranks" np2 "$IPCC" run $cubes -o "$T/lcp2" --steps 2 --mode lcp
contains "LCP mode runs on one process" "the message names LCP mode"
echo "$fails failed"
[ "$fails" -eq 0 ]
