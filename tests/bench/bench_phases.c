/* per-phase cost of a step against the number of contacts (issue 13, the granular pour of
   seed 004): runs each scene for N steps in IPC mode, LCP mode or both and reports, per
   step, the time of each phase and the contacts; then fits the growth of the time per step
   with the contacts (least squares of log t against log contacts over the scenes) and draws
   it as a PNG.
   usage: bench_phases [--mode ipc|lcp|both] [--steps N] [--skip K] [--png FILE] SCENE...
   Phases: IPC mode: broad phase (swept candidates), contact set and assembly (contact
   derivatives, elastic and inertia terms, the sparse matrix), linear solve (CHOLMOD
   analysis + factorization + solve), CCD (narrow phase of the line search) and the rest
   (line-search energies, friction updates). LCP mode: contacts (broad phase + contact
   points), unconstrained velocity (assembly + solve), LCP (assembly of W + solves).
   The first K steps (default: none) are run but not counted, e.g. to skip a free fall. One
   thread, so the phases add up. e.g. (tools/gen_granular.py writes the scenes)
     bench_phases --steps 40 --png scaling.png out/granular_125.json out/granular_250.json */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/plot.h"
#include "ipcc/ipcc.h"
#include "ipcc/render.h"
#include "lcp/lcp_world.h"

enum { PH_BROAD, PH_ASSEMBLY, PH_SOLVE, PH_CCD, PH_OTHER, PH_TOTAL, NPH };
static const char *ipc_phase[NPH] = {
    "broad phase", "contacts+assembly", "linear solve", "CCD", "other", "total"};
static const char *lcp_phase[NPH] = {"contacts", "-", "velocity", "-", "LCP", "total"};

typedef struct row {
  const char *scene;
  int bodies, lcp, steps;
  double contacts; /* mean per counted step */
  double t[NPH];   /* mean seconds per counted step */
  double its;      /* Newton or LCP iterations per counted step */
  double cuts;     /* IPC: Newton iterations per step whose step the CCD shortened */
  double halvings; /* IPC: line-search halvings (energy not decreased) per step */
} row;

static int run_ipc(const char *path, const ipcc_scene_def *def, int steps, int skip, row *r) {
  ipcc_error err;
  ipc_world *w = ipc_world_create(def, &err);
  if (!w) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  for (int k = 0; k < skip + steps; ++k) {
    ipcc_step_stats st;
    if (ipc_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "%s: step %d: %s\n", path, k + 1, err.msg);
      ipc_world_destroy(w);
      return 1;
    }
    if (k < skip) continue;
    r->t[PH_BROAD] += st.t_broad_phase;
    r->t[PH_ASSEMBLY] += st.t_assembly;
    r->t[PH_SOLVE] += st.t_factor;
    r->t[PH_CCD] += st.t_ccd;
    r->t[PH_TOTAL] += st.t_total;
    r->contacts += st.contacts;
    r->its += st.newton_iterations;
    r->cuts += st.ccd_cuts;
    r->halvings += st.backtracks;
  }
  r->t[PH_OTHER] =
      r->t[PH_TOTAL] - r->t[PH_BROAD] - r->t[PH_ASSEMBLY] - r->t[PH_SOLVE] - r->t[PH_CCD];
  int ok = ipc_world_intersection_free(w, NULL, 0);
  ipc_world_destroy(w);
  if (!ok) fprintf(stderr, "%s: the last state INTERSECTS\n", path);
  return ok ? 0 : 1;
}

static int run_lcp(const char *path, const ipcc_scene_def *def, int steps, int skip, row *r) {
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
  for (int k = 0; k < skip + steps; ++k) {
    ipcc_lcp_step_stats st;
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "%s: LCP step %d: %s\n", path, k + 1, err.msg);
      ipc_lcp_world_destroy(w);
      return 1;
    }
    if (k < skip) continue;
    r->t[PH_BROAD] += st.t_contacts;
    r->t[PH_SOLVE] += st.t_velocity;
    r->t[PH_OTHER] += st.t_solve;
    r->t[PH_TOTAL] += st.t_total;
    r->contacts += st.contacts;
    r->its += (double)st.lcp_iterations;
  }
  ipc_lcp_world_destroy(w);
  return 0;
}

