/* IPC's .txt scene scripts (ipc-sim/IPC: src/Config.cpp reads them, src/main.cpp loads the
   shapes, src/AnimScripter.cpp runs the built-in scenarios), mapped onto ipc_scene_def.
   the keywords and their meaning are listed in README.md ("IPC scripts"); every keyword is
   either implemented or rejected as "FILE:LINE: keyword 'X' is not supported (...)".

   geometry is placed as IPC places it: each shape p -> R (s o p) + t; then every shape
   together is rotated by rotateModel about IPC's pivot (max - min) / 2, scaled so that
   its largest extent is `size` and moved so that its minimum is at the origin, then
   lifted by half its diagonal for the fall/dragright scenarios. the parser reads the
   meshes to do this and folds the global steps into each body's own transform. meshCO
   obstacles, ground and halfSpace are placed after that, unscaled. relative parameters
   (dHat, epsv, tol, kappa) refer to the diagonal of the tet shapes alone, as in IPC. */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/codim.h"
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
    ipc_error_set(p->err, IPC_ERR_INPUT, "%s:%d: %s", p->file, line, msg);
  else
    ipc_error_set(p->err, IPC_ERR_INPUT, "%s: %s", p->file, msg);
  p->failed = 1;
  return 0;
}

/* an IPC keyword ipcc does not implement: error, or a warning with --lenient */
int ipc_txt_unsupported(txt *p, int line, const char *kw, const char *why) {
  if (p->flags & IPC_SCENE_LENIENT) {
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
  ipc_reserve((void **)&p->planes, &cap, (size_t)p->nplanes + 1, sizeof(ipc_plane_def));
  p->cap_planes = (int)cap;
  ipc_plane_def *pl = &p->planes[p->nplanes++];
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
  if (p->flags & IPC_SCENE_LENIENT) {
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
  if (p->flags & IPC_SCENE_LENIENT) {
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
      p->energy = IPC_MAT_NEO_HOOKEAN;
    else if (!strcmp(l->t[1], "FCR"))
      p->energy = IPC_MAT_FIXED_COROTATED;
    else
      return ipc_txt_bad(p, l->no, "keyword 'energy': expected NH or FCR, got '%s'", l->t[1]);
    return no_extra(p, l, 2);
  }
  if (!strcmp(kw, "timeIntegration")) {
    if (l->n < 2) return ipc_txt_bad(p, l->no, "keyword 'timeIntegration': expected BE or NM");
    if (!strcmp(l->t[1], "BE")) {
      p->integrator = IPC_IMPLICIT_EULER;
      return no_extra(p, l, 2);
    }
    if (!strcmp(l->t[1], "NM")) {
      double bg[2] = {0.25, 0.5};
      if (l->n > 2 && !numbers(p, l, 2, 2, bg, "'NM beta gamma'")) return 0;
      if (!no_extra(p, l, l->n > 2 ? 4 : 2)) return 0;
      if (bg[0] != 0.25 || bg[1] != 0.5)
        return ipc_txt_unsupported(p, l->no, kw, "Newmark with beta 1/4 and gamma 1/2 only");
      p->integrator = IPC_NEWMARK;
      return 1;
    }
    return ipc_txt_bad(p, l->no, "keyword 'timeIntegration': expected BE or NM, got '%s'", l->t[1]);
  }
  if (!strcmp(kw, "warmStart")) {
    if (!numbers(p, l, 1, 1, v, "'warmStart k'") || !no_extra(p, l, 2)) return 0;
    if (v[0] == 0 || v[0] == 1 || v[0] == 2) {
      p->warm_start = (ipc_warm_start)(int)v[0];
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
    if (p->tuning[0] < 0 || !(p->tuning[1] > 0) || !(p->tuning[4] > 0))
      return ipc_txt_bad(p, l->no, "keyword 'tuning': expected kappa >= 0, dHat > 0, epsv > 0");
    return 1;
  }
  if (!strcmp(kw, "dHat") || !strcmp(kw, "epsv")) {
    if (!numbers(p, l, 1, 1, v, "a positive number") || !no_extra(p, l, 2)) return 0;
    if (!(v[0] > 0)) return ipc_txt_bad(p, l->no, "keyword '%s': expected a positive number", kw);
    int i = kw[0] == 'd' ? 1 : 4;
    p->tuning[i] = p->tuning[i + 1] = v[0];
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

/* ---- geometry ---- */

/* R = Rx(a) Ry(b) Rz(c), angles in degrees, row-major */
static void rot_xyz(double R[9], const double deg[3]) {
  double a = deg[0] * pi / 180, b = deg[1] * pi / 180, c = deg[2] * pi / 180;
  double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
  double r[9] = {cb * cc,
                 -cb * sc,
                 sb,
                 ca * sc + sa * sb * cc,
                 ca * cc - sa * sb * sc,
                 -sa * cb,
                 sa * sc - ca * sb * cc,
                 sa * cc + ca * sb * sc,
                 ca * cb};
  memcpy(R, r, sizeof r);
}

/* angles (degrees) with R = Rx Ry Rz */
static void euler_xyz_of(double deg[3], const double R[9]) {
  double sb = fmax(-1.0, fmin(1.0, R[2]));
  double b = asin(sb), a, c;
  if (fabs(cos(b)) > 1e-12) {
    a = atan2(-R[5], R[8]);
    c = atan2(-R[1], R[0]);
  } else {
    c = 0;
    a = atan2(R[7], R[4]);
  }
  deg[0] = a * 180 / pi;
  deg[1] = b * 180 / pi;
  deg[2] = c * 180 / pi;
}

static void axis_angle(double R[9], const double axis[3], double deg) {
  double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double k[3] = {axis[0] / n, axis[1] / n, axis[2] / n};
  double th = deg * pi / 180, c = cos(th), s = sin(th), t = 1 - c;
  double r[9] = {t * k[0] * k[0] + c,        t * k[0] * k[1] - s * k[2], t * k[0] * k[2] + s * k[1],
                 t * k[0] * k[1] + s * k[2], t * k[1] * k[1] + c,        t * k[1] * k[2] - s * k[0],
                 t * k[0] * k[2] - s * k[1], t * k[1] * k[2] + s * k[0], t * k[2] * k[2] + c};
  memcpy(R, r, sizeof r);
}

static void matmul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

static void matvec(double y[3], const double A[9], const double x[3]) {
  for (int i = 0; i < 3; ++i) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

void ipc_txt_bbox_grow(double lo[3], double hi[3], const double *x, int n) {
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], x[3 * i + d]);
      hi[d] = fmax(hi[d], x[3 * i + d]);
    }
}

static int load_mesh(txt *p, txt_shape *s) {
  for (int i = 0; i < p->nmeshes; ++i)
    if (p->meshes[i].codim == s->codim && !strcmp(p->meshes[i].path, s->path)) {
      s->mesh = i;
      return 1;
    }
  size_t cap = (size_t)p->cap_meshes;
  ipc_reserve((void **)&p->meshes, &cap, (size_t)p->nmeshes + 1, sizeof(cached_mesh));
  p->cap_meshes = (int)cap;
  cached_mesh *c = &p->meshes[p->nmeshes];
  memset(c, 0, sizeof *c);
  ipc_error e;
  if (ipc_mesh_read(s->path, &c->m, &e) != IPC_OK)
    return ipc_txt_bad(p, s->line, "reading the shape's mesh: %s", e.msg);
  s->mesh = p->nmeshes++; /* from here on txt_free frees it */
  c->path = ipc_txt_dup_str(s->path);
  c->codim = s->codim;
  if (s->codim) ipc_mesh_reduce_codim(&c->m, s->codim);
  if (s->kind == KIND_TET && c->m.ntets == 0)
    return ipc_txt_bad(p, s->line, "mesh %s has no tetrahedra", s->path);
  if (c->m.nverts == 0) return ipc_txt_bad(p, s->line, "mesh %s has no vertices", s->path);
  c->surf = IPC_NEW0(unsigned char, (size_t)c->m.nverts);
  for (int f = 0; f < c->m.ntris; ++f)
    for (int k = 0; k < 3; ++k) c->surf[c->m.tris[3 * f + k]] = 1;
  if (c->m.ntris == 0) memset(c->surf, 1, (size_t)c->m.nverts);
  return 1;
}

/* vertices of a raw mesh in a box relative to its bounding box (IPC's DBC/NBC selection:
   boundary vertices only); returns the count, *out owned by the caller */
static int select_box(int **out, const cached_mesh *c, const double lo[3], const double hi[3]) {
  double blo[3] = {INFINITY, INFINITY, INFINITY}, bhi[3] = {-INFINITY, -INFINITY, -INFINITY};
  ipc_txt_bbox_grow(blo, bhi, c->m.x, c->m.nverts);
  *out = IPC_NEW(int, (size_t)c->m.nverts);
  int n = 0;
  for (int i = 0; i < c->m.nverts; ++i) {
    if (!c->surf[i]) continue;
    int in = 1;
    for (int d = 0; d < 3; ++d) {
      double ext = bhi[d] - blo[d], x = c->m.x[3 * i + d];
      double tol = 1e-12 * (ext > 0 ? ext : 1.0);
      if (x < blo[d] + lo[d] * ext - tol || x > blo[d] + hi[d] * ext + tol) in = 0;
    }
    if (in) (*out)[n++] = i;
  }
  return n;
}

/* appends a Dirichlet entry with an explicit vertex list (body-local ids; takes verts) */
ipc_dirichlet_def *ipc_txt_add_dirichlet(ipc_body_def *b, int *verts, int n, double t0, double t1) {
  b->dirichlet = ipc_realloc(b->dirichlet, (size_t)(b->ndirichlet + 1) * sizeof(ipc_dirichlet_def));
  ipc_dirichlet_def *d = &b->dirichlet[b->ndirichlet++];
  memset(d, 0, sizeof *d);
  d->region.verts = verts;
  d->region.nverts = n;
  d->t_begin = t0;
  d->t_end = t1;
  return d;
}

int *ipc_txt_all_verts(int n) {
  int *v = IPC_NEW(int, (size_t)n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

/* the first step index k >= 0 at which the scenario's condition stops holding, as a time
   between steps (so that step start times compare robustly) */
double ipc_txt_switch_time(int k, double dt) {
  return k <= 0 ? 0.0 : (k - 0.5) * dt;
}

static int finalize(txt *p, ipc_scene_def *s) {
  int nsh = 0;
  for (int i = 0; i < p->nshapes; ++i) {
    if (!load_mesh(p, &p->shapes[i])) return 0;
    if (!p->shapes[i].co) ++nsh;
  }
  if (nsh == 0) return ipc_txt_bad(p, 0, "no shapes (expected 'shapes input N' and N shape lines)");
  if (p->dt <= 0) return ipc_txt_bad(p, 0, "time step must be positive");

  /* shapes first (IPC's mesh components), then meshCO obstacles */
  int *order = p->order = IPC_NEW(int, (size_t)p->nshapes + 1);
  {
    int k = 0;
    for (int i = 0; i < p->nshapes; ++i)
      if (!p->shapes[i].co) order[k++] = i;
    for (int i = 0; i < p->nshapes; ++i)
      if (p->shapes[i].co) order[k++] = i;
  }
  placed pl;
  pl.off = p->off = IPC_NEW(int, (size_t)nsh + 1);
  pl.off[0] = 0;
  for (int c = 0; c < nsh; ++c)
    pl.off[c + 1] = pl.off[c] + p->meshes[p->shapes[order[c]].mesh].m.nverts;
  pl.X = p->X = IPC_NEW(double, 3 * (size_t)pl.off[nsh] + 3);
  double *Rb = p->Rb = IPC_NEW(double, 9 * (size_t)nsh + 9);
  for (int c = 0; c < nsh; ++c) {
    const txt_shape *sh = &p->shapes[order[c]];
    const ipc_mesh *m = &p->meshes[sh->mesh].m;
    rot_xyz(Rb + 9 * c, sh->r);
    for (int i = 0; i < m->nverts; ++i) {
      double q[3] = {sh->s[0] * m->x[3 * i], sh->s[1] * m->x[3 * i + 1],
                     sh->s[2] * m->x[3 * i + 2]};
      double *x = pl.X + 3 * (size_t)(pl.off[c] + i);
      matvec(x, Rb + 9 * c, q);
      for (int d = 0; d < 3; ++d) x[d] += sh->t[d];
    }
  }
  int nX = pl.off[nsh];
  /* rotateModel (pivot (max - min) / 2, as IPC), size, lift */
  double Rm[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, piv[3] = {0, 0, 0}, k = 1.0, mn[3] = {0, 0, 0};
  double lift = 0.0;
  int rotated = p->rot_deg != 0.0;
  for (int d = 0; d < 3; ++d) {
    pl.lo[d] = INFINITY;
    pl.hi[d] = -INFINITY;
  }
  ipc_txt_bbox_grow(pl.lo, pl.hi, pl.X, nX);
  if (rotated) {
    axis_angle(Rm, p->rot_axis, p->rot_deg);
    for (int d = 0; d < 3; ++d) piv[d] = 0.5 * (pl.hi[d] - pl.lo[d]);
    for (int i = 0; i < nX; ++i) {
      double r[3], *x = pl.X + 3 * (size_t)i;
      for (int d = 0; d < 3; ++d) r[d] = x[d] - piv[d];
      matvec(x, Rm, r);
      for (int d = 0; d < 3; ++d) x[d] += piv[d];
    }
    for (int d = 0; d < 3; ++d) {
      pl.lo[d] = INFINITY;
      pl.hi[d] = -INFINITY;
    }
    ipc_txt_bbox_grow(pl.lo, pl.hi, pl.X, nX);
  }
  if (p->size > 0) {
    double ext = fmax(pl.hi[0] - pl.lo[0], fmax(pl.hi[1] - pl.lo[1], pl.hi[2] - pl.lo[2]));
    if (!(ext > 0)) return ipc_txt_bad(p, 0, "keyword 'size': the shapes have zero extent");
    k = p->size / ext;
    for (int d = 0; d < 3; ++d) mn[d] = k * pl.lo[d];
    for (int i = 0; i < nX; ++i)
      for (int d = 0; d < 3; ++d) pl.X[3 * (size_t)i + d] = k * pl.X[3 * (size_t)i + d] - mn[d];
  }
  for (int d = 0; d < 3; ++d) {
    pl.lo[d] = INFINITY;
    pl.hi[d] = -INFINITY;
  }
  ipc_txt_bbox_grow(pl.lo, pl.hi, pl.X, nX);
  double ext[3] = {pl.hi[0] - pl.lo[0], pl.hi[1] - pl.lo[1], pl.hi[2] - pl.lo[2]};
  double diag = sqrt(ext[0] * ext[0] + ext[1] * ext[1] + ext[2] * ext[2]);
  if (p->script == SCRIPT_FALL || p->script == SCRIPT_DRAGRIGHT || p->script == SCRIPT_DRAGDOWN ||
      p->script == SCRIPT_SWING) {
    lift = p->script == SCRIPT_SWING ? 1.3 * ext[1] : 0.5 * diag;
    for (int i = 0; i < nX; ++i) pl.X[3 * (size_t)i + 1] += lift;
    pl.lo[1] += lift;
    pl.hi[1] += lift;
  }
  if (!(diag > 0)) return ipc_txt_bad(p, 0, "the shapes have zero extent");
  /* IPC's relative parameters (dHat, epsv, the Newton tolerance, kappa's bounds, its dTol)
     refer to the diagonal of the tet shapes' rest positions alone (matSpaceBBoxSize2(3)):
     kinematic triangle, segment and point shapes do not count. Without tet shapes IPC's
     diagonal would be 0; ipcc keeps the diagonal of all shapes then. */
  double pdiag = diag;
  {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int c = 0; c < nsh; ++c)
      if (p->shapes[order[c]].kind == KIND_TET)
        ipc_txt_bbox_grow(lo, hi, pl.X + 3 * (size_t)pl.off[c], pl.off[c + 1] - pl.off[c]);
    double e2 = 0;
    for (int d = 0; d < 3; ++d) e2 += hi[d] > lo[d] ? (hi[d] - lo[d]) * (hi[d] - lo[d]) : 0.0;
    if (e2 > 0) pdiag = sqrt(e2);
  }

  /* bodies */
  s->nbodies = p->nshapes;
  s->bodies = IPC_NEW0(ipc_body_def, s->nbodies);
  int null_script = p->script == SCRIPT_NULL;
  for (int c = 0; c < p->nshapes; ++c) {
    txt_shape *sh = &p->shapes[order[c]];
    const cached_mesh *cm = &p->meshes[sh->mesh];
    ipc_body_def *b = &s->bodies[c];
    *b = ipc_default_body_def();
    b->mesh = ipc_txt_dup_str(sh->path);
    b->codim = sh->codim;
    b->material = p->energy;
    b->density = p->density;
    b->young = p->young;
    b->poisson = p->poisson;
    b->friction = p->self_fric;
    if (sh->co) { /* centred on the mean, rotated, scaled to the largest extent, moved */
      double mean[3] = {0, 0, 0}, lo[3] = {INFINITY, INFINITY, INFINITY};
      double hi[3] = {-INFINITY, -INFINITY, -INFINITY}, R[9], Rmean[3];
      for (int i = 0; i < cm->m.nverts; ++i)
        for (int d = 0; d < 3; ++d) mean[d] += cm->m.x[3 * i + d] / cm->m.nverts;
      ipc_txt_bbox_grow(lo, hi, cm->m.x, cm->m.nverts);
      double cur = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
      if (!(cur > 0)) return ipc_txt_bad(p, sh->line, "keyword 'meshCO': the mesh has zero extent");
      double kc = sh->s[0] / cur;
      rot_xyz(R, sh->r);
      matvec(Rmean, R, mean);
      for (int d = 0; d < 3; ++d) {
        b->scale[d] = kc;
        b->rotation[d] = sh->r[d];
        b->translation[d] = sh->t[d] - kc * Rmean[d];
      }
      b->obstacle = 1;
      /* IPC reads a meshCO's friction coefficient but adds no friction term for it (its
         friction energy covers halfSpace/ground and shape-shape pairs only): contact with a
         meshCO is frictionless there, and so here */
      b->friction = 0.0;
      continue;
    }
    /* fold the global steps into the body transform */
    double tt[3];
    if (rotated) {
      double R[9], r[3];
      matmul(R, Rm, Rb + 9 * c);
      euler_xyz_of(b->rotation, R);
      for (int d = 0; d < 3; ++d) r[d] = sh->t[d] - piv[d];
      matvec(tt, Rm, r);
      for (int d = 0; d < 3; ++d) tt[d] += piv[d];
    } else {
      memcpy(b->rotation, sh->r, sizeof b->rotation);
      memcpy(tt, sh->t, sizeof tt);
    }
    for (int d = 0; d < 3; ++d) {
      b->scale[d] = k * sh->s[d];
      b->translation[d] = k * tt[d] - mn[d] + (d == 1 ? lift : 0.0);
    }
    /* a scripted velocity: a surface shape is a kinematic obstacle; a volumetric one keeps its
       mass and elasticity with every vertex scripted (IPC makes all its nodes Dirichlet
       nodes, which its moving boundary conditions pull when they cannot move at once) */
    int kinematic = sh->has_lin_vel || sh->has_ang_vel;
    b->obstacle = sh->kind != KIND_TET;
    b->ipc_codim_mass = b->obstacle;
    if (sh->kind == KIND_TET && isfinite(sh->mat[0]) && isfinite(sh->mat[1]) &&
        isfinite(sh->mat[2])) {
      if (!(sh->mat[0] > 0 && sh->mat[1] > 0))
        return ipc_txt_bad(p, sh->line,
                           "shape extra 'material': expected density > 0 and Young's modulus "
                           "> 0, got %g %g",
                           sh->mat[0], sh->mat[1]);
      if (!(sh->mat[2] >= 0 && sh->mat[2] < 0.5))
        return ipc_txt_bad(p, sh->line, "shape extra 'material': expected 0 <= nu < 0.5");
      b->density = sh->mat[0];
      b->young = sh->mat[1];
      b->poisson = sh->mat[2];
    }
    if (!null_script && (kinematic || sh->has_init_vel || sh->nbc[0] || sh->nbc[1] || sh->seq) &&
        !ipc_txt_unsupported(p, sh->line, "shapes",
                             "IPC applies the extras DBC, NBC, initVel, linearVelocity, "
                             "angularVelocity and meshSeq only with script null"))
      return 0;
    if (!null_script) continue;
    if (sh->seq && !ipc_txt_mesh_sequence(p, b, sh, sh->seq, sh->seq_line, 0)) return 0;
    if (kinematic && b->obstacle) {
      if (sh->has_lin_vel) memcpy(b->velocity, sh->lin_vel, sizeof b->velocity);
      if (sh->has_ang_vel) memcpy(b->angular_velocity, sh->ang_vel, sizeof b->velocity);
    } else if (kinematic) {
      ipc_dirichlet_def *d =
          ipc_txt_add_dirichlet(b, ipc_txt_all_verts(cm->m.nverts), cm->m.nverts, 0, INFINITY);
      if (sh->has_lin_vel) memcpy(d->velocity, sh->lin_vel, sizeof d->velocity);
      if (sh->has_ang_vel) memcpy(d->angular_velocity, sh->ang_vel, sizeof d->angular_velocity);
    } else if (sh->has_init_vel && !b->obstacle) {
      memcpy(b->velocity, sh->init_v, sizeof b->velocity);
      memcpy(b->angular_velocity, sh->init_w, sizeof b->velocity);
    }
    for (int q = 0; q < sh->nbc[0]; ++q) {
      const txt_bc *bc = &sh->bc[0][q];
      int *verts;
      int n = select_box(&verts, cm, bc->lo, bc->hi);
      double t0 = fmax(bc->t0, p->dbc_range[0]), t1 = fmin(bc->t1, p->dbc_range[1]);
      if (n == 0 || !(t0 < t1)) {
        ipc_free(verts);
        continue;
      }
      ipc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, t0, t1);
      memcpy(d->velocity, bc->v, sizeof d->velocity);
      memcpy(d->angular_velocity, bc->w, sizeof d->angular_velocity);
    }
    for (int q = 0; q < sh->nbc[1]; ++q) {
      const txt_bc *bc = &sh->bc[1][q];
      int *verts;
      int n = select_box(&verts, cm, bc->lo, bc->hi);
      double t0 = fmax(bc->t0, p->nbc_range[0]), t1 = fmin(bc->t1, p->nbc_range[1]);
      if (n == 0 || !(t0 < t1)) {
        ipc_free(verts);
        continue;
      }
      b->neumann = ipc_realloc(b->neumann, (size_t)(b->nneumann + 1) * sizeof(ipc_neumann_def));
      ipc_neumann_def *nd = &b->neumann[b->nneumann++];
      memset(nd, 0, sizeof *nd);
      nd->region.verts = verts;
      nd->region.nverts = n;
      memcpy(nd->acceleration, bc->v, sizeof nd->acceleration);
      nd->t_begin = t0;
      nd->t_end = t1;
    }
  }

  /* IPC's selfCollisionOff: the shapes touch only meshCO, ground and halfSpace; its
     kinematic shapes then touch nothing, which obstacles_only cannot say */
  if (p->self_collision_off) {
    int kinematic = 0;
    for (int c = 0; c < nsh; ++c) kinematic |= s->bodies[c].obstacle;
    if (!kinematic)
      s->body_contact = IPC_BODY_CONTACT_OBSTACLES_ONLY;
    else if (!ipc_txt_unsupported(
                 p, p->self_collision_off, "selfCollisionOff",
                 "with kinematic shapes: in IPC they then touch nothing, in ipcc every "
                 "obstacle touches the bodies"))
      return 0;
  }

  /* built-in scenarios, on the shapes' final positions */
  double dt = p->dt;
  int sl = p->script_line;
  if (p->script == SCRIPT_DRAGRIGHT || p->script == SCRIPT_TWIST ||
      p->script == SCRIPT_STRETCH_PAUSE) {
    double ratio = p->script == SCRIPT_DRAGRIGHT ? 0.04
                   : p->script == SCRIPT_TWIST   ? p->handle_ratio
                                                 : 0.01;
    double left = pl.lo[0] + ratio * ext[0], right = pl.hi[0] - ratio * ext[0];
    /* dragright lets a body go once it lies right of every meshCO (of -infinity without
       one: IPC then never drags) */
    double mco_right = -INFINITY;
    for (int c = nsh; c < p->nshapes; ++c) {
      const ipc_body_def *o = &s->bodies[c];
      const ipc_mesh *om = &p->meshes[p->shapes[order[c]].mesh].m;
      double R[9];
      rot_xyz(R, o->rotation);
      for (int i = 0; i < om->nverts; ++i) {
        const double *q = om->x + 3 * (size_t)i;
        double x = o->translation[0] + o->scale[0] * (R[0] * q[0] + R[1] * q[1] + R[2] * q[2]);
        mco_right = fmax(mco_right, x);
      }
    }
    double center[3], t_stop = INFINITY;
    for (int d = 0; d < 3; ++d) center[d] = 0.5 * (pl.lo[d] + pl.hi[d]);
    if (p->script ==
        SCRIPT_STRETCH_PAUSE) { /* pauses when the last left handle vertex passes x = -0.28 */
      double x0 = NAN;
      for (int i = 0; i < nX; ++i)
        if (pl.X[3 * (size_t)i] < left) x0 = pl.X[3 * (size_t)i];
      int kk = 0;
      while (!isnan(x0) && x0 - kk * dt >= -0.28 && kk < 100000000) ++kk;
      t_stop = ipc_txt_switch_time(kk, dt);
    }
    for (int c = 0; c < nsh; ++c) {
      ipc_body_def *b = &s->bodies[c];
      if (b->obstacle) continue;
      int nv = pl.off[c + 1] - pl.off[c];
      for (int side = 0; side < 2; ++side) {
        if (p->script == SCRIPT_DRAGRIGHT && side == 0) continue;
        int *verts = IPC_NEW(int, (size_t)nv), n = 0;
        for (int i = 0; i < nv; ++i) {
          double x = pl.X[3 * (size_t)(pl.off[c] + i)];
          if (side == 0 ? x < left : (x > right && !(x < left))) verts[n++] = i;
        }
        if (n == 0) {
          ipc_free(verts);
          continue;
        }
        if (p->script == SCRIPT_STRETCH_PAUSE) {
          int *hold = IPC_NEW(int, (size_t)n);
          memcpy(hold, verts, (size_t)n * sizeof(int));
          if (t_stop > 0)
            ipc_txt_add_dirichlet(b, verts, n, 0.0, t_stop)->velocity[0] = side ? 1.0 : -1.0;
          else
            ipc_free(verts);
          ipc_txt_add_dirichlet(b, hold, n, t_stop, INFINITY);
        } else if (p->script == SCRIPT_DRAGRIGHT) {
          ipc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, 0.0, INFINITY);
          d->velocity[0] = 0.5;
          d->has_release_x = 1;
          d->release_x = mco_right;
        } else {
          ipc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, 0.0, INFINITY);
          d->angular_velocity[0] = (side ? 1.0 : -1.0) * 0.4 * pi;
          d->has_center = 1;
          memcpy(d->center, center, sizeof d->center);
        }
      }
    }
  } else if (p->script == SCRIPT_DCO_ROT_CYLINDERS || p->script == SCRIPT_DCO_SQUASH6) {
    int need = p->script == SCRIPT_DCO_SQUASH6 ? 6 : 4;
    if (nsh < need + 1)
      return ipc_txt_bad(p, sl, "script '%s' moves the first %d shapes; the script has %d",
                         ipc_txt_script_names[p->script], need, nsh);
    static const double w[4][3] = {{0.5, 0, 0}, {-0.5, 0, 0}, {0, 0, -0.5}, {0, 0, 0.5}};
    static const double v[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    double t_flip = INFINITY;
    if (p->script == SCRIPT_DCO_SQUASH6) { /* reverses once shapes 0 and 1 are 0.1 apart in x */
      double r0 = -INFINITY, l1 = INFINITY;
      for (int i = pl.off[0]; i < pl.off[1]; ++i) r0 = fmax(r0, pl.X[3 * (size_t)i]);
      for (int i = pl.off[1]; i < pl.off[2]; ++i) l1 = fmin(l1, pl.X[3 * (size_t)i]);
      int kk = 0;
      while (l1 - r0 - 2.0 * kk * dt >= 0.1 && kk < 100000000) ++kk;
      t_flip = ipc_txt_switch_time(kk, dt);
    }
    for (int c = 0; c < need; ++c) {
      ipc_body_def *b = &s->bodies[c];
      b->obstacle = 1;
      int nv = pl.off[c + 1] - pl.off[c];
      if (p->script == SCRIPT_DCO_ROT_CYLINDERS) {
        for (int d = 0; d < 3; ++d) b->angular_velocity[d] = w[c][d] * pi;
      } else {
        if (t_flip > 0)
          memcpy(ipc_txt_add_dirichlet(b, ipc_txt_all_verts(nv), nv, 0.0, t_flip)->velocity, v[c],
                 24);
        ipc_dirichlet_def *d =
            ipc_txt_add_dirichlet(b, ipc_txt_all_verts(nv), nv, t_flip, INFINITY);
        for (int q = 0; q < 3; ++q) d->velocity[q] = -v[c][q];
      }
    }
  } else if (p->script == SCRIPT_DCO_SEGBED_SQUASH) {
    /* the kinematic shapes in the second half move down at 1 m/s until the two halves
       are 0.1 apart */
    int half = (nsh + 1) / 2;
    double top = INFINITY, bottom = -INFINITY;
    for (int c = 0; c < nsh; ++c) {
      if (!s->bodies[c].obstacle) continue;
      for (int i = pl.off[c]; i < pl.off[c + 1]; ++i) {
        double y = pl.X[3 * (size_t)i + 1];
        if (c >= half)
          top = fmin(top, y);
        else
          bottom = fmax(bottom, y);
      }
    }
    int kk = 0;
    while (top - bottom - kk * dt > 0.1 && kk < 100000000) ++kk;
    double t_stop = ipc_txt_switch_time(kk, dt);
    for (int c = half; c < nsh && t_stop > 0; ++c) {
      ipc_body_def *b = &s->bodies[c];
      if (!b->obstacle) continue;
      int nv = pl.off[c + 1] - pl.off[c];
      ipc_txt_add_dirichlet(b, ipc_txt_all_verts(nv), nv, 0.0, t_stop)->velocity[1] = -1.0;
    }
  } else if (p->script == SCRIPT_MESH_SEQ_FROM_FILE) {
    /* the first kinematic shape follows FOLDER/1.obj, 2.obj, ... (step k reads k.obj) */
    for (int c = 0; c < nsh; ++c) {
      const txt_shape *sh = &p->shapes[order[c]];
      if (sh->kind == KIND_TET) continue;
      if (!ipc_txt_mesh_sequence(p, &s->bodies[c], sh, p->seq_folder, sl, 1)) return 0;
      break;
    }
  } else if (p->script >= SCRIPT_HANG && !ipc_txt_more_scenarios(p, s, &pl, nsh, nX)) {
    return 0;
  }

  /* scene */
  s->nplanes = p->nplanes;
  s->planes = p->planes;
  p->planes = NULL;
  p->nplanes = 0;
  s->time_step = p->dt;
  s->duration = p->duration;
  if (p->gravity_off) s->gravity[1] = 0.0;
  s->integrator = p->integrator;
  s->warm_start = p->warm_start;
  /* IPC damps with C = (k / h) K; a ratio r > 0 sets k = 3/4 r h^3 (Config.cpp). ipcc's
     C = beta h K, so beta = k / h^2 */
  if (p->damping_ratio > 0)
    s->damping_stiffness = 0.75 * p->damping_ratio * p->dt;
  else
    s->damping_stiffness = p->damping_stiff / (p->dt * p->dt);
  s->bbox_diag = pdiag;
  /* IPC's kappa from tuning[0] is where its adaptive kappa starts each step, not a fixed one */
  s->kappa = 0.0;
  s->kappa_initial = p->tuning[0];
  s->dhat = p->use_abs ? p->tuning[1] / pdiag : p->tuning[1];
  s->dhat_target = p->use_abs ? p->tuning[2] / pdiag : p->tuning[2];
  s->script_rotation_bbox = 1;
  s->plane_friction_quadratic = 1;
  s->ipc_newton_path = 1;
  s->epsv = p->tuning[4];
  s->epsv_absolute = p->use_abs;
  s->newton_tol = p->use_abs ? p->tol / pdiag : p->tol;
  s->friction_iterations = p->friction_iterations;
  s->friction_tolerance = 0.0; /* IPC re-lags until the Newton direction is within the tolerance */
  /* IPC: selfFric between shapes, a collision object's own coefficient against it */
  s->friction_combine = IPC_FRICTION_OBSTACLE;
  return 1;
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
    ipc_mesh_free(&p->meshes[i].m);
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
static int nul_byte(const char *path, const char *text, size_t len, ipc_error *err) {
  const char *z = memchr(text, '\0', len);
  if (!z) return 0;
  int line = 1;
  for (const char *q = text; q < z; ++q) line += *q == '\n';
  ipc_error_set(err, IPC_ERR_INPUT, "%s:%d: NUL byte in the script, expected text", path, line);
  return 1;
}

static ipc_status load_txt(const char *path, unsigned flags, ipc_scene_def *out, ipc_error *err,
                           int depth) {
  *out = ipc_default_scene_def();
  size_t len = 0;
  char *text = ipc_read_file(path, &len, err);
  if (!text) return IPC_ERR_INPUT;
  if (nul_byte(path, text, len, err)) {
    ipc_free(text);
    return IPC_ERR_INPUT;
  }
  char target[1024];
  if (pointer_target(text, target, sizeof target)) {
    ipc_free(text);
    if (depth > 8) return ipc_error_set(err, IPC_ERR_INPUT, "%s:1: too many script aliases", path);
    char *dir = ipc_path_dirname(path);
    char *next = ipc_path_join(dir, target);
    ipc_free(dir);
    ipc_status st = load_txt(next, flags, out, err, depth + 1);
    ipc_free(next);
    return st;
  }
  txt p;
  memset(&p, 0, sizeof p);
  p.file = path;
  p.err = err;
  p.flags = flags;
  p.dir = ipc_path_dirname(path);
  p.energy = IPC_MAT_NEO_HOOKEAN;
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
  p.integrator = IPC_IMPLICIT_EULER;
  p.duration = 5.0;
  p.dt = 0.025;
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
  int ok = !p.failed && finalize(&p, out);
  if (ok) out->path = ipc_txt_dup_str(path);
  txt_free(&p);
  if (!ok) {
    ipc_scene_def_free(out);
    return IPC_ERR_INPUT;
  }
  return IPC_OK;
}

ipc_status ipc_scene_load_txt(const char *path, unsigned flags, ipc_scene_def *out,
                              ipc_error *err) {
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

ipc_status ipc_scene_load_any(const char *path, unsigned flags, ipc_scene_def *out,
                              ipc_error *err) {
  if (ipc_txt_ends_with(path, ".txt")) return ipc_scene_load_txt(path, flags, out, err);
  size_t len;
  char *text = ipc_read_file(path, &len, err);
  if (!text) {
    *out = ipc_default_scene_def();
    return IPC_ERR_INPUT;
  }
  int is_txt = ipc_scene_text_is_txt(path, text);
  ipc_free(text);
  return is_txt ? ipc_scene_load_txt(path, flags, out, err) : ipc_scene_load(path, out, err);
}
