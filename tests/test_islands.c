/* the line search per contact island (src/ipc/islands.c, newton.c; issue 13):
   - islands from candidate pairs: touching bodies share one, apart bodies and bodies that
     only meet a non-moving one (an obstacle, a frozen body) do not; lagged friction pairs
     join too; `single` makes one island of every moving body
   - two bodies carried along together share an island: their candidates come from boxes
     swept in world coordinates, not in the bodies' common moving frame
   - a scene of apart groups (an affine cube dropping on another resting on the ground, a
     free affine cube, a soft cube sliding on the ground) run with newton.line_search
     "islands" and "global": the same motion within the Newton tolerance, intersection-free at
     every step, and no more Newton iterations with islands
   - the same with deformable bodies only (two soft cubes, one dropping on the other, beside
     a third falling alone)
   - bodies gliding slower than the Newton tolerance's speed keep gliding with every line
     search: an island takes its last step within the tolerance, as the global search does */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc/islands.h"
#include "ipc/newton_internal.h"
#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "scene_text.h"
#include "test.h"

/* the line search of a run: per island, global, global with per-body freezing, per island with
   per-body freezing */
enum { ISLANDS, GLOBAL, FREEZING, ISLANDS_FREEZING };
static const char *const mode_name[] = {"islands", "global", "global, body freezing",
                                        "islands, body freezing"};

/* the world of a loaded scene (freed here) with the line search of mode; the scene asks for
   the global line search without freezing */
static ipc_world *world_in_mode(ipcc_scene_def *def, int mode) {
  ipcc_error err;
  CHECK(def->island_line_search == 0 && def->body_freezing == 0);
  def->island_line_search = mode == ISLANDS || mode == ISLANDS_FREEZING;
  def->body_freezing = mode == FREEZING || mode == ISLANDS_FREEZING;
  ipc_world *w = ipc_world_create(def, &err);
  CHECK_MSG(w != NULL, "world: %s", err.msg);
  ipcc_scene_def_free(def);
  return w;
}

static ipc_world *make_world(const char *json, int mode) {
  ipcc_scene_def def;
  ipcc_error err;
  if (scene_text_load(json, &def, &err) != IPCC_OK) {
    CHECK_MSG(0, "scene: %s", err.msg);
    return NULL;
  }
  return world_in_mode(&def, mode);
}

/* four unit cubes (the mesh spans [0, 1] in y): b0 resting 1 mm above the ground, b1 1 cm
   above b0, b2 and b3 far to the sides */
static const char *four_cubes =
    "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, -9.80665, 0],"
    " \"bodies\": [{\"mesh\": \"@CUBE@\", \"translation\": [0, 0.001, 0], \"affine\": true,"
    " \"friction\": 0.5},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [0.3, 1.011, 0.2], \"rotation\": [0, 15, 0],"
    " \"affine\": true, \"friction\": 0.5},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [5, 0.5, 0], \"affine\": true},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [-5, 0.001, 0], \"velocity\": [1, 0, 0],"
    " \"material\": {\"young\": 1e6}, \"friction\": 0.2}],"
    " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0], \"friction\": 0.5}]}";

