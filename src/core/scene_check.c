/* the checks of a scene definition at world creation (ipcc_scene_def_check): every number in
   the range the JSON reader (src/io/scene.c) accepts, with its wording, so that scenes built
   in code, IPC scripts and JSON files are refused alike. The JSON reader checks first (it
   knows the line of the file); this is the net for what comes by other ways. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/error.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"

typedef struct checker {
  const char *file;
  ipcc_error *err;
} checker;

/* "FILE:LINE: FIELD: expected ..." for what a script line declared (line > 0), else
   "FILE: key 'PREFIX.FIELD': expected ..." (PREFIX may be empty) */
static int fail(const checker *c, int line, const char *prefix, const char *field, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));
static int fail(const checker *c, int line, const char *prefix, const char *field, const char *fmt,
                ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (line > 0)
    ipc_error_set(c->err, IPCC_ERR_INPUT, "%s:%d: %s: expected %s", c->file, line, field, what);
  else
    ipc_error_set(c->err, IPCC_ERR_INPUT, "%s: key '%s%s%s': expected %s", c->file, prefix,
                  prefix[0] ? "." : "", field, what);
  return 0;
}

/* v in [lo, hi]. The JSON reader's bounds beyond the sign its wording states (a positive
   density, at most 1e12) are sanity limits; a value that misses only them is told the range */
static int number(const checker *c, int line, const char *prefix, const char *field, double v,
                  double lo, double hi, const char *what) {
  if (v >= lo && v <= hi) return 1;
  int sign_ok = isfinite(v) && (lo > 0 ? v > 0 : v >= lo);
  if (sign_ok)
    return fail(c, line, prefix, field, "%s, got %g (accepted: %g to %g)", what, v, lo, hi);
  return fail(c, line, prefix, field, "%s, got %g", what, v);
}

/* a number whose range the wording states in full (no sanity limit to add) */
static int number_exact(const checker *c, int line, const char *prefix, const char *field, double v,
                        double lo, double hi, const char *what) {
  if (v >= lo && v <= hi) return 1;
  return fail(c, line, prefix, field, "%s, got %g", what, v);
}

static int finite3(const checker *c, int line, const char *prefix, const char *field,
                   const double v[3]) {
  if (isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])) return 1;
  return fail(c, line, prefix, field, "an array of 3 numbers, got [%g, %g, %g]", v[0], v[1], v[2]);
}

static int at_least(const checker *c, int line, const char *prefix, const char *field, int v,
                    int lo, const char *what) {
  if (v >= lo) return 1;
  return fail(c, line, prefix, field, "%s, got %d", what, v);
}

/* kinetic and static coefficients as the JSON "friction": number or {static, kinetic} */
static int friction(const checker *c, int line, const char *prefix, double kinetic, double stat) {
  return number(c, line, prefix, "friction", kinetic, 0, 1e6, "a friction coefficient >= 0") &&
         number(c, line, prefix, "friction.static", stat, 0, 1e6, "a friction coefficient >= 0");
}

/* start and end of a Dirichlet or Neumann entry */
static int window(const checker *c, int line, const char *prefix, double t0, double t1) {
  /* an IPC script's DBC / NBC may start before 0 (DBCTimeRange -1 2): the same as 0 */
  double lo = line > 0 ? -INFINITY : 0;
  if (!(t0 >= lo && t0 < INFINITY))
    return fail(c, line, prefix, "start", "a start time >= 0 (s), got %g", t0);
  if (isnan(t1)) return fail(c, line, prefix, "end", "an end time >= 0 (s), got %g", t1);
  if (t1 < t0)
    return fail(c, line, prefix, "end", "an end time >= start, got %g (start %g)", t1, t0);
  return 1;
}

