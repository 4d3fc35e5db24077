/* IPC's .txt scene scripts (ipc-sim/IPC: src/Config.cpp reads them, src/main.cpp loads the
   shapes, src/AnimScripter.cpp runs the built-in scenarios), mapped onto ipcc_scene_def.
   the keywords and their meaning are listed in README.md ("IPC scripts"); every keyword is
   either implemented or rejected as "FILE:LINE: keyword 'X' is not supported (...)".

   geometry is placed as IPC places it: each shape p -> R (s o p) + t; then every shape
   together is rotated by rotateModel about IPC's pivot (max - min) / 2, scaled so that
   its largest extent is `size` and moved so that its minimum is at the origin, then
   lifted by half its diagonal for the fall/dragright scenarios (scene_txt_build.c). the
   parser reads the meshes to do this and folds the global steps into each body's own
   transform. meshCO
   obstacles, ground and halfSpace are placed after that, unscaled. relative parameters
   (dHat, epsv, tol, kappa) refer to the diagonal of the tet shapes alone, as in IPC. */
#define _XOPEN_SOURCE 700

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/path.h"
#include "io/scene_txt.h"
#include "io/scene_txt_internal.h"
#include "ipcc/mesh.h"
#include "ipcc/scene.h"

/* most shapes a script may create (shapes, shapeMatrix, meshCO together): each becomes a
   body, and shapeMatrix multiplies its counts */
#define TXT_MAX_SHAPES 100000

const char *const ipc_txt_script_names[] = {"null",
                                            "fall",
                                            "fallNoShift",
                                            "dragright",
                                            "twist",
                                            "stretchAndPause",
                                            "DCOFix",
                                            "DCORotCylinders",
                                            "DCOSegBedSquash",
                                            "DCOSquash6",
                                            "hang",
                                            "hang2",
                                            "hangTopLeft",
                                            "hangLeft",
                                            "swing",
                                            "stamp",
                                            "stampTopLeft",
                                            "stampBoth",
                                            "undstamp",
                                            "stand",
                                            "topbottomfix",
                                            "fixLowerHalf",
                                            "corner",
                                            "push",
                                            "tear",
                                            "upndown",
                                            "stretch",
                                            "squash",
                                            "stretchnsquash",
                                            "bend",
                                            "twistnstretch",
                                            "twistnsns",
                                            "twistnsns_old",
                                            "rubberBandPull",
                                            "fourLegPull",
                                            "headTailPull",
                                            "dragdown",
                                            "toggleTop",
                                            "leftHitRight",
                                            "drop",
                                            "curtain",
                                            "fixRightMost1",
                                            "pushRightMost1",
                                            "NMFixBottomDragLeft",
                                            "NMFixBottomDragForward",
                                            "MCOSquash",
                                            "MCORotSquash",
                                            "MCORotCylinders",
                                            "DCOSquash",
                                            "DCOBallHitWall",
                                            "DCOSqueezeOut",
                                            "DCOVerschoorRoller",
                                            "DCOHammerWalnut",
                                            "DCOCut",
                                            "utopiaComparison",
                                            "meshSeqFromFile",
                                            NULL};

/* IPC's scenarios that ipcc cannot express, and why */
static const char *const script_rejected[][2] = {
    {"scaleF",
     "it starts the shapes scaled by 1.5 away from their rest shape; ipcc starts at rest"},
    {"stampInv", "it starts the shapes mirrored (inverted elements) away from their rest shape"},
    {"standInv", "it starts the shapes mirrored (inverted elements) away from their rest shape"},
    {"onepoint", "it starts every vertex at one point, away from the rest shape"},
    {"random", "it starts the vertices at random positions, away from the rest shape"},
    {"XYRotate",
     "per-vertex initial velocities (top and bottom rows opposite); ipcc's initial "
     "velocities are per shape"},
    {"ACOSquash", "it moves ground / halfSpace planes; ipcc's planes are fixed"},
    {"ACOSquash6", "it moves ground / halfSpace planes; ipcc's planes are fixed"},
    {"ACOSquashShear", "it moves ground / halfSpace planes; ipcc's planes are fixed"},
};

/* ---- messages ---- */

int ipc_txt_bad(txt *p, int line, const char *fmt, ...) {
  if (p->failed) return 0;
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (line > 0)
    ipc_error_set(p->err, IPCC_ERR_INPUT, "%s:%d: %s", p->file, line, msg);
  else
    ipc_error_set(p->err, IPCC_ERR_INPUT, "%s: %s", p->file, msg);
  p->failed = 1;
  return 0;
}

/* an IPC keyword ipcc does not implement: error, or a warning with --lenient */
int ipc_txt_unsupported(txt *p, int line, const char *kw, const char *why) {
  if (p->flags & IPCC_SCENE_LENIENT) {
    fprintf(stderr, "%s:%d: warning: keyword '%s' is not supported (%s); ignored\n", p->file, line,
            kw, why);
    return 1;
  }
  return ipc_txt_bad(p, line, "keyword '%s' is not supported (%s)", kw, why);
}

static int parse_double(const char *s, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

/* l->t[first .. first + n) as numbers */
static int numbers(txt *p, const txt_line *l, int first, int n, double *out, const char *what) {
  for (int i = 0; i < n; ++i)
    if (first + i >= l->n || !parse_double(l->t[first + i], &out[i]))
      return ipc_txt_bad(p, l->no, "keyword '%s': expected %s%s%s", l->t[0], what,
                         first + i < l->n ? ", got " : "", first + i < l->n ? l->t[first + i] : "");
  return 1;
}

/* nothing after token k except a '#' comment */
static int no_extra(txt *p, const txt_line *l, int k) {
  if (k < l->n && l->t[k][0] != '#')
    return ipc_txt_bad(p, l->no, "keyword '%s': unexpected argument '%s'", l->t[0], l->t[k]);
  return 1;
}

char *ipc_txt_dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = IPC_NEW(char, n);
  memcpy(d, s, n);
  return d;
}

