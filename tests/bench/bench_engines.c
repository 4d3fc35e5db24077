/* ipcc's granular pour side by side with Bullet and ODE (issue 26): one scene of ipcc's
   (tools/gen_granular.py), read through ipcc's public API, run by rigid-body engines with the
   same surfaces, masses, start state, gravity, friction and time step, and by ipcc itself.
   usage: bench_engines [--engine LIST] [--steps N] [--window A-B] [--every K]
                        [--iterations N] [--ode-contacts N] [--ode-static prisms|trimesh]
                        [--ode-prism-thickness T] [--bullet-margin M]
                        [--bullet-broadphase sap|dbvt] SCENE...
     --engine: comma-separated bullet, ode, ipc (ipcc's IPC mode), lcp (ipcc's LCP mode with
       the scene's "lcp" options); both = bullet,ode; all = every one built (default: both)
     --steps N (30); --window A-B (21-30): the summary's steps; --every K (1): one line per K
       steps (means; the gap the smallest)
     --iterations N (20, ODE's default; Bullet's is 10): Gauss-Seidel sweeps per island of
       Bullet's sequential impulse solver and of ODE's QuickStep
     --ode-contacts N (8): contact points per geom pair in ODE; --ode-static: the tube as convex
       prisms (default) or as a dGeomTriMesh; --ode-prism-thickness T (0.1 m)
     --bullet-margin M (5e-4 m): the hulls' collision margin; --bullet-broadphase: sweep and
       prune (default) or Bullet's dynamic AABB tree (bench_bullet.cpp says why)
   Per block of steps: contacts (Bullet: points of all persistent manifolds after the step;
   ODE: contact joints created; ipcc: the step's contacts), solver iterations (Bullet: sweeps
   summed over its solver batches; ODE: sweeps x islands with contacts; IPC: Newton
   iterations; LCP: PGS sweeps summed over regions), wall and CPU time of the step, and the
   smallest signed gap between surfaces the engine saw (Bullet, ODE: their own collision
   detection at the step's start, negative = penetration depth; ipcc: at the step's end).
   After the window and after the last step: the pile's centre of mass (bodies weighted by
   mass) and spread (RMS distance of the body centres from it). Then a summary line per engine
   and a table. One thread everywhere. e.g. (tools/gen_granular.py writes the scenes)
     bench_engines --engine all --steps 30 --window 21-30 out/granular_125.json

   Rigid bodies from the scene: every free body becomes one rigid body whose surface is the
   world's (ipc_world_create applies scale, rotation and translation), mass density x enclosed
   volume, inertia from the closed surface (divergence theorem, tetrahedra from a point), body
   frame at the centre of mass along the principal axes; the start velocity of the centre of
   mass is the scene's (angular velocity about the bounding-box centre). Friction: each
   surface's coefficient, combined by the scene's rule. Obstacles must not move; planes stay
   planes. How each engine is set up: bench_bullet.cpp and bench_ode.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_engines.h"
#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"

enum { ENG_BULLET = 1, ENG_ODE = 2, ENG_IPC = 4, ENG_LCP = 8 };

double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double bench_cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double bench_combine_friction(const bench_scene *s, double a, double b, int b_obstacle) {
  switch ((ipcc_friction_combine)s->friction_combine) {
    case IPCC_FRICTION_MEAN:
      return 0.5 * (a + b);
    case IPCC_FRICTION_MIN:
      return fmin(a, b);
    case IPCC_FRICTION_MAX:
      return fmax(a, b);
    case IPCC_FRICTION_OBSTACLE:
      return b_obstacle ? b : sqrt(a * b);
    case IPCC_FRICTION_GEOMETRIC_MEAN:
    default:
      return sqrt(a * b);
  }
}

/* ---- mass properties of a closed surface ---- */

