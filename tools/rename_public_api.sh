#!/bin/sh
# renames the public API from the ipc_ prefix to ipcc_ (issue 23; docs/one-world.md, "The
# public API after the move": `ipc_` is ipc-toolkit's namespace). The names are those declared
# in include/ipcc/*.h: the functions (as tests/test_exports.py finds them), typedef names and
# struct/enum tags, and the constants and macros (enum constants, #define names), replaced as
# whole words over src/ include/ tests/ examples/ python/ docs/ README.md tools/ (tests/bench
# included).
#
#   ipc_X -> ipcc_X   every public function and type
#   IPC_X -> IPCC_X   every public constant and macro (IPC_OK, IPC_ERR_*, IPC_FORMAT_*,
#                     IPC_NONNULL, IPC_VERSION_STRING, ...)
#
# Internal names (src/: ipc_world_*, ipc_lcp_world_* since stage 7, ipc_model, IPC_STATE_TAG_*,
# ...) keep their prefixes; so do environment variables (IPC_VTU_ENCODING, ...).
# The script refuses to run when a new name is already used in the C or Python sources (a
# clash), and changes nothing then. Run it on a clean tree (git clang-format reformats the
# lines it changed against HEAD), then build and run the suite.
#
# Applied in stage 7 (docs/one-world.md): on today's tree it finds nothing to rename (kept for
# the record; the old -> new names for users: docs/using-ipcc-from-c.md, "API changes").
#
# usage: tools/rename_public_api.sh [--dry-run]
#   --dry-run: print the renames and the files that would change; change nothing
set -eu
cd "$(dirname "$0")/.."

dry=0
case ${1:-} in
  --dry-run) dry=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM

DIRS="src include tests examples python docs README.md tools"

# the renames "OLD NEW", one a line: the internal pre-rename first
python3 - "$T/map" <<'EOF'
import glob, re, sys
sys.path.insert(0, "tests")
import test_exports  # header_functions: the parser test_exports checks the headers with

names = set()
for h in sorted(glob.glob("include/ipcc/*.h")):
    names |= set(test_exports.header_functions(h))
    s = open(h, encoding="utf-8").read()
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    names |= set(re.findall(r"\b(?:struct|enum|union)\s+(ipc_\w+)", s))   # tags
    names |= set(re.findall(r"\}\s*(ipc_\w+)\s*;", s))                     # typedef names
    names |= set(re.findall(r"typedef\s+(?:struct|enum|union)\s+\w+\s+(ipc_\w+)\s*;", s))
    names |= set(re.findall(r"#define\s+(IPC_\w+)", s))                      # macros
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", s, flags=re.S):       # constants
        names |= set(re.findall(r"\b(IPC_\w+)\s*(?:=[^,]*)?(?:,|$)", body.strip()))
if test_exports.fails:
    sys.exit("the headers do not parse (tests/test_exports.py): nothing renamed")
pairs = []
for n in sorted(names):
    if n.startswith("ipc_"):
        pairs.append((n, "ipcc_" + n[len("ipc_"):]))
    elif n.startswith("IPC_"):
        pairs.append((n, "IPCC_" + n[len("IPC_"):]))
with open(sys.argv[1], "w") as f:
    for a, b in pairs:
        f.write("%s %s\n" % (a, b))
EOF

# the text files of DIRS that name any of them (git's files only: no build folders; not this
# script, which names them on purpose)
cut -d' ' -f1 "$T/map" >"$T/old"
# shellcheck disable=SC2086
git ls-files -z -- $DIRS | xargs -0 grep -lIwF -f "$T/old" -- | grep -v -x "tools/rename_public_api.sh" \
  >"$T/files" || true

# clashes: a new name already used in the C sources or the Python package (before any rename).
# Other files only mention names (tools/compare_ipc.py has a result key "ipcc_error")
: >"$T/clash"
# shellcheck disable=SC2086
git ls-files -z -- $DIRS | grep -z -E '(\.[ch]|^python/.*\.py)$' | xargs -0 cat >"$T/sources"
while read -r old new; do
  if grep -qw -- "$new" "$T/sources"; then echo "$old -> $new: $new is already used" >>"$T/clash"; fi
done <"$T/map"
if [ -s "$T/clash" ]; then
  cat "$T/clash"
  echo "clashes: nothing renamed"
  exit 1
fi

nmap=$(wc -l <"$T/map")
nfiles=$(wc -l <"$T/files")
echo "$nmap renames over $nfiles files"
if [ "$dry" -eq 1 ]; then
  sed 's/^/  /; s/ \([^ ]*\)$/ -> \1/' "$T/map"
  echo "files:"
  sed 's/^/  /' "$T/files"
  exit 0
fi

# one sed script: whole words (GNU sed \b)
while read -r old new; do printf 's/\\b%s\\b/%s/g\n' "$old" "$new"; done <"$T/map" >"$T/sed"
while IFS= read -r f; do sed -i -f "$T/sed" "$f"; done <"$T/files"
# shellcheck disable=SC2086
left=$(git ls-files -z -- $DIRS | xargs -0 grep -lIwF -f "$T/old" -- 2>/dev/null |
       grep -v -x -c "tools/rename_public_api.sh") || true
echo "renamed; files still naming an old name: $left (expected 0)"
# the longer names push lines past 100 columns: reformat the changed lines only (the files'
# other lines stay as they are; git-clang-format comes with Debian's clang-format)
if git clang-format -h >/dev/null 2>&1; then
  git clang-format --force --extensions c,h >/dev/null && echo "changed lines reformatted (git clang-format)"
else
  echo "git clang-format not found: reformat the changed lines (ColumnLimit 100) by hand"
fi
echo "next: build, meson test"