static void test_build(void) {
  ipc_world *w = make_world(four_cubes, GLOBAL);
  if (!w) return;
  const ipc_model *m = &w->m;
  CHECK(m->nbodies == 4);
  unsigned char *moving = malloc((size_t)m->nverts);
  memset(moving, 1, (size_t)m->nverts);
  ipc_candidates cand = {0};
  /* pairs within 2 cm: b0 and b1 only (the plane is not a candidate pair) */
  ipc_broad_phase(&cand, &m->surface, w->s.x, NULL, 0.02);
  CHECK(cand.nvf + cand.nee > 0);
  ipc_islands is = {0};
  ipc_islands_build(&is, m, moving, &cand, NULL, NULL, 0, 0);
  CHECK(is.n == 3);
  CHECK(is.body[0] == 0 && is.body[1] == 0 && is.body[2] == 1 && is.body[3] == 2);
  int ok = 1;
  for (int i = 0; i < m->nverts; ++i) ok &= is.vert[i] == is.body[m->surface.vert_body[i]];
  CHECK(ok);
  /* one island for everything */
  ipc_islands_build(&is, m, moving, &cand, NULL, NULL, 0, 1);
  CHECK(is.n == 1 && is.body[0] == 0 && is.body[1] == 0 && is.body[2] == 0 && is.body[3] == 0);
  /* b0 does not move (a frozen body): b1 meets nothing that moves, b0 has no island */
  const ipc_body *b0 = &m->bodies[0];
  memset(moving + b0->v0, 0, (size_t)b0->nv);
  ipc_islands_build(&is, m, moving, &cand, NULL, NULL, 0, 0);
  CHECK(is.n == 3 && is.body[0] == -1 && is.body[1] == 0 && is.body[2] == 1 && is.body[3] == 2);
  CHECK(is.vert[b0->v0] == -1);
  int v1[4] = {b0->v0, m->bodies[1].v0, b0->v0 + 1, b0->v0 + 2};
  CHECK(ipc_islands_of(is.vert, v1, 4, 99) == 0);
  CHECK(ipc_islands_of(is.vert, v1, 1, 99) == 99);
  /* a lagged friction pair between b2 and b3 joins them */
  memset(moving, 1, (size_t)m->nverts);
  ipc_friction fric;
  memset(&fric, 0, sizeof fric);
  ipc_friction_contact fc;
  memset(&fc, 0, sizeof fc);
  fc.nv = 2;
  fc.v[0] = m->bodies[2].v0;
  fc.v[1] = m->bodies[3].v0;
  fric.c = &fc;
  fric.n = 1;
  ipc_islands_build(&is, m, moving, &cand, &fric, NULL, 0, 0);
  CHECK(is.n == 2 && is.body[0] == 0 && is.body[1] == 0 && is.body[2] == 1 && is.body[3] == 1);
  ipc_islands_free(&is);
  ipc_islands_free(&is); /* freed twice: a no-op */
  ipc_candidates_free(&cand);
  free(moving);
  ipc_world_destroy(w);
}

/* two affine cubes, one 1 cm above the other, falling together by 3 m: in their common moving frame
   they never meet (the body-by-body broad phase of ipc_broad_phase_passive lists no pair of
   them), but islands take their own step lengths, so the island line search must put them in
   one island: ipc_broad_phase_body_pairs pairs the bodies whose boxes swept in world coordinates
   meet, a superset of the bodies of the pairs ipc_broad_phase_independent finds (without it the
   1,000-ellipsoid pour with "islands" ran bodies into each other from step 40) */
static const char *two_carried =
    "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, -9.80665, 0],"
    " \"bodies\": [{\"mesh\": \"@CUBE@\", \"translation\": [0, 0.001, 0], \"affine\": true},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [0.3, 1.011, 0.2], \"rotation\": [0, 15, 0],"
    " \"affine\": true}]}";

