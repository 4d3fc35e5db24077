/* the renderer over a model and positions, for `ipcc render`, which draws the frames of a
   run without a world (render.h draws a world's current state) */
#ifndef IPCC_IO_RENDER_MODEL_H
#define IPCC_IO_RENDER_MODEL_H

#include "core/model.h"
#include "ipcc/render.h"

/* as ipc_world_default_camera, from the model alone */
ipcc_camera ipc_model_camera(const ipc_model *m);

/* the box (lo, hi: 6 numbers) of the moving bodies' vertices at x (all vertices when the
   model has only obstacles) */
void ipc_model_dynamic_box(const ipc_model *m, const double *x, double box[6]);

/* the default camera framing every box of boxes (nboxes x 6, e.g. one per frame of a run:
   bodies that travel stay in the picture), with their shadows on the floor planes; the
   scene's own camera when it has one */
ipcc_camera ipc_model_camera_boxes(const ipc_model *m, const double *boxes, int nboxes);

/* as ipc_world_follow_camera, with the vertices of m at x */
ipcc_camera ipc_model_follow_camera(const ipc_model *m, const double *x);

/* as ipc_render_world, with the vertices of m at pos (m->nverts x 3) */
void ipc_render_model(ipcc_image *im, const ipc_model *m, const double *pos,
                      const ipcc_camera *cam);

#endif
