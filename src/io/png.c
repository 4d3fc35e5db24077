/* images and PNG output (the only file that includes png.h) */
#include <png.h>
#include <setjmp.h>
#include <string.h>

#include "core/alloc.h"
#include "io/path.h"
#include "ipcc/render.h"

ipc_image *ipc_image_create(int width, int height, const unsigned char bg[3]) {
  ipc_image *im = IPC_NEW0(ipc_image, 1);
  im->width = width;
  im->height = height;
  size_t n = (size_t)width * (size_t)height;
  im->rgb = IPC_NEW(unsigned char, 3 * n + 1);
  for (size_t i = 0; i < n; ++i) memcpy(im->rgb + 3 * i, bg, 3);
  return im;
}

void ipc_image_destroy(ipc_image *im) {
  if (!im) return;
  ipc_free(im->rgb);
  ipc_free(im);
}

/* libpng jumps back here on error; volatile keeps rows valid across the jump */
static int write_png_file(FILE *f, const ipc_image *im) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  if (!png) return -1;
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return -1;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < im->height; ++y)
    png_write_row(png, im->rgb + 3 * (size_t)y * (size_t)im->width);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 0;
}

ipc_status ipc_image_write_png(const ipc_image *im, const char *path, ipc_error *err) {
  ipc_atomic_file af;
  if (ipc_atomic_open(&af, path, err) != 0) return IPC_ERR_INPUT;
  if (write_png_file(af.f, im) != 0) {
    ipc_atomic_abort(&af);
    return ipc_error_set(err, IPC_ERR_INPUT, "%s: PNG encoding failed", path);
  }
  return ipc_atomic_commit(&af, err) == 0 ? IPC_OK : IPC_ERR_INPUT;
}
