/* minimal test harness: CHECK macros count failures; main returns the count */
#ifndef IPCC_TEST_H
#define IPCC_TEST_H

#include <math.h>
#include <stdio.h>

static int test_failures = 0;
static int test_checks = 0;

#define CHECK(cond)                                                             \
  do {                                                                          \
    ++test_checks;                                                              \
    if (!(cond)) {                                                              \
      ++test_failures;                                                          \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                           \
  } while (0)

#define CHECK_MSG(cond, ...)                                               \
  do {                                                                     \
    ++test_checks;                                                         \
    if (!(cond)) {                                                         \
      ++test_failures;                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
  } while (0)

/* |a-b| <= tol * max(1, |a|, |b|) */
#define CHECK_NEAR(a, b, tol)                                                          \
  do {                                                                                 \
    double ta_ = (a), tb_ = (b);                                                       \
    double ts_ = fmax(1.0, fmax(fabs(ta_), fabs(tb_)));                                \
    ++test_checks;                                                                     \
    if (!(fabs(ta_ - tb_) <= (tol) * ts_)) {                                           \
      ++test_failures;                                                                 \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g\n", __FILE__, \
              __LINE__, #a, ta_, #b, tb_);                                             \
    }                                                                                  \
  } while (0)

#define TEST_MAIN_END()                                                           \
  do {                                                                            \
    fprintf(stderr, "%d checks, %d failed\n", test_checks, test_failures);        \
    return test_failures ? 1 : 0;                                                 \
  } while (0)

#endif
