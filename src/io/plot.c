/* line plots for run statistics: axes with "nice" ticks (1, 2, 5 times a power of ten, or
   powers of ten on a log axis), grid, labels in the built-in bitmap font, a legend */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/plot.h"

static const unsigned char ink[3] = {40, 40, 48}, grid[3] = {226, 228, 232},
                           axis[3] = {120, 120, 130};

static void put_px(ipcc_image *im, int x, int y, const unsigned char c[3]) {
  if (x < 0 || y < 0 || x >= im->width || y >= im->height) return;
  memcpy(im->rgb + 3 * ((size_t)y * (size_t)im->width + (size_t)x), c, 3);
}

static void hline(ipcc_image *im, int x0, int x1, int y, const unsigned char c[3]) {
  for (int x = x0; x <= x1; ++x) put_px(im, x, y, c);
}
static void vline(ipcc_image *im, int x, int y0, int y1, const unsigned char c[3]) {
  for (int y = y0; y <= y1; ++y) put_px(im, x, y, c);
}

/* a 2-pixel-wide line (Bresenham, doubled) */
static void line(ipcc_image *im, int x0, int y0, int x1, int y1, const unsigned char c[3]) {
  int dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = y1 > y0 ? y0 - y1 : y1 - y0;
  int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;
  for (;;) {
    put_px(im, x0, y0, c);
    put_px(im, x0 + 1, y0, c);
    put_px(im, x0, y0 + 1, c);
    if (x0 == x1 && y0 == y1) break;
    int e2 = 2 * e;
    if (e2 >= dy) {
      e += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      e += dx;
      y0 += sy;
    }
  }
}

/* tick spacing: 1, 2 or 5 times a power of ten, about n ticks over range */
static double nice_step(double range, int n) {
  double raw = range / n, p = pow(10.0, floor(log10(raw))), f = raw / p;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

void ipc_axis_format_init(ipc_axis_format *f, double lo, double hi, double step) {
  double big = fmax(fabs(lo), fabs(hi));
  f->offset = 0;
  f->step = step;
  /* ticks far apart from zero in units of their step (an energy of 533.6 drifting by 1e-4):
     labels relative to an offset, shown once by the axis, as plotting libraries do */
  if (big / step >= 1e5) { /* the middle, rounded to a power of ten above the range */
    double unit = pow(10.0, ceil(log10(hi - lo > step ? hi - lo : step)) + 1);
    f->offset = round(0.5 * (lo + hi) / unit) * unit;
    big = fmax(fabs(lo - f->offset), fabs(hi - f->offset));
  }
  /* one format for the axis, with the digits the step needs so neighbours differ */
  int last = (int)floor(log10(step) + 1e-9); /* the step's leading decimal position */
  if (big >= 1e5 || (big < 1e-3 && big > 0)) {
    f->scientific = 1;
    int first = (int)floor(log10(big));
    f->digits = first - last > 0 ? first - last : 0; /* decimals of the mantissa */
    if (f->digits > 6) f->digits = 6;
  } else {
    f->scientific = 0;
    f->digits = last < 0 ? -last : 0;
    if (f->digits > 9) f->digits = 9;
  }
}

void ipc_axis_format_label(const ipc_axis_format *f, double v, char *out, size_t n) {
  v -= f->offset;
  if (fabs(v) < 1e-6 * f->step) v = 0; /* the rounding of the offset or of the tick sum */
  if (f->scientific && v == 0)
    snprintf(out, n, "0");
  else if (f->scientific)
    snprintf(out, n, "%.*e", f->digits, v);
  else
    snprintf(out, n, "%.*f", f->digits, v);
}

void ipc_axis_format_offset(const ipc_axis_format *f, char *out, size_t n) {
  if (f->offset == 0)
    out[0] = '\0';
  else
    snprintf(out, n, "%+.10g", f->offset);
}

/* the range of finite values (log: of log10 of positive values); 0 if none */
static int value_range(const ipc_plot_series *s, int ns, int use_y, int log_y, double *lo,
                       double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int k = 0; k < ns; ++k)
    for (int i = 0; i < s[k].n; ++i) {
      double v = use_y ? s[k].y[i] : s[k].x[i];
      if (use_y && log_y) v = v > 0 ? log10(v) : NAN;
      if (!isfinite(v)) continue;
      *lo = fmin(*lo, v);
      *hi = fmax(*hi, v);
    }
  if (!(*lo <= *hi)) return 0;
  if (*hi - *lo < 1e-12 * fmax(1.0, fabs(*hi))) { /* flat: widen */
    double pad = fabs(*hi) > 0 ? 0.1 * fabs(*hi) : 1.0;
    *lo -= pad;
    *hi += pad;
  }
  return 1;
}