enum { BY_CONTACTS, BY_BODIES, PER_ITERATION_BY_BODIES };

/* least squares slope of log y against log x over the rows of one mode with contacts: the
   time per step against the contacts or the bodies, or the time per iteration against the
   bodies */
static double fit_growth(const row *rows, int n, int lcp, int phase, int how, int *used) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (rows[i].lcp != lcp || !(rows[i].contacts > 0) || !(rows[i].t[phase] > 0) ||
        !(rows[i].its > 0))
      continue;
    double x = log(how == BY_CONTACTS ? rows[i].contacts : rows[i].bodies);
    double y = log(rows[i].t[phase] / (how == PER_ITERATION_BY_BODIES ? rows[i].its : 1.0));
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    ++m;
  }
  *used = m;
  double den = m * sxx - sx * sx;
  return m >= 2 && den > 0 ? (m * sxy - sx * sy) / den : NAN;
}

static void plot(const char *png, const row *rows, int n) {
  ipc_plot_series ser[2 * NPH];
  double *xs = calloc((size_t)(2 * NPH * n) + 1, sizeof(double));
  double *ys = calloc((size_t)(2 * NPH * n) + 1, sizeof(double));
  static const unsigned char colors[NPH][3] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},
                                               {214, 39, 40},  {148, 103, 189}, {0, 0, 0}};
  char labels[2 * NPH][48];
  int ns = 0;
  for (int lcp = 0; lcp < 2; ++lcp)
    for (int ph = 0; ph < NPH; ++ph) {
      const char *name = lcp ? lcp_phase[ph] : ipc_phase[ph];
      if (!strcmp(name, "-")) continue;
      int k = 0;
      double *x = xs + (size_t)ns * n, *y = ys + (size_t)ns * n;
      for (int i = 0; i < n; ++i)
        if (rows[i].lcp == lcp && rows[i].contacts > 0) {
          x[k] = log10(rows[i].bodies);
          y[k++] = 1e3 * rows[i].t[ph];
        }
      if (k == 0) continue;
      snprintf(labels[ns], sizeof labels[ns], "%s %s", lcp ? "lcp" : "ipc", name);
      ser[ns].label = labels[ns];
      ser[ns].x = x;
      ser[ns].y = y;
      ser[ns].n = k;
      memcpy(ser[ns].color, colors[ph], 3);
      if (lcp) /* LCP lines lighter */
        for (int c = 0; c < 3; ++c) ser[ns].color[c] = (unsigned char)(128 + colors[ph][c] / 2);
      ++ns;
    }
  const unsigned char white[3] = {255, 255, 255};
  ipcc_image *im = ipcc_image_create(900, 600, white);
  ipc_plot_lines(im, "time per step against bodies", "log10 bodies", "ms per step", ser, ns, 1);
  ipcc_error err;
  if (ipcc_image_write_png(im, png, &err) != IPCC_OK) fprintf(stderr, "%s\n", err.msg);
  ipcc_image_destroy(im);
  free(xs);
  free(ys);
}

