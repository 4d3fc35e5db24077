/* JSON scene reader (format: docs/scene-format.md), on cJSON.
   every key is checked: unknown keys and wrong types are errors that name the
   key path (e.g. bodies[1].material.young) and what was expected. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/json_read.h"
#include "io/path.h"
#include "io/scene_txt.h"
#include "ipcc/output.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"
#include "linalg/linear_solver.h"

ipcc_scene_def ipcc_default_scene_def(void) {
  ipcc_scene_def s;
  memset(&s, 0, sizeof s);
  s.time_step = 0.025;
  s.duration = 5.0;
  s.gravity[1] = -9.80665;
  s.integrator = IPCC_IMPLICIT_EULER;
  s.dhat = 1e-3;
  s.kappa = 0.0;
  s.ccd_scale = 0.8;
  s.newton_tol = 1e-2;
  s.newton_max_iterations = 200;
  s.warm_start = IPCC_WARM_PREVIOUS;
  s.output_every = 1;
  s.epsv = 1e-3;
  s.friction_iterations = 1;
  s.friction_tolerance = 1e-2;
  s.friction_combine = IPCC_FRICTION_GEOMETRIC_MEAN;
  s.camera_fov = 35.0;
  return s;
}

ipcc_body_def ipcc_default_body_def(void) {
  ipcc_body_def b;
  memset(&b, 0, sizeof b);
  b.scale[0] = b.scale[1] = b.scale[2] = 1.0;
  b.material = IPCC_MAT_NEO_HOOKEAN;
  b.density = 1000.0;
  b.young = 1e5;
  b.poisson = 0.4;
  return b;
}

static void region_free(ipcc_region_def *r) {
  ipc_free(r->verts);
  r->verts = NULL;
}

void ipcc_scene_def_free(ipcc_scene_def *s) {
  if (!s) return;
  for (int i = 0; i < s->nbodies; ++i) {
    ipcc_body_def *b = &s->bodies[i];
    ipc_free(b->name);
    ipc_free(b->mesh);
    ipc_free(b->mesh_sequence);
    for (int k = 0; k < b->ndirichlet; ++k) region_free(&b->dirichlet[k].region);
    for (int k = 0; k < b->nneumann; ++k) region_free(&b->neumann[k].region);
    ipc_free(b->dirichlet);
    ipc_free(b->neumann);
  }
  ipc_free(s->bodies);
  ipc_free(s->planes);
  ipc_free(s->path);
  memset(s, 0, sizeof *s);
}

/* ---- checked accessors: each reports "FILE: key 'PATH': expected ..." ---- */

typedef struct reader {
  const char *file;
  ipcc_error *err;
  int failed;
} reader;

static int fail(reader *r, const char *key, const char *what) {
  if (!r->failed) {
    ipc_error_set(r->err, IPCC_ERR_INPUT, "%s: key '%s': expected %s", r->file, key, what);
    r->failed = 1;
  }
  return 0;
}

static void keypath(char *out, size_t n, const char *parent, const char *key) {
  if (parent[0])
    snprintf(out, n, "%s.%s", parent, key);
  else
    snprintf(out, n, "%s", key);
}

/* every member of obj must be in the NULL-terminated allowed list */
static int check_keys(reader *r, const cJSON *obj, const char *path, const char *const *allowed) {
  if (!cJSON_IsObject(obj)) return fail(r, path[0] ? path : "(top level)", "an object");
  for (const cJSON *it = obj->child; it; it = it->next) {
    int ok = 0;
    for (const char *const *a = allowed; *a; ++a)
      if (!strcmp(it->string, *a)) ok = 1;
    if (!ok) {
      char key[256], what[512];
      keypath(key, sizeof key, path, it->string);
      size_t len =
          (size_t)snprintf(what, sizeof what, "one of the known keys (unknown key; known:");
      for (const char *const *a = allowed; *a && len < sizeof what; ++a)
        len += (size_t)snprintf(what + len, sizeof what - len, " %s", *a);
      if (len < sizeof what) snprintf(what + len, sizeof what - len, ")");
      return fail(r, key, what);
    }
  }
  return 1;
}

