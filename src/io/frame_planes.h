/* the analytic planes as frame geometry (`ipcc run --write-planes`, output.planes):
   frames/planes.obj, squares a renderer can show as the ground */
#ifndef IPCC_IO_FRAME_PLANES_H
#define IPCC_IO_FRAME_PLANES_H

#include "ipcc/error.h"

#define IPC_PLANES_FILE "planes.obj"

/* writes dir/planes.obj (atomically): plane k (point points[3k], unit normal normals[3k]) as
   object "plane_k", a square of two triangles in the plane, counter-clockwise seen from the
   allowed side, with its normal as "vn". The squares cover box, the bounding box of the
   nverts positions x united, for frame > 0, with the box recorded in the dir/planes.obj
   written before (a line "# box lo_x lo_y lo_z hi_x hi_y hi_z"), plus a margin of half its
   diagonal: rewritten at every frame, the file covers every frame so far. */
ipcc_status ipc_planes_write_obj(const char *dir, int frame, int nplanes, const double *points,
                                 const double *normals, const double *x, int nverts,
                                 ipcc_error *err);

#endif
