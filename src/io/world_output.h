/* the outputs of a world (core/world.h), whichever its contact model: frames in each format,
   cameras and previews. The functions of both handles (ipc/world.h,
   lcp/lcp_world.h) call these (src/ipc/world_api.c) */
#ifndef IPCC_IO_WORLD_OUTPUT_H
#define IPCC_IO_WORLD_OUTPUT_H

#include "core/world.h"
#include "io/frame_vtu.h"
#include "ipcc/render.h"

/* (ipcc_world_write_obj, _ply, _vtu, _pc2, _frame, _default_camera, _follow_camera and
   ipcc_render_world: ipcc/world_unified.h) */
/* ipcc_world_write_vtu with the given encoding */
ipcc_status ipcc_world_write_vtu_encoded(const ipcc_world *w, const char *path,
                                         ipc_vtu_encoding enc, ipcc_error *err);

#endif
