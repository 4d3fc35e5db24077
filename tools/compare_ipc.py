#!/usr/bin/env python3
"""Runs one of the original IPC code's .txt scripts in IPC (ipc-sim/IPC's IPC_bin) and in
ipcc for the same number of steps and prints, per step, how far ipcc's vertices are from
IPC's (as a fraction of the scene's bounding-box diagonal) and both Newton iteration counts.

usage: tools/compare_ipc.py SCRIPT [--ipc IPC_BIN] [--ipcc IPCC] [--steps N] [--work DIR]
                            [--every K]

Without --ipc only the ipcc side runs (its Newton counts and frames are still reported), so
the tool can be tried where no IPC build exists. Nothing in the test suite needs IPC_BIN.

How the two are matched:
  - the script is copied with `time T dt` cut to N steps (added with IPC's default step
    0.025 s when the script has none); both programs read that copy.
  - IPC runs offline (`IPC_bin 100 script.txt cmp`) in a scratch root whose input/ is a link
    to the script's input/ tree (IPC resolves mesh paths against its working folder), and
    writes output/<info>cmp/status<K> after step K: a `position ROWS 3` block holds every
    vertex of the script's shapes in script order (tet interiors included); info<K>.txt's
    second line is `steps newton_total ratio`.
  - ipcc writes VTU frames (every vertex of every body, shapes first in script order, then
    meshCO obstacles) and stats.json (newton_iterations per step).
  The first ROWS points of ipcc's frame K are compared with IPC's status K. The bounding-box
  diagonal is that of IPC's (or ipcc's) first frame.
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys


def cut_script(src, dst, steps):
    """copies SRC to DST with `time T dt` replaced by `time steps*dt dt`; returns dt"""
    out, dt = [], None
    with open(src) as f:
        for line in f:
            tok = line.split()
            if len(tok) >= 3 and tok[0] == "time":
                dt = float(tok[2])
                line = "time %.17g %s\n" % (steps * dt, tok[2])
            out.append(line)
    if dt is None:  # IPC's default step (Config: time 5 0.025)
        dt = 0.025
        out.append("\ntime %.17g %.17g\n" % (steps * dt, dt))
    with open(dst, "w") as f:
        f.writelines(out)
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


def read_status(path):
    """positions (list of [x, y, z]) from an IPC status file"""
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        tok = line.split()
        if tok and tok[0] == "position":
            rows = int(tok[1])
            vals = " ".join(lines[i + 1:i + 1 + rows]).split()
            return [[float(vals[3 * k + d]) for d in range(3)] for k in range(rows)]
    sys.exit("%s: no position block" % path)


def read_vtu_points(path):
    with open(path) as f:
        text = f.read()
    m = re.search(r"<Points>\s*<DataArray[^>]*>(.*?)</DataArray>", text, re.S)
    if not m:
        sys.exit("%s: no <Points> array" % path)
    v = [float(t) for t in m.group(1).split()]
    return [v[3 * k:3 * k + 3] for k in range(len(v) // 3)]


def diagonal(pts):
    lo = [min(p[d] for p in pts) for d in range(3)]
    hi = [max(p[d] for p in pts) for d in range(3)]
    return math.sqrt(sum((hi[d] - lo[d]) ** 2 for d in range(3)))


def run_ipc(binary, script_copy, root, work, steps):
    ipc_root = os.path.join(work, "ipc")
    shutil.rmtree(ipc_root, ignore_errors=True)
    os.makedirs(ipc_root)
    os.symlink(os.path.join(root, "input"), os.path.join(ipc_root, "input"))
    rel = os.path.relpath(script_copy, ipc_root)
    r = subprocess.run([binary, "100", rel, "cmp", "--logLevel", "6"], cwd=ipc_root,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    outs = sorted(glob.glob(os.path.join(ipc_root, "output", "*cmp")))
    if r.returncode != 0 or not outs:
        sys.exit("IPC failed (exit %d): %s" % (r.returncode, r.stderr[-2000:]))
    out = outs[-1]
    frames, newton = {}, {}
    for k in range(0, steps + 1):
        p = os.path.join(out, "status%d" % k)
        if os.path.exists(p):
            frames[k] = read_status(p)
        info = os.path.join(out, "info%d.txt" % k)
        if os.path.exists(info):
            with open(info) as f:
                f.readline()
                newton[k] = int(f.readline().split()[1])
    return frames, newton


def run_ipcc(ipcc, script_copy, work, steps):
    out = os.path.join(work, "ipcc")
    cmd = [ipcc, "run", script_copy, "--steps", str(steps), "--format", "vtu", "-o", out,
           "--overwrite", "--no-checkpoint", "--quiet"]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("ipcc failed (exit %d): %s" % (r.returncode, r.stderr[-2000:]))
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    newton, total = {0: 0}, 0
    for s in stats["steps"]:
        total += s["newton_iterations"]
        newton[s["step"]] = total
    frames = {}
    for p in glob.glob(os.path.join(out, "frames", "*.vtu")):
        frames[int(os.path.basename(p)[:-4])] = p
    return frames, newton


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("--ipc", help="the original IPC's IPC_bin (optional)")
    ap.add_argument("--ipcc", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                   "src", "cli", "ipcc"))
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--every", type=int, default=5, help="print every Kth step (and the last)")
    ap.add_argument("--work", default="out/compare_ipc")
    a = ap.parse_args()
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, os.path.basename(a.script))
    cut_script(a.script, copy, a.steps)
    root = input_root(a.script)
    # ipcc resolves mesh paths against the script's folder and its parents: the copy sits
    # in WORK, so give it the same input/ root through a link
    link = os.path.join(work, "input")
    if not os.path.exists(link):
        os.symlink(os.path.join(root, "input"), link)
    ipcc_frames, ipcc_newton = run_ipcc(os.path.abspath(a.ipcc), copy, work, a.steps)
    ipc_frames, ipc_newton = ({}, {})
    if a.ipc:
        ipc_frames, ipc_newton = run_ipc(os.path.abspath(a.ipc), copy, root, work, a.steps)
    first = read_vtu_points(ipcc_frames[0])
    diag = diagonal(ipc_frames.get(0) or first)
    print("%s: %d steps, bbox diagonal %.6g" % (a.script, a.steps, diag))
    print("%5s  %12s  %12s  %12s" % ("step", "deviation", "newton ipcc", "newton IPC"))
    worst = 0.0
    for k in range(0, a.steps + 1):
        if k % a.every and k != a.steps:
            continue
        dev = float("nan")
        if k in ipc_frames and k in ipcc_frames:
            x, y = ipc_frames[k], read_vtu_points(ipcc_frames[k])
            if len(y) < len(x):
                sys.exit("step %d: ipcc has %d vertices, IPC %d" % (k, len(y), len(x)))
            dev = max(math.dist(p, q) for p, q in zip(x, y)) / diag
            worst = max(worst, dev)
        print("%5d  %12.3e  %12s  %12s" % (k, dev, ipcc_newton.get(k, "-"),
                                            ipc_newton.get(k, "-")))
    if a.ipc:
        print("largest deviation %.3e of the diagonal (%s)" %
              (worst, "same" if worst <= 0.01 else "differs"))


if __name__ == "__main__":
    main()
