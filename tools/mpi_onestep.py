#!/usr/bin/env python3
"""An N-rank run against the serial run one time step at a time, from the serial run's states.

Two whole runs of a scene that amplifies round-off (the mat twist, once its contacts form)
part from each other however exact both solvers are: the frames of two runs then say more
about the scene than about the solvers. This tool takes each step K -> K+1 on N ranks from
the serial run's own state K (its checkpoint after step K) and measures how far the N-rank
step lands from the serial run's state K+1, with both Newton counts, so a difference in what
a step computes shows without the drift of two separate runs (as tools/ipc_onestep.py does
against the original IPC).

  tools/mpi_onestep.py SCENE --work DIR [--steps N] [--np 2] [--linear-solver petsc-mumps]
                       [--ipcc build-rel/src/cli/ipcc] [--from K]

DIR/serial: the serial CHOLMOD run, one step per `ipcc run --resume` (which gives the same
frames as one run, to the last bit), its checkpoint after every step kept in DIR/states;
DIR/ranks/K: step K+1 on N ranks from state K. Prints per step: K+1, the largest vertex
difference (m), the N-rank and the serial Newton iterations; then the largest and median
difference and the steps whose Newton counts differ. Open MPI as root needs no flags: the
environment variables it wants are set here.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys


def verts(path):
    with open(path) as f:
        return [tuple(map(float, l.split()[1:4])) for l in f if l.startswith("v ")]


def run(cmd, env=None):
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("%s: exit %d\n%s" % (" ".join(cmd), r.returncode, r.stderr[-2000:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scene")
    ap.add_argument("--work", required=True)
    ap.add_argument("--steps", type=int, default=None, help="default: the scene's")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--linear-solver", default="petsc-mumps")
    ap.add_argument("--ipcc", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                   "build-rel", "src", "cli", "ipcc"))
    ap.add_argument("--from", dest="first", type=int, default=0, help="first state K (default 0)")
    a = ap.parse_args()
    ipcc = os.path.abspath(a.ipcc)
    ser, states = os.path.join(a.work, "serial"), os.path.join(a.work, "states")
    os.makedirs(states, exist_ok=True)

    # the serial run, one step per resume, every state kept
    steps = a.steps
    if not os.path.exists(os.path.join(states, "1.bin")):
        run([ipcc, "run", a.scene, "-o", ser, "--overwrite", "--steps", "1", "--checkpoint-every", "1",
             "--quiet"])
        shutil.copy(os.path.join(ser, "checkpoint.bin"), os.path.join(states, "1.bin"))
    if steps is None:
        with open(a.scene) as f:
            sc = json.load(f)
        steps = int(round(sc["duration"] / sc["time_step"]))
    k = 1
    while k < steps:
        k += 1
        if os.path.exists(os.path.join(states, "%d.bin" % k)):
            continue
        shutil.copy(os.path.join(states, "%d.bin" % (k - 1)), os.path.join(ser, "checkpoint.bin"))
        run([ipcc, "run", "--resume", ser, "--steps", str(k), "--checkpoint-every", "1", "--quiet"])
        shutil.copy(os.path.join(ser, "checkpoint.bin"), os.path.join(states, "%d.bin" % k))
    with open(os.path.join(ser, "stats.json")) as f:
        ser_its = [s["newton_iterations"] for s in json.load(f)["steps"]]

    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # shared memory between the ranks without the cross-memory attach containers refuse
    env.setdefault("OMPI_MCA_btl", "self,vader")
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    mpirun = ["mpirun", "-np", str(a.np), "--oversubscribe", "--bind-to", "none"]
    solver = ["--linear-solver", a.linear_solver]
    rows = []
    for k in range(a.first, steps):
        t = os.path.join(a.work, "ranks", str(k))
        shutil.rmtree(t, ignore_errors=True)
        frame = "%06d.obj" % (k + 1)
        if k == 0:
            run(mpirun + [ipcc, "run", a.scene, "-o", t, "--steps", "1", "--quiet"] + solver, env)
        else:
            os.makedirs(os.path.join(t, "frames"))
            shutil.copy(os.path.join(states, "%d.bin" % k), os.path.join(t, "checkpoint.bin"))
            shutil.copy(os.path.join(ser, "stats.json"), t)
            shutil.copy(os.path.join(ser, "frames", "%06d.obj" % k), os.path.join(t, "frames"))
            run(mpirun + [ipcc, "run", "--resume", t, "--steps", str(k + 1), "--quiet"] + solver, env)
        va, vb = verts(os.path.join(t, "frames", frame)), verts(os.path.join(ser, "frames", frame))
        d = max(abs(x - y) for p, q in zip(va, vb) for x, y in zip(p, q))
        with open(os.path.join(t, "stats.json")) as f:
            its = json.load(f)["steps"][-1]["newton_iterations"]
        rows.append((k + 1, d, its, ser_its[k]))
        print("%d %.3g %d %d" % rows[-1], flush=True)
    ds = [r[1] for r in rows]
    print("steps %d: largest %.3g m, median %.3g m; Newton iterations %d (N ranks) %d (serial), "
          "differing in %d steps" % (len(rows), max(ds), statistics.median(ds),
                                     sum(r[2] for r in rows), sum(r[3] for r in rows),
                                     sum(r[2] != r[3] for r in rows)))


if __name__ == "__main__":
    main()