static int get_number(reader *r, const cJSON *obj, const char *path, const char *key, double *out,
                      double lo, double hi, const char *what) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 1;
  char kp[256];
  keypath(kp, sizeof kp, path, key);
  if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi)
    return fail(r, kp, what);
  *out = v->valuedouble;
  return 1;
}

static int get_int(reader *r, const cJSON *obj, const char *path, const char *key, int *out, int lo,
                   const char *what) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 1;
  char kp[256];
  keypath(kp, sizeof kp, path, key);
  if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
      v->valuedouble > 1e9)
    return fail(r, kp, what);
  *out = (int)v->valuedouble;
  return 1;
}

static int get_bool(reader *r, const cJSON *obj, const char *path, const char *key, int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 1;
  char kp[256];
  keypath(kp, sizeof kp, path, key);
  if (!cJSON_IsBool(v)) return fail(r, kp, "true or false");
  *out = cJSON_IsTrue(v);
  return 1;
}

static int parse_vec3(reader *r, const cJSON *v, const char *kp, double out[3]) {
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3) return fail(r, kp, "an array of 3 numbers");
  int i = 0;
  for (const cJSON *e = v->child; e; e = e->next) {
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
      return fail(r, kp, "an array of 3 numbers");
    out[i++] = e->valuedouble;
  }
  return 1;
}

static int get_vec3(reader *r, const cJSON *obj, const char *path, const char *key, double out[3]) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 1;
  char kp[256];
  keypath(kp, sizeof kp, path, key);
  return parse_vec3(r, v, kp, out);
}

static int get_string(reader *r, const cJSON *obj, const char *path, const char *key,
                      const char **out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 1;
  char kp[256];
  keypath(kp, sizeof kp, path, key);
  if (!cJSON_IsString(v) || !v->valuestring[0]) return fail(r, kp, "a non-empty string");
  *out = v->valuestring;
  return 1;
}

/* contact.body_contact, or its older form contact.self_collision (false = between_bodies) */
static int parse_body_contact(reader *r, const cJSON *contact, ipcc_scene_def *s) {
  const char *bc = NULL;
  int self = 1;
  if (!get_string(r, contact, "contact", "body_contact", &bc) ||
      !get_bool(r, contact, "contact", "self_collision", &self))
    return 0;
  if (bc && cJSON_GetObjectItemCaseSensitive(contact, "self_collision"))
    return fail(r, "contact.self_collision",
                "no value next to contact.body_contact (it is the older form of it)");
  s->body_contact = self ? IPCC_BODY_CONTACT_ALL : IPCC_BODY_CONTACT_BETWEEN_BODIES;
  if (!bc) return 1;
  static const char *const modes[] = {"all", "between_bodies", "obstacles_only"};
  for (int i = 0; i < 3; ++i)
    if (!strcmp(bc, modes[i])) {
      s->body_contact = (ipcc_body_contact)i;
      return 1;
    }
  return fail(r, "contact.body_contact", "\"all\", \"between_bodies\" or \"obstacles_only\"");
}

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = IPC_NEW(char, n);
  memcpy(d, s, n);
  return d;
}

/* ---- sections ---- */

