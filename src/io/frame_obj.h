/* the OBJ writer of frame_obj.c, for the other writers that need an OBJ of a model (the
   PC2 cache's rest shape, frame_pc2.c) */
#ifndef IPCC_IO_FRAME_OBJ_H
#define IPCC_IO_FRAME_OBJ_H

#include "core/model.h"

/* model m at positions xs (nverts x 3) as an OBJ file, written atomically: the first line
   "# comment", then one named object per body ("# ipcc obstacle" after an obstacle's name)
   with its surface vertices in the frames' numbering (io/frame_numbering.h), triangles,
   segments, or points. With normals (nverts x 3, any length; NULL: none) each vertex also
   gets a unit "vn" (0 0 1 where the normal is zero) and faces are written "f a//a b//b c//c" */
ipcc_status ipc_obj_write_model(const ipc_model *m, const double *xs, const double *normals,
                                const char *comment, const char *path, ipcc_error *err);

#endif