/* volume, centroid c and second moment J = int (x - c)(x - c)^T dV of the closed, outward
   surface (tris index into x): a tetrahedron from a corner o of the first triangle to each
   triangle, with
   int_T y y^T dV = V/20 (sum_i v_i v_i^T + s s^T) over its corners v_i relative to o, s their
   sum (Tonon 2004) */
static double surface_moments(const double *x, const int *tris, int ntris, double c[3],
                              double J[9]) {
  double o[3] = {0, 0, 0};
  if (ntris > 0) memcpy(o, x + 3 * (size_t)tris[0], sizeof o);
  double V = 0, S[3] = {0, 0, 0}, M[9] = {0};
  for (int t = 0; t < ntris; ++t) {
    double v[3][3], s[3];
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) v[k][d] = x[3 * tris[3 * t + k] + d] - o[d];
    double vol = (v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) -
                  v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) +
                  v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0])) /
                 6.0;
    for (int d = 0; d < 3; ++d) s[d] = v[0][d] + v[1][d] + v[2][d];
    V += vol;
    for (int d = 0; d < 3; ++d) S[d] += vol * s[d] / 4.0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double m = s[i] * s[j];
        for (int k = 0; k < 3; ++k) m += v[k][i] * v[k][j];
        M[3 * i + j] += vol / 20.0 * m;
      }
  }
  for (int d = 0; d < 3; ++d) c[d] = o[d] + (V != 0 ? S[d] / V : 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) J[3 * i + j] = M[3 * i + j] - (V != 0 ? S[i] * S[j] / V : 0);
  return V;
}

/* eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations: A = Q diag(w) Q^T,
   Q's columns the eigenvectors, det Q = +1 */
static void sym_eig3(const double A_in[9], double w[3], double Q[9]) {
  double A[9];
  memcpy(A, A_in, sizeof A);
  for (int i = 0; i < 9; ++i) Q[i] = i % 4 == 0;
  for (int sweep = 0; sweep < 50; ++sweep) {
    double off = fabs(A[1]) + fabs(A[2]) + fabs(A[5]);
    double scale = fabs(A[0]) + fabs(A[4]) + fabs(A[8]);
    if (off <= 1e-15 * scale) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        double apq = A[3 * p + q];
        if (apq == 0) continue;
        double theta = (A[3 * q + q] - A[3 * p + p]) / (2 * apq);
        double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        double cs = 1 / sqrt(t * t + 1), sn = t * cs;
        for (int k = 0; k < 3; ++k) { /* A <- A G */
          double akp = A[3 * k + p], akq = A[3 * k + q];
          A[3 * k + p] = cs * akp - sn * akq;
          A[3 * k + q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 3; ++k) { /* A <- G^T A */
          double apk = A[3 * p + k], aqk = A[3 * q + k];
          A[3 * p + k] = cs * apk - sn * aqk;
          A[3 * q + k] = sn * apk + cs * aqk;
        }
        for (int k = 0; k < 3; ++k) { /* Q <- Q G */
          double qkp = Q[3 * k + p], qkq = Q[3 * k + q];
          Q[3 * k + p] = cs * qkp - sn * qkq;
          Q[3 * k + q] = sn * qkp + cs * qkq;
        }
      }
  }
  for (int i = 0; i < 3; ++i) w[i] = A[4 * i];
  double det = Q[0] * (Q[4] * Q[8] - Q[5] * Q[7]) - Q[1] * (Q[3] * Q[8] - Q[5] * Q[6]) +
               Q[2] * (Q[3] * Q[7] - Q[4] * Q[6]);
  if (det < 0)
    for (int k = 0; k < 3; ++k) Q[3 * k + 2] = -Q[3 * k + 2];
}

/* ---- the scene as rigid bodies ---- */

static void scene_free(bench_scene *s) {
  for (int b = 0; b < s->nbodies; ++b) {
    free(s->bodies[b].local);
    free(s->bodies[b].tris);
  }
  for (int k = 0; k < s->nstatic; ++k) {
    free(s->statics[k].x);
    free(s->statics[k].tris);
  }
  free(s->bodies);
  free(s->statics);
  free(s->planes);
  memset(s, 0, sizeof *s);
}