/* ---- lines ---- */

static void split_lines(txt *p, const char *text) {
  size_t len = strlen(text);
  p->buf = IPC_NEW(char, len + 1);
  memcpy(p->buf, text, len + 1);
  int cap = 0, no = 0;
  char *s = p->buf;
  while (*s || s == p->buf) {
    char *e = strchr(s, '\n');
    if (e) *e = '\0';
    ++no;
    txt_line l = {no, 0, NULL};
    int tcap = 0;
    for (char *q = s; *q;) {
      while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\f' || *q == '\v') *q++ = '\0';
      if (!*q) break;
      if (l.n == tcap) {
        tcap = tcap ? 2 * tcap : 8;
        l.t = ipc_realloc(l.t, (size_t)tcap * sizeof(char *));
      }
      l.t[l.n++] = q;
      while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\f' && *q != '\v') ++q;
    }
    if (p->nlines == cap) {
      cap = cap ? 2 * cap : 64;
      p->lines = ipc_realloc(p->lines, (size_t)cap * sizeof(txt_line));
    }
    p->lines[p->nlines++] = l;
    if (!e) break;
    s = e + 1;
  }
}

static int blank_or_comment(const txt_line *l) {
  return l->n == 0 || l->t[0][0] == '#';
}

/* ---- shapes ---- */

typedef struct extras {
  txt *p;
  const txt_line *l;
  int i;
} extras;

/* next extra token of a shape line: '\' continues on the next line, '#' comments out the
   rest of the line (up to a '\') */
static const char *extra_next(extras *x) {
  for (;;) {
    if (x->i >= x->l->n) return NULL;
    const char *t = x->l->t[x->i++];
    if (!strcmp(t, "\\") || t[0] == '#') {
      int cont = !strcmp(t, "\\");
      while (!cont && x->i < x->l->n)
        if (!strcmp(x->l->t[x->i++], "\\")) cont = 1;
      if (!cont) return NULL;
      if (x->p->cur + 1 >= x->p->nlines) return NULL;
      x->l = &x->p->lines[++x->p->cur];
      x->i = 0;
      continue;
    }
    return t;
  }
}

static int extra_numbers(extras *x, const char *kw, int n, double *out) {
  for (int i = 0; i < n; ++i)
    if (x->i >= x->l->n || !parse_double(x->l->t[x->i], &out[i]))
      return ipc_txt_bad(x->p, x->l->no, "shape extra '%s': expected %d numbers%s%s", kw, n,
                         x->i < x->l->n ? ", got " : "", x->i < x->l->n ? x->l->t[x->i] : "");
    else
      x->i++;
  return 1;
}

/* an optional number (time windows of DBC/NBC) */
static int extra_optional(extras *x, double *out) {
  if (x->i < x->l->n && parse_double(x->l->t[x->i], out)) {
    x->i++;
    return 1;
  }
  return 0;
}

static txt_shape *new_shape(txt *p, int line) {
  size_t cap = (size_t)p->cap_shapes;
  ipc_reserve((void **)&p->shapes, &cap, (size_t)p->nshapes + 1, sizeof(txt_shape));
  p->cap_shapes = (int)cap;
  txt_shape *s = &p->shapes[p->nshapes++];
  memset(s, 0, sizeof *s);
  s->line = line;
  s->s[0] = s->s[1] = s->s[2] = 1.0;
  s->mat[0] = s->mat[1] = s->mat[2] = NAN;
  return s;
}

static int add_bc(txt *p, txt_shape *s, int which, const txt_bc *bc) {
  (void)p;
  s->bc[which] = ipc_realloc(s->bc[which], (size_t)(s->nbc[which] + 1) * sizeof(txt_bc));
  s->bc[which][s->nbc[which]++] = *bc;
  return 1;
}