static int region(const checker *c, int line, const char *prefix, const ipcc_region_def *r) {
  if (r->nverts < 0 || (r->nverts > 0 && !r->verts))
    return fail(c, line, prefix, "vertices",
                "a non-empty array of vertex indices, got nverts %d, verts %s", r->nverts,
                r->verts ? "set" : "NULL");
  for (int i = 0; i < r->nverts; ++i)
    if (r->verts[i] < 0)
      return fail(c, line, prefix, "vertices",
                  "non-negative integer vertex indices (0-based, into the body's mesh), got %d "
                  "(entry %d)",
                  r->verts[i], i);
  if (r->nverts > 0) return 1; /* the box is not used */
  const double *a = r->box_min, *b = r->box_max;
  for (int d = 0; d < 3; ++d)
    if (!isfinite(a[d]) || !isfinite(b[d]))
      return fail(c, line, prefix, "box",
                  "[[x0, y0, z0], [x1, y1, z1]] relative to the body's bounding box, got "
                  "[[%g, %g, %g], [%g, %g, %g]]",
                  a[0], a[1], a[2], b[0], b[1], b[2]);
  for (int d = 0; d < 3; ++d)
    if (a[d] > b[d])
      return fail(c, line, prefix, "box",
                  "min corner <= max corner, got [[%g, %g, %g], [%g, %g, %g]]", a[0], a[1], a[2],
                  b[0], b[1], b[2]);
  return 1;
}

static int dirichlet(const checker *c, const char *prefix, const ipcc_dirichlet_def *d) {
  int l = d->source_line;
  if (!region(c, l, prefix, &d->region) || !finite3(c, l, prefix, "velocity", d->velocity) ||
      !finite3(c, l, prefix, "angular_velocity", d->angular_velocity) ||
      !window(c, l, prefix, d->t_begin, d->t_end))
    return 0;
  if (d->has_center && !finite3(c, l, prefix, "center", d->center)) return 0;
  /* -infinity: released at once, +infinity: never (a script's dragright without meshCO) */
  if (d->has_release_x && isnan(d->release_x))
    return fail(c, l, prefix, "release_x", "a number (m), got %g", d->release_x);
  return 1;
}

static int neumann(const checker *c, const char *prefix, const ipcc_neumann_def *d) {
  int l = d->source_line;
  return region(c, l, prefix, &d->region) &&
         finite3(c, l, prefix, "acceleration", d->acceleration) &&
         window(c, l, prefix, d->t_begin, d->t_end);
}

static int body(const checker *c, int i, const ipcc_body_def *b) {
  char p[64], mp[96];
  snprintf(p, sizeof p, "bodies[%d]", i);
  snprintf(mp, sizeof mp, "%s.material", p);
  int l = b->source_line;
  if (!b->mesh || !b->mesh[0])
    return fail(c, l, p, "mesh", "the path of the body's mesh file, got %s",
                b->mesh ? "an empty string" : "NULL");
  for (int d = 0; d < 3; ++d)
    if (!(b->scale[d] > 0) || !isfinite(b->scale[d]))
      return fail(c, l, p, "scale", "a positive number or 3 positive numbers, got [%g, %g, %g]",
                  b->scale[0], b->scale[1], b->scale[2]);
  if (!finite3(c, l, p, "translation", b->translation) ||
      !finite3(c, l, p, "rotation", b->rotation) ||
      !friction(c, l, p, b->friction, b->friction_static) ||
      !finite3(c, l, p, "velocity", b->velocity) ||
      !finite3(c, l, p, "angular_velocity", b->angular_velocity))
    return 0;
  if (!isfinite(b->affine_stiffness))
    return fail(c, l, p, "affine_stiffness", "a stiffness (Pa; <= 0: 1e3 x young), got %g",
                b->affine_stiffness);
  if (b->affine && b->obstacle)
    return fail(c, l, p, "affine", "false on an obstacle (a kinematic body has no affine DOFs)");
  if (b->material < IPCC_MAT_NEO_HOOKEAN || b->material > IPCC_MAT_STVK)
    return fail(c, l, mp, "model", "\"neo_hookean\", \"fixed_corotated\" or \"stvk\", got %d",
                (int)b->material);
  /* the Poisson ratio up to (not at) 0.5, as the wording says and IPC scripts may give */
  if (!number(c, l, mp, "density", b->density, 1e-12, 1e12, "a positive density (kg/m^3)") ||
      !number(c, l, mp, "young", b->young, 1e-12, 1e15, "a positive Young's modulus (Pa)") ||
      !number_exact(c, l, mp, "poisson", b->poisson, 0.0, nextafter(0.5, 0.0),
                    "a Poisson ratio in [0, 0.5)"))
    return 0;
  if (b->codim < 0 || b->codim > 2)
    return fail(c, l, p, "codim", "0 (the mesh as read), 1 (edges) or 2 (vertices), got %d",
                b->codim);
  if (b->mesh_sequence && !b->mesh_sequence[0])
    return fail(c, l, p, "mesh_sequence", "a folder of meshes or NULL, got an empty string");
  if (b->ndirichlet < 0 || (b->ndirichlet > 0 && !b->dirichlet))
    return fail(c, l, p, "dirichlet", "an array, got ndirichlet %d, dirichlet %s", b->ndirichlet,
                b->dirichlet ? "set" : "NULL");
  if (b->nneumann < 0 || (b->nneumann > 0 && !b->neumann))
    return fail(c, l, p, "neumann", "an array, got nneumann %d, neumann %s", b->nneumann,
                b->neumann ? "set" : "NULL");
  for (int k = 0; k < b->ndirichlet; ++k) {
    char ep[128];
    snprintf(ep, sizeof ep, "%s.dirichlet[%d]", p, k);
    if (!dirichlet(c, ep, &b->dirichlet[k])) return 0;
  }
  for (int k = 0; k < b->nneumann; ++k) {
    char ep[128];
    snprintf(ep, sizeof ep, "%s.neumann[%d]", p, k);
    if (!neumann(c, ep, &b->neumann[k])) return 0;
  }
  return 1;
}