static int parse_region(reader *r, const cJSON *obj, const char *path, ipcc_region_def *reg) {
  const cJSON *box = cJSON_GetObjectItemCaseSensitive(obj, "box");
  const cJSON *verts = cJSON_GetObjectItemCaseSensitive(obj, "vertices");
  char kp[256];
  if (box && verts) {
    keypath(kp, sizeof kp, path, "box");
    return fail(r, kp, "either 'box' or 'vertices', not both");
  }
  if (box) {
    keypath(kp, sizeof kp, path, "box");
    if (!cJSON_IsArray(box) || cJSON_GetArraySize(box) != 2)
      return fail(r, kp, "[[x0, y0, z0], [x1, y1, z1]] relative to the body's bounding box");
    if (!parse_vec3(r, box->child, kp, reg->box_min)) return 0;
    if (!parse_vec3(r, box->child->next, kp, reg->box_max)) return 0;
    for (int i = 0; i < 3; ++i)
      if (reg->box_min[i] > reg->box_max[i]) return fail(r, kp, "min corner <= max corner");
    return 1;
  }
  if (verts) {
    keypath(kp, sizeof kp, path, "vertices");
    int n = cJSON_GetArraySize(verts);
    if (!cJSON_IsArray(verts) || n == 0) return fail(r, kp, "a non-empty array of vertex indices");
    reg->verts = IPC_NEW(int, n);
    reg->nverts = n;
    int i = 0;
    for (const cJSON *e = verts->child; e; e = e->next) {
      if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble != floor(e->valuedouble) ||
          e->valuedouble > 2e9)
        return fail(r, kp, "non-negative integer vertex indices (0-based, into the body's mesh)");
      reg->verts[i++] = (int)e->valuedouble;
    }
    return 1;
  }
  keypath(kp, sizeof kp, path, "box");
  return fail(r, kp, "a region: 'box' or 'vertices'");
}

static int parse_window(reader *r, const cJSON *obj, const char *path, double *t0, double *t1) {
  *t0 = 0.0;
  *t1 = INFINITY;
  if (!get_number(r, obj, path, "start", t0, 0, 1e30, "a start time >= 0 (s)")) return 0;
  if (!get_number(r, obj, path, "end", t1, 0, 1e30, "an end time >= 0 (s)")) return 0;
  if (*t1 < *t0) {
    char kp[256];
    keypath(kp, sizeof kp, path, "end");
    return fail(r, kp, "an end time >= start");
  }
  return 1;
}

static int parse_dirichlet(reader *r, const cJSON *obj, const char *path, ipcc_dirichlet_def *d) {
  static const char *const keys[] = {"box",   "vertices", "velocity", "angular_velocity",
                                     "start", "end",      NULL};
  memset(d, 0, sizeof *d);
  return check_keys(r, obj, path, keys) && parse_region(r, obj, path, &d->region) &&
         get_vec3(r, obj, path, "velocity", d->velocity) &&
         get_vec3(r, obj, path, "angular_velocity", d->angular_velocity) &&
         parse_window(r, obj, path, &d->t_begin, &d->t_end);
}

static int parse_neumann(reader *r, const cJSON *obj, const char *path, ipcc_neumann_def *d) {
  static const char *const keys[] = {"box", "vertices", "acceleration", "start", "end", NULL};
  memset(d, 0, sizeof *d);
  if (!cJSON_GetObjectItemCaseSensitive(obj, "acceleration")) {
    char kp[256];
    keypath(kp, sizeof kp, path, "acceleration");
    return fail(r, kp, "an acceleration [ax, ay, az] (m/s^2)");
  }
  return check_keys(r, obj, path, keys) && parse_region(r, obj, path, &d->region) &&
         get_vec3(r, obj, path, "acceleration", d->acceleration) &&
         parse_window(r, obj, path, &d->t_begin, &d->t_end);
}

static int parse_material(reader *r, const cJSON *obj, const char *path, ipcc_body_def *b) {
  static const char *const keys[] = {"model", "density", "young", "poisson", NULL};
  if (!check_keys(r, obj, path, keys)) return 0;
  const char *model = NULL;
  if (!get_string(r, obj, path, "model", &model)) return 0;
  if (model) {
    if (!strcmp(model, "neo_hookean"))
      b->material = IPCC_MAT_NEO_HOOKEAN;
    else if (!strcmp(model, "fixed_corotated"))
      b->material = IPCC_MAT_FIXED_COROTATED;
    else if (!strcmp(model, "stvk"))
      b->material = IPCC_MAT_STVK;
    else {
      char kp[256];
      keypath(kp, sizeof kp, path, "model");
      return fail(r, kp, "\"neo_hookean\", \"fixed_corotated\" or \"stvk\"");
    }
  }
  return get_number(r, obj, path, "density", &b->density, 1e-12, 1e12,
                    "a positive density (kg/m^3)") &&
         get_number(r, obj, path, "young", &b->young, 1e-12, 1e15,
                    "a positive Young's modulus (Pa)") &&
         get_number(r, obj, path, "poisson", &b->poisson, 0.0, 0.4999,
                    "a Poisson ratio in [0, 0.5)");
}