/* one shape line: path t r s [extras] (l is the line; p->cur may advance over '\') */
static int parse_shape_line(txt *p, const txt_line *l) {
  double v[9];
  if (!numbers(p, l, 1, 9, v, "a shape line 'path tx ty tz rx ry rz sx sy sz [extras]'")) return 0;
  txt_shape *s = new_shape(p, l->no);
  if (!ipc_txt_resolve_mesh(p, l->no, "shapes", l->t[0], s)) return 0;
  memcpy(s->t, v, sizeof s->t);
  memcpy(s->r, v + 3, sizeof s->r);
  memcpy(s->s, v + 6, sizeof s->s);
  for (int d = 0; d < 3; ++d)
    if (!(s->s[d] > 0)) return ipc_txt_bad(p, l->no, "shape '%s': scale must be positive", l->t[0]);
  extras x = {p, l, 10};
  const char *kw;
  while ((kw = extra_next(&x))) {
    int ln = x.l->no;
    if (!strcmp(kw, "material")) {
      if (!extra_numbers(&x, kw, 3, s->mat)) return 0;
    } else if (!strcmp(kw, "linearVelocity")) {
      if (!extra_numbers(&x, kw, 3, s->lin_vel)) return 0;
      s->has_lin_vel = 1;
    } else if (!strcmp(kw, "angularVelocity")) {
      if (!extra_numbers(&x, kw, 3, s->ang_vel)) return 0;
      for (int d = 0; d < 3; ++d) s->ang_vel[d] *= pi / 180;
      s->has_ang_vel = 1;
    } else if (!strcmp(kw, "initVel")) {
      double iv[6];
      if (!extra_numbers(&x, kw, 6, iv)) return 0;
      for (int d = 0; d < 3; ++d) {
        s->init_v[d] = iv[d];
        s->init_w[d] = iv[3 + d] * pi / 180;
      }
      s->has_init_vel = 1;
    } else if (!strcmp(kw, "DBC") || !strcmp(kw, "NBC")) {
      int dbc = kw[0] == 'D';
      double b[12];
      txt_bc bc;
      memset(&bc, 0, sizeof bc);
      bc.line = ln;
      if (!extra_numbers(&x, kw, dbc ? 12 : 9, b)) return 0;
      for (int d = 0; d < 3; ++d) {
        bc.lo[d] = b[d];
        bc.hi[d] = b[3 + d];
        bc.v[d] = b[6 + d];
        bc.w[d] = dbc ? b[9 + d] * pi / 180 : 0.0;
      }
      bc.t0 = 0;
      bc.t1 = INFINITY;
      if (extra_optional(&x, &bc.t0)) extra_optional(&x, &bc.t1);
      for (int d = 0; d < 3; ++d)
        if (!(bc.lo[d] <= bc.hi[d]))
          return ipc_txt_bad(p, ln,
                             "shape extra '%s': the box's minimum corner must not exceed its "
                             "maximum (coordinate %d: %g > %g)",
                             kw, d + 1, bc.lo[d], bc.hi[d]);
      if (!(bc.t0 <= bc.t1))
        return ipc_txt_bad(p, ln, "shape extra '%s': the time range %g to %g is reversed", kw,
                           bc.t0, bc.t1);
      add_bc(p, s, dbc ? 0 : 1, &bc);
    } else if (!strcmp(kw, "meshSeq")) {
      const char *folder = extra_next(&x);
      if (!folder) return ipc_txt_bad(p, ln, "shape extra 'meshSeq': expected a folder of meshes");
      ipc_free(s->seq);
      s->seq = ipc_txt_dup_str(folder);
      s->seq_line = ln;
    } else {
      return ipc_txt_bad(p, ln,
                         "shape '%s': unknown extra '%s' (expected material, initVel, "
                         "linearVelocity, angularVelocity, DBC, NBC or meshSeq)",
                         l->t[0], kw);
    }
  }
  return 1;
}

static int parse_shapes(txt *p, const txt_line *l) {
  double n;
  if (l->n < 3 || !parse_double(l->t[2], &n) || n < 0 || n != floor(n))
    return ipc_txt_bad(p, l->no,
                       "keyword 'shapes': expected 'shapes input N' followed by N shape lines");
  if (!no_extra(p, l, 3)) return 0;
  if (n > TXT_MAX_SHAPES - p->nshapes)
    return ipc_txt_bad(p, l->no,
                       "keyword 'shapes': count %s is too large, expected at most %d shapes",
                       l->t[2], TXT_MAX_SHAPES);
  int want = (int)n, got = 0;
  while (got < want) {
    if (p->cur + 1 >= p->nlines)
      return ipc_txt_bad(p, l->no, "keyword 'shapes': expected %d shape lines, found %d", want,
                         got);
    const txt_line *sl = &p->lines[++p->cur];
    if (blank_or_comment(sl)) continue;
    if (!parse_shape_line(p, sl)) return 0;
    ++got;
  }
  return 1;
}

static int parse_shape_matrix(txt *p, const txt_line *l) {
  double c[3], o[3] = {0, 0, 0};
  if (!numbers(p, l, 2, 3, c, "'shapeMatrix input nx ny nz [x0 y0 z0]'")) return 0;
  if (l->n > 5 && !numbers(p, l, 5, 3, o, "'shapeMatrix input nx ny nz [x0 y0 z0]'")) return 0;
  if (!no_extra(p, l, l->n > 5 ? 8 : 5)) return 0;
  for (int d = 0; d < 3; ++d)
    if (c[d] < 0 || c[d] != floor(c[d]) || c[d] > 1e4)
      return ipc_txt_bad(p, l->no, "keyword 'shapeMatrix': counts must be non-negative integers");
  if (c[0] * c[1] * c[2] > TXT_MAX_SHAPES - p->nshapes)
    return ipc_txt_bad(
        p, l->no,
        "keyword 'shapeMatrix': %g x %g x %g shapes is too many, expected at most %d "
        "shapes",
        c[0], c[1], c[2], TXT_MAX_SHAPES);
  if (p->cur + 1 >= p->nlines || p->lines[p->cur + 1].n == 0)
    return ipc_txt_bad(p, l->no, "keyword 'shapeMatrix': expected a shape line after it");
  const txt_line *sl = &p->lines[++p->cur];
  double v[9], mat[3] = {NAN, NAN, NAN};
  if (!numbers(p, sl, 1, 9, v, "a line 'path dx dy dz rx ry rz sx sy sz [material rho E nu]'"))
    return 0;
  int k = 10;
  if (k < sl->n && !strcmp(sl->t[k], "material")) {
    if (!numbers(p, sl, k + 1, 3, mat, "'material rho E nu'")) return 0;
    k += 4;
  }
  if (!no_extra(p, sl, k)) return 0;
  txt_shape proto;
  memset(&proto, 0, sizeof proto);
  if (!ipc_txt_resolve_mesh(p, sl->no, "shapeMatrix", sl->t[0], &proto)) return 0;
  for (int i = 0; i < (int)c[0]; ++i)
    for (int j = 0; j < (int)c[1]; ++j)
      for (int q = 0; q < (int)c[2]; ++q) {
        txt_shape *s = new_shape(p, sl->no);
        s->path = ipc_txt_dup_str(proto.path);
        s->kind = proto.kind;
        s->codim = proto.codim;
        s->t[0] = o[0] + v[0] * i;
        s->t[1] = o[1] + v[1] * j;
        s->t[2] = o[2] + v[2] * q;
        memcpy(s->r, v + 3, sizeof s->r);
        memcpy(s->s, v + 6, sizeof s->s);
        memcpy(s->mat, mat, sizeof mat);
      }
  ipc_free(proto.path);
  return 1;
}

