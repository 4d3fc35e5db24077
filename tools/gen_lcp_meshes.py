#!/usr/bin/env python3
"""Writes the coarse meshes of the LCP comparison scenes into scenes/meshes/ (run from the
repository root):
  ball_coarse.msh  unit-diameter ball, 125 nodes, 384 tets: a 4 x 4 x 4 grid of cubes
                   mapped onto the ball shell by shell (equal-angle cubed sphere), each cube cut
                   into 6 tets around its main diagonal (Kuhn), interior nodes smoothed
  skittle.msh      a skittle 1 m tall (base radius 0.12, belly 0.19, neck 0.07, head 0.11),
                   4 x 4 disk grid (square -> disk map) x 16 layers scaled by a profile
  bucket.obj       an open bucket (obstacle surface): radius 0.5 at the bottom, 0.6 at the
                   rim, 0.6 m tall, 32 segments, wall in 4 rows, bottom as rings
Gmsh 2.2 ASCII, positively oriented tets (checked here)."""
import math


def kuhn_tets(n0, n1, n2, node):
    """6 tets per grid cell around the main diagonal; node(i, j, k) -> id"""
    tets = []
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for i in range(n0):
        for j in range(n1):
            for k in range(n2):
                for p in perms:
                    c = [i, j, k]
                    path = [node(*c)]
                    for axis in p:
                        c[axis] += 1
                        path.append(node(*c))
                    tets.append(path)
    return tets


def signed_volume(x, t):
    a, b, c, d = (x[v] for v in t)
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    w = [d[i] - a[i] for i in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
            u[2] * (v[0] * w[1] - v[1] * w[0])) / 6


def orient(x, tets):
    out = []
    for t in tets:
        vol = signed_volume(x, t)
        assert abs(vol) > 0, "degenerate tet"
        out.append(t if vol > 0 else [t[0], t[2], t[1], t[3]])
    return out


def quality(x, tets):
    """smallest 6 sqrt(2) V / l_rms^3 (1 for the regular tet)"""
    q = 1.0
    for t in tets:
        ls = 0.0
        for a in range(4):
            for b in range(a + 1, 4):
                ls += sum((x[t[a]][i] - x[t[b]][i]) ** 2 for i in range(3))
        lrms = math.sqrt(ls / 6)
        q = min(q, 6 * math.sqrt(2) * signed_volume(x, t) / lrms ** 3)
    return q


def write_msh(path, x, tets):
    with open(path, "w") as f:
        f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n" % len(x))
        for i, p in enumerate(x):
            f.write("%d %.12g %.12g %.12g\n" % (i + 1, p[0], p[1], p[2]))
        f.write("$EndNodes\n$Elements\n%d\n" % len(tets))
        for e, t in enumerate(tets):
            f.write("%d 4 2 0 1 %d %d %d %d\n" % (e + 1, t[0] + 1, t[1] + 1, t[2] + 1, t[3] + 1))
        f.write("$EndElements\n")


def ball(n=4, radius=0.5, smooth=20):
    ids = {}
    x = []
    for i in range(n + 1):
        for j in range(n + 1):
            for k in range(n + 1):
                p = [2.0 * i / n - 1, 2.0 * j / n - 1, 2.0 * k / n - 1]
                s = max(abs(c) for c in p)  # the cube shell the node lies on
                d = [math.tan(math.pi / 4 * c / s) for c in p] if s > 0 else [0, 0, 0]
                dn = math.sqrt(sum(c * c for c in d)) or 1.0
                ids[(i, j, k)] = len(x)
                x.append([radius * s * c / dn for c in d])
    tets = kuhn_tets(n, n, n, lambda i, j, k: ids[(i, j, k)])
    # Laplacian smoothing of the interior grid nodes (the surface stays on the sphere)
    for _ in range(smooth):
        for (i, j, k), v in ids.items():
            if min(i, j, k) == 0 or max(i, j, k) == n:
                continue
            nb = [ids[(i + a, j + b, k + c)] for a, b, c in
                  [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]]
            x[v] = [sum(x[u][d] for u in nb) / 6 for d in range(3)]
    return x, orient(x, tets)


def square_to_disk(a, b):
    """the elliptical grid map of [-1, 1]^2 onto the unit disk"""
    return a * math.sqrt(1 - b * b / 2), b * math.sqrt(1 - a * a / 2)


def skittle(n=4, layers=16, height=1.0):
    # radius profile over the height (piecewise linear through these points)
    prof = [(0.0, 0.12), (0.3, 0.19), (0.55, 0.13), (0.7, 0.07), (0.85, 0.11), (1.0, 0.06)]

    def radius(t):
        for (t0, r0), (t1, r1) in zip(prof, prof[1:]):
            if t <= t1:
                return r0 + (r1 - r0) * (t - t0) / (t1 - t0)
        return prof[-1][1]

    ids = {}
    x = []
    for i in range(n + 1):
        for j in range(layers + 1):
            for k in range(n + 1):
                a, b = square_to_disk(2.0 * i / n - 1, 2.0 * k / n - 1)
                t = j / layers
                r = radius(t)
                ids[(i, j, k)] = len(x)
                x.append([r * a, height * t, r * b])
    tets = kuhn_tets(n, layers, n, lambda i, j, k: ids[(i, j, k)])
    return x, orient(x, tets)


def bucket(segments=32, rows=4, rings=3, r_bottom=0.5, r_top=0.6, height=0.6):
    v = [[0.0, 0.0, 0.0]]
    ring = []  # ring[q] = first vertex of ring q (bottom rings then wall rows)
    radii = [r_bottom * (q + 1) / rings for q in range(rings)]
    ys = [0.0] * rings
    for q in range(1, rows + 1):
        radii.append(r_bottom + (r_top - r_bottom) * q / rows)
        ys.append(height * q / rows)
    for r, y in zip(radii, ys):
        ring.append(len(v))
        for s in range(segments):
            a = 2 * math.pi * s / segments
            v.append([r * math.cos(a), y, r * math.sin(a)])
    f = []
    for s in range(segments):  # centre fan, normals up (into the bucket)
        f.append([0, ring[0] + (s + 1) % segments, ring[0] + s])
    for q in range(len(ring) - 1):
        for s in range(segments):
            a, b = ring[q] + s, ring[q] + (s + 1) % segments
            c, d = ring[q + 1] + s, ring[q + 1] + (s + 1) % segments
            f.append([a, b, d])
            f.append([a, d, c])
    return v, f


def main():
    x, t = ball()
    print("ball_coarse.msh: %d nodes, %d tets, quality min %.3f" % (len(x), len(t), quality(x, t)))
    write_msh("scenes/meshes/ball_coarse.msh", x, t)
    x, t = skittle()
    print("skittle.msh: %d nodes, %d tets, quality min %.3f" % (len(x), len(t), quality(x, t)))
    write_msh("scenes/meshes/skittle.msh", x, t)
    v, f = bucket()
    with open("scenes/meshes/bucket.obj", "w") as out:
        out.write("# open bucket, written by tools/gen_lcp_meshes.py\n")
        for p in v:
            out.write("v %.9g %.9g %.9g\n" % tuple(p))
        for tri in f:
            out.write("f %d %d %d\n" % (tri[0] + 1, tri[1] + 1, tri[2] + 1))
    print("bucket.obj: %d vertices, %d triangles" % (len(v), len(f)))


if __name__ == "__main__":
    main()