static void test_carried_together(void) {
  ipc_world *w = make_world(two_carried, ISLANDS);
  if (!w) return;
  const ipc_model *m = &w->m;
  size_t n3 = 3 * (size_t)m->nverts;
  double *x1 = malloc(n3 * sizeof(double));
  for (size_t i = 0; i < n3; ++i) x1[i] = w->s.x[i] - (i % 3 == 1 ? 3.0 : 0.0); /* both fall 3 m */
  unsigned char *moving = malloc((size_t)m->nverts);
  memset(moving, 1, (size_t)m->nverts);
  ipc_candidates frame = {0}, world = {0};
  ipc_islands is = {0};
  ipc_broad_phase_passive(&frame, &m->surface, w->s.x, x1, 1e-3, NULL, NULL);
  CHECK_MSG(frame.nvf + frame.nee == 0, "%zu pairs in the moving frame", frame.nvf + frame.nee);
  ipc_islands_build(&is, m, moving, &frame, NULL, NULL, 0, 0);
  CHECK(is.n == 2 && is.body[0] != is.body[1]);
  ipc_broad_phase_independent(&world, &m->surface, w->s.x, x1, 1e-3, NULL, NULL);
  CHECK_MSG(world.nvf + world.nee > 0, "no pair of boxes swept in world coordinates");
  ipc_islands_build(&is, m, moving, &world, NULL, NULL, 0, 0);
  CHECK(is.n == 1 && is.body[0] == 0 && is.body[1] == 0);
  /* the body pairs join them with the frame's (empty) candidates */
  int *bp = NULL;
  size_t cap = 0;
  size_t nbp =
      ipc_broad_phase_body_pairs(&frame, &m->surface, w->s.x, x1, 1e-3, NULL, NULL, &bp, &cap);
  CHECK(nbp == 1 && bp[0] == 0 && bp[1] == 1);
  ipc_islands_build(&is, m, moving, &frame, NULL, bp, nbp, 0);
  CHECK(is.n == 1 && is.body[0] == 0 && is.body[1] == 0);
  /* both still (x1 NULL): 1 cm apart, paired within 2 cm, not within 5 mm; both passive: none */
  CHECK(ipc_broad_phase_body_pairs(&frame, &m->surface, w->s.x, NULL, 0.02, NULL, NULL, &bp,
                                   &cap) == 1);
  CHECK(ipc_broad_phase_body_pairs(&frame, &m->surface, w->s.x, NULL, 0.005, NULL, NULL, &bp,
                                   &cap) == 0);
  unsigned char *all = malloc((size_t)m->nverts);
  memset(all, 1, (size_t)m->nverts);
  CHECK(ipc_broad_phase_body_pairs(&frame, &m->surface, w->s.x, x1, 1e-3, NULL, all, &bp, &cap) ==
        0);
  /* a grown vertex grows its body's box: 4.6 mm and half the 1 mm on each side close the gap */
  double *grow = calloc((size_t)m->nverts, sizeof(double));
  for (int i = 0; i < m->nverts; ++i) grow[i] = 0.0046;
  CHECK(ipc_broad_phase_body_pairs(&frame, &m->surface, w->s.x, NULL, 1e-3, grow, NULL, &bp,
                                   &cap) == 1);
  free(grow);
  free(all);
  free(bp);
  ipc_islands_free(&is);
  ipc_candidates_free(&frame);
  ipc_candidates_free(&world);
  free(moving);
  free(x1);
  ipc_world_destroy(w);
}

/* the same two cubes 0.3 m above the ground, 1 cm apart, landing: at the step the lower one
   meets the ground both fall 2.4 cm along one Newton direction, so in their common frame they do
   not move, while the ground cuts the lower one's step; in two islands the upper one would
   take the whole step into it */
static const char *two_landing =
    "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, -9.80665, 0],"
    " \"bodies\": [{\"mesh\": \"@CUBE@\", \"translation\": [0, 0.3, 0], \"affine\": true},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [0.3, 1.31, 0.2], \"rotation\": [0, 15, 0],"
    " \"affine\": true}],"
    " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0], \"friction\": 0.5}]}";

typedef struct run_result {
  int ok, iterations, frozen; /* Newton iterations, those with frozen bodies */
  long holds;                 /* bodies held by per-body freezing inside islands */
  double *x;                  /* final positions */
} run_result;