/* the vertices of the body's triangles, renumbered from 0: verts (n) the world's indices,
   tris (ntris x 3) the local ones */
static int body_surface(const int *wtris, int ntris, int vbegin, int vcount, int **verts_out,
                        int **tris_out) {
  int *map = malloc((size_t)vcount * sizeof *map);
  int *verts = malloc((size_t)vcount * sizeof *verts);
  int *tris = malloc((size_t)(3 * ntris) * sizeof *tris);
  int n = 0;
  for (int i = 0; i < vcount; ++i) map[i] = -1;
  for (int t = 0; t < 3 * ntris; ++t) {
    int v = wtris[t] - vbegin;
    if (map[v] < 0) {
      map[v] = n;
      verts[n++] = v + vbegin;
    }
    tris[t] = map[v];
  }
  free(map);
  *verts_out = verts;
  *tris_out = tris;
  return n;
}

static int scene_from_def(const char *path, const ipcc_scene_def *def, bench_scene *s) {
  memset(s, 0, sizeof *s);
  ipcc_error err;
  ipc_world *w = ipc_world_create(def, &err);
  if (!w) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  s->path = path;
  s->h = def->time_step;
  for (int d = 0; d < 3; ++d) s->gravity[d] = def->gravity[d];
  s->friction_combine = (int)def->friction_combine;
  const double *x = ipc_world_positions(w);
  const int *wtris = ipc_world_surface_triangles(w, NULL);
  int nb = ipc_world_body_count(w);
  s->bodies = calloc((size_t)nb, sizeof *s->bodies);
  s->statics = calloc((size_t)nb, sizeof *s->statics);
  int status = 0;
  for (int b = 0; b < nb && !status; ++b) {
    ipcc_body_info info;
    ipc_world_body(w, b, &info);
    const ipcc_body_def *bd = &def->bodies[b];
    if (info.triangle_count == 0) {
      fprintf(stderr, "%s: body '%s' has no surface triangles (expected a closed surface)\n", path,
              info.name);
      status = 1;
      break;
    }
    int *verts, *tris;
    int n = body_surface(wtris + 3 * (size_t)info.triangle_begin, info.triangle_count,
                         info.vertex_begin, info.vertex_count, &verts, &tris);
    if (info.obstacle) {
      if (bd->ndirichlet > 0 || bd->mesh_sequence) {
        fprintf(stderr, "%s: obstacle '%s' moves (expected static obstacles only)\n", path,
                info.name);
        status = 1;
      }
      bench_static_mesh *m = &s->statics[s->nstatic++];
      m->nverts = n;
      m->x = malloc((size_t)(3 * n) * sizeof *m->x);
      for (int i = 0; i < n; ++i)
        memcpy(m->x + 3 * i, x + 3 * (size_t)verts[i], 3 * sizeof(double));
      m->ntris = info.triangle_count;
      m->tris = tris;
      m->friction = bd->friction;
      free(verts);
      continue;
    }
    if (!bd->affine)
      fprintf(stderr, "%s: body '%s' is deformable in ipcc; the engines take it as rigid\n", path,
              info.name);
    bench_body *r = &s->bodies[s->nbodies++];
    double c[3], J[9], w3[3], Q[9];
    r->nverts = n;
    r->ntris = info.triangle_count;
    r->tris = tris;
    double vol = surface_moments(x, wtris + 3 * (size_t)info.triangle_begin, r->ntris, c, J);
    if (!(vol > 0)) {
      fprintf(stderr, "%s: body '%s' encloses volume %g (expected a closed, outward surface)\n",
              path, info.name, vol);
      free(verts);
      status = 1;
      break;
    }
    r->mass = bd->density * vol;
    /* inertia about the centre of mass: rho (tr J I - J) */
    double I[9];
    for (int i = 0; i < 9; ++i) I[i] = -bd->density * J[i];
    for (int i = 0; i < 3; ++i) I[4 * i] += bd->density * (J[0] + J[4] + J[8]);
    sym_eig3(I, w3, Q);
    memcpy(r->inertia, w3, sizeof w3);
    memcpy(r->rot, Q, sizeof Q);
    memcpy(r->pos, c, sizeof c);
    r->local = malloc((size_t)(3 * n) * sizeof *r->local);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
      const double *p = x + 3 * (size_t)verts[i];
      double dx[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
      for (int k = 0; k < 3; ++k) /* Q^T (p - c) */
        r->local[3 * i + k] = Q[k] * dx[0] + Q[3 + k] * dx[1] + Q[6 + k] * dx[2];
      for (int d = 0; d < 3; ++d) {
        lo[d] = fmin(lo[d], p[d]);
        hi[d] = fmax(hi[d], p[d]);
      }
    }
    /* the scene's angular velocity turns about the bounding-box centre */
    const double *wv = bd->angular_velocity;
    double rc[3];
    for (int d = 0; d < 3; ++d) rc[d] = c[d] - 0.5 * (lo[d] + hi[d]);
    r->vel[0] = bd->velocity[0] + wv[1] * rc[2] - wv[2] * rc[1];
    r->vel[1] = bd->velocity[1] + wv[2] * rc[0] - wv[0] * rc[2];
    r->vel[2] = bd->velocity[2] + wv[0] * rc[1] - wv[1] * rc[0];
    memcpy(r->omega, wv, sizeof r->omega);
    r->friction = bd->friction;
    free(verts);
  }
  int np = ipc_world_plane_count(w);
  s->planes = calloc((size_t)np + 1, sizeof *s->planes);
  for (int k = 0; k < np && k < def->nplanes; ++k) {
    ipc_world_plane(w, k, s->planes[k].point, s->planes[k].normal);
    s->planes[k].friction = def->planes[k].friction;
    s->nplanes++;
  }
  ipc_world_destroy(w);
  if (!status && s->nbodies == 0) {
    fprintf(stderr, "%s: no free bodies\n", path);
    status = 1;
  }
  if (status) scene_free(s);
  return status;
}

