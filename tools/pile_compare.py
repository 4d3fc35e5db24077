#!/usr/bin/env python3
"""Compare the end states of two granular runs from their OBJ frames (ipcc's frames: one
`o NAME` group per body). Per frame: the bodies whose centroid is above --tube-height (left in
the tube), the quantiles of the centroids' heights and of their horizontal distances from the
pile's centre, and the centre of mass of the centroids (every body weighted alike). Between the
two frames: how far each body's centroid is from the same body's in the other.

  tools/pile_compare.py A/frames/000100.obj B/frames/000100.obj [--prefix e] [--tube-height 0.1]
      [--within 1e-4]

--within: a distance to count the bodies that are "in the same place" (for instance the Newton
tolerance as a distance, tolerance x time step). Standard library only."""
import argparse
import math
import sys


def centroids(path, prefix):
    """{name: (x, y, z)} of the groups whose name starts with prefix: the mean of their vertices"""
    out, name, acc = {}, None, [0.0, 0.0, 0.0, 0]

    def close():
        if name is not None and name.startswith(prefix) and acc[3] > 0:
            out[name] = tuple(a / acc[3] for a in acc[:3])

    try:
        with open(path) as f:
            for line in f:
                if line.startswith("o "):
                    close()
                    name, acc = line.split()[1], [0.0, 0.0, 0.0, 0]
                elif line.startswith("v "):
                    p = line.split()
                    for k in range(3):
                        acc[k] += float(p[k + 1])
                    acc[3] += 1
    except (OSError, ValueError, IndexError) as e:
        sys.exit(f"pile_compare: {path}: {e}")
    close()
    if not out:
        sys.exit(f"pile_compare: {path}: no group named {prefix}* with vertices")
    return out


def quantiles(v, qs=(0.1, 0.5, 0.9)):
    s = sorted(v)
    return [s[min(len(s) - 1, int(q * len(s)))] for q in qs]


def describe(label, c, tube_height):
    pts = list(c.values())
    n = len(pts)
    com = [sum(p[k] for p in pts) / n for k in range(3)]
    tube = sorted((k for k, p in c.items() if p[1] > tube_height), key=lambda k: (len(k), k))
    low = [p for p in pts if p[1] <= tube_height]
    cx = sum(p[0] for p in low) / max(1, len(low))
    cz = sum(p[2] for p in low) / max(1, len(low))
    radial = [math.hypot(p[0] - cx, p[2] - cz) for p in low]
    print(f"{label}: {n} bodies, {len(tube)} above {tube_height} m {tube[:12]}")
    if not low:
        print(f"  centre of mass ({com[0]:.4f}, {com[1]:.4f}, {com[2]:.4f}) m; no pile yet")
        return com
    h = quantiles([p[1] for p in low])
    r = quantiles(radial, (0.1, 0.5, 0.9, 0.99))
    print(f"  centre of mass ({com[0]:.4f}, {com[1]:.4f}, {com[2]:.4f}) m; pile centre "
          f"({cx:.4f}, {cz:.4f}); heights 10/50/90%: {h[0]:.4f} {h[1]:.4f} {h[2]:.4f} m, "
          f"highest {max(p[1] for p in pts):.4f}; radii 10/50/90/99%: {r[0]:.4f} {r[1]:.4f} "
          f"{r[2]:.4f} {r[3]:.4f} m, widest {max(radial):.4f}")
    return com


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--prefix", default="e", help="body names to compare (default e: ellipsoids)")
    ap.add_argument("--tube-height", type=float, default=0.1,
                    help="a centroid above this height (m) is left in the tube (default 0.1)")
    ap.add_argument("--within", type=float, default=1e-4,
                    help="distance (m) for 'the same place' (default 1e-4: the pour's "
                         "Newton tolerance, 0.02 m/s, times its 5 ms step)")
    a = ap.parse_args()
    ca, cb = centroids(a.a, a.prefix), centroids(a.b, a.prefix)
    if set(ca) != set(cb):
        sys.exit(f"pile_compare: the frames hold different bodies ({len(ca)} and {len(cb)})")
    ma = describe(a.a, ca, a.tube_height)
    mb = describe(a.b, cb, a.tube_height)
    d = sorted(math.dist(ca[k], cb[k]) for k in ca)
    q = quantiles(d)
    print(f"centroid distances: 10/50/90% {q[0]:.3g} {q[1]:.3g} {q[2]:.3g} m, largest "
          f"{d[-1]:.3g}; within {a.within:g} m: {sum(x <= a.within for x in d)} of {len(d)}; "
          f"beyond 1 cm: {sum(x > 0.01 for x in d)}; centres of mass {math.dist(ma, mb):.3g} m "
          f"apart")


if __name__ == "__main__":
    main()
