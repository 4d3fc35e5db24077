/* exact orientation predicates: a floating-point filter with a proven error bound,
   and a GMP integer fallback when the filter cannot certify the sign */
#ifndef IPCC_GEOMETRY_PREDICATES_H
#define IPCC_GEOMETRY_PREDICATES_H

/* returned by the filter-only predicates when the sign is not certified */
#define IPC_ORIENT_UNSURE 2

/* exact sign of det[b-a; c-a; d-a] = ((b-a) x (c-a)) . (d-a) for finite inputs:
   +1 when the tetrahedron (a, b, c, d) has positive signed volume, i.e. d lies on the
   side of the plane abc that the normal (b-a) x (c-a) points to (a, b, c appear
   counter-clockwise seen from d); -1 on the other side; 0 when the four are coplanar.
   (this is the opposite sign of Shewchuk's orient3d.) */
int ipc_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);

/* exact sign of det[b-a; c-a] = (b-a) x (c-a) for finite inputs: +1 when a, b, c are
   counter-clockwise (c left of the directed line a->b), -1 clockwise, 0 collinear */
int ipc_orient2d(const double a[2], const double b[2], const double c[2]);

/* the filter stage alone: the certified sign of ipc_orient3d, or IPC_ORIENT_UNSURE
   (never a wrong sign). no GMP, no allocation. */
int ipc_orient3d_filter(const double a[3], const double b[3], const double c[3], const double d[3]);

/* the filter stage of ipc_orient2d alone; see ipc_orient3d_filter */
int ipc_orient2d_filter(const double a[2], const double b[2], const double c[2]);

/* the exact stage alone (always GMP); same result as ipc_orient3d, slower */
int ipc_orient3d_exact(const double a[3], const double b[3], const double c[3], const double d[3]);

/* the exact stage of ipc_orient2d alone (always GMP) */
int ipc_orient2d_exact(const double a[2], const double b[2], const double c[2]);

#endif
