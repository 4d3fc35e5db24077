/* images and PNG output (the only file that includes png.h) */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/path.h"
#include "ipcc/render.h"

ipcc_image *ipcc_image_create(int width, int height, const unsigned char bg[3]) {
  ipcc_image *im = IPC_NEW0(ipcc_image, 1);
  im->width = width;
  im->height = height;
  size_t n = (size_t)width * (size_t)height;
  im->rgb = IPC_NEW(unsigned char, 3 * n + 1);
  for (size_t i = 0; i < n; ++i) memcpy(im->rgb + 3 * i, bg, 3);
  return im;
}

void ipcc_image_destroy(ipcc_image *im) {
  if (!im) return;
  ipc_free(im->rgb);
  ipc_free(im);
}

/* libpng's errors and warnings: kept for the message instead of printed, and the errno of
   a failed write (libpng's own message, "Write Error", hides a full disk) */
typedef struct png_sink {
  FILE *f;
  int write_errno;
  char msg[160];
} png_sink;

static void png_on_error(png_structp png, png_const_charp msg) {
  png_sink *s = png_get_error_ptr(png);
  snprintf(s->msg, sizeof s->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

static void png_on_write(png_structp png, png_bytep data, size_t n) {
  png_sink *s = png_get_io_ptr(png);
  if (fwrite(data, 1, n, s->f) != n) {
    s->write_errno = errno ? errno : EIO;
    png_error(png, "write error");
  }
}

static void png_on_flush(png_structp png) {
  png_sink *s = png_get_io_ptr(png);
  if (fflush(s->f) != 0) {
    s->write_errno = errno ? errno : EIO;
    png_error(png, "write error");
  }
}

/* libpng jumps back here on error; volatile keeps rows valid across the jump */
static int write_png_file(png_sink *sink, const ipcc_image *im) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, png_on_error, png_on_warning);
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
  png_set_write_fn(png, sink, png_on_write, png_on_flush);
  png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < im->height; ++y)
    png_write_row(png, im->rgb + 3 * (size_t)y * (size_t)im->width);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 0;
}

ipcc_status ipcc_image_write_png(const ipcc_image *im, const char *path, ipcc_error *err) {
  ipc_atomic_file af;
  ipcc_status st_open = ipc_atomic_open(&af, path, err);
  if (st_open != IPCC_OK) return st_open;
  png_sink sink = {af.f, 0, "out of memory"};
  if (write_png_file(&sink, im) != 0) {
    ipc_atomic_abort(&af);
    if (sink.write_errno)
      return ipc_error_set(err, IPCC_ERR_IO, "%s: write failed: %s", path,
                           strerror(sink.write_errno));
    return ipc_error_set(err, IPCC_ERR_IO, "%s: PNG encoding failed: %s", path, sink.msg);
  }
  return ipc_atomic_commit(&af, err);
}
