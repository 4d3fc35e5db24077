#!/bin/sh
# the library as a user gets it: `meson install` into a staging folder (DESTDIR), then the two
# programs of examples/ compiled from the installed headers with the installed ipcc.pc,
# linked once with the shared library and once with the static one, run and checked.
# usage: test_examples.sh MESON BUILD_DIR PREFIX LIBDIR CC [EXTRA_CFLAGS]   (from the project root)
set -u
MESON=$1 BUILD=$2 PREFIX=$3 LIBDIR=$4 CC=$5 EXTRA=${6:-}
. "$(dirname "$0")/lib.sh"

# LIBDIR is relative to PREFIX unless absolute
case $LIBDIR in /*) ;; *) LIBDIR=$PREFIX/$LIBDIR ;; esac
STAGE=$T/stage
if ! "$MESON" install -C "$BUILD" --destdir "$STAGE" --no-rebuild --quiet >"$T/install.log" 2>&1; then
  cat "$T/install.log"
  echo "FAIL: meson install"
  exit 1
fi
LIB=$STAGE$LIBDIR
for f in "$STAGE$PREFIX/include/ipcc/ipcc.h" "$LIB/libipcc.a" "$LIB/libipcc.so" \
         "$LIB/libipcc.so.0" "$LIB/pkgconfig/ipcc.pc"; do
  [ -e "$f" ] && ok "installed ${f#"$STAGE"}" || bad "not installed: ${f#"$STAGE"}"
done
soname=$(objdump -p "$LIB/libipcc.so" 2>/dev/null | awk '$1 == "SONAME" {print $2}')
[ "$soname" = "libipcc.so.0" ] && ok "soname $soname" || bad "soname '$soname', expected libipcc.so.0"

# the public headers stand alone: no include of src/ internals or of the CLI's headers
if grep -n '#include "\(core\|io\|ipc\|lcp\|linalg\|geometry\|elastic\|cli\)/' \
     "$STAGE$PREFIX"/include/ipcc/*.h; then
  bad "an installed header includes an internal one"
fi

# ipcc.pc as installed, its prefix moved into the staging folder (a DESTDIR install keeps the
# configured prefix; PKG_CONFIG_SYSROOT_DIR would also move the system packages' -L paths)
mkdir -p "$T/pc"
sed "s|^prefix=.*|prefix=$STAGE$PREFIX|" "$LIB/pkgconfig/ipcc.pc" >"$T/pc/ipcc.pc"
export PKG_CONFIG_PATH="$T/pc"
CFLAGS_IPCC=$(pkg-config --cflags ipcc) || { bad "pkg-config --cflags ipcc"; exit 1; }
LIBS_SHARED=$(pkg-config --libs ipcc)
# with both libraries installed -lipcc picks the .so: name the archive for a static link
LIBS_STATIC=$(pkg-config --static --libs ipcc | sed 's/-lipcc\( \|$\)/-l:libipcc.a\1/')
case $LIBS_STATIC in *-l:libipcc.a*) ;; *) bad "no -lipcc in: $LIBS_STATIC" ;; esac

# compile FLAVOUR NAME: examples/NAME.c into $T/NAME.FLAVOUR with warnings as errors
compile() {
  libs=$LIBS_SHARED
  [ "$1" = static ] && libs=$LIBS_STATIC
  # shellcheck disable=SC2086
  if "$CC" -std=c17 -Wall -Wextra -Wpedantic -Werror $EXTRA $CFLAGS_IPCC "examples/$2.c" \
       -o "$T/$2.$1" $libs -lm >"$T/cc.log" 2>&1; then
    ok "$2 ($1) compiles and links"
  else
    sed 's/^/  /' "$T/cc.log" | head -30
    bad "$2 ($1) does not build"
    return 1
  fi
}

# run_prog FLAVOUR PROG ARGS...: output in $T/out, exit code in $rc
run_prog() {
  flavour=$1; shift
  if [ "$flavour" = shared ]; then
    LD_LIBRARY_PATH=$LIB "$@" >"$T/out" 2>"$T/err"
  else
    "$@" >"$T/out" 2>"$T/err"
  fi
  rc=$?
}

for flavour in shared static; do
  compile "$flavour" build_scene && {
    if [ "$flavour" = static ]; then
      ldd "$T/build_scene.static" | grep -q libipcc && bad "build_scene (static) loads libipcc.so"
    else
      LD_LIBRARY_PATH=$LIB ldd "$T/build_scene.shared" | grep -q "libipcc.so.0 => $LIB/" &&
        ok "build_scene (shared) loads the installed libipcc.so.0" ||
        bad "build_scene (shared) does not load $LIB/libipcc.so.0"
    fi
    run_prog "$flavour" "$T/build_scene.$flavour" scenes/meshes/cube.msh
    [ "$rc" -eq 0 ] && ok "build_scene ($flavour) exits 0" ||
      { bad "build_scene ($flavour) exit $rc"; cat "$T/err"; }
    # the cube falls from 0.5 m and rests on the ground just above it (within dhat)
    last=$(awk '$1 == "step" {y = $6} END {print y}' "$T/out")
    awk -v y="$last" 'BEGIN {exit !(y > 0 && y < 0.01)}' &&
      ok "build_scene ($flavour): cube rests on the ground (lowest y $last)" ||
      { bad "build_scene ($flavour): lowest y '$last' after 1 s, expected in (0, 0.01)"; cat "$T/out"; }
    grep -q '^intersection-free: yes$' "$T/out" && ok "build_scene ($flavour): intersection-free" ||
      bad "build_scene ($flavour): no 'intersection-free: yes'"
  }

  compile "$flavour" load_scene && {
    run_prog "$flavour" "$T/load_scene.$flavour" scenes/two_cubes.json 20
    [ "$rc" -eq 0 ] && ok "load_scene ($flavour) exits 0" ||
      { bad "load_scene ($flavour) exit $rc"; cat "$T/err"; }
    grep -q '^scenes/two_cubes.json: 2 bodies, 16 vertices, 24 surface triangles' "$T/out" &&
      ok "load_scene ($flavour): body and surface counts" ||
      { bad "load_scene ($flavour): header line"; cat "$T/out"; }
    # after 0.5 s the lower cube (bottom at y = 1) has landed, the upper one is still falling
    lower=$(awk '$1 == "t" {t = $2} $1 == "lower" && t == "0.500" {print $NF}' "$T/out")
    upper=$(awk '$1 == "t" {t = $2} $1 == "upper" && t == "0.500" {print $NF}' "$T/out")
    awk -v l="$lower" -v u="$upper" 'BEGIN {exit !(l > 0 && l < 0.01 && u > 1.5 && u < 3)}' &&
      ok "load_scene ($flavour): positions at t = 0.5 (lower $lower, upper $upper)" ||
      { bad "load_scene ($flavour): lowest y lower '$lower' upper '$upper' at t = 0.5"; cat "$T/out"; }
    run_prog "$flavour" "$T/load_scene.$flavour" "$T/missing.json"
    [ "$rc" -eq 2 ] && grep -q 'missing.json' "$T/err" &&
      ok "load_scene ($flavour): a missing scene is exit 2 naming the file" ||
      bad "load_scene ($flavour): missing scene gave exit $rc: $(cat "$T/err")"
  }

  compile "$flavour" drive_world && for mode in ipc lcp; do
    run_prog "$flavour" "$T/drive_world.$flavour" scenes/two_cubes.json $mode
    [ "$rc" -eq 0 ] && ok "drive_world ($flavour, $mode) exits 0" ||
      { bad "drive_world ($flavour, $mode) exit $rc"; cat "$T/err"; }
    grep -q '^branch: identical$' "$T/out" &&
      ok "drive_world ($flavour, $mode): the branched run repeats bit for bit" ||
      { bad "drive_world ($flavour, $mode): no 'branch: identical'"; cat "$T/out"; }
    grep -q '^t 1.000 contacts [1-9]' "$T/out" &&
      ok "drive_world ($flavour, $mode): contacts at t = 1" ||
      { bad "drive_world ($flavour, $mode): no contacts at t = 1"; cat "$T/out"; }
  done
done

[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" -eq 0 ]
