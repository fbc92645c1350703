#!/usr/bin/env python3
"""Writes the accessory meshes the preset scenes use (presets/assets/*.obj), made here from formulas.

    python3 tools/make_accessory_meshes.py    # rewrites presets/assets/bun.obj and kerchief.obj

bun.obj: a hair bun for the default head (about twice life size, like the scan): a closed ellipsoid of
radii 0.085 x 0.06 x 0.085 m, a UV sphere of 14 rings and 24 segments whose poles and seam are shared
vertices (so it is closed and manifold), outward winding, with normals.

kerchief.obj: a cloth for ../scenes/scarf.json, a flat sheet of 0.54 x 0.5 m at y = 0.92 m over the crown
of the default head (its top is at 0.844), 20 x 20 quads each split along alternating diagonals (no
preferred fold), wound so that its normals point up, away from the head.
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def bun(path, radii=(0.085, 0.06, 0.085), rings=14, segments=24):
    verts, normals, faces = [], [], []
    verts.append((0.0, radii[1], 0.0))
    normals.append((0.0, 1.0, 0.0))
    for r in range(1, rings):
        theta = math.pi * r / rings
        for s in range(segments):
            phi = 2.0 * math.pi * s / segments
            n = (math.sin(theta) * math.cos(phi), math.cos(theta), math.sin(theta) * math.sin(phi))
            verts.append((n[0] * radii[0], n[1] * radii[1], n[2] * radii[2]))
            g = (n[0] / radii[0], n[1] / radii[1], n[2] / radii[2])
            l = math.sqrt(sum(c * c for c in g))
            normals.append(tuple(c / l for c in g))
    verts.append((0.0, -radii[1], 0.0))
    normals.append((0.0, -1.0, 0.0))
    top, bottom = 1, len(verts)  # OBJ indices are 1-based

    def ring(r, s):
        return 2 + (r - 1) * segments + (s % segments)

    for s in range(segments):
        faces.append((top, ring(1, s + 1), ring(1, s)))
        faces.append((bottom, ring(rings - 1, s), ring(rings - 1, s + 1)))
    for r in range(1, rings - 1):
        for s in range(segments):
            a, b, c, d = ring(r, s), ring(r, s + 1), ring(r + 1, s + 1), ring(r + 1, s)
            faces.append((a, b, c))
            faces.append((a, c, d))
    with open(path, "w", newline="\n") as f:
        f.write("# Hair bun for the preset scenes: tools/make_accessory_meshes.py\n")
        for v in verts:
            f.write("v %.6f %.6f %.6f\n" % v)
        for n in normals:
            f.write("vn %.6f %.6f %.6f\n" % n)
        for t in faces:
            f.write("f %d//%d %d//%d %d//%d\n" % (t[0], t[0], t[1], t[1], t[2], t[2]))


def sheet(path, comment, nu, nv, position, flip):
    """A grid of (nu + 1) x (nv + 1) vertices at position(i, j), each quad split along alternating
    diagonals; `flip` reverses the winding (which way the normals point)."""
    with open(path, "w", newline="\n") as f:
        f.write("# %s for the preset scenes: tools/make_accessory_meshes.py\n" % comment)
        for j in range(nv + 1):
            for i in range(nu + 1):
                f.write("v %.6f %.6f %.6f\n" % position(i, j))
        for j in range(nv):
            for i in range(nu):
                a = j * (nu + 1) + i + 1
                b, c, d = a + 1, a + nu + 2, a + nu + 1
                tris = [(a, d, c), (a, c, b)] if (i + j) % 2 == 0 else [(a, d, b), (b, d, c)]
                for t in tris:
                    f.write("f %d %d %d\n" % ((t[0], t[2], t[1]) if flip else t))


def kerchief(path, n=16, x=(-0.2, 0.22), z=(-0.22, 0.14), y=0.92):
    sheet(path, "Kerchief", n, n, lambda i, j: (x[0] + (x[1] - x[0]) * i / n, y, z[0] + (z[1] - z[0]) * j / n), False)


def cape(path, nx=8, ny=14, x=(-0.09, 0.09), y=(1.06, 0.72), z=-0.115):
    sheet(path, "Cape", nx, ny, lambda i, j: (x[0] + (x[1] - x[0]) * i / nx, y[0] + (y[1] - y[0]) * j / ny, z), True)


if __name__ == "__main__":
    bun(os.path.join(HERE, "..", "presets", "assets", "bun.obj"))
    kerchief(os.path.join(HERE, "..", "presets", "assets", "kerchief.obj"))
    cape(os.path.join(HERE, "..", "presets", "assets", "cape.obj"))
