#!/bin/sh
# installs the Debian 12 packages ipcc needs, non-interactively, if any is missing.
# --fuzz: also clang and its libFuzzer runtime, for tools/fuzz.sh only
# --bench: also Bullet and ODE, for tests/bench/bench_engines only (the pour side by side);
#   the flags combine
set -e
pkgs="build-essential clang libomp-dev meson ninja-build pkg-config libsuitesparse-dev libopenblas-dev liblapacke-dev libgmp-dev libcjson-dev libpng-dev zlib1g-dev libfclib-dev libhdf5-dev python3-numpy python3-pytest"
# the Python package's documented install (python/README.md): a venv of the system Python with
# its site packages, pip install --no-build-isolation (setuptools and wheel from Debian)
pkgs="$pkgs python3-venv python3-setuptools python3-wheel"
# Blender 3.4 for tests/test_blender.sh (the --format pc2 point cache in Blender, docs/rendering.md)
pkgs="$pkgs blender"
# PETSc (built with MUMPS and hypre) and Open MPI for the PETSc linear solvers (meson option
# petsc, auto: the default build and the tests take them when installed; README "Beyond one
# machine"): 76 more packages next to the rest of this list, 55 MB to download, 242 MB
# installed, 15 s of unpacking on the machine that measured it
pkgs="$pkgs petsc-dev libopenmpi-dev openmpi-bin"
for arg in "$@"; do
  case "$arg" in
    --fuzz) pkgs="$pkgs libclang-rt-14-dev" ;;
    --bench) pkgs="$pkgs libbullet-dev libode-dev" ;;
    *) echo "install-deps.sh: unknown option $arg (expected --fuzz, --bench)" >&2; exit 2 ;;
  esac
done
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends $missing