static int parse_mesh_co(txt *p, const txt_line *l) {
  double v[6], rot[3] = {0, 0, 0};
  if (l->n < 2)
    return ipc_txt_bad(p, l->no,
                       "keyword 'meshCO': expected 'meshCO path x y z scale k mu [rotate rx "
                       "ry rz]'");
  if (!numbers(p, l, 2, 6, v, "'meshCO path x y z scale k mu [rotate rx ry rz]'")) return 0;
  int k = 8;
  if (k < l->n && !strcmp(l->t[k], "rotate")) {
    if (!numbers(p, l, k + 1, 3, rot, "'rotate rx ry rz' (degrees)")) return 0;
    k += 4;
  }
  if (!no_extra(p, l, k)) return 0;
  if (!(v[3] > 0)) return ipc_txt_bad(p, l->no, "keyword 'meshCO': the scale must be positive");
  if (v[5] < 0) return ipc_txt_bad(p, l->no, "keyword 'meshCO': the friction must be >= 0");
  txt_shape *s = new_shape(p, l->no);
  if (!ipc_txt_resolve_mesh(p, l->no, "meshCO", l->t[1], s)) return 0;
  if (s->kind != KIND_TRI)
    return ipc_txt_bad(p, l->no, "keyword 'meshCO': expected a triangle mesh (.obj), got '%s'",
                       l->t[1]);
  s->co = 1;
  memcpy(s->t, v, sizeof s->t); /* position of the mean */
  s->s[0] = s->s[1] = s->s[2] = v[3];
  memcpy(s->r, rot, sizeof s->r);
  return 1;
}

static void add_plane(txt *p, const double o[3], const double n[3], double mu) {
  size_t cap = (size_t)p->cap_planes;
  ipc_reserve((void **)&p->planes, &cap, (size_t)p->nplanes + 1, sizeof(ipcc_plane_def));
  p->cap_planes = (int)cap;
  ipcc_plane_def *pl = &p->planes[p->nplanes++];
  memset(pl, 0, sizeof *pl); /* static friction 0: the kinetic coefficient alone, as IPC */
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int d = 0; d < 3; ++d) {
    pl->point[d] = o[d];
    pl->normal[d] = n[d] / len;
  }
  pl->friction = mu;
}

/* reads N numbers from the lines after l (IPC reads them as whitespace-separated tokens) */
static int following_numbers(txt *p, const txt_line *l, double *out, int n) {
  int got = 0;
  while (got < n) {
    if (p->cur + 1 >= p->nlines)
      return ipc_txt_bad(p, l->no,
                         "keyword '%s': expected %d numbers on the following lines, found %d",
                         l->t[0], n, got);
    const txt_line *nl = &p->lines[++p->cur];
    for (int i = 0; i < nl->n && got < n; ++i) {
      if (nl->t[i][0] == '#') break;
      if (!parse_double(nl->t[i], &out[got]))
        return ipc_txt_bad(p, nl->no, "keyword '%s': expected a number, got '%s'", l->t[0],
                           nl->t[i]);
      ++got;
    }
  }
  return 1;
}

static int is_section_end(const txt_line *l) {
  return l->n >= 2 && !strcmp(l->t[0], "section") && !strcmp(l->t[1], "end");
}

/* a section without "section end": IPC reads or skips on to the end of the file without a
   word (its own paperExamples/2_matKnives.txt ends a skipped section with a bare
   "section"); ipcc refuses it, and with --lenient does what IPC does, with a warning */
static int no_section_end(txt *p, int line, const char *name) {
  if (p->flags & IPCC_SCENE_LENIENT) {
    fprintf(stderr,
            "%s:%d: warning: section '%s' has no 'section end' line; it runs to the end of "
            "the file, as in IPC\n",
            p->file, line, name);
    return 1;
  }
  return ipc_txt_bad(p, line,
                     "section '%s' has no 'section end' line, expected one before the end of "
                     "the file (--lenient runs the section to the end of the file, as IPC)",
                     name);
}

/* skips the lines of the section opened at l up to and including "section end" */
static int skip_section(txt *p, const txt_line *l) {
  while (p->cur + 1 < p->nlines)
    if (is_section_end(&p->lines[++p->cur])) return 1;
  return no_section_end(p, l->no, l->t[1]);
}

static int is_one_of(const char *s, const char *const *names) {
  for (int i = 0; names[i]; ++i)
    if (!strcmp(s, names[i])) return 1;
  return 0;
}

/* a scenario ipcc does not implement: rejected with IPC's reason, or (--lenient) a warning,
   and the script runs as null (IPC's own fallback for names it does not know) */
static int unsupported_script(txt *p, const txt_line *l) {
  const char *why = "not a scenario of IPC";
  for (size_t i = 0; i < sizeof script_rejected / sizeof script_rejected[0]; ++i)
    if (!strcmp(script_rejected[i][0], l->t[1])) why = script_rejected[i][1];
  if (p->flags & IPCC_SCENE_LENIENT) {
    fprintf(stderr,
            "%s:%d: warning: keyword 'script': scenario '%s' is not supported (%s); "
            "running script null\n",
            p->file, l->no, l->t[1], why);
    return 1;
  }
  return ipc_txt_bad(p, l->no, "keyword 'script': scenario '%s' is not supported (%s)", l->t[1],
                     why);
}

