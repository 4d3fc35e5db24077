/* 3-vectors as double[3]: the few operations the geometry, friction and contact code share
   (output first) */
#ifndef IPCC_CORE_VEC3_H
#define IPCC_CORE_VEC3_H

#include <math.h>

static inline double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* r = a - b */
static inline void sub3(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}

/* r = a x b; r must not alias a or b */
static inline void cross3(double r[3], const double a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

/* scales a to unit length unless it is zero; returns its length before */
static inline double normalize3(double a[3]) {
  double l = sqrt(dot3(a, a));
  if (l > 0)
    for (int d = 0; d < 3; ++d) a[d] /= l;
  return l;
}

#endif