void ipc_plot_lines(ipcc_image *im, const char *title, const char *xlabel, const char *ylabel,
                    const ipc_plot_series *series, int nseries, int log_y) {
  const int left = 86, right = im->width - 24, top = 46, bottom = im->height - 48;
  ipc_image_text(im, (im->width - ipc_text_width(title, 2)) / 2, 12, title, ink, 2);
  ipc_image_text(im, (left + right - ipc_text_width(xlabel, 1)) / 2, im->height - 18, xlabel, ink,
                 1);
  ipc_image_text(im, 8, top - 16, ylabel, ink, 1);
  double x0, x1, y0, y1;
  if (!value_range(series, nseries, 0, 0, &x0, &x1) ||
      !value_range(series, nseries, 1, log_y, &y0, &y1)) {
    ipc_image_text(im, left + 20, (top + bottom) / 2, "NO DATA", axis, 2);
    return;
  }
  /* y: snap the range to ticks */
  double ys = log_y ? fmax(1.0, ceil((y1 - y0) / 6)) : nice_step(y1 - y0, 5);
  y0 = floor(y0 / ys) * ys;
  y1 = ceil(y1 / ys) * ys;
  if (y1 <= y0) y1 = y0 + ys;
  double xs = nice_step(x1 - x0, 6);
  ipc_axis_format yf, xf;
  ipc_axis_format_init(&yf, y0, y1, ys);
  ipc_axis_format_init(&xf, ceil(x0 / xs) * xs, x1, xs);
#define PX(v) (left + (int)lround(((v)-x0) / (x1 - x0) * (right - left)))
#define PY(v) (bottom - (int)lround(((v)-y0) / (y1 - y0) * (bottom - top)))
  char lab[32];
  for (double t = y0; t <= y1 + 1e-9 * ys; t += ys) {
    int py = PY(t);
    hline(im, left, right, py, grid);
    if (log_y)
      snprintf(lab, sizeof lab, "1E%d", (int)lround(t));
    else
      ipc_axis_format_label(&yf, t, lab, sizeof lab);
    ipc_image_text(im, left - 8 - ipc_text_width(lab, 1), py - 3, lab, ink, 1);
  }
  if (!log_y) { /* the offset of the labels, after the axis title */
    ipc_axis_format_offset(&yf, lab, sizeof lab);
    if (lab[0]) ipc_image_text(im, 8 + ipc_text_width(ylabel, 1) + 12, top - 16, lab, ink, 1);
  }
  for (double t = ceil(x0 / xs) * xs; t <= x1 + 1e-9 * xs; t += xs) {
    int px = PX(t);
    vline(im, px, top, bottom, grid);
    vline(im, px, bottom, bottom + 4, axis);
    ipc_axis_format_label(&xf, t, lab, sizeof lab);
    ipc_image_text(im, px - ipc_text_width(lab, 1) / 2, bottom + 9, lab, ink, 1);
  }
  ipc_axis_format_offset(&xf, lab, sizeof lab);
  if (lab[0]) ipc_image_text(im, right - ipc_text_width(lab, 1), bottom + 22, lab, ink, 1);
  hline(im, left, right, bottom, axis);
  vline(im, left, top, bottom, axis);
  for (int k = 0; k < nseries; ++k) {
    const ipc_plot_series *s = &series[k];
    int have = 0, px = 0, py = 0;
    for (int i = 0; i < s->n; ++i) {
      double v = s->y[i];
      if (log_y) v = v > 0 ? log10(v) : NAN;
      if (!isfinite(v) || !isfinite(s->x[i])) {
        have = 0;
        continue;
      }
      int qx = PX(s->x[i]), qy = PY(v);
      if (have)
        line(im, px, py, qx, qy, s->color);
      else
        put_px(im, qx, qy, s->color);
      px = qx;
      py = qy;
      have = 1;
    }
  }
#undef PX
#undef PY
  if (nseries > 1) { /* legend, top right */
    int w = 0;
    for (int k = 0; k < nseries; ++k) {
      int tw = ipc_text_width(series[k].label, 1);
      w = tw > w ? tw : w;
    }
    int lx = right - w - 34, ly = top + 8;
    for (int k = 0; k < nseries; ++k, ly += 14) {
      for (int d = 0; d < 3; ++d)
        hline(im, lx, lx + 18, ly + 3 + (d == 2 ? 0 : d), series[k].color);
      ipc_image_text(im, lx + 24, ly, series[k].label, ink, 1);
    }
  }
}