/* ---- the report ---- */

struct bench_report {
  const char *engine;
  const bench_scene *s;
  const bench_options *o;
  double total_mass;
  int block_n; /* steps in the current block */
  double block_contacts, block_its, block_sec, block_cpu, block_gap;
  int win_n;
  double win_contacts, win_its, win_sec, win_cpu, win_gap;
  int have_win, have_end;
  double com_win[3], spread_win, com_end[3], spread_end;
  int steps_done;
};

static void report_init(bench_report *r, const char *engine, const bench_scene *s,
                        const bench_options *o) {
  memset(r, 0, sizeof *r);
  r->engine = engine;
  r->s = s;
  r->o = o;
  r->block_gap = r->win_gap = INFINITY;
  for (int b = 0; b < s->nbodies; ++b) r->total_mass += s->bodies[b].mass;
}

static void print_gap(double gap) {
  if (isinf(gap))
    printf("gap -");
  else if (gap < 0)
    printf("penetration %.3f mm", -1e3 * gap);
  else
    printf("closest %.2e m", gap);
}

void bench_report_step(bench_report *r, int step, long contacts, long iterations, double seconds,
                       double cpu_seconds, double min_gap) {
  r->steps_done = step;
  r->block_n++;
  r->block_contacts += (double)contacts;
  r->block_its += (double)iterations;
  r->block_sec += seconds;
  r->block_cpu += cpu_seconds;
  if (min_gap < r->block_gap || isnan(min_gap)) r->block_gap = min_gap;
  if (step >= r->o->window_a && step <= r->o->window_b) {
    r->win_n++;
    r->win_contacts += (double)contacts;
    r->win_its += (double)iterations;
    r->win_sec += seconds;
    r->win_cpu += cpu_seconds;
    if (min_gap < r->win_gap || isnan(min_gap)) r->win_gap = min_gap;
  }
  if (r->block_n == r->o->every || step == r->o->steps) {
    int n = r->block_n;
    if (n == 1)
      printf("%-6s step %4d: ", r->engine, step);
    else
      printf("%-6s steps %4d-%4d: ", r->engine, step - n + 1, step);
    printf("contacts %8.1f, iterations %8.1f, %9.3f ms (CPU %9.3f ms), ", r->block_contacts / n,
           r->block_its / n, 1e3 * r->block_sec / n, 1e3 * r->block_cpu / n);
    print_gap(r->block_gap);
    printf("\n");
    fflush(stdout);
    r->block_n = 0;
    r->block_contacts = r->block_its = r->block_sec = r->block_cpu = 0;
    r->block_gap = INFINITY;
  }
}

