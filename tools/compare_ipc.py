#!/usr/bin/env python3
"""Compares ipcc with the original IPC code (ipc-sim/IPC) on IPC's own .txt scripts: per
step, how far ipcc's surface vertices are from IPC's (as a fraction of the bounding-box
diagonal of IPC's frame), and both Newton iteration totals.

usage: tools/compare_ipc.py [SCRIPT ...] [--all] [--reference DIR | --ipc IPC_BIN]
                            [--steps N] [--ipcc IPCC] [--work DIR] [--jobs N]
                            [--self-check] [--per-step] [--markdown FILE] [--json FILE]

The IPC side comes from one of:
  --reference DIR  IPC's stored output (default ../shared/data/ipc-reference beside the
                   project, when it exists): DIR/<script path under input/ without .txt>/
                   frames/K.obj (IPC's OBJ output after step K: the shapes' surface
                   vertices, shapes in script order) and info.txt (line 2: steps, Newton
                   iterations, iterations per step). Its README says how it was made.
  --ipc IPC_BIN    the original IPC, run here (IPC_bin 100 SCRIPT --numThreads 1) in a
                   scratch root whose input/ is a link to the script's input/ tree; its
                   output folder gives the same OBJ frames and info.txt.
SCRIPT is a path to a .txt script (under an input/ tree, so meshes resolve as in IPC) or a
name relative to input/ ("paperExamples/10_tetTet"); --all takes every script the reference
holds with IPC's exit code 0. Without a reference or --ipc only the ipcc side runs.

How the two are matched: the script is copied with `time T dt` cut to N steps (IPC's
default step 0.025 s added when the script has none), as the reference was made; ipcc runs
the copy (`ipcc run COPY --steps N`, OBJ frames: the shapes' surfaces first in script
order, then obstacles) and the first vertices of its frame K are compared with IPC's frame
K, vertex by vertex. Deviation = max vertex distance / diagonal of IPC's frame K.

--self-check runs ipcc a second time with the Newton tolerance 100 times tighter (`tol 1
T/100`) and reports how far that moves ipcc's own answer (the same measure): a scene whose
answer moves by as much as it differs from IPC is sensitive below the solver's tolerance
(chaotic at this resolution), and IPC's answer is then one of the admissible ones.

--ipc-spread F (repeatable) reads what tools/ipc_self_spread.py --json wrote: how far IPC
moves from its own answer when only its rounding changes (its input renumbered, or the same
source built without FMA contraction). A script whose deviation from IPC is at most twice
the largest of IPC's own spreads at that step is "chaotic (IPC against itself ...)": no code
can be expected to follow IPC more closely than IPC follows itself.

Exit status 0; the verdict of each script is in the table.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_REF = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "ipc-reference"))
DEFAULT_INPUT = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "ipc-input", "input"))


def cut_script(src, dst, steps, tol_scale=None):
    """copies SRC to DST with `time T dt` replaced by `time steps*dt dt` (and, with
    tol_scale, every `tol` value scaled); returns dt"""
    with open(src) as f:
        lines = f.read().split("\n")
    out, dt, i, had_tol, in_section = [], None, 0, False, False
    while i < len(lines):
        line = lines[i]
        tok = line.split()
        if tok and tok[0] == "section":  # IPC skips a section's lines (other solvers' settings)
            in_section = len(tok) < 2 or tok[1] != "end"
        if len(tok) >= 3 and tok[0] == "time":
            if not in_section:
                dt = float(tok[2])
            line = "time %.17g %s" % (steps * dt, tok[2])
        elif tol_scale and len(tok) >= 2 and tok[0] == "tol":
            n = int(tok[1])
            vals = tok[2:]
            j = i
            while len(vals) < n and j + 1 < len(lines):
                j += 1
                vals += lines[j].split()
            line = "tol %d\n%s" % (n, "\n".join("%.17g" % (float(v) * tol_scale) for v in vals[:n]))
            i = j
            had_tol |= not in_section
        out.append(line)
        i += 1
    if dt is None:  # IPC's default step (Config: time 5 0.025)
        dt = 0.025
        out.append("time %.17g %.17g" % (steps * dt, dt))
    if tol_scale and not had_tol:
        out.append("tol 1\n%.17g" % (1e-2 * tol_scale))  # IPC's default tolerance 1e-2
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")
    return dt


def input_root(script):
    """the folder holding input/ (IPC's repository root) above the script"""
    d = os.path.dirname(os.path.abspath(script))
    while True:
        if os.path.isdir(os.path.join(d, "input", "tetMeshes")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            sys.exit("%s: no input/tetMeshes folder above the script" % script)
        d = parent


def read_obj_vertices(path):
    pts = []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                t = line.split()
                pts.append((float(t[1]), float(t[2]), float(t[3])))
    return pts


def read_info_newton(path):
    """Newton total from an IPC info.txt (line 2: steps iterations per-step)"""
    try:
        with open(path) as f:
            f.readline()
            return int(f.readline().split()[1])
    except (OSError, IndexError, ValueError):
        return None


def diagonal(pts):
    lo = [min(p[d] for p in pts) for d in range(3)]
    hi = [max(p[d] for p in pts) for d in range(3)]
    return math.sqrt(sum((hi[d] - lo[d]) ** 2 for d in range(3)))


def deviation(ref, pts):
    """max vertex distance over the reference's vertices / its bbox diagonal"""
    if len(pts) < len(ref):
        return float("nan")
    diag = diagonal(ref)
    return max(math.dist(p, q) for p, q in zip(ref, pts)) / (diag if diag > 0 else 1.0)


class IpcSide:
    """IPC's frames (step -> vertices) and Newton total"""

    def __init__(self, frames, newton, note=""):
        self.frames, self.newton, self.note = frames, newton, note


def reference_side(refdir, name, steps):
    d = os.path.join(refdir, name)
    run = os.path.join(d, "run.json")
    if not os.path.exists(run):
        return None
    with open(run) as f:
        meta = json.load(f)
    frames = {}
    for k in range(1, steps + 1):
        p = os.path.join(d, "frames", "%d.obj" % k)
        if os.path.exists(p):
            frames[k] = read_obj_vertices(p)
    note = "" if meta.get("rc") == 0 else "IPC exit %s" % meta.get("rc")
    return IpcSide(frames, read_info_newton(os.path.join(d, "info.txt")), note)


def live_side(binary, copy, root, work, steps):
    ipc_root = os.path.join(work, "ipc")
    shutil.rmtree(ipc_root, ignore_errors=True)
    os.makedirs(ipc_root)
    os.symlink(os.path.join(root, "input"), os.path.join(ipc_root, "input"))
    rel = os.path.relpath(copy, ipc_root)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    r = subprocess.run([binary, "100", rel, "--numThreads", "1", "--logLevel", "warning",
                        "--noPBar"], cwd=ipc_root, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    outs = sorted(os.path.join(ipc_root, "output", o)
                  for o in os.listdir(os.path.join(ipc_root, "output"))) \
        if os.path.isdir(os.path.join(ipc_root, "output")) else []
    if not outs:
        return IpcSide({}, None, "IPC exit %d, no output" % r.returncode)
    out = outs[-1]
    frames = {}
    for k in range(1, steps + 1):
        p = os.path.join(out, "%d.obj" % k)
        if os.path.exists(p):
            frames[k] = read_obj_vertices(p)
    return IpcSide(frames, read_info_newton(os.path.join(out, "info.txt")),
                   "" if r.returncode == 0 else "IPC exit %d" % r.returncode)


def run_ipcc(ipcc, copy, out, steps):
    """(frames: step -> path, newton total per step, error or None)"""
    # --lenient: a section without 'section end' runs to the end of the file, as in IPC
    cmd = [ipcc, "run", copy, "--steps", str(steps), "-o", out, "--overwrite",
           "--no-checkpoint", "--quiet", "--lenient"]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    newton, frames = {0: 0}, {}
    try:
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
        total = 0
        for s in stats["steps"]:
            total += s["newton_iterations"]
            newton[s["step"]] = total
    except (OSError, ValueError, KeyError):
        pass
    fdir = os.path.join(out, "frames")
    if os.path.isdir(fdir):
        for p in os.listdir(fdir):
            if p.endswith(".obj"):
                frames[int(p[:-4])] = os.path.join(fdir, p)
    err = None
    if r.returncode != 0:
        err = (r.stderr.strip().split("\n") or [""])[-1][:200]
    return frames, newton, err


def compare(ipc, frames, steps):
    devs = {}
    for k in range(1, steps + 1):
        if k in ipc.frames and k in frames:
            devs[k] = deviation(ipc.frames[k], read_obj_vertices(frames[k]))
    return devs


def one_script(a, name, script):
    """runs ipcc (and IPC or the reference) on one script; returns a result dict"""
    work = os.path.join(a.work, name.replace("/", "__"))
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, os.path.basename(script))
    cut_script(script, copy, a.steps)
    root = input_root(script)
    link = os.path.join(work, "input")
    if not os.path.lexists(link):
        os.symlink(os.path.join(root, "input"), link)
    res = {"script": name, "steps": a.steps, "solver": constraint_solver(script)}
    frames, newton, err = run_ipcc(a.ipcc, copy, os.path.join(work, "ipcc"), a.steps)
    res["ipcc_error"] = err
    res["ipcc_newton"] = newton.get(max(newton), 0) if newton else 0
    res["ipcc_steps"] = max(newton) if newton else 0
    ipc = None
    if a.ipc:
        ipc = live_side(os.path.abspath(a.ipc), copy, root, work, a.steps)
    elif a.reference:
        ipc = reference_side(a.reference, name, a.steps)
    if ipc is not None:
        res["ipc_newton"] = ipc.newton
        res["ipc_note"] = ipc.note
        devs = compare(ipc, frames, a.steps)
        res["dev"] = {str(k): v for k, v in devs.items()}
    if a.self_check:
        tight = os.path.join(work, "tight_" + os.path.basename(script))
        cut_script(script, tight, a.steps, tol_scale=0.01)
        tframes, tnewton, terr = run_ipcc(a.ipcc, tight, os.path.join(work, "ipcc_tight"), a.steps)
        sdev = {}
        for k in range(1, a.steps + 1):
            if k in tframes and k in frames:
                ref = read_obj_vertices(tframes[k])
                pts = read_obj_vertices(frames[k])
                n = min(len(ref), len(pts))
                if ipc is not None and ipc.frames.get(k):
                    n = min(n, len(ipc.frames[k]))
                sdev[k] = deviation(ref[:n], pts[:n])
        res["self_dev"] = {str(k): v for k, v in sdev.items()}
        res["tight_newton"] = tnewton.get(max(tnewton), 0) if tnewton else 0
        res["tight_error"] = terr
        if ipc is not None:
            tdev = {}
            for k in range(1, a.steps + 1):
                if k in ipc.frames and k in tframes:
                    tdev[k] = deviation(ipc.frames[k], read_obj_vertices(tframes[k]))
            res["tight_dev"] = {str(k): v for k, v in tdev.items()}
    return res


def constraint_solver(script):
    """the script's constraintSolver outside its sections (IPC's default: interiorPoint)"""
    solver, in_section = "interiorPoint", False
    with open(script) as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            if t[0] == "section":
                in_section = len(t) < 2 or t[1] != "end"
            elif t[0] == "constraintSolver" and len(t) > 1 and not in_section:
                solver = t[1]
    return solver


def verdict(r, threshold):
    if r.get("solver") not in (None, "interiorPoint", "IP"):
        return "other method: IPC runs its %s solver here, ipcc its barrier" % r["solver"]
    if r.get("ipcc_error"):
        return "fails: " + r["ipcc_error"]
    dev = r.get("dev")
    if dev is None:
        return "no reference"
    last = dev.get(str(r["steps"]))
    if last is None:
        return "no frame %d" % r["steps"]
    if last <= threshold:
        return "same"
    best = None
    for kind, spread in (r.get("ipc_spread") or {}).items():
        sp = spread.get(str(r["steps"]))
        if sp is not None and (best is None or sp > best[1]):
            best = (kind, sp)
    if best is not None and last <= 2.0 * best[1]:
        return "chaotic (IPC against itself, %s: %s)" % (best[0], fmt_dev(best[1]))
    s = r.get("self_dev", {}).get(str(r["steps"]))
    if s is not None and s >= 0.5 * last:
        return "chaotic (tol/100 moves ipcc %.1f%%)" % (100 * s)
    if s is not None:
        return "differs (tol/100 moves ipcc %s)" % fmt_dev(s)
    return "differs"


def fmt_dev(v):
    if v is None:
        return "-"
    if v != v:
        return "nan"
    return "%.1e" % v if v < 1e-3 else "%.2f%%" % (100 * v)


def scripts_from_reference(refdir):
    names = []
    for d, _, files in os.walk(refdir):
        if "run.json" in files:
            with open(os.path.join(d, "run.json")) as f:
                if json.load(f).get("rc") == 0:
                    names.append(os.path.relpath(d, refdir))
    return sorted(names)


def resolve(arg, input_dir):
    """(name relative to input/ without .txt, script path)"""
    if os.path.exists(arg) and arg.endswith(".txt"):
        p = os.path.abspath(arg)
        m = re.search(r"/input/(.*)\.txt$", p)
        return (m.group(1) if m else os.path.basename(p)[:-4]), p
    name = arg[:-4] if arg.endswith(".txt") else arg
    p = os.path.join(input_dir, name + ".txt")
    if not os.path.exists(p):
        sys.exit("%s: no such script (looked for %s)" % (arg, p))
    return name, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scripts", nargs="*")
    ap.add_argument("--all", action="store_true", help="every script of the reference (rc 0)")
    ap.add_argument("--reference", default=DEFAULT_REF if os.path.isdir(DEFAULT_REF) else None)
    ap.add_argument("--input", default=DEFAULT_INPUT, help="IPC's input/ folder")
    ap.add_argument("--ipc", help="the original IPC's IPC_bin, run instead of the reference")
    ap.add_argument("--ipcc", default=os.path.join(ROOT, "build", "src", "cli", "ipcc"))
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--work", default="out/compare_ipc")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--threshold", type=float, default=0.01, help="'same' up to this deviation")
    ap.add_argument("--self-check", action="store_true")
    ap.add_argument("--per-step", action="store_true", help="print every step's deviation")
    ap.add_argument("--markdown", help="write the table as Markdown rows to this file")
    ap.add_argument("--json", help="write every result to this file")
    ap.add_argument("--ipc-spread", action="append", default=[],
                    help="IPC's own spread (tools/ipc_self_spread.py --json); repeatable")
    a = ap.parse_args()
    a.work = os.path.abspath(a.work)
    a.ipcc = os.path.abspath(a.ipcc)
    if a.reference:
        a.reference = os.path.abspath(a.reference)
    names = list(a.scripts)
    if a.all:
        if not a.reference:
            sys.exit("--all needs --reference")
        names += scripts_from_reference(a.reference)
    if not names:
        ap.error("no script (give SCRIPT or --all)")
    jobs = [resolve(n, a.input) for n in names]
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(lambda j: one_script(a, j[0], j[1]), jobs))
    for fn in a.ipc_spread:
        with open(fn) as f:
            spread = json.load(f)
        kind = spread.get("_kind", "renumbered")
        for r in results:
            if r["script"] in spread:
                r.setdefault("ipc_spread", {})[kind] = spread[r["script"]]
    mid = a.steps // 2
    hdr = "%-62s %9s %9s %7s %7s %9s  %s" % ("script", "dev@%d" % mid, "dev@%d" % a.steps,
                                              "ipcc", "IPC", "first>1e-6", "verdict")
    print(hdr)
    rows = []
    nsame = 0
    for r in results:
        dev = r.get("dev", {})
        first = next((k for k in range(1, a.steps + 1)
                      if str(k) in dev and not dev[str(k)] <= 1e-6), None)
        v = verdict(r, a.threshold)
        nsame += v == "same"
        print("%-62s %9s %9s %7s %7s %9s  %s" % (
            r["script"], fmt_dev(dev.get(str(mid))), fmt_dev(dev.get(str(a.steps))),
            r["ipcc_newton"], r.get("ipc_newton", "-"), first or "-", v))
        if a.per_step and dev:
            print("    " + " ".join("%d:%s" % (k, fmt_dev(dev.get(str(k))))
                                   for k in range(1, a.steps + 1)))
            for kind, spread in (r.get("ipc_spread") or {}).items():
                print("    IPC vs IPC %s: " % kind + " ".join(
                    "%d:%s" % (k, fmt_dev(spread.get(str(k)))) for k in range(1, a.steps + 1)))
            if r.get("self_dev"):
                print("    tol/100: " + " ".join(
                    "%d:%s" % (k, fmt_dev(r["self_dev"].get(str(k))))
                    for k in range(1, a.steps + 1)))
        rows.append("| %s | %s | %s | %s | %s | %s |" % (
            r["script"], fmt_dev(dev.get(str(mid))), fmt_dev(dev.get(str(a.steps))),
            r["ipcc_newton"], r.get("ipc_newton", "-"), v))
    if a.reference or a.ipc:
        print("%d of %d the same within %g of the diagonal at step %d" %
              (nsame, len(results), a.threshold, a.steps))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("| script | dev@%d | dev@%d | Newton ipcc | Newton IPC | verdict |\n" %
                    (mid, a.steps))
            f.write("|---|---|---|---|---|---|\n")
            f.write("\n".join(rows) + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
