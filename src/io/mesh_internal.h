/* internals shared by the mesh readers (mesh.c, mesh_scan.c, msh.c, obj.c, tetgen.c):
   a whole-file text scanner with line numbers, the raw tet mesh readers fill, and the
   in-memory entry points the tests use for fuzzing */
#ifndef IPCC_IO_MESH_INTERNAL_H
#define IPCC_IO_MESH_INTERNAL_H

#include <stddef.h>

#include "ipcc/mesh.h"

/* cursor over a file held in memory; the byte at end must be '\0' so strtod/strtol stop */
typedef struct ipc_scan {
  const char *name;  /* file name used in messages */
  const char *p;     /* next unread byte */
  const char *end;   /* one past the last byte */
  int line;          /* 1-based line of p */
  int multiline;     /* 1: values may continue on later lines (msh, TetGen); 0: one line (obj) */
  int hash_comments; /* 1: '#' starts a comment running to the end of the line */
} ipc_scan;

/* reads a whole mesh file (at most IPC_READ_MAX_MESH bytes) into *buf (ipc_malloc'd, '\0'
   appended, length in *len); on failure names the file and why */
ipcc_status ipc_file_slurp(const char *path, char **buf, size_t *len, ipcc_error *err);

/* the files ipcc_mesh_read reads for path into files (ipc_free each): the .node and the .ele
   of a TetGen mesh (2), else path itself (1); returns the count */
int ipc_mesh_files(const char *path, char *files[2]);

/* starts s at buf (len bytes, buf[len] == '\0'), line 1, single-line, no comments */
void ipc_scan_init(ipc_scan *s, const char *name, const char *buf, size_t len);

/* skips blanks and comments, and newlines when s->multiline */
void ipc_scan_skip(ipc_scan *s);

/* 1 when only blanks/comments remain on the current line (no skip over newlines) */
int ipc_scan_at_eol(ipc_scan *s);

/* 1 when only whitespace/comments remain in the whole buffer */
int ipc_scan_at_eof(ipc_scan *s);

/* moves past the next newline (or to the end) */
void ipc_scan_next_line(ipc_scan *s);

/* skips, then returns the length of the next token and sets *tok (0 at end of line/file);
   does not consume it */
size_t ipc_scan_peek(ipc_scan *s, const char **tok);

/* consumes the token ipc_scan_peek returned (len bytes) */
void ipc_scan_advance(ipc_scan *s, size_t len);

/* 1 when the token (tok, len) equals word */
int ipc_token_is(const char *tok, size_t len, const char *word);

/* reads one integer token; what names it in the message on failure */
ipcc_status ipc_scan_long(ipc_scan *s, long *v, const char *what, ipcc_error *err);

/* reads one integer token in [lo, hi] */
ipcc_status ipc_scan_long_in(ipc_scan *s, long *v, long lo, long hi, const char *what,
                             ipcc_error *err);

/* reads one finite floating-point token */
ipcc_status ipc_scan_double(ipc_scan *s, double *v, const char *what, ipcc_error *err);

/* requires the next token to be word */
ipcc_status ipc_scan_expect(ipc_scan *s, const char *word, const char *why, ipcc_error *err);

/* requires the rest of the current line to be blank (or a comment) */
ipcc_status ipc_scan_expect_eol(ipc_scan *s, ipcc_error *err);

/* writes a short quoted description of the next token ("'abc'", "end of line",
   "end of file") into buf */
void ipc_scan_describe(ipc_scan *s, char *buf, size_t n);

/* sets err to IPCC_ERR_INPUT with "NAME:LINE: " and the formatted text at line */
ipcc_status ipc_scan_fail_at(const ipc_scan *s, int line, ipcc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* as ipc_scan_fail_at at the current line */
ipcc_status ipc_scan_fail(const ipc_scan *s, ipcc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* a tet mesh as a reader found it: node tags and element numbers as in the file,
   with the lines they were on, before tags are resolved and tets validated */
typedef struct ipc_tet_raw {
  int nnodes;
  size_t cap_nodes;
  double *x;      /* (nnodes x 3) */
  long *node_tag; /* (nnodes) node number in the file */
  int *node_line; /* (nnodes) */
  int ntets;
  size_t cap_tets;
  long *tet_nodes; /* (ntets x 4) node tags */
  long *tet_id;    /* (ntets) element number in the file */
  int *tet_line;   /* (ntets) */
} ipc_tet_raw;

/* appends a node; returns its index */
int ipc_tet_raw_add_node(ipc_tet_raw *r, long tag, const double xyz[3], int line);

/* appends a tet given by four node tags */
void ipc_tet_raw_add_tet(ipc_tet_raw *r, long id, const long nodes[4], int line);

/* resolves node tags, checks volumes (all-negative files are flipped, see mesh.h), builds
   the boundary and one object named after the file; node_s / ele_s locate messages
   (the same scanner for one-file formats, at its end). fills out on success */
ipcc_status ipc_tet_raw_finish(ipc_tet_raw *r, const ipc_scan *node_s, const ipc_scan *ele_s,
                               ipcc_mesh *out, ipcc_error *err);

void ipc_tet_raw_free(ipc_tet_raw *r);

/* heap copy of the file's base name without folder and extension */
char *ipc_mesh_default_name(const char *path);

/* parsers on a buffer (buf[len] == '\0'); name is used for messages; on failure out is
   zeroed. ipc_obj_parse reads .seg semantics ('s i j' is a segment) when seg != 0 */
ipcc_status ipc_msh_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                          ipcc_error *err);
ipcc_status ipc_obj_parse(const char *name, const char *buf, size_t len, int seg, ipcc_mesh *out,
                          ipcc_error *err);
/* ipcc's frames and general PLY / VTU files (ply.c, vtu.c): surfaces, tets (VTU) and the
   obstacle marks of ipcc's frames; see ipcc_mesh_read */
ipcc_status ipc_ply_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                          ipcc_error *err);
ipcc_status ipc_vtu_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                          ipcc_error *err);
ipcc_status ipc_tetgen_parse(const char *node_name, const char *node_buf, size_t node_len,
                             const char *ele_name, const char *ele_buf, size_t ele_len,
                             ipcc_mesh *out, ipcc_error *err);

/* dispatches on the extension of name like ipcc_mesh_read (not .node/.ele, which need two
   buffers) */
ipcc_status ipc_mesh_parse(const char *name, const char *buf, size_t len, ipcc_mesh *out,
                           ipcc_error *err);

#endif