static int parse_list(reader *r, const cJSON *arr, const char *kp, int *n) {
  if (!cJSON_IsArray(arr)) return fail(r, kp, "an array");
  *n = cJSON_GetArraySize(arr);
  return 1;
}

/* "friction": mu (static = kinetic) or {"static": mu_s, "kinetic": mu_k}, mu_s >= mu_k */
static int get_friction(reader *r, const cJSON *obj, const char *path, double *kinetic,
                        double *stat) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "friction");
  if (!v) return 1;
  char kp[256];
  keypath(kp, sizeof kp, path, "friction");
  if (cJSON_IsNumber(v)) {
    if (!get_number(r, obj, path, "friction", kinetic, 0, 1e6, "a friction coefficient >= 0"))
      return 0;
    *stat = *kinetic;
    return 1;
  }
  static const char *const keys[] = {"static", "kinetic", NULL};
  if (!cJSON_IsObject(v))
    return fail(r, kp, "a coefficient >= 0 or {\"static\": mu_s, \"kinetic\": mu_k}");
  if (!check_keys(r, v, kp, keys) ||
      !get_number(r, v, kp, "kinetic", kinetic, 0, 1e6, "a friction coefficient >= 0"))
    return 0;
  *stat = *kinetic;
  if (!get_number(r, v, kp, "static", stat, 0, 1e6, "a friction coefficient >= 0")) return 0;
  if (*stat < *kinetic) {
    char sp[300];
    snprintf(sp, sizeof sp, "%s.static", kp);
    return fail(r, sp, "a static coefficient >= the kinetic one");
  }
  return 1;
}

static int parse_body(reader *r, const cJSON *obj, const char *path, const char *scene_dir,
                      ipcc_body_def *b) {
  static const char *const keys[] = {
      "name",      "mesh",     "translation", "rotation",         "scale",
      "obstacle",  "material", "friction",    "velocity",         "angular_velocity",
      "dirichlet", "neumann",  "affine",      "affine_stiffness", NULL};
  *b = ipcc_default_body_def();
  if (!check_keys(r, obj, path, keys)) return 0;
  const char *mesh = NULL, *name = NULL;
  if (!get_string(r, obj, path, "mesh", &mesh) || !get_string(r, obj, path, "name", &name))
    return 0;
  char kp[256];
  if (!mesh) {
    keypath(kp, sizeof kp, path, "mesh");
    return fail(r, kp, "the path of the body's mesh file");
  }
  b->mesh = ipc_path_join(scene_dir, mesh);
  /* a name goes into OBJ 'o' lines, PLY header comments and stats.json: a control character
     (a newline above all) would break those files */
  for (const char *c = name; c && *c; ++c)
    if ((unsigned char)*c < 0x20 || *c == 0x7f) {
      keypath(kp, sizeof kp, path, "name");
      return fail(r, kp, "a name without control characters (newline, tab, ...)");
    }
  if (name) b->name = dup_string(name);
  const cJSON *sc = cJSON_GetObjectItemCaseSensitive(obj, "scale");
  if (sc && cJSON_IsNumber(sc)) {
    b->scale[0] = b->scale[1] = b->scale[2] = sc->valuedouble;
  } else if (!get_vec3(r, obj, path, "scale", b->scale)) {
    return 0;
  }
  for (int i = 0; i < 3; ++i)
    if (!(b->scale[i] > 0) || !isfinite(b->scale[i])) {
      keypath(kp, sizeof kp, path, "scale");
      return fail(r, kp, "a positive number or 3 positive numbers");
    }
  if (!get_vec3(r, obj, path, "translation", b->translation) ||
      !get_vec3(r, obj, path, "rotation", b->rotation) ||
      !get_bool(r, obj, path, "obstacle", &b->obstacle) ||
      !get_friction(r, obj, path, &b->friction, &b->friction_static) ||
      !get_vec3(r, obj, path, "velocity", b->velocity) ||
      !get_vec3(r, obj, path, "angular_velocity", b->angular_velocity) ||
      !get_bool(r, obj, path, "affine", &b->affine) ||
      !get_number(r, obj, path, "affine_stiffness", &b->affine_stiffness, 1e-300, 1e300,
                  "a positive stiffness (Pa)"))
    return 0;
  if (b->affine && b->obstacle) {
    keypath(kp, sizeof kp, path, "affine");
    return fail(r, kp, "false on an obstacle (a kinematic body has no affine DOFs)");
  }
  const cJSON *mat = cJSON_GetObjectItemCaseSensitive(obj, "material");
  if (mat) {
    keypath(kp, sizeof kp, path, "material");
    if (!parse_material(r, mat, kp, b)) return 0;
  }
  const cJSON *dir = cJSON_GetObjectItemCaseSensitive(obj, "dirichlet");
  if (dir) {
    keypath(kp, sizeof kp, path, "dirichlet");
    if (!parse_list(r, dir, kp, &b->ndirichlet)) return 0;
    b->dirichlet = IPC_NEW0(ipcc_dirichlet_def, b->ndirichlet);
    int i = 0;
    for (const cJSON *e = dir->child; e; e = e->next, ++i) {
      char ep[256];
      snprintf(ep, sizeof ep, "%s[%d]", kp, i);
      if (!parse_dirichlet(r, e, ep, &b->dirichlet[i])) return 0;
    }
  }
  const cJSON *neu = cJSON_GetObjectItemCaseSensitive(obj, "neumann");
  if (neu) {
    keypath(kp, sizeof kp, path, "neumann");
    if (!parse_list(r, neu, kp, &b->nneumann)) return 0;
    b->neumann = IPC_NEW0(ipcc_neumann_def, b->nneumann);
    int i = 0;
    for (const cJSON *e = neu->child; e; e = e->next, ++i) {
      char ep[256];
      snprintf(ep, sizeof ep, "%s[%d]", kp, i);
      if (!parse_neumann(r, e, ep, &b->neumann[i])) return 0;
    }
  }
  return 1;
}

