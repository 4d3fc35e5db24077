/* the unit cube as a generated tet mesh (Gmsh 2.2 text), shared by the affine tests
   (tests/test_affine_physics.c, tests/test_lcp_affine.c) */
#ifndef IPCC_TESTS_GRID_CUBE_H
#define IPCC_TESTS_GRID_CUBE_H

#include <stdio.h>

enum { GRID = 4 }; /* cells per edge of the generated cube */

/* writes the unit cube split into GRID^3 cells of 6 tets each (Gmsh 2.2). cube.msh (one cell)
   lumps a third of the mass on two opposite corners: its lumped inertia about the centre has
   eigenvalues 333 and 583 kg m^2 against the solid cube's 167, so a deformable cube.msh
   spins and tumbles like a different body than the affine one (whose moments are exact).
   With 4 cells per edge the lumped inertia is within a few percent of the solid's */
static inline int write_grid_cube(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  const int n = GRID + 1;
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n", n * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        fprintf(f, "%d %.17g %.17g %.17g\n", 1 + i + n * (j + n * k), (double)i / GRID,
                (double)j / GRID, (double)k / GRID);
  fprintf(f, "$EndNodes\n$Elements\n%d\n", 6 * GRID * GRID * GRID);
  /* each cell: the six paths from its corner 000 to 111 along the axes (Kuhn split),
     ordered for a positive volume */
  static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  int id = 1;
  for (int k = 0; k < GRID; ++k)
    for (int j = 0; j < GRID; ++j)
      for (int i = 0; i < GRID; ++i)
        for (int p = 0; p < 6; ++p) {
          int c[3] = {i, j, k}, v[4];
          v[0] = 1 + c[0] + n * (c[1] + n * c[2]);
          for (int s = 0; s < 3; ++s) {
            c[perm[p][s]]++;
            v[s + 1] = 1 + c[0] + n * (c[1] + n * c[2]);
          }
          if (p >= 3) { /* odd permutation: negative volume, swap two corners */
            int t = v[1];
            v[1] = v[2];
            v[2] = t;
          }
          fprintf(f, "%d 4 2 0 1 %d %d %d %d\n", id++, v[0], v[1], v[2], v[3]);
        }
  fprintf(f, "$EndElements\n");
  return fclose(f) == 0;
}

#endif
