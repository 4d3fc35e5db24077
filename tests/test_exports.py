#!/usr/bin/env python3
"""libipcc.so exports the public API and nothing else (issue 23).

The library is built with -fvisibility=hidden and the public headers mark every function
IPCC_API (include/ipcc/export.h). This test keeps the two in sync, both ways:

- every function declared in include/ipcc/*.h is marked IPCC_API and is exported by the
  shared library (`nm -D --defined-only`);
- every function the shared library exports is declared in include/ipcc/*.h;
- the library exports no data (variables are not part of the API), only the three symbols
  the linker itself defines (and clang's OpenMP lock, COMPILER_SYMBOL);
- at most MAX_EXPORTS symbols in all.

usage: test_exports.py LIBIPCC_SO INCLUDE_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys

MAX_EXPORTS = 150

# defined by the linker in every shared object (GNU ld, as Debian 12's binutils 2.40 makes
# them: the ends of .data and .bss), not by ipcc's code
LINKER_SYMBOLS = {"_edata", "_end", "__bss_start"}

# made by the compiler, not declared by ipcc: clang lowers OpenMP reductions and unnamed
# critical sections to calls locking `.gomp_critical_user_<name>.var`, a common symbol of
# default visibility that every object of a program shares by name (so the lock is one lock
# across the library and its host). gcc's builds have none. The ASan+UBSan build adds nothing.
COMPILER_SYMBOL = re.compile(r"^\.gomp_critical_user_.*\.var$")

fails = 0


def bad(msg):
    global fails
    fails += 1
    print("FAIL: " + msg)


def ok(msg):
    print("ok: " + msg)


def strip_parens_after(s, word):
    """removes every `word(...)` (balanced parentheses) from s"""
    out = []
    i = 0
    pat = re.compile(r"\b%s\s*\(" % re.escape(word))
    while True:
        m = pat.search(s, i)
        if not m:
            out.append(s[i:])
            return "".join(out)
        out.append(s[i:m.start()])
        depth = 0
        j = m.end() - 1
        while j < len(s):
            if s[j] == "(":
                depth += 1
            elif s[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        i = j + 1


def header_functions(path):
    """the functions a header declares: {name: declaration text}; fails on any top-level
    declaration it does not recognize, so nothing is overlooked silently"""
    s = open(path, encoding="utf-8").read()
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    s = re.sub(r"//[^\n]*", " ", s)
    s = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", s, flags=re.M)  # preprocessor lines
    top = []
    depth = 0
    for ch in s:  # the bodies of structs and enums
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            top.append(ch)
    found = {}
    for st in "".join(top).split(";"):
        st = " ".join(st.split())
        if not st or st.startswith("typedef "):
            continue
        if re.fullmatch(r"enum( \w+)?", st) or re.fullmatch(r"(struct|union) \w+", st):
            continue  # an anonymous enum of constants, a forward declaration
        plain = strip_parens_after(strip_parens_after(st, "__attribute__"), "IPCC_NONNULL")
        m = re.match(r"(.*?)\b([A-Za-z_]\w*)\s*\(", plain)
        if not m:
            bad("%s: a declaration that is not a function: '%s' (variables are not part of "
                "the API; extend tests/test_exports.py if this is meant)" % (path, st))
            continue
        name = m.group(2)
        if not st.startswith("IPCC_API "):
            bad("%s: %s is not declared IPCC_API: '%s'" % (path, name, st))
        if name in found:
            bad("%s: %s declared twice" % (path, name))
        found[name] = st
    return found


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    lib, incdir = sys.argv[1], sys.argv[2]
    headers = sorted(glob.glob(os.path.join(incdir, "ipcc", "*.h")))
    if not headers:
        bad("no headers in %s/ipcc" % incdir)
        return 1
    declared = {}
    for h in headers:
        for name, st in header_functions(h).items():
            if name in declared:
                bad("%s declared in %s and %s" % (name, declared[name], h))
            declared[name] = os.path.basename(h)
    ok("%d functions declared in %d headers" % (len(declared), len(headers)))

    nm = shutil.which("nm")
    if not nm:
        bad("nm not found (binutils)")
        return 1
    out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True)
    if out.returncode != 0:
        bad("nm -D %s: %s" % (lib, out.stderr.strip()))
        return 1
    functions, others, total = set(), [], 0
    for line in out.stdout.splitlines():
        f = line.split()  # address, type, name
        if len(f) < 3:
            continue
        total += 1
        kind, name = f[1], f[2]
        if kind in "TtWi":  # text, weak, indirect function
            functions.add(name)
        elif name not in LINKER_SYMBOLS and not COMPILER_SYMBOL.match(name):
            others.append("%s (%s)" % (name, kind))
    if total <= MAX_EXPORTS:
        ok("%d exported symbols (at most %d)" % (total, MAX_EXPORTS))
    else:
        bad("%d exported symbols, at most %d expected" % (total, MAX_EXPORTS))
    for s in others:
        bad("exported data or other non-function symbol: " + s)
    for name in sorted(functions - set(declared)):
        bad("exported but not declared in include/ipcc/*.h: " + name)
    for name in sorted(set(declared) - functions):
        bad("declared in include/ipcc/%s but not exported (its definition does not see the "
            "IPCC_API declaration?): %s" % (declared[name], name))
    if functions == set(declared):
        ok("the %d exported functions are exactly those of the headers" % len(functions))
    print("all passed" if fails == 0 else "%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
