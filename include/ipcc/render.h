/* pictures: images, cameras, PNG output (a world's preview: ipcc_render_world of
   ipcc/world_unified.h) */
#ifndef IPCC_RENDER_H
#define IPCC_RENDER_H

#include "ipcc/error.h"
#include "ipcc/export.h"

/* an RGB image, 8 bits per channel, rows top to bottom */
typedef struct ipcc_image {
  int width, height;
  unsigned char *rgb; /* (height x width x 3) */
} ipcc_image;

/* a width x height image filled with color bg (3 bytes); never NULL */
IPCC_API ipcc_image *ipcc_image_create(int width, int height, const unsigned char bg[3])
    IPCC_NONNULL(3);
/* im may be NULL */
IPCC_API void ipcc_image_destroy(ipcc_image *im);
/* writes im as an 8-bit RGB PNG, atomically (temporary file, then rename) */
IPCC_API ipcc_status ipcc_image_write_png(const ipcc_image *im, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* a pinhole camera; fov is the vertical field of view in degrees */
typedef struct ipcc_camera {
  double eye[3], target[3], up[3];
  double fov;
} ipcc_camera;

/* 1 when the eye is apart from the target by more than 1e-12 of their coordinates: a camera
   nearer than that has no direction to look in worth the name (--camera and output.camera
   refuse it) */
IPCC_API int ipcc_camera_eye_apart(const double eye[3], const double target[3]) IPCC_NONNULL(1, 2);

#endif