static int parse_plane(reader *r, const cJSON *obj, const char *path, ipcc_plane_def *p) {
  static const char *const keys[] = {"point", "normal", "friction", NULL};
  memset(p, 0, sizeof *p);
  p->normal[1] = 1.0;
  if (!check_keys(r, obj, path, keys) || !get_vec3(r, obj, path, "point", p->point) ||
      !get_vec3(r, obj, path, "normal", p->normal) ||
      !get_friction(r, obj, path, &p->friction, &p->friction_static))
    return 0;
  double n =
      sqrt(p->normal[0] * p->normal[0] + p->normal[1] * p->normal[1] + p->normal[2] * p->normal[2]);
  if (!(n > 0)) {
    char kp[256];
    keypath(kp, sizeof kp, path, "normal");
    return fail(r, kp, "a non-zero normal vector");
  }
  for (int i = 0; i < 3; ++i) p->normal[i] /= n;
  return 1;
}

/* output.format ("obj", "obj,vtu" or ["obj", "vtu"]), output.planes (bool), output.preview
   (bool or every Nth frame), output.camera {eye, target, fov} */
static int parse_output_extras(reader *r, const cJSON *output, ipcc_scene_def *s) {
  static const char *const fmt_what = "a format name or a list of them (obj, ply, vtu, pc2)";
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(output, "format");
  if (f) {
    unsigned bits = 0;
    if (cJSON_IsString(f)) {
      if (ipcc_output_formats_parse(f->valuestring, &bits) != 0)
        return fail(r, "output.format", fmt_what);
    } else if (cJSON_IsArray(f) && cJSON_GetArraySize(f) > 0) {
      for (const cJSON *e = f->child; e; e = e->next) {
        unsigned b = 0;
        if (!cJSON_IsString(e) || ipcc_output_formats_parse(e->valuestring, &b) != 0)
          return fail(r, "output.format", fmt_what);
        bits |= b;
      }
    } else {
      return fail(r, "output.format", fmt_what);
    }
    s->output_formats = bits;
  }
  const cJSON *pl = cJSON_GetObjectItemCaseSensitive(output, "planes");
  if (pl) {
    if (!cJSON_IsBool(pl))
      return fail(r, "output.planes",
                  "true or false (true: the analytic planes as squares in frames/planes.obj)");
    if (cJSON_IsTrue(pl)) s->output_formats |= IPCC_FORMAT_PLANES;
  }
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(output, "preview");
  if (p) {
    if (cJSON_IsBool(p))
      s->preview_every = cJSON_IsTrue(p) ? 1 : 0;
    else if (!get_int(r, output, "output", "preview", &s->preview_every, 1,
                      "true, false, or a positive integer (every Nth frame)"))
      return 0;
  }
  const cJSON *cam = cJSON_GetObjectItemCaseSensitive(output, "camera");
  if (cam) {
    static const char *const ckeys[] = {"eye", "target", "fov", NULL};
    if (!check_keys(r, cam, "output.camera", ckeys)) return 0;
    if (!cJSON_GetObjectItemCaseSensitive(cam, "eye") ||
        !cJSON_GetObjectItemCaseSensitive(cam, "target"))
      return fail(r, "output.camera", "both 'eye' and 'target' ([x, y, z] in m)");
    if (!get_vec3(r, cam, "output.camera", "eye", s->camera_eye) ||
        !get_vec3(r, cam, "output.camera", "target", s->camera_target) ||
        !get_number(r, cam, "output.camera", "fov", &s->camera_fov, 1, 170,
                    "a vertical field of view in degrees (1 to 170)"))
      return 0;
    if (!ipcc_camera_eye_apart(s->camera_eye, s->camera_target))
      return fail(r, "output.camera",
                  "an eye apart from the target (by more than 1e-12 times their coordinates)");
    s->camera_set = 1;
  }
  return 1;
}