int bench_report_wants_centres(const bench_report *r, int step) {
  return step == r->o->window_b || step == r->o->steps;
}

void bench_report_centres(bench_report *r, int step, const double *centres) {
  const bench_scene *s = r->s;
  double com[3] = {0, 0, 0}, ss = 0;
  for (int b = 0; b < s->nbodies; ++b)
    for (int d = 0; d < 3; ++d) com[d] += s->bodies[b].mass / r->total_mass * centres[3 * b + d];
  for (int b = 0; b < s->nbodies; ++b)
    for (int d = 0; d < 3; ++d) ss += (centres[3 * b + d] - com[d]) * (centres[3 * b + d] - com[d]);
  double spread = sqrt(ss / s->nbodies);
  printf("%-6s step %4d: pile centre of mass (%.4f, %.4f, %.4f) m, spread %.4f m\n", r->engine,
         step, com[0], com[1], com[2], spread);
  if (step == r->o->window_b) {
    memcpy(r->com_win, com, sizeof com);
    r->spread_win = spread;
    r->have_win = 1;
  }
  if (step == r->o->steps) {
    memcpy(r->com_end, com, sizeof com);
    r->spread_end = spread;
    r->have_end = 1;
  }
}

/* the summary line of a run, and the row of the final table */
static void report_summary(const bench_report *r, char *row, size_t nrow) {
  const bench_options *o = r->o;
  int n = r->win_n > 0 ? r->win_n : 1, nb = r->s->nbodies;
  printf(
      "%-6s summary %s, %d bodies, steps %d-%d: %.1f contacts/step, %.2f contacts/body, "
      "%.1f iterations/step, %.3f ms/step (CPU %.3f), ",
      r->engine, r->s->path, nb, o->window_a, o->window_b, r->win_contacts / n,
      r->win_contacts / n / nb, r->win_its / n, 1e3 * r->win_sec / n, 1e3 * r->win_cpu / n);
  print_gap(r->win_gap);
  printf("\n");
  char gap[48], win[96] = "-", end[96] = "-";
  if (isinf(r->win_gap))
    snprintf(gap, sizeof gap, "-");
  else if (r->win_gap < 0)
    snprintf(gap, sizeof gap, "%.3f mm", -1e3 * r->win_gap);
  else
    snprintf(gap, sizeof gap, "none (closest %.1e m)", r->win_gap);
  if (r->have_win)
    snprintf(win, sizeof win, "(%.3f, %.3f, %.3f), %.3f", r->com_win[0], r->com_win[1],
             r->com_win[2], r->spread_win);
  if (r->have_end && o->steps != o->window_b)
    snprintf(end, sizeof end, "%d: (%.3f, %.3f, %.3f), %.3f", o->steps, r->com_end[0],
             r->com_end[1], r->com_end[2], r->spread_end);
  snprintf(row, nrow, "| %s | %d | %.0f | %.2f | %.1f | %.2f | %.2f | %s | %s | %s |", r->engine,
           nb, r->win_contacts / n, r->win_contacts / n / nb, r->win_its / n, 1e3 * r->win_sec / n,
           1e3 * r->win_cpu / n, gap, win, end);
}