/* 'script NAME [N p1 .. pN]' (N at token i): IPC reads N parameters; only DCOBallHitWall
   uses one (its speed), the others ignore them */
static int script_params(txt *p, const txt_line *l, int i) {
  double n;
  if (l->n <= i || l->t[i][0] == '#') return 1;
  if (!parse_double(l->t[i], &n) || n < 0 || n != floor(n) || n > 16)
    return ipc_txt_bad(p, l->no, "keyword 'script': expected 'script NAME [N p1 .. pN]', got '%s'",
                       l->t[i]);
  double v[16];
  if (!numbers(p, l, i + 1, (int)n, v, "N scenario parameters") || !no_extra(p, l, i + 1 + (int)n))
    return 0;
  p->script_param = n > 0 ? v[0] : NAN;
  return 1;
}

/* ---- keywords ---- */

static int set_number(txt *p, const txt_line *l, double *out, double lo, const char *what) {
  double v;
  if (!numbers(p, l, 1, 1, &v, what) || !no_extra(p, l, 2)) return 0;
  if (!(v >= lo)) return ipc_txt_bad(p, l->no, "keyword '%s': expected %s", l->t[0], what);
  *out = v;
  return 1;
}

static int parse_keyword(txt *p, const txt_line *l) {
  const char *kw = l->t[0];
  double v[8];
  /* viewer and output naming only */
  static const char *const viewer[] = {
      "view", "zoom", "cameraTracking", "playBackSpeed", "appendStr", "disableCout", NULL};
  /* SQP/QP settings: without effect under the interior-point solver, as in IPC */
  static const char *const qp_only[] = {
      "constraintType",          "constraintOffset",       "QPSolver",
      "useActiveSetConvergence", "noActiveSetConvergence", NULL};
  /* solver choices that do not change the problem solved: ipcc uses its own CCD and
     CHOLMOD */
  static const char *const algo[] = {"CCDMethod",    "CCDTolerance", "exactCCD",
                                     "linSysSolver", "linearSolver", NULL};
  if (is_one_of(kw, viewer) || is_one_of(kw, qp_only) || is_one_of(kw, algo)) return 1;
  if (!strcmp(kw, "shapes")) return parse_shapes(p, l);
  if (!strcmp(kw, "shape")) {
    if (l->n < 3) return ipc_txt_bad(p, l->no, "keyword 'shape': expected 'shape input path'");
    if (!no_extra(p, l, 3)) return 0;
    txt_shape *s = new_shape(p, l->no);
    return ipc_txt_resolve_mesh(p, l->no, "shape", l->t[2], s);
  }
  if (!strcmp(kw, "shapeMatrix")) return parse_shape_matrix(p, l);
  if (!strcmp(kw, "meshCO")) return parse_mesh_co(p, l);
  if (!strcmp(kw, "energy")) {
    if (l->n < 2) return ipc_txt_bad(p, l->no, "keyword 'energy': expected NH or FCR");
    if (!strcmp(l->t[1], "NH"))
      p->energy = IPCC_MAT_NEO_HOOKEAN;
    else if (!strcmp(l->t[1], "FCR"))
      p->energy = IPCC_MAT_FIXED_COROTATED;
    else
      return ipc_txt_bad(p, l->no, "keyword 'energy': expected NH or FCR, got '%s'", l->t[1]);
    return no_extra(p, l, 2);
  }
  if (!strcmp(kw, "timeIntegration")) {
    if (l->n < 2) return ipc_txt_bad(p, l->no, "keyword 'timeIntegration': expected BE or NM");
    if (!strcmp(l->t[1], "BE")) {
      p->integrator = IPCC_IMPLICIT_EULER;
      return no_extra(p, l, 2);
    }
    if (!strcmp(l->t[1], "NM")) {
      double bg[2] = {0.25, 0.5};
      if (l->n > 2 && !numbers(p, l, 2, 2, bg, "'NM beta gamma'")) return 0;
      if (!no_extra(p, l, l->n > 2 ? 4 : 2)) return 0;
      if (bg[0] != 0.25 || bg[1] != 0.5)
        return ipc_txt_unsupported(p, l->no, kw, "Newmark with beta 1/4 and gamma 1/2 only");
      p->integrator = IPCC_NEWMARK;
      return 1;
    }
    return ipc_txt_bad(p, l->no, "keyword 'timeIntegration': expected BE or NM, got '%s'", l->t[1]);
  }
  if (!strcmp(kw, "warmStart")) {
    if (!numbers(p, l, 1, 1, v, "'warmStart k'") || !no_extra(p, l, 2)) return 0;
    if (v[0] == 0 || v[0] == 1 || v[0] == 2) {
      p->warm_start = (ipcc_warm_start)(int)v[0];
      return 1;
    }
    return ipc_txt_unsupported(p, l->no, kw, "0 (previous positions), 1 (x + h v) or 2 (x tilde)");
  }
  if (!strcmp(kw, "time")) {
    if (!numbers(p, l, 1, 2, v, "'time duration dt' (s)") || !no_extra(p, l, 3)) return 0;
    if (!(v[0] >= 0) || !(v[1] > 0))
      return ipc_txt_bad(p, l->no, "keyword 'time': expected a duration >= 0 and a time step > 0");
    p->duration = v[0];
    p->dt = v[1];
    return 1;
  }
  if (!strcmp(kw, "size")) {
    double sz;
    if (!numbers(p, l, 1, 1, &sz, "a length (<= 0: no rescaling)") || !no_extra(p, l, 2)) return 0;
    /* the scene is rescaled to this extent: beyond 1e20 m its volumes and energies overflow */
    if (sz > 1e20)
      return ipc_txt_bad(p, l->no, "keyword 'size': expected a length up to 1e20 m, got %g", sz);
    p->size = sz;
    return 1;
  }
  if (!strcmp(kw, "density")) return set_number(p, l, &p->density, 1e-300, "a positive density");
  if (!strcmp(kw, "stiffness")) {
    if (!numbers(p, l, 1, 2, v, "'stiffness E nu'") || !no_extra(p, l, 3)) return 0;
    if (!(v[0] > 0) || !(v[1] >= 0 && v[1] < 0.5))
      return ipc_txt_bad(p, l->no, "keyword 'stiffness': expected E > 0 and 0 <= nu < 0.5");
    p->young = v[0];
    p->poisson = v[1];
    return 1;
  }
  if (!strcmp(kw, "turnOffGravity")) {
    p->gravity_off = 1;
    return no_extra(p, l, 1);
  }
  if (!strcmp(kw, "dampingStiff") || !strcmp(kw, "dampingRatio")) {
    double d;
    if (!numbers(p, l, 1, 1, &d, "a number") || !no_extra(p, l, 2)) return 0;
    /* clamped as IPC clamps them; converted in finalize, once dt is known */
    p->damping_line = l->no;
    if (!strcmp(kw, "dampingStiff"))
      p->damping_stiff = fmax(d, 0.0);
    else
      p->damping_ratio = fmin(fmax(d, 0.0), 1.0);
    return 1;
  }
  if (!strcmp(kw, "script")) {
    if (l->n < 2) return ipc_txt_bad(p, l->no, "keyword 'script': expected a scenario name");
    int k = 0;
    while (ipc_txt_script_names[k] && strcmp(ipc_txt_script_names[k], l->t[1])) ++k;
    if (!ipc_txt_script_names[k]) return unsupported_script(p, l);
    p->script = k;
    p->script_line = l->no;
    if (k != SCRIPT_MESH_SEQ_FROM_FILE) return script_params(p, l, 2);
    if (l->n < 3 || l->t[2][0] == '#')
      return ipc_txt_bad(p, l->no, "keyword 'script': expected 'script meshSeqFromFile FOLDER'");
    ipc_free(p->seq_folder);
    p->seq_folder = ipc_txt_dup_str(l->t[2]);
    return script_params(p, l, 3);
  }
  if (!strcmp(kw, "DBCTimeRange") || !strcmp(kw, "NBCTimeRange")) {
    if (!numbers(p, l, 1, 2, v, "'t_begin t_end' (s)") || !no_extra(p, l, 3)) return 0;
    double *r = kw[0] == 'D' ? p->dbc_range : p->nbc_range;
    r[0] = v[0];
    r[1] = v[1];
    return 1;
  }
  if (!strcmp(kw, "rotateModel")) {
    if (!numbers(p, l, 1, 4, v, "'rotateModel ax ay az degrees'") || !no_extra(p, l, 5)) return 0;
    /* the axis scaled by its largest component first, so that a huge one (1e200) does not
       overflow to an infinite norm and lose the rotation */
    double amax = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (amax > 0)
      for (int d = 0; d < 3; ++d) v[d] /= amax;
    if (v[3] != 0 && !(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0))
      return ipc_txt_bad(p, l->no, "keyword 'rotateModel': the axis must be non-zero");
    memcpy(p->rot_axis, v, sizeof p->rot_axis);
    p->rot_deg = v[3];
    return 1;
  }
  if (!strcmp(kw, "handleRatio")) {
    if (!numbers(p, l, 1, 1, v, "a ratio in (0, 0.5)") || !no_extra(p, l, 2)) return 0;
    if (!(v[0] > 0 && v[0] < 0.5))
      return ipc_txt_bad(p, l->no, "keyword 'handleRatio': expected (0, 0.5)");
    p->handle_ratio = v[0];
    return 1;
  }
  if (!strcmp(kw, "ground")) {
    if (!numbers(p, l, 1, 2, v, "'ground friction y'") || !no_extra(p, l, l->n > 3 ? 4 : 3))
      return 0;
    if (v[0] < 0) return ipc_txt_bad(p, l->no, "keyword 'ground': the friction must be >= 0");
    double o[3] = {0, v[1], 0}, n[3] = {0, 1, 0};
    add_plane(p, o, n, v[0]);
    return 1;
  }
  if (!strcmp(kw, "halfSpace")) {
    if (!numbers(p, l, 1, 8, v, "'halfSpace ox oy oz nx ny nz stiffness friction'") ||
        !no_extra(p, l, 9))
      return 0;
    /* the normal is a direction: scaled by its largest component, so that a huge one (1e200)
       does not overflow to an infinite length */
    double nmax = fmax(fabs(v[3]), fmax(fabs(v[4]), fabs(v[5])));
    if (nmax > 0)
      for (int d = 3; d < 6; ++d) v[d] /= nmax;
    if (!(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] > 0) || v[7] < 0)
      return ipc_txt_bad(p, l->no,
                         "keyword 'halfSpace': expected a non-zero normal and friction >= 0");
    add_plane(p, v, v + 3, v[7]);
    return 1;
  }
  if (!strcmp(kw, "selfCollisionOn") || !strcmp(kw, "selfCollisionOff")) {
    p->self_collision_off = strcmp(kw, "selfCollisionOff") ? 0 : l->no;
    return no_extra(p, l, 1);
  }
  if (!strcmp(kw, "selfFric")) {
    if (!numbers(p, l, 1, 1, v, "a friction coefficient") || !no_extra(p, l, 2)) return 0;
    p->self_fric = v[0] > 0 ? v[0] : 0.0;
    return 1;
  }
  if (!strcmp(kw, "constraintSolver")) {
    if (l->n < 2)
      return ipc_txt_bad(p, l->no, "keyword 'constraintSolver': expected interiorPoint");
    const char *t = l->t[1];
    if (!strcmp(t, "interiorPoint") || !strcmp(t, "IP")) {
      p->solver = "interiorPoint";
      return no_extra(p, l, 2);
    }
    if (!strcmp(t, "QP") || !strcmp(t, "SQP")) {
      p->solver = !strcmp(t, "QP") ? "QP" : "SQP";
      return ipc_txt_unsupported(p, l->no, kw,
                                 "only the interior-point (barrier) solver is implemented");
    }
    return ipc_txt_bad(p, l->no,
                       "keyword 'constraintSolver': expected interiorPoint, IP, QP or SQP");
  }
  if (!strcmp(kw, "section")) {
    if (l->n < 2) return ipc_txt_bad(p, l->no, "keyword 'section': expected solver names or 'end'");
    if (is_section_end(l)) {
      p->section_line = 0;
      return 1;
    }
    int match = 0;
    for (int i = 1; i < l->n && !match; ++i) {
      const char *n = !strcmp(l->t[i], "IP") ? "interiorPoint" : l->t[i];
      if (!strcmp(n, "end") || !strcmp(n, p->solver)) match = 1;
    }
    if (!match) return skip_section(p, l);
    p->section_line = l->no; /* its lines are read; its end must follow */
    return 1;
  }
  if (!strcmp(kw, "tol")) {
    double n;
    if (l->n < 2 || !parse_double(l->t[1], &n) || n < 0 || n != floor(n) || n > 1e6)
      return ipc_txt_bad(p, l->no,
                         "keyword 'tol': expected 'tol N' and N numbers on the next lines");
    if (!no_extra(p, l, 2)) return 0;
    double *t = IPC_NEW(double, (size_t)n + 1);
    int ok = following_numbers(p, l, t, (int)n);
    for (int i = 1; ok && i < (int)n; ++i)
      if (t[i] != t[0]) {
        ipc_free(t);
        return ipc_txt_unsupported(p, l->no, kw, "one tolerance for every time step only");
      }
    for (int i = 0; ok && i < (int)n; ++i)
      if (!(t[i] > 0)) ok = ipc_txt_bad(p, l->no, "keyword 'tol': tolerances must be positive");
    if (ok && n > 0) p->tol = t[0];
    ipc_free(t);
    return ok;
  }
  if (!strcmp(kw, "tuning")) {
    double n;
    if (l->n < 2 || !parse_double(l->t[1], &n) || n < 0 || n != floor(n) || n > 6)
      return ipc_txt_bad(p, l->no,
                         "keyword 'tuning': expected 'tuning N' (N <= 6) and N numbers on the "
                         "next lines");
    if (!no_extra(p, l, 2)) return 0;
    double t[6];
    if (!following_numbers(p, l, t, (int)n)) return 0;
    /* IPC resizes its tuning list to N; the entries not given get no value */
    double def[6] = {0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3};
    for (int i = 0; i < 6; ++i) p->tuning[i] = i < (int)n ? t[i] : def[i];
    p->epsv_line = l->no;
    if (p->tuning[0] < 0 || !(p->tuning[1] > 0) || !(p->tuning[4] > 0))
      return ipc_txt_bad(p, l->no, "keyword 'tuning': expected kappa >= 0, dHat > 0, epsv > 0");
    return 1;
  }
  if (!strcmp(kw, "dHat") || !strcmp(kw, "epsv")) {
    if (!numbers(p, l, 1, 1, v, "a positive number") || !no_extra(p, l, 2)) return 0;
    if (!(v[0] > 0)) return ipc_txt_bad(p, l->no, "keyword '%s': expected a positive number", kw);
    int i = kw[0] == 'd' ? 1 : 4;
    p->tuning[i] = p->tuning[i + 1] = v[0];
    if (i == 4) p->epsv_line = l->no;
    return 1;
  }
  if (!strcmp(kw, "fricIterAmt")) {
    if (!numbers(p, l, 1, 1, v, "an integer") || !no_extra(p, l, 2)) return 0;
    if (v[0] != floor(v[0]) || fabs(v[0]) > 1e6)
      return ipc_txt_bad(p, l->no, "keyword 'fricIterAmt': expected an integer");
    p->friction_iterations = (int)v[0];
    return 1;
  }
  if (!strcmp(kw, "useAbsParameters")) {
    p->use_abs = 1;
    return no_extra(p, l, 1);
  }
  if (!strcmp(kw, "kappaMinMultiplier") || !strcmp(kw, "minBarrierStiffnessScale")) {
    if (!numbers(p, l, 1, 1, v, "a positive number") || !no_extra(p, l, 2)) return 0;
    if (v[0] == 1e11) return 1;
    return ipc_txt_unsupported(p, l->no, kw,
                               "ipcc's minimum barrier stiffness uses IPC's default 1e11");
  }
  if (!strcmp(kw, "restart"))
    return ipc_txt_unsupported(p, l->no, kw, "restarting from a status file");
  return -1;
}

