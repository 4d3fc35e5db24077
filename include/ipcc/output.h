/* frame output helpers: the frame formats' names, the ParaView collection of VTU frames (the
   frames themselves: ipcc_world_write_frame and the others of ipcc/world_unified.h) */
#ifndef IPCC_OUTPUT_H
#define IPCC_OUTPUT_H

#include "ipcc/error.h"
#include "ipcc/export.h"

/* frame formats from a comma list such as "obj,vtu" (names: obj, ply, vtu, pc2) into
   IPCC_FORMAT_* bits (scene.h); 0 on success, -1 for an unknown or empty name */
IPCC_API int ipcc_output_formats_parse(const char *list, unsigned *formats) IPCC_NONNULL(1, 2);

/* the ParaView collection dir/frames.pvd of the VTU frames in dir: its entries for frames
   before `frame` are kept (a resumed run rewrites the frames after its checkpoint), then
   dir/NNNNNN.vtu at simulated time `time` is added; written atomically, so ParaView opens
   the frames written so far as one animation at any moment */
IPCC_API ipcc_status ipcc_frames_pvd_add(const char *dir, int frame, double time, ipcc_error *err)
    IPCC_NONNULL(1);

#endif