static run_result run(const char *json, int mode, int steps) {
  run_result r = {0, 0, 0, 0, NULL};
  ipc_world *w = make_world(json, mode);
  if (!w) return r;
  r.ok = 1;
  w->solver->verify_next = 1;
  for (int k = 0; k < steps && r.ok; ++k) {
    ipcc_step_stats st;
    ipcc_error err;
    char what[256];
    if (ipc_world_step(w, &st, &err) != IPCC_OK) {
      CHECK_MSG(0, "%s step %d: %s", mode_name[mode], k + 1, err.msg);
      r.ok = 0;
    } else if (!ipc_world_intersection_free(w, what, sizeof what)) {
      CHECK_MSG(0, "%s step %d intersects: %s", mode_name[mode], k + 1, what);
      r.ok = 0;
    }
    CHECK_MSG(!st.newton_capped, "%s step %d: Newton capped or stuck", mode_name[mode], k + 1);
    CHECK(st.frozen_iterations >= 0 && st.frozen_iterations <= st.newton_iterations);
    r.iterations += st.newton_iterations;
    r.frozen += st.frozen_iterations;
  }
  r.holds = w->solver ? w->solver->holds : 0;
  CHECK_MSG(w->solver->next_missing == 0,
            "%s: %ld contacts missing from %ld iterations from the accepted point's",
            mode_name[mode], w->solver->next_missing, w->solver->next_checked);
  size_t n = 3 * (size_t)w->m.nverts;
  r.x = malloc(n * sizeof(double));
  memcpy(r.x, w->s.x, n * sizeof(double));
  ipc_world_destroy(w);
  return r;
}

/* the scene with newton.tolerance set (the text ends in the planes entry and a closing '}') */
static char *with_tolerance(const char *json, double tol) {
  size_t n = strlen(json);
  char *t = malloc(n + 64);
  memcpy(t, json, n - 1);
  snprintf(t + n - 1, 64, ", \"newton\": {\"tolerance\": %g}}", tol);
  return t;
}

/* two line searches (modes a and b) on one scene at newton.tolerance tol: the largest vertex
   distance between the two runs (into *d), the tolerance as a distance per step, and each
   run's Newton iterations and those with frozen bodies */
static int compare_at(const char *name, const char *json, double tol, int steps, int mode_a,
                      int mode_b, double *d, double *tol_dist, run_result *ra, run_result *rb) {
  char *t = with_tolerance(json, tol);
  ipc_world *w = make_world(t, GLOBAL);
  if (!w) {
    free(t);
    return 0;
  }
  *tol_dist = w->m.params.newton_tol * w->m.bbox_diag * w->h;
  int nv = w->m.nverts;
  ipc_world_destroy(w);
  run_result a = run(t, mode_a, steps), b = run(t, mode_b, steps);
  free(t);
  int ok = a.ok && b.ok;
  if (ok) {
    *d = 0;
    for (int i = 0; i < 3 * nv; ++i) *d = fmax(*d, fabs(a.x[i] - b.x[i]));
    fprintf(stderr,
            "%s, tolerance %g: %d steps, Newton iterations %s %d (%d with frozen bodies), %s %d "
            "(%d), largest difference %.3g m = %.3g x the tolerance as a distance %.3g m\n",
            name, tol, steps, mode_name[mode_a], a.iterations, a.frozen, mode_name[mode_b],
            b.iterations, b.frozen, *d, *d / *tol_dist, *tol_dist);
  }
  free(a.x);
  free(b.x);
  a.x = b.x = NULL;
  *ra = a;
  *rb = b;
  return ok;
}

/* two line searches converge to the same answer: at IPC's tolerance (1e-2) the runs stay
   within the Newton tolerance accumulated over the steps, and at a hundred times tighter a
   tolerance their difference shrinks at least tenfold, to within two tolerances. Returns 1 when
   both ran */
static int agree(const char *name, const char *json, int steps, int mode_a, int mode_b,
                 run_result r[2][2]) {
  double d1, t1, d2, t2;
  if (!compare_at(name, json, 1e-2, steps, mode_a, mode_b, &d1, &t1, &r[0][0], &r[0][1]) ||
      !compare_at(name, json, 1e-4, steps, mode_a, mode_b, &d2, &t2, &r[1][0], &r[1][1]))
    return 0;
  CHECK_MSG(d1 <= steps * t1, "%s: runs differ by %g tolerances", name, d1 / t1);
  CHECK_MSG(d2 <= 0.1 * d1, "%s: the difference %g at 1e-4 is not a tenth of %g at 1e-2", name, d2,
            d1);
  /* and at the tight tolerance within two tolerances (as distances per step) over all the steps:
     both take each step's last direction, so what one leaves is of second order (islands that
     stopped within the tolerance without their last step were 7-9 tolerances apart) */
  CHECK_MSG(d2 <= 2 * t2, "%s: runs at 1e-4 differ by %g tolerances", name, d2 / t2);
  CHECK(d1 > 0); /* the two line searches took different paths */
  return 1;
}