/* damping: {"stiffness": beta} (s), or {"ratio": r}, IPC's dampingRatio: beta = 3/4 r h */
static int parse_damping(reader *r, const cJSON *root, ipcc_scene_def *s) {
  static const char *const keys[] = {"stiffness", "ratio", NULL};
  const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "damping");
  double ratio = -1;
  if (!d) return 1;
  if (!check_keys(r, d, "damping", keys) ||
      !get_number(r, d, "damping", "stiffness", &s->damping_stiffness, 0, 1e300,
                  "a Rayleigh stiffness coefficient >= 0 (s)") ||
      !get_number(r, d, "damping", "ratio", &ratio, 0, 1, "a damping ratio in [0, 1]"))
    return 0;
  if (ratio >= 0 && cJSON_GetObjectItemCaseSensitive(d, "stiffness"))
    return fail(r, "damping.ratio", "no value next to damping.stiffness (give one of them)");
  if (ratio >= 0) s->damping_stiffness = 0.75 * ratio * s->time_step;
  return 1;
}

/* newton.linear_solver: a name of linear_solver.h, whose backend this build has */
static int parse_linear_solver(reader *r, const cJSON *newton, ipcc_scene_def *s) {
  const char *name = NULL;
  if (!get_string(r, newton, "newton", "linear_solver", &name)) return 0;
  if (!name) return 1;
  if (!ipc_linear_solver_kind_parse(name, &s->linear_solver)) {
    char what[160];
    snprintf(what, sizeof what, "%s, got \"%.40s\"", ipc_linear_solver_kind_list(), name);
    return fail(r, "newton.linear_solver", what);
  }
  if (!ipc_linear_solver_kind_available(s->linear_solver)) {
    ipc_error_set(r->err, IPCC_ERR_INPUT,
                  "%s: key 'newton.linear_solver': \"%s\" needs PETSc, which this build of ipcc "
                  "does not have (install petsc-dev and libopenmpi-dev, e.g. with "
                  "tools/install-deps.sh, then meson setup --reconfigure -Dpetsc=enabled), or "
                  "use \"cholmod\"",
                  r->file, name);
    r->failed = 1;
    return 0;
  }
  return 1;
}