static void txt_free(txt *p) {
  for (int i = 0; i < p->nshapes; ++i) {
    ipc_free(p->shapes[i].path);
    ipc_free(p->shapes[i].seq);
    ipc_free(p->shapes[i].bc[0]);
    ipc_free(p->shapes[i].bc[1]);
  }
  ipc_free(p->shapes);
  ipc_free(p->planes);
  for (int i = 0; i < p->nmeshes; ++i) {
    ipcc_mesh_free(&p->meshes[i].m);
    ipc_free(p->meshes[i].path);
    ipc_free(p->meshes[i].surf);
  }
  ipc_free(p->meshes);
  for (int i = 0; i < p->nlines; ++i) ipc_free(p->lines[i].t);
  ipc_free(p->lines);
  ipc_free(p->buf);
  ipc_free(p->dir);
  ipc_free(p->seq_folder);
  ipc_free(p->order);
  ipc_free(p->off);
  ipc_free(p->X);
  ipc_free(p->Rb);
}

/* a file holding one path to another .txt script (IPC's SQP benchmark aliases) */
static int pointer_target(const char *text, char *out, size_t n) {
  char tok[2][1024];
  int k = 0;
  const char *q = text;
  while (*q) {
    while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n') ++q;
    if (!*q) break;
    size_t m = 0;
    while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n') {
      if (k < 2 && m + 1 < sizeof tok[0]) tok[k][m++] = *q;
      ++q;
    }
    if (k < 2) tok[k][m] = '\0';
    if (++k > 1) return 0;
  }
  if (k != 1 || !ipc_txt_ends_with(tok[0], ".txt")) return 0;
  snprintf(out, n, "%s", tok[0]);
  return 1;
}

