#!/usr/bin/env python3
"""ipcc against the original IPC one time step at a time, from IPC's own states.

The original IPC writes its whole state after every step (`statusK` in its output folder:
positions, velocities, ...; its script keyword `restart FILE` starts from such a file).
This tool makes ipcc take each step from IPC's state K and measures how far it lands from
IPC's state K+1, so rule differences show without the drift of two separate runs (a run's
frames part wherever the dynamics amplify rounding, as IPC's own builds part from each other).

  tools/ipc_onestep.py SCRIPT IPC_OUTPUT [--steps A:B | K,K,...]
      for every K: ipcc from IPC's statusK, one step, against IPC's status(K+1): the largest
      vertex distance as a fraction of the bounding-box diagonal, and both Newton counts
      (IPC's from its infoK.txt files)
  tools/ipc_onestep.py SCRIPT IPC_OUTPUT --write-status FILE --after N
      ipcc's own run for N steps, its state written as an IPC status file: append
      `restart FILE` to a copy of SCRIPT to run IPC from ipcc's state

SCRIPT is the IPC script IPC ran (its `time` line may be longer: ipcc takes its own steps).
Needs numpy and the Python package (python/ipcc, IPCC_LIBRARY or an installed libipcc). The
README's "Same answers, one step at a time" has what this found on the mat40x40 twist.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import ipcc  # noqa: E402


def read_status(path):
    """positions (n, 3) and velocities (n, 3) of an IPC status file"""
    with open(path) as f:
        tokens = f.read().split()
    x = v = None
    i = 0
    while i < len(tokens):
        if tokens[i] == "position":
            n = int(tokens[i + 1])
            x = np.array(tokens[i + 3:i + 3 + 3 * n], dtype=float).reshape(n, 3)
            i += 3 + 3 * n
        elif tokens[i] == "velocity":
            m = int(tokens[i + 1])
            v = np.array(tokens[i + 2:i + 2 + m], dtype=float).reshape(-1, 3)
            i += 2 + m
        else:
            i += 1
    if x is None or v is None:
        sys.exit("%s: no position or velocity block (an IPC status file was expected)" % path)
    return x, v


def ipc_iterations(folder, k):
    """IPC's Newton iterations in step k (infoK.txt: line 2 holds the running total)"""
    def total(j):
        if j == 0:
            return 0
        try:
            with open(os.path.join(folder, "info%d.txt" % j)) as f:
                f.readline()
                return int(f.readline().split()[1])
        except (OSError, IndexError, ValueError):
            return None
    a, b = total(k - 1), total(k)
    return None if a is None or b is None else b - a


def steps_arg(text, last):
    if ":" in text:
        a, b = text.split(":")
        return list(range(int(a or 0), int(b) if b else last))
    return sorted(int(t) for t in text.split(","))


def scan(args):
    folder = args.ipc_output
    have = [int(f[6:]) for f in os.listdir(folder) if f.startswith("status") and f[6:].isdigit()]
    if not have:
        sys.exit("%s: no IPC status files (statusK)" % folder)
    ks = [k for k in steps_arg(args.steps, max(have)) if k + 1 in have and k in have]
    w = ipcc.load_scene(args.script)
    worst = (0.0, None)
    print("step  ipcc from IPC's state vs IPC (of the diagonal)  vertex  Newton ipcc / IPC")
    for k in ks:
        x, v = read_status(os.path.join(folder, "status%d" % k))
        x1, _ = read_status(os.path.join(folder, "status%d" % (k + 1)))
        # chained: the world's own history is IPC's too (its step count, kappa of the last
        # step), as in IPC's run
        w.set_positions(x)
        w.set_velocities(v)
        st = w.step()
        diag = np.linalg.norm(x1.max(0) - x1.min(0))
        e = np.linalg.norm(w.positions - x1, axis=1)
        rel = e.max() / diag
        it = ipc_iterations(folder, k + 1)
        print("%4d  %.3e  %5d  %3d / %s" % (k + 1, rel, e.argmax(), st["newton_iterations"],
                                            "?" if it is None else it), flush=True)
        if rel > worst[0]:
            worst = (rel, k + 1)
    print("largest: %.3e at step %s" % worst)


def write_status(args):
    w = ipcc.load_scene(args.script)
    for _ in range(args.after):
        w.step()
    x = w.copy_positions()
    v = np.array(w.velocities).reshape(-1)
    lines = ["timestep %d" % args.after, "", "position %d 3" % len(x)]
    lines += ["%.17g %.17g %.17g" % tuple(r) for r in x]
    lines += ["velocity %d" % len(v)] + ["%.17g" % t for t in v]
    tmp = args.write_status + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, args.write_status)
    print("wrote ipcc's state after step %d to %s" % (args.after, args.write_status))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("script")
    p.add_argument("ipc_output")
    p.add_argument("--steps", default="0:", help="A:B (steps A+1..B) or K,K,... (default all)")
    p.add_argument("--write-status", metavar="FILE")
    p.add_argument("--after", type=int, default=1)
    args = p.parse_args()
    if args.write_status:
        write_status(args)
    else:
        scan(args)


if __name__ == "__main__":
    main()