/* ---- ipcc's own modes ---- */

/* the centres of mass of the free bodies (the scene's order) from the vertices x: the centroid
   of each closed surface, exact for an affine body (x = A xbar + p maps the rest centroid) */
static void ipcc_centres(const double *x, const int *wtris, int nbodies_all,
                         const ipcc_body_info *info, double *centres) {
  int k = 0;
  for (int b = 0; b < nbodies_all; ++b) {
    if (info[b].obstacle) continue;
    double J[9];
    surface_moments(x, wtris + 3 * (size_t)info[b].triangle_begin, info[b].triangle_count,
                    centres + 3 * k, J);
    ++k;
  }
}

static int run_ipc(const ipcc_scene_def *def, const bench_options *o, bench_report *r) {
  ipcc_error err;
  ipc_world *w = ipc_world_create(def, &err);
  if (!w) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  int nb = ipc_world_body_count(w);
  ipcc_body_info *info = calloc((size_t)nb, sizeof *info);
  for (int b = 0; b < nb; ++b) ipc_world_body(w, b, &info[b]);
  double *centres = calloc((size_t)(3 * nb), sizeof *centres);
  int status = 0;
  for (int k = 1; k <= o->steps; ++k) {
    ipcc_step_stats st;
    double t0 = bench_now(), c0 = bench_cpu_now();
    if (ipc_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "ipc: step %d: %s\n", k, err.msg);
      status = 1;
      break;
    }
    double t = bench_now() - t0, tc = bench_cpu_now() - c0;
    bench_report_step(r, k, st.contacts, st.newton_iterations, t, tc, st.min_distance);
    if (bench_report_wants_centres(r, k)) {
      ipcc_centres(ipc_world_positions(w), ipc_world_surface_triangles(w, NULL), nb, info, centres);
      bench_report_centres(r, k, centres);
    }
  }
  free(centres);
  free(info);
  ipc_world_destroy(w);
  return status;
}

static int run_lcp(const char *path, const ipcc_scene_def *def, const bench_options *o,
                   bench_report *r) {
  ipcc_error err;
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  if (ipcc_lcp_scene_load(path, &ld, NULL, &err) != IPCC_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  ipc_lcp_world *w = ipc_lcp_world_create(def, &ld, &err);
  if (!w) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  int nb = ipc_lcp_world_body_count(w);
  ipcc_body_info *info = calloc((size_t)nb, sizeof *info);
  for (int b = 0; b < nb; ++b) ipc_lcp_world_body(w, b, &info[b]);
  double *centres = calloc((size_t)(3 * nb), sizeof *centres);
  int status = 0;
  for (int k = 1; k <= o->steps; ++k) {
    ipcc_lcp_step_stats st;
    double t0 = bench_now(), c0 = bench_cpu_now();
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "lcp: step %d: %s\n", k, err.msg);
      status = 1;
      break;
    }
    double t = bench_now() - t0, tc = bench_cpu_now() - c0;
    bench_report_step(r, k, st.contacts, st.lcp_iterations, t, tc, st.min_distance);
    if (bench_report_wants_centres(r, k)) {
      ipcc_centres(ipc_lcp_world_positions(w), ipc_lcp_world_surface_triangles(w, NULL), nb, info,
                   centres);
      bench_report_centres(r, k, centres);
    }
  }
  free(centres);
  free(info);
  ipc_lcp_world_destroy(w);
  return status;
}

#ifndef BENCH_HAVE_BULLET
int bench_run_bullet(const bench_scene *s, const bench_options *o, bench_report *r) {
  (void)s, (void)o, (void)r;
  fprintf(stderr, "bench_engines: built without Bullet (libbullet-dev)\n");
  return 1;
}
#endif
#ifndef BENCH_HAVE_ODE
int bench_run_ode(const bench_scene *s, const bench_options *o, bench_report *r) {
  (void)s, (void)o, (void)r;
  fprintf(stderr, "bench_engines: built without ODE (libode-dev)\n");
  return 1;
}
#endif