int main(int argc, char **argv) {
  int steps = 20, skip = 0, do_ipc = 1, do_lcp = 0;
  const char *png = NULL;
  const char **scenes = calloc((size_t)argc, sizeof *scenes);
  int nscenes = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
      skip = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--png") && i + 1 < argc)
      png = argv[++i];
    else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
      const char *m = argv[++i];
      do_ipc = !strcmp(m, "ipc") || !strcmp(m, "both");
      do_lcp = !strcmp(m, "lcp") || !strcmp(m, "both");
      if (!do_ipc && !do_lcp) {
        fprintf(stderr, "bench_phases: --mode: expected ipc, lcp or both, got '%s'\n", m);
        return 2;
      }
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "bench_phases: unknown option %s\n", argv[i]);
      return 2;
    } else
      scenes[nscenes++] = argv[i];
  }
  if (nscenes == 0 || steps < 1 || skip < 0) {
    fprintf(stderr,
            "usage: bench_phases [--mode ipc|lcp|both] [--steps N] [--skip K] "
            "[--png FILE] SCENE...\n");
    return 2;
  }
  ipcc_set_threads(1);
  row *rows = calloc((size_t)(2 * nscenes), sizeof *rows);
  int n = 0, failed = 0;
  for (int s = 0; s < nscenes; ++s) {
    ipcc_scene_def def;
    ipcc_error err;
    if (ipcc_scene_load(scenes[s], &def, &err) != IPCC_OK) {
      fprintf(stderr, "%s\n", err.msg);
      return 2;
    }
    int bodies = 0;
    for (int b = 0; b < def.nbodies; ++b) bodies += !def.bodies[b].obstacle;
    for (int lcp = 0; lcp < 2; ++lcp) {
      if (lcp ? !do_lcp : !do_ipc) continue;
      row *r = &rows[n];
      memset(r, 0, sizeof *r);
      r->scene = scenes[s];
      r->bodies = bodies;
      r->lcp = lcp;
      r->steps = steps;
      fprintf(stderr, "%s, %s mode, %d bodies: %d steps...\n", scenes[s], lcp ? "LCP" : "IPC",
              bodies, skip + steps);
      if ((lcp ? run_lcp : run_ipc)(scenes[s], &def, steps, skip, r)) {
        failed = 1;
        continue;
      }
      r->contacts /= steps;
      r->its /= steps;
      r->cuts /= steps;
      r->halvings /= steps;
      for (int ph = 0; ph < NPH; ++ph) r->t[ph] /= steps;
      ++n;
    }
    ipcc_scene_def_free(&def);
  }
  printf(
      "| mode | bodies | contacts/step | iterations/step | CCD-cut iterations/step | "
      "line-search halvings/step | broad phase / contacts | "
      "assembly | solve | CCD | other (LCP: LCP solve) | total ms/step |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < n; ++i) {
    const row *r = &rows[i];
    if (r->lcp)
      printf("| LCP | %d | %.0f | %.1f | - | - | %.1f | - | %.1f | - | %.1f | %.1f |\n", r->bodies,
             r->contacts, r->its, 1e3 * r->t[PH_BROAD], 1e3 * r->t[PH_SOLVE], 1e3 * r->t[PH_OTHER],
             1e3 * r->t[PH_TOTAL]);
    else
      printf("| IPC | %d | %.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
             r->bodies, r->contacts, r->its, r->cuts, r->halvings, 1e3 * r->t[PH_BROAD],
             1e3 * r->t[PH_ASSEMBLY], 1e3 * r->t[PH_SOLVE], 1e3 * r->t[PH_CCD],
             1e3 * r->t[PH_OTHER], 1e3 * r->t[PH_TOTAL]);
  }
  for (int lcp = 0; lcp < 2; ++lcp)
    for (int ph = 0; ph < NPH; ++ph) {
      const char *name = lcp ? lcp_phase[ph] : ipc_phase[ph];
      if (!strcmp(name, "-")) continue;
      int used;
      double gc = fit_growth(rows, n, lcp, ph, BY_CONTACTS, &used);
      double gb = fit_growth(rows, n, lcp, ph, BY_BODIES, &used);
      double gi = fit_growth(rows, n, lcp, ph, PER_ITERATION_BY_BODIES, &used);
      if (used >= 2)
        printf(
            "%s %s: per step ~ contacts^%.2f, ~ bodies^%.2f; per %s iteration ~ "
            "bodies^%.2f (%d scenes)\n",
            lcp ? "LCP" : "IPC", name, gc, gb, lcp ? "LCP" : "Newton", gi, used);
    }
  if (png && n > 0) plot(png, rows, n);
  free(rows);
  free(scenes);
  return failed;
}