static int parse_scene(reader *r, const cJSON *root, const char *scene_dir, ipcc_scene_def *s) {
  static const char *const keys[] = {"time_step", "duration",    "gravity", "integrator",
                                     "contact",   "newton",      "output",  "bodies",
                                     "planes",    "description", "mode",    "damping",
                                     "lcp", /* read by scene_lcp.c */
                                     NULL};
  if (!check_keys(r, root, "", keys)) return 0;
  if (!get_number(r, root, "", "time_step", &s->time_step, 1e-12, 1e6,
                  "a positive time step (s)") ||
      !get_number(r, root, "", "duration", &s->duration, 0, 1e9, "a duration >= 0 (s)") ||
      !get_vec3(r, root, "", "gravity", s->gravity))
    return 0;
  const char *integ = NULL;
  if (!get_string(r, root, "", "integrator", &integ)) return 0;
  if (integ) {
    if (!strcmp(integ, "implicit_euler"))
      s->integrator = IPCC_IMPLICIT_EULER;
    else if (!strcmp(integ, "newmark"))
      s->integrator = IPCC_NEWMARK;
    else
      return fail(r, "integrator", "\"implicit_euler\" or \"newmark\"");
  }
  if (!parse_damping(r, root, s)) return 0;
  const cJSON *contact = cJSON_GetObjectItemCaseSensitive(root, "contact");
  if (contact) {
    static const char *const ckeys[] = {"dhat",
                                        "dhat_absolute",
                                        "kappa",
                                        "self_collision",
                                        "body_contact",
                                        "ccd_scale",
                                        "epsv",
                                        "epsv_absolute",
                                        "friction_iterations",
                                        "friction_tolerance",
                                        "friction_combine",
                                        NULL};
    if (!check_keys(r, contact, "contact", ckeys) ||
        !get_number(r, contact, "contact", "dhat", &s->dhat, 1e-15, 1e6,
                    "a positive barrier distance dhat") ||
        !get_bool(r, contact, "contact", "dhat_absolute", &s->dhat_absolute) ||
        !get_number(r, contact, "contact", "ccd_scale", &s->ccd_scale, 0.01, 0.99,
                    "a line-search CCD scale in [0.01, 0.99]") ||
        !get_number(r, contact, "contact", "epsv", &s->epsv, 1e-300, 1e300,
                    "a positive friction slip speed epsv") ||
        !get_bool(r, contact, "contact", "epsv_absolute", &s->epsv_absolute) ||
        !get_int(r, contact, "contact", "friction_iterations", &s->friction_iterations, 1,
                 "a positive number of lagged friction solves") ||
        !get_number(r, contact, "contact", "friction_tolerance", &s->friction_tolerance, 0, 1e300,
                    "a friction tolerance >= 0 (relative to the bbox diagonal, per second)"))
      return 0;
    if (!parse_body_contact(r, contact, s)) return 0;
    const char *comb = NULL;
    if (!get_string(r, contact, "contact", "friction_combine", &comb)) return 0;
    if (comb) {
      static const char *const rules[] = {"geometric_mean", "mean", "min", "max", "obstacle"};
      int found = -1;
      for (int i = 0; i < 5; ++i)
        if (!strcmp(comb, rules[i])) found = i;
      if (found < 0)
        return fail(r, "contact.friction_combine",
                    "\"geometric_mean\", \"mean\", \"min\", \"max\" or \"obstacle\"");
      s->friction_combine = (ipcc_friction_combine)found;
    }
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(contact, "kappa");
    if (k && !(cJSON_IsString(k) && !strcmp(k->valuestring, "adaptive"))) {
      if (!get_number(r, contact, "contact", "kappa", &s->kappa, 1e-300, 1e300,
                      "\"adaptive\" or a positive barrier stiffness"))
        return 0;
    }
  }
  const cJSON *newton = cJSON_GetObjectItemCaseSensitive(root, "newton");
  if (newton) {
    static const char *const nkeys[] = {"tolerance",   "max_iterations", "warm_start",
                                        "line_search", "linear_solver",  "body_freezing",
                                        NULL};
    if (!check_keys(r, newton, "newton", nkeys) ||
        !get_number(r, newton, "newton", "tolerance", &s->newton_tol, 1e-15, 1e6,
                    "a positive tolerance (relative to the bbox diagonal, per second)") ||
        !get_int(r, newton, "newton", "max_iterations", &s->newton_max_iterations, 1,
                 "a positive integer"))
      return 0;
    const char *ws = NULL;
    if (!get_string(r, newton, "newton", "warm_start", &ws)) return 0;
    if (ws) {
      if (!strcmp(ws, "previous"))
        s->warm_start = IPCC_WARM_PREVIOUS;
      else if (!strcmp(ws, "velocity"))
        s->warm_start = IPCC_WARM_VELOCITY;
      else if (!strcmp(ws, "inertial"))
        s->warm_start = IPCC_WARM_INERTIAL;
      else
        return fail(r, "newton.warm_start", "\"previous\", \"velocity\" or \"inertial\"");
    }
    const char *ls = NULL;
    if (!get_string(r, newton, "newton", "line_search", &ls)) return 0;
    if (ls) {
      if (!strcmp(ls, "islands"))
        s->island_line_search = 1;
      else if (!strcmp(ls, "global"))
        s->island_line_search = 0;
      else
        return fail(r, "newton.line_search", "\"islands\" or \"global\"");
    }
    if (!get_bool(r, newton, "newton", "body_freezing", &s->body_freezing)) return 0;
    if (!parse_linear_solver(r, newton, s)) return 0;
  }
  const cJSON *output = cJSON_GetObjectItemCaseSensitive(root, "output");
  if (output) {
    static const char *const okeys[] = {"every", "format", "planes", "preview", "camera", NULL};
    if (!check_keys(r, output, "output", okeys) ||
        !get_int(r, output, "output", "every", &s->output_every, 1, "a positive integer") ||
        !parse_output_extras(r, output, s))
      return 0;
  }
  const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(root, "bodies");
  if (!bodies) return fail(r, "bodies", "an array of bodies");
  if (!parse_list(r, bodies, "bodies", &s->nbodies)) return 0;
  if (s->nbodies == 0) return fail(r, "bodies", "at least one body");
  s->bodies = IPC_NEW0(ipcc_body_def, s->nbodies);
  int i = 0;
  for (const cJSON *e = bodies->child; e; e = e->next, ++i) {
    char bp[64];
    snprintf(bp, sizeof bp, "bodies[%d]", i);
    if (!parse_body(r, e, bp, scene_dir, &s->bodies[i])) return 0;
  }
  const cJSON *planes = cJSON_GetObjectItemCaseSensitive(root, "planes");
  if (planes) {
    if (!parse_list(r, planes, "planes", &s->nplanes)) return 0;
    s->planes = IPC_NEW0(ipcc_plane_def, s->nplanes);
    i = 0;
    for (const cJSON *e = planes->child; e; e = e->next, ++i) {
      char pp[64];
      snprintf(pp, sizeof pp, "planes[%d]", i);
      if (!parse_plane(r, e, pp, &s->planes[i])) return 0;
    }
  }
  return 1;
}

ipcc_status ipcc_scene_load(const char *path, ipcc_scene_def *out, ipcc_error *err) {
  *out = ipcc_default_scene_def();
  size_t len = 0;
  char *text = ipc_read_file(path, &len, err);
  if (!text) return IPCC_ERR_INPUT;
  if (ipc_scene_text_is_txt(path, text)) {
    ipc_free(text);
    return ipcc_scene_load_txt(path, 0, out, err);
  }
  cJSON *root = ipc_json_parse_object(path, text, len, err);
  if (!root) {
    ipc_free(text);
    return IPCC_ERR_INPUT;
  }
  out->path = dup_string(path);
  char *dir = ipc_path_dirname(path);
  reader r = {path, err, 0};
  int ok = parse_scene(&r, root, dir, out);
  ipc_free(dir);
  cJSON_Delete(root);
  ipc_free(text);
  if (!ok) {
    ipcc_scene_def_free(out);
    return IPCC_ERR_INPUT;
  }
  return IPCC_OK;
}