static int built_engines(void) {
  int e = ENG_IPC | ENG_LCP;
#ifdef BENCH_HAVE_BULLET
  e |= ENG_BULLET;
#endif
#ifdef BENCH_HAVE_ODE
  e |= ENG_ODE;
#endif
  return e;
}

static int parse_engines(const char *list, int *out) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  int e = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (!strcmp(tok, "bullet"))
      e |= ENG_BULLET;
    else if (!strcmp(tok, "ode"))
      e |= ENG_ODE;
    else if (!strcmp(tok, "both"))
      e |= ENG_BULLET | ENG_ODE;
    else if (!strcmp(tok, "ipc"))
      e |= ENG_IPC;
    else if (!strcmp(tok, "lcp"))
      e |= ENG_LCP;
    else if (!strcmp(tok, "all"))
      e |= built_engines();
    else {
      fprintf(stderr,
              "bench_engines: --engine: expected bullet, ode, both, ipc, lcp or all, got '%s'\n",
              tok);
      return 1;
    }
  }
  *out = e;
  return 0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_engines [--engine bullet|ode|both|ipc|lcp|all[,...]] [--steps N] "
          "[--window A-B] [--every K] [--iterations N] [--ode-contacts N] [--bullet-margin M] "
          "[--bullet-broadphase sap|dbvt] [--ode-static prisms|trimesh] "
          "[--ode-prism-thickness T] SCENE...\n");
}

