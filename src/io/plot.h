/* text and line plots drawn into an ipcc_image (`ipcc plot`); internal to
   the command line (not installed) */
#ifndef IPCC_IO_PLOT_H
#define IPCC_IO_PLOT_H

#include <stddef.h>

#include "ipcc/render.h"

/* text in the built-in 5x7 bitmap font (lowercase drawn as capitals), top-left corner at
   (x, y), each font pixel scale x scale image pixels; returns the width drawn */
int ipc_image_text(ipcc_image *im, int x, int y, const char *text, const unsigned char color[3],
                   int scale);
/* width in pixels of text at scale */
int ipc_text_width(const char *text, int scale);

/* "FRAME k  T = t S" in the bottom-left corner of a preview, on a light plate (t NAN: the
   frame number only) */
void ipc_image_frame_label(ipcc_image *im, int frame, double t);

/* one line of a plot: n points (x, y); non-finite y leave a gap */
typedef struct ipc_plot_series {
  const char *label;
  const double *x, *y;
  int n;
  unsigned char color[3];
} ipc_plot_series;

/* the labels of an axis whose ticks run from lo to hi by step: one number format for all of
   them (fixed or scientific), with the digits the step needs so that neighbouring labels
   differ, relative to an offset when the values are 1e5 steps or more from zero (the offset
   is then drawn once beside the axis, as plotting libraries do) */
typedef struct ipc_axis_format {
  double offset, step;
  int scientific, digits;
} ipc_axis_format;
void ipc_axis_format_init(ipc_axis_format *f, double lo, double hi, double step);
/* the label of tick v */
void ipc_axis_format_label(const ipc_axis_format *f, double v, char *out, size_t n);
/* the offset to show ("+533.6"), or "" when there is none */
void ipc_axis_format_offset(const ipc_axis_format *f, char *out, size_t n);

/* a line plot filling im: title, axis labels, ticks with labels, a legend when there is
   more than one series; log_y plots log10 of the positive values */
void ipc_plot_lines(ipcc_image *im, const char *title, const char *xlabel, const char *ylabel,
                    const ipc_plot_series *series, int nseries, int log_y);

#endif
