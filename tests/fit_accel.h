/* least-squares fit of a uniformly accelerated motion, shared by the sliding-block tests
   (tests/test_friction_world.c, tests/test_affine_physics.c) */
#ifndef IPCC_TESTS_FIT_ACCEL_H
#define IPCC_TESTS_FIT_ACCEL_H

/* least-squares a + b t + c t^2 through (t, s); returns the acceleration 2c */
static inline double fit_accel(const double *t, const double *s, int n) {
  double S[3][4] = {{0}};
  for (int k = 0; k < n; ++k) {
    double f[3] = {1, t[k], t[k] * t[k]};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) S[i][j] += f[i] * f[j];
      S[i][3] += f[i] * s[k];
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      double r = S[j][i] / S[i][i];
      for (int k = 0; k < 4; ++k) S[j][k] -= r * S[i][k];
    }
  double x[3];
  for (int i = 2; i >= 0; --i) {
    x[i] = S[i][3];
    for (int k = i + 1; k < 3; ++k) x[i] -= S[i][k] * x[k];
    x[i] /= S[i][i];
  }
  return 2 * x[2];
}

#endif