int main(int argc, char **argv) {
  bench_options o = {.steps = 30,
                     .window_a = 21,
                     .window_b = 30,
                     .every = 1,
                     .iterations = 20,
                     .ode_max_contacts = 8,
                     .bullet_margin = 5e-4,
                     .ode_static_prisms = 1,
                     .ode_prism_thickness = 0.1};
  int engines = (ENG_BULLET | ENG_ODE) & built_engines();
  const char **scenes = calloc((size_t)argc, sizeof *scenes);
  int nscenes = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--engine") && v) {
      if (parse_engines(v, &engines)) return 2;
      ++i;
    } else if (!strcmp(a, "--steps") && v) {
      o.steps = atoi(v);
      ++i;
    } else if (!strcmp(a, "--window") && v) {
      if (sscanf(v, "%d-%d", &o.window_a, &o.window_b) != 2) {
        fprintf(stderr, "bench_engines: --window: expected A-B, got '%s'\n", v);
        return 2;
      }
      ++i;
    } else if (!strcmp(a, "--every") && v) {
      o.every = atoi(v);
      ++i;
    } else if (!strcmp(a, "--iterations") && v) {
      o.iterations = atoi(v);
      ++i;
    } else if (!strcmp(a, "--ode-contacts") && v) {
      o.ode_max_contacts = atoi(v);
      ++i;
    } else if (!strcmp(a, "--bullet-margin") && v) {
      o.bullet_margin = atof(v);
      ++i;
    } else if (!strcmp(a, "--bullet-broadphase") && v) {
      if (strcmp(v, "sap") && strcmp(v, "dbvt")) {
        fprintf(stderr, "bench_engines: --bullet-broadphase: expected sap or dbvt, got '%s'\n", v);
        return 2;
      }
      o.bullet_dbvt = !strcmp(v, "dbvt");
      ++i;
    } else if (!strcmp(a, "--ode-static") && v) {
      if (strcmp(v, "prisms") && strcmp(v, "trimesh")) {
        fprintf(stderr, "bench_engines: --ode-static: expected prisms or trimesh, got '%s'\n", v);
        return 2;
      }
      o.ode_static_prisms = !strcmp(v, "prisms");
      ++i;
    } else if (!strcmp(a, "--ode-prism-thickness") && v) {
      o.ode_prism_thickness = atof(v);
      ++i;
    } else if (a[0] == '-') {
      fprintf(stderr, "bench_engines: unknown option %s\n", a);
      usage();
      return 2;
    } else
      scenes[nscenes++] = a;
  }
  if (nscenes == 0 || o.steps < 1 || o.every < 1 || o.iterations < 1 || o.ode_max_contacts < 1 ||
      !(o.bullet_margin >= 0) || !(o.ode_prism_thickness > 0) || o.window_a < 1 ||
      o.window_b < o.window_a) {
    usage();
    return 2;
  }
  int missing = engines & ~built_engines();
  if (engines == 0) {
    fprintf(stderr,
            "bench_engines: built without Bullet and ODE (libbullet-dev, libode-dev); "
            "--engine ipc,lcp runs ipcc's modes alone\n");
    return 2;
  }
  if (missing) {
    fprintf(stderr, "bench_engines: built without%s%s%s\n",
            missing & ENG_BULLET ? " Bullet (libbullet-dev)" : "",
            missing == (ENG_BULLET | ENG_ODE) ? " and" : "",
            missing & ENG_ODE ? " ODE (libode-dev)" : "");
    return 2;
  }
  if (o.window_b > o.steps) o.window_b = o.steps;
  ipcc_set_threads(1);
  static const struct {
    int bit;
    const char *name;
  } order[] = {{ENG_BULLET, "bullet"}, {ENG_ODE, "ode"}, {ENG_IPC, "ipc"}, {ENG_LCP, "lcp"}};
  char(*rows)[512] = calloc((size_t)(4 * nscenes), sizeof *rows);
  const char **row_scene = calloc((size_t)(4 * nscenes), sizeof *row_scene);
  int nrows = 0, failed = 0;
  for (int si = 0; si < nscenes; ++si) {
    ipcc_scene_def def;
    ipcc_error err;
    if (ipcc_scene_load(scenes[si], &def, &err) != IPCC_OK) {
      fprintf(stderr, "%s\n", err.msg);
      return 2;
    }
    bench_scene s;
    if (scene_from_def(scenes[si], &def, &s)) {
      ipcc_scene_def_free(&def);
      return 2;
    }
    printf(
        "%s: %d bodies, %d static meshes, %d planes, h %g s, %d steps, window %d-%d, "
        "%d solver iterations (Bullet, ODE)\n",
        scenes[si], s.nbodies, s.nstatic, s.nplanes, s.h, o.steps, o.window_a, o.window_b,
        o.iterations);
    for (size_t e = 0; e < sizeof order / sizeof order[0]; ++e) {
      if (!(engines & order[e].bit)) continue;
      bench_report r;
      report_init(&r, order[e].name, &s, &o);
      int st;
      if (order[e].bit == ENG_BULLET)
        st = bench_run_bullet(&s, &o, &r);
      else if (order[e].bit == ENG_ODE)
        st = bench_run_ode(&s, &o, &r);
      else if (order[e].bit == ENG_IPC)
        st = run_ipc(&def, &o, &r);
      else
        st = run_lcp(scenes[si], &def, &o, &r);
      if (st) failed = 1;
      if (r.win_n > 0) {
        row_scene[nrows] = scenes[si];
        report_summary(&r, rows[nrows], sizeof rows[nrows]);
        ++nrows;
      }
    }
    scene_free(&s);
    ipcc_scene_def_free(&def);
  }
  printf(
      "\n| engine | bodies | contacts/step | contacts/body | iterations/step | ms/step | "
      "CPU ms/step | deepest penetration | centre of mass, spread at step %d (m) | at step N (m) | "
      "scene |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
      o.window_b);
  for (int i = 0; i < nrows; ++i) printf("%s %s |\n", rows[i], row_scene[i]);
  free(rows);
  free(row_scene);
  free(scenes);
  return failed;
}