/* the lines are C strings: a NUL byte would silently end the script there */
static int nul_byte(const char *path, const char *text, size_t len, ipcc_error *err) {
  const char *z = memchr(text, '\0', len);
  if (!z) return 0;
  int line = 1;
  for (const char *q = text; q < z; ++q) line += *q == '\n';
  ipc_error_set(err, IPCC_ERR_INPUT, "%s:%d: NUL byte in the script, expected text", path, line);
  return 1;
}

static ipcc_status load_txt(const char *path, unsigned flags, ipcc_scene_def *out, ipcc_error *err,
                            int depth) {
  *out = ipcc_default_scene_def();
  size_t len = 0;
  char *text = ipc_read_file(path, &len, err);
  if (!text) return IPCC_ERR_INPUT;
  if (nul_byte(path, text, len, err)) {
    ipc_free(text);
    return IPCC_ERR_INPUT;
  }
  char target[1024];
  if (pointer_target(text, target, sizeof target)) {
    ipc_free(text);
    if (depth > 8) return ipc_error_set(err, IPCC_ERR_INPUT, "%s:1: too many script aliases", path);
    char *dir = ipc_path_dirname(path);
    char *next = ipc_path_join(dir, target);
    ipc_free(dir);
    ipcc_status st = load_txt(next, flags, out, err, depth + 1);
    ipc_free(next);
    return st;
  }
  txt p;
  memset(&p, 0, sizeof p);
  p.file = path;
  p.err = err;
  p.flags = flags;
  p.dir = ipc_path_dirname(path);
  p.energy = IPCC_MAT_NEO_HOOKEAN;
  p.density = 1000;
  p.young = 1e5;
  p.poisson = 0.4;
  p.handle_ratio = 0.01;
  p.script_param = NAN;
  p.dbc_range[1] = p.nbc_range[1] = INFINITY;
  double def[6] = {0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3};
  memcpy(p.tuning, def, sizeof def);
  p.tol = 1e-2;
  p.solver = "interiorPoint";
  p.integrator = IPCC_IMPLICIT_EULER;
  p.duration = 5.0;
  p.dt = IPC_TXT_CONSTRUCTOR_DT;
  p.friction_iterations = 1;
  split_lines(&p, text);
  ipc_free(text);
  for (p.cur = 0; p.cur < p.nlines && !p.failed; ++p.cur) {
    const txt_line *l = &p.lines[p.cur];
    if (blank_or_comment(l)) continue;
    int r = parse_keyword(&p, l);
    if (r < 0) {
      char why[64];
      snprintf(why, sizeof why, "unknown keyword");
      if (!ipc_txt_unsupported(&p, l->no, l->t[0], why)) break;
    }
  }
  if (p.section_line) no_section_end(&p, p.section_line, p.lines[p.section_line - 1].t[1]);
  int ok = !p.failed && ipc_txt_finalize(&p, out);
  if (ok) out->path = ipc_txt_dup_str(path);
  txt_free(&p);
  if (!ok) {
    ipcc_scene_def_free(out);
    return IPCC_ERR_INPUT;
  }
  return IPCC_OK;
}

ipcc_status ipcc_scene_load_txt(const char *path, unsigned flags, ipcc_scene_def *out,
                                ipcc_error *err) {
  return load_txt(path, flags, out, err, 0);
}

int ipc_scene_text_is_txt(const char *path, const char *text) {
  if (ipc_txt_ends_with(path, ".txt")) return 1;
  if (ipc_txt_ends_with(path, ".json")) return 0;
  while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n') ++text;
  /* a JSON value (object, array, string, number) is JSON, so that a scene which is not an
     object is reported as such rather than as unknown script keywords */
  return *text && !strchr("{[\"-0123456789", *text);
}

ipcc_status ipcc_scene_load_any(const char *path, unsigned flags, ipcc_scene_def *out,
                                ipcc_error *err) {
  if (ipc_txt_ends_with(path, ".txt")) return ipcc_scene_load_txt(path, flags, out, err);
  size_t len;
  char *text = ipc_read_file(path, &len, err);
  if (!text) {
    *out = ipcc_default_scene_def();
    return IPCC_ERR_INPUT;
  }
  int is_txt = ipc_scene_text_is_txt(path, text);
  ipc_free(text);
  return is_txt ? ipcc_scene_load_txt(path, flags, out, err) : ipcc_scene_load(path, out, err);
}