/* islands against the global line search: islands take at most about as many iterations (the
   global search's first step length follows IPC's, CFL bound included); the global search
   freezes nothing */
static void compare(const char *name, const char *json, int steps) {
  run_result r[2][2];
  if (!agree(name, json, steps, ISLANDS, GLOBAL, r)) return;
  for (int k = 0; k < 2; ++k) {
    CHECK(10 * r[k][0].iterations <= 11 * r[k][1].iterations);
    CHECK(r[k][1].frozen == 0);
  }
}

/* per-body freezing against the global line search without it: the same answer, with
   iterations over part of the bodies at both tolerances */
static void compare_freezing(const char *name, const char *json, int steps) {
  run_result r[2][2];
  if (!agree(name, json, steps, FREEZING, GLOBAL, r)) return;
  for (int k = 0; k < 2; ++k) CHECK_MSG(r[k][0].frozen > 0, "%s: nothing frozen", name);
}

/* per-body freezing inside the island line search against the global line search: the same
   answer; with held, bodies were held at both tolerances */
static void compare_islands_freezing(const char *name, const char *json, int steps, int held) {
  run_result r[2][2];
  if (!agree(name, json, steps, ISLANDS_FREEZING, GLOBAL, r)) return;
  for (int k = 0; k < 2 && held; ++k) CHECK_MSG(r[k][0].holds > 0, "%s: no body held", name);
}

/* two_landing with the island line search, every step intersection-free (run checks), the
   upper cube resting on the lower one at the end */
static void test_carried_landing(void) {
  run_result r = run(two_landing, ISLANDS, 50);
  if (!r.ok) return;
  ipc_world *w = make_world(two_landing, ISLANDS);
  if (w) {
    const ipc_body *b0 = &w->m.bodies[0], *b1 = &w->m.bodies[1];
    double top0 = -INFINITY, low1 = INFINITY, low0 = INFINITY;
    for (int i = 0; i < b0->nv; ++i) {
      top0 = fmax(top0, r.x[3 * (size_t)(b0->v0 + i) + 1]);
      low0 = fmin(low0, r.x[3 * (size_t)(b0->v0 + i) + 1]);
    }
    for (int i = 0; i < b1->nv; ++i) low1 = fmin(low1, r.x[3 * (size_t)(b1->v0 + i) + 1]);
    /* resting within dhat: on the ground, and the upper cube on the lower one */
    CHECK_MSG(low0 > 0.0 && low0 < w->dhat, "lower cube's bottom at %g m (dhat %g)", low0, w->dhat);
    CHECK_MSG(low1 > top0 && low1 - top0 < w->dhat,
              "upper cube's bottom %g m above the lower's top (dhat %g)", low1 - top0, w->dhat);
    ipc_world_destroy(w);
  }
  free(r.x);
}

/* every pair of primitives of two bodies that boxes swept in world coordinates list
   (ipc_broad_phase_independent) has its bodies among ipc_broad_phase_body_pairs' pairs: the
   four cubes moved each its own way, at several inflations */
