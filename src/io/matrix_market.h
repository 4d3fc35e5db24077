/* Matrix Market files (NIST text format), real matrices and vectors
 *
 * Read: the banner "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" with FORMAT coordinate or
 * array, FIELD real or integer, SYMMETRY general, symmetric or skew-symmetric (keywords
 * case-insensitive); '%' comment lines and blank lines anywhere after it; the size line
 * "M N NNZ" (coordinate) or "M N" (array); then the entries: one "i j value" per line,
 * 1-based (coordinate), or the values column by column (array; for symmetric files the
 * lower triangle only, skew-symmetric the strict lower triangle). Symmetric coordinate
 * files must store the lower triangle (i >= j; i > j for skew). Duplicate coordinate
 * entries are kept (consumers sum them). Rows and columns are at most IPC_MM_MAX_DIM, and the
 * size line's count must fit in the rest of the file, both checked before reading the
 * entries (the caller allocates per row). Errors name the file and line and what was
 * expected.
 * Write: arrays (dense) and general coordinate files, values with 17 significant digits
 * (exact round trip), atomically (temporary file, then rename). */
#ifndef IPCC_IO_MATRIX_MARKET_H
#define IPCC_IO_MATRIX_MARKET_H

#include <stddef.h>

#include "ipcc/error.h"

/* largest row or column count read: 10^7 (vectors of 80 MB) */
#define IPC_MM_MAX_DIM 10000000

/* a matrix as triplets, symmetry expanded (both triangles stored) */
typedef struct ipc_mm_matrix {
  int rows, cols;
  int nnz;      /* triplets */
  int *ri, *ci; /* (nnz) 0-based row and column */
  double *val;  /* (nnz) */
  int array;    /* 1 when the file used the array (dense) format: every entry present */
  int symmetry; /* as stored: 0 general, 1 symmetric, -1 skew-symmetric */
} ipc_mm_matrix;

/* reads path into m (free with ipc_mm_free); on error m is empty and err names the file
 * and line */
ipcc_status ipc_mm_read(const char *path, ipc_mm_matrix *m, ipcc_error *err);

/* parses the text (len bytes, text[len] == '\0') of a file called name; as ipc_mm_read */
ipcc_status ipc_mm_parse(const char *name, const char *text, size_t len, ipc_mm_matrix *m,
                         ipcc_error *err);

/* frees the arrays of m and zeroes it; m may be NULL */
void ipc_mm_free(ipc_mm_matrix *m);

/* out (rows x cols, row-major, caller-owned) = the matrix, duplicates summed */
void ipc_mm_to_dense(const ipc_mm_matrix *m, double *out);

/* writes the rows x cols row-major matrix a as a general real array (column by column, as
 * the format asks); an n-vector is rows = n, cols = 1 */
ipcc_status ipc_mm_write_array(const char *path, int rows, int cols, const double *a,
                               ipcc_error *err);

/* writes nnz 0-based triplets as a general real coordinate file */
ipcc_status ipc_mm_write_coordinate(const char *path, int rows, int cols, int nnz, const int *ri,
                                    const int *ci, const double *v, ipcc_error *err);

#endif
