/* tests for src/ipc/barrier.c: finite differences, C2 continuity at dhat^2, blow-up at 0 */
#include "ipc/barrier.h"

#include <math.h>

#include "test.h"

/* central difference of f at d with step h */
static double central(double (*f)(double, double), double d, double dh, double h) {
  return (f(d + h, dh) - f(d - h, dh)) / (2.0 * h);
}

/* wraps ipc_barrier_d1 so it has the shape of the others */
static double d1(double d, double dh) {
  return ipc_barrier_d1(d, dh);
}

static void test_finite_differences(void) {
  const double scales[] = {1e-8, 1e-3, 1.0, 1e3};
  for (int s = 0; s < 4; ++s) {
    double dh = scales[s];
    for (int i = 1; i < 40; ++i) {
      double x = i / 40.0; /* d / dh in (0, 1) */
      x = x * x * x;       /* also sample close to 0 */
      double d = x * dh;
      double h = 1e-6 * fmin(d, dh - d);
      double g = ipc_barrier_d1(d, dh), gfd = central(ipc_barrier, d, dh, h);
      double k = ipc_barrier_d2(d, dh), kfd = central(d1, d, dh, h);
      /* compare relative to the derivative scale dh (first) and 1 (second) */
      CHECK_MSG(fabs(g - gfd) <= 1e-6 * fmax(fabs(g), dh), "d1 dh=%g x=%g: %g vs %g", dh, x, g,
                gfd);
      CHECK_MSG(fabs(k - kfd) <= 1e-6 * fmax(fabs(k), 1.0), "d2 dh=%g x=%g: %g vs %g", dh, x, k,
                kfd);
    }
  }
}

static void test_c2_at_dhat(void) {
  const double scales[] = {1e-8, 1.0, 1e3};
  for (int s = 0; s < 3; ++s) {
    double dh = scales[s];
    CHECK(ipc_barrier(dh, dh) == 0.0);
    CHECK(ipc_barrier_d1(dh, dh) == 0.0);
    CHECK(ipc_barrier_d2(dh, dh) == 0.0);
    CHECK(ipc_barrier(2.0 * dh, dh) == 0.0);
    CHECK(ipc_barrier_d1(1.5 * dh, dh) == 0.0);
    CHECK(ipc_barrier_d2(1.5 * dh, dh) == 0.0);
    /* from below: b ~ e^3 dh^2, b' ~ e^2 dh (-3 sign), b'' ~ 6 e; with e = 1 - d/dh */
    for (double e = 1e-2; e > 1e-7; e *= 0.1) {
      double d = dh * (1.0 - e);
      double b = ipc_barrier(d, dh), g = ipc_barrier_d1(d, dh), k = ipc_barrier_d2(d, dh);
      CHECK_MSG(b > 0.0 && fabs(b / (dh * dh * e * e * e) - 1.0) < 5.0 * e + 1e-6, "b e=%g", e);
      CHECK_MSG(g < 0.0 && fabs(g / (-3.0 * dh * e * e) - 1.0) < 5.0 * e + 1e-6, "b' e=%g", e);
      CHECK_MSG(k > 0.0 && fabs(k / (6.0 * e) - 1.0) < 5.0 * e + 1e-6, "b'' e=%g", e);
    }
  }
}

static void test_blow_up_and_sign(void) {
  double dh = 1e-4;
  CHECK(isinf(ipc_barrier(0.0, dh)) && ipc_barrier(0.0, dh) > 0.0);
  CHECK(isinf(ipc_barrier(-1e-9, dh)) && ipc_barrier(-1e-9, dh) > 0.0);
  CHECK(isinf(ipc_barrier_d1(0.0, dh)) && ipc_barrier_d1(0.0, dh) < 0.0);
  CHECK(isinf(ipc_barrier_d2(0.0, dh)) && ipc_barrier_d2(0.0, dh) > 0.0);
  /* strictly decreasing toward dh and unbounded toward 0 */
  double prev = 0.0;
  for (int k = 1; k <= 300; ++k) {
    double d = dh * pow(10.0, -0.1 * k);
    double b = ipc_barrier(d, dh);
    CHECK_MSG(isfinite(b) && b > prev, "monotone at d=%g", d);
    prev = b;
  }
  CHECK(prev > 60.0 * dh * dh); /* ~ dh^2 ln(1e30) = 69 dh^2 at d = 1e-30 dh */
  for (int i = 1; i < 1000; ++i) {
    double d = dh * i / 1000.0;
    CHECK(ipc_barrier(d, dh) > 0.0);
    CHECK(ipc_barrier_d1(d, dh) < 0.0);
    CHECK(ipc_barrier_d2(d, dh) > 0.0);
  }
}

int main(void) {
  test_finite_differences();
  test_c2_at_dhat();
  test_blow_up_and_sign();
  TEST_MAIN_END();
}