static void test_body_pairs_cover(void) {
  ipc_world *w = make_world(four_cubes, ISLANDS);
  if (!w) return;
  const ipc_model *m = &w->m;
  const ipc_surface *sf = &m->surface;
  size_t n3 = 3 * (size_t)m->nverts;
  double *x1 = malloc(n3 * sizeof(double));
  const double move[4][3] = {{0.1, -0.3, 0}, {-0.2, -0.9, 0.1}, {-2.4, 0.3, 0}, {2.2, 0, 0.05}};
  for (int v = 0; v < m->nverts; ++v)
    for (int d = 0; d < 3; ++d) x1[3 * v + d] = w->s.x[3 * v + d] + move[sf->vert_body[v]][d];
  ipc_candidates world = {0}, scratch = {0};
  int *bp = NULL;
  size_t cap = 0;
  const double infl[3] = {1e-3, 0.02, 0.5};
  size_t seen = 0;
  for (int r = 0; r < 3; ++r) {
    ipc_broad_phase_independent(&world, sf, w->s.x, x1, infl[r], NULL, NULL);
    size_t nbp =
        ipc_broad_phase_body_pairs(&scratch, sf, w->s.x, x1, infl[r], NULL, NULL, &bp, &cap);
    int ok = 1;
    for (size_t k = 0; k < world.nvf + world.nee; ++k) {
      int a, b;
      if (k < world.nvf) {
        a = sf->vert_body[world.vf[2 * k]];
        b = sf->vert_body[sf->faces[3 * (size_t)world.vf[2 * k + 1]]];
      } else {
        size_t e = k - world.nvf;
        a = sf->vert_body[sf->edges[2 * (size_t)world.ee[2 * e]]];
        b = sf->vert_body[sf->edges[2 * (size_t)world.ee[2 * e + 1]]];
      }
      if (a == b) continue;
      if (a > b) {
        int t = a;
        a = b;
        b = t;
      }
      int found = 0;
      for (size_t i = 0; i < nbp && !found; ++i) found = bp[2 * i] == a && bp[2 * i + 1] == b;
      ok &= found;
      ++seen;
    }
    CHECK_MSG(ok, "inflation %g: a pair of bodies met in world boxes is not a body pair", infl[r]);
  }
  CHECK_MSG(seen > 0, "no pair of two bodies to check");
  free(bp);
  ipc_candidates_free(&world);
  ipc_candidates_free(&scratch);
  free(x1);
  ipc_world_destroy(w);
}

static void test_affine_groups(void) {
  compare("affine and soft cubes", four_cubes, 60);
  compare_freezing("affine and soft cubes", four_cubes, 60);
  compare_islands_freezing("affine and soft cubes", four_cubes, 60, 1);
}

static const char *soft_cubes =
    "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, -9.80665, 0],"
    " \"bodies\": [{\"mesh\": \"@CUBE@\", \"translation\": [0, 0.001, 0],"
    " \"material\": {\"young\": 1e6}},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [0.2, 1.2, 0], \"rotation\": [0, 20, 0],"
    " \"material\": {\"young\": 1e6}},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [4, 2, 0], \"material\": {\"young\": 1e6}}],"
    " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}";

static void test_soft_groups(void) {
  compare("soft cubes", soft_cubes, 60);
  compare_freezing("soft cubes", soft_cubes, 60);
  compare_islands_freezing("soft cubes", soft_cubes, 60, 0);
}

/* two soft cubes far apart in zero gravity, gliding slower than the Newton tolerance's speed
   (newton.tolerance x the bounding-box diagonal): every line search moves each by its velocity
   times the time, as the global search takes even a step within the tolerance (an island
   whose steps all stay within it once stopped dead: no step taken, its velocity lost) */
static const char *slow_cubes =
    "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, 0, 0],"
    " \"bodies\": [{\"mesh\": \"@CUBE@\", \"velocity\": [0.005, 0, 0],"
    " \"material\": {\"young\": 1e5}},"
    " {\"mesh\": \"@CUBE@\", \"translation\": [5, 0, 0], \"velocity\": [0, 0.04, 0],"
    " \"material\": {\"young\": 1e5}}]}";

