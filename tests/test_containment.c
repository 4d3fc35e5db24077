/* containment of one body in another (src/geometry/containment.c): the winding number of a
   cube's surface, and which body pairs the check reports */
#include <math.h>
#include <string.h>

#include "core/surface.h"
#include "geometry/containment.h"
#include "test.h"

static const int cube_faces[36] = {0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                   2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};

/* cube k of a scene: vertices 8k .. 8k+7 at lo + size * bits, faces (outward, or inward when
   flip) appended */
static void add_cube(double *x, int *faces, int k, const double lo[3], double size, int flip) {
  for (int i = 0; i < 8; ++i)
    for (int d = 0; d < 3; ++d) x[3 * (8 * k + i) + d] = lo[d] + size * ((i >> d) & 1);
  for (int f = 0; f < 12; ++f)
    for (int c = 0; c < 3; ++c)
      faces[36 * k + 3 * f + c] = 8 * k + cube_faces[3 * f + (flip ? 2 - c : c)];
}

static void test_winding(void) {
  double x[24];
  int faces[36];
  const double o[3] = {0, 0, 0};
  add_cube(x, faces, 0, o, 1.0, 0);
  const double in[3] = {0.5, 0.5, 0.5}, out[3] = {1.5, 0.5, 0.5}, near_in[3] = {0.5, 1 - 1e-9, 0.3},
               near_out[3] = {0.5, 1 + 1e-9, 0.3};
  CHECK(fabs(ipc_winding_number(x, faces, 12, in) - 1.0) < 1e-12);
  CHECK(fabs(ipc_winding_number(x, faces, 12, out)) < 1e-12);
  CHECK(fabs(ipc_winding_number(x, faces, 12, near_in) - 1.0) < 1e-6);
  CHECK(fabs(ipc_winding_number(x, faces, 12, near_out)) < 1e-6);
  add_cube(x, faces, 0, o, 1.0, 1); /* inward: -1 inside */
  CHECK(fabs(ipc_winding_number(x, faces, 12, in) + 1.0) < 1e-12);
  /* an open surface (the cube without its top) never reaches 1/2 from outside */
  CHECK(ipc_winding_number(x, faces, 10, (const double[3]){0.5, 1 + 1e-9, 0.5}) < 0.5);
}

/* bodies given per cube (body[k]); returns ipc_surface_first_containment's answer */
static int contained(int ncubes, const double (*lo)[3], const double *size, const int *flip,
                     const int *body, const unsigned char *obstacle, int *inner, int *outer) {
  double x[3 * 8 * 4];
  int faces[36 * 4], vb[32];
  unsigned char vo[32];
  for (int k = 0; k < ncubes; ++k) {
    add_cube(x, faces, k, lo[k], size[k], flip[k]);
    for (int i = 0; i < 8; ++i) {
      vb[8 * k + i] = body[k];
      vo[8 * k + i] = obstacle ? obstacle[k] : 0;
    }
  }
  ipc_surface s;
  ipcc_error err;
  CHECK(ipc_surface_build(&s, 8 * ncubes, faces, 12 * ncubes, NULL, 0, NULL, 0, vb, vo, &err) ==
        IPCC_OK);
  int r = ipc_surface_first_containment(&s, x, inner, outer);
  ipc_surface_free(&s);
  return r;
}

static void test_bodies(void) {
  const double lo[3][3] = {{0, 0, 0}, {1, 1, 1}, {5, 0, 0}};
  const double size[3] = {3, 1, 1};
  const int flip[3] = {0, 0, 0};
  int inner = -1, outer = -1;
  /* a unit cube inside a 3x cube: found, whichever order */
  CHECK(contained(2, lo, size, flip, (const int[]){0, 1}, NULL, &inner, &outer) == 1);
  CHECK(inner == 1 && outer == 0);
  /* beside it: none */
  const double lo2[2][3] = {{0, 0, 0}, {5, 0, 0}};
  CHECK(contained(2, lo2, size, flip, (const int[]){0, 1}, NULL, &inner, &outer) == 0);
  /* a hollow body (outer cube and an inward inner cube, one body) with a small cube in its
     hole: the hole is not its volume */
  const double lo3[3][3] = {{0, 0, 0}, {0.5, 0.5, 0.5}, {1.25, 1.25, 1.25}};
  const double size3[3] = {3, 2, 0.5};
  const int flip3[3] = {0, 1, 0};
  CHECK(contained(3, lo3, size3, flip3, (const int[]){0, 0, 1}, NULL, &inner, &outer) == 0);
  /* the same small cube in the material of the shell (between the two surfaces): found */
  const double lo4[3][3] = {{0, 0, 0}, {0.75, 0.75, 0.75}, {0.1, 0.1, 0.1}};
  const double size4[3] = {3, 1.5, 0.3};
  CHECK(contained(3, lo4, size4, flip3, (const int[]){0, 0, 1}, NULL, &inner, &outer) == 1);
  /* two kinematic obstacles nested: their script's doing, skipped */
  CHECK(contained(2, lo, size, flip, (const int[]){0, 1}, (const unsigned char[]){1, 1}, &inner,
                  &outer) == 0);
}

int main(void) {
  test_winding();
  test_bodies();
  TEST_MAIN_END();
}