static int plane(const checker *c, int i, const ipcc_plane_def *pl) {
  char p[64];
  snprintf(p, sizeof p, "planes[%d]", i);
  if (!finite3(c, 0, p, "point", pl->point) || !finite3(c, 0, p, "normal", pl->normal)) return 0;
  if (pl->normal[0] == 0 && pl->normal[1] == 0 && pl->normal[2] == 0)
    return fail(c, 0, p, "normal", "a non-zero normal vector, got [0, 0, 0]");
  return friction(c, 0, p, pl->friction, pl->friction_static);
}

/* the scene's own numbers, in the order of the JSON reader */
static int scene(const checker *c, const ipcc_scene_def *s) {
  /* an IPC script's bbox_diag is its shapes' extent (and its absolute dhat and tolerance are
     divided by it): infinite when a shape lies out of range, which the model builder names by
     the shape's line, as it does for a scene from anywhere else */
  int script = 0;
  for (int i = 0; s->bodies && i < s->nbodies; ++i) script |= s->bodies[i].source_line > 0;
  int overflow = script && s->bbox_diag == INFINITY;
  if (!number(c, 0, "", "time_step", s->time_step, 1e-12, 1e6, "a positive time step (s)") ||
      !number(c, 0, "", "duration", s->duration, 0, 1e9, "a duration >= 0 (s)") ||
      !finite3(c, 0, "", "gravity", s->gravity))
    return 0;
  if (s->integrator < IPCC_IMPLICIT_EULER || s->integrator > IPCC_NEWMARK)
    return fail(c, 0, "", "integrator", "\"implicit_euler\" or \"newmark\", got %d",
                (int)s->integrator);
  if (!number(c, s->source_line_damping, "", "damping.stiffness", s->damping_stiffness, 0, 1e300,
              "a Rayleigh stiffness coefficient >= 0 (s)") ||
      !(overflow ||
        number(c, 0, "contact", "dhat", s->dhat, 1e-15, 1e6, "a positive barrier distance dhat")) ||
      !number_exact(c, 0, "contact", "ccd_scale", s->ccd_scale, 0.01, 0.99,
                    "a line-search CCD scale in [0.01, 0.99]") ||
      !number(c, s->source_line_epsv, "contact", "epsv", s->epsv, 1e-300, 1e300,
              "a positive friction slip speed epsv") ||
      !number(c, 0, "contact", "friction_tolerance", s->friction_tolerance, 0, 1e300,
              "a friction tolerance >= 0 (relative to the bbox diagonal, per second)"))
    return 0;
  if (s->body_contact < IPCC_BODY_CONTACT_ALL || s->body_contact > IPCC_BODY_CONTACT_OBSTACLES_ONLY)
    return fail(c, 0, "contact", "body_contact",
                "\"all\", \"between_bodies\" or \"obstacles_only\", got %d", (int)s->body_contact);
  if (s->friction_combine < IPCC_FRICTION_GEOMETRIC_MEAN ||
      s->friction_combine > IPCC_FRICTION_OBSTACLE)
    return fail(c, 0, "contact", "friction_combine",
                "\"geometric_mean\", \"mean\", \"min\", \"max\" or \"obstacle\", got %d",
                (int)s->friction_combine);
  /* kappa 0 is the JSON's "adaptive" */
  if (!number_exact(c, 0, "contact", "kappa", s->kappa, 0, 1e300,
                    "\"adaptive\" (0) or a positive barrier stiffness") ||
      !number_exact(c, 0, "", "kappa_initial", s->kappa_initial, 0, 1e300,
                    "a barrier stiffness >= 0 (0: kappa's lower bound)"))
    return 0;
  /* <= 0 or >= dhat: no continuation (an IPC script's tuning may give any) */
  if (!isfinite(s->dhat_target))
    return fail(c, 0, "", "dhat_target", "a number (relative as dhat; 0: none), got %g",
                s->dhat_target);
  if (!(overflow || number(c, 0, "newton", "tolerance", s->newton_tol, 1e-15, 1e6,
                           "a positive tolerance (relative to the bbox diagonal, per second)")) ||
      !at_least(c, 0, "newton", "max_iterations", s->newton_max_iterations, 1,
                "a positive integer"))
    return 0;
  if (s->warm_start < IPCC_WARM_PREVIOUS || s->warm_start > IPCC_WARM_INERTIAL)
    return fail(c, 0, "newton", "warm_start", "\"previous\", \"velocity\" or \"inertial\", got %d",
                (int)s->warm_start);
  /* > 0: the length relative parameters refer to; <= 0: the bodies' bounding box */
  if (!isfinite(s->bbox_diag) && !overflow)
    return fail(c, 0, "", "bbox_diag", "a length (m; 0: the bodies' bounding-box diagonal), got %g",
                s->bbox_diag);
  if (!at_least(c, 0, "output", "every", s->output_every, 1, "a positive integer") ||
      !at_least(c, 0, "output", "preview", s->preview_every, 0,
                "true, false, or a positive integer (every Nth frame)"))
    return 0;
  if (s->output_formats & ~(unsigned)IPCC_FORMAT_ALL)
    return fail(c, 0, "output", "format",
                "a format name or a list of them (obj, ply, vtu, pc2), got the bits 0x%x",
                s->output_formats);
  /* a camera_fov of 0 without a camera is the renderer's default */
  if ((s->camera_set || s->camera_fov != 0) &&
      !number_exact(c, 0, "output.camera", "fov", s->camera_fov, 1, 170,
                    "a vertical field of view in degrees (1 to 170)"))
    return 0;
  if (s->camera_set) {
    if (!finite3(c, 0, "output.camera", "eye", s->camera_eye) ||
        !finite3(c, 0, "output.camera", "target", s->camera_target))
      return 0;
    if (!ipcc_camera_eye_apart(s->camera_eye, s->camera_target))
      return fail(c, 0, "output", "camera",
                  "an eye apart from the target (by more than 1e-12 times their coordinates)");
  }
  if (s->nbodies < 1) return fail(c, 0, "", "bodies", "at least one body, got %d", s->nbodies);
  if (!s->bodies)
    return fail(c, 0, "", "bodies", "an array of bodies, got NULL (nbodies %d)", s->nbodies);
  if (s->nplanes < 0 || (s->nplanes > 0 && !s->planes))
    return fail(c, 0, "", "planes", "an array, got nplanes %d, planes %s", s->nplanes,
                s->planes ? "set" : "NULL");
  return 1;
}

ipcc_status ipcc_scene_def_check(const ipcc_scene_def *def, ipcc_error *err) {
  if (!def)
    return ipc_error_set(err, IPCC_ERR_INPUT, "(scene): expected a scene definition, got NULL");
  checker c = {def->path && def->path[0] ? def->path : "(scene)", err};
  if (!scene(&c, def)) return IPCC_ERR_INPUT;
  for (int i = 0; i < def->nbodies; ++i)
    if (!body(&c, i, &def->bodies[i])) return IPCC_ERR_INPUT;
  for (int i = 0; i < def->nplanes; ++i)
    if (!plane(&c, i, &def->planes[i])) return IPCC_ERR_INPUT;
  return IPCC_OK;
}