static void test_slow_bodies(void) {
  const int steps = 20;
  const double vel[2][3] = {{0.005, 0, 0}, {0, 0.04, 0}};
  ipc_world *w = make_world(slow_cubes, GLOBAL);
  if (!w) return;
  double speed = w->m.params.newton_tol * w->m.bbox_diag, t = steps * w->h;
  CHECK_MSG(0.04 < speed, "the cubes are not slower than the tolerance's speed %g m/s", speed);
  for (int mode = ISLANDS; mode <= ISLANDS_FREEZING; ++mode) {
    run_result r = run(slow_cubes, mode, steps);
    if (!r.ok) continue;
    for (int b = 0; b < 2; ++b) {
      const ipc_body *bd = &w->m.bodies[b];
      double err = 0;
      for (int d = 0; d < 3; ++d) {
        double moved = 0;
        for (int i = bd->v0; i < bd->v0 + bd->nv; ++i)
          moved += r.x[3 * (size_t)i + d] - w->s.x[3 * (size_t)i + d];
        err = fmax(err, fabs(moved / bd->nv - vel[b][d] * t));
      }
      CHECK_MSG(err <= 0.01 * 0.04 * t, "%s: cube %d is %g m off its glide of %g m",
                mode_name[mode], b, err, 0.04 * t);
    }
    free(r.x);
  }
  ipc_world_destroy(w);
}

/* the repository's 100-cube pile (scenes/cube_pile.json) in a line search with per-body
   freezing, for its first steps: every iteration that starts from the contacts of the point
   the line search accepted has every contact a search afresh finds at that point over the
   pairs with a vertex of a body not frozen, also those of a body just thawed with a frozen
   one (neither moved in that line search). Each run takes 38 steps, more until its rules
   have thawed bodies: freezing again (global line search; from step 21 with this build),
   releasing held ones (islands, from step 27) and an island's step reaching a frozen body
   (settle_islands, step 37); a pile is chaotic, another BLAS kernel may take other steps */
static void test_thawed_contacts(void) {
  const struct { int mode, steps; } runs[] = {{FREEZING, 80}, {ISLANDS_FREEZING, 80}};
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
    int mode = runs[r].mode;
    ipcc_scene_def def;
    ipcc_error err;
    if (ipcc_scene_load("scenes/cube_pile.json", &def, &err) != IPCC_OK) {
      CHECK_MSG(0, "scenes/cube_pile.json: %s", err.msg);
      return;
    }
    ipc_world *w = world_in_mode(&def, mode);
    if (!w) return;
    ipc_newton_solver *s = w->solver;
    s->verify_next = 1;
    /* thawed by the global search's freezing, or by both rules of the islands */
    int k = 0, thawed = 0;
    while (k < runs[r].steps && (k < 38 || !thawed)) {
      ipcc_step_stats st;
      if (ipc_world_step(w, &st, &err) != IPCC_OK) {
        CHECK_MSG(0, "%s step %d: %s", mode_name[mode], k + 1, err.msg);
        break;
      }
      ++k;
      thawed = mode == FREEZING ? s->thaw_searches > 0
                                : s->settle_thaws > 0 && s->thaw_searches > s->settle_thaws;
    }
    printf(
        "cube pile, %s, %d steps: %ld iterations from the accepted point's contacts, %ld "
        "searches for thawed bodies' contacts (%ld after islands settled), %ld contacts "
        "missing\n",
        mode_name[mode], k, s->next_checked, s->thaw_searches, s->settle_thaws, s->next_missing);
    CHECK_MSG(thawed && s->next_checked > 0, "%s: no body thawed in %d steps", mode_name[mode], k);
    CHECK_MSG(s->next_missing == 0, "%s: %ld contacts missing from the iterations", mode_name[mode],
              s->next_missing);
    ipc_world_destroy(w);
  }
}

int main(void) {
  test_build();
  test_carried_together();
  test_carried_landing();
  test_body_pairs_cover();
  test_affine_groups();
  test_soft_groups();
  test_slow_bodies();
  test_thawed_contacts();
  TEST_MAIN_END();
}
