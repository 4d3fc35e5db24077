/* a 5x7 bitmap font for plot labels: digits, capitals and the punctuation numbers and
   titles need; each glyph is 7 rows of 5 cells, '#' set */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/plot.h"

typedef struct glyph {
  char c;
  const char *rows; /* 35 cells, row by row */
} glyph;

static const glyph glyphs[] = {
    {'0', ".###.#...##..###.#.###..##...#.###."}, {'1', "..#...##....#....#....#....#...###."},
    {'2', ".###.#...#....#...#...#...#...#####"}, {'3', "####.....#....#.###.....#....#####."},
    {'4', "...#...##..#.#.#..#.#####...#....#."}, {'5', "######....####.....#....##...#.###."},
    {'6', "..##..#...#....####.#...##...#.###."}, {'7', "#####....#...#...#...#....#....#..."},
    {'8', ".###.#...##...#.###.#...##...#.###."}, {'9', ".###.#...##...#.####....#...#..##.."},
    {'A', ".###.#...##...#######...##...##...#"}, {'B', "####.#...##...#####.#...##...#####."},
    {'C', ".###.#...##....#....#....#...#.###."}, {'D', "###..#..#.#...##...##...##..#.###.."},
    {'E', "######....#....####.#....#....#####"}, {'F', "######....#....####.#....#....#...."},
    {'G', ".###.#...##....#.####...##...#.####"}, {'H', "#...##...##...#######...##...##...#"},
    {'I', ".###...#....#....#....#....#...###."}, {'J', "..###...#....#....#....#.#..#..##.."},
    {'K', "#...##..#.#.#..##...#.#..#..#.#...#"}, {'L', "#....#....#....#....#....#....#####"},
    {'M', "#...###.###.#.##.#.##...##...##...#"}, {'N', "#...###..##.#.##..###...##...##...#"},
    {'O', ".###.#...##...##...##...##...#.###."}, {'P', "####.#...##...#####.#....#....#...."},
    {'Q', ".###.#...##...##...##.#.##..#..##.#"}, {'R', "####.#...##...#####.#.#..#..#.#...#"},
    {'S', ".#####....#.....###.....#....#####."}, {'T', "#####..#....#....#....#....#....#.."},
    {'U', "#...##...##...##...##...##...#.###."}, {'V', "#...##...##...##...##...#.#.#...#.."},
    {'W', "#...##...##...##.#.##.#.###.###...#"}, {'X', "#...##...#.#.#...#...#.#.#...##...#"},
    {'Y', "#...##...#.#.#...#....#....#....#.."}, {'Z', "#####....#...#...#...#...#....#####"},
    {'.', "..........................##...##.."}, {',', ".....................##....#...#..."},
    {':', "......##...##........##...##......."}, {'-', "................###................"},
    {'+', ".......#....#..#####..#....#......."}, {'=', "..........#####.....#####.........."},
    {'/', "....#....#...#...#...#...#....#...."}, {'(', "...#...#...#....#....#.....#.....#."},
    {')', ".#.....#.....#....#....#...#...#..."}, {'[', ".###..#....#....#....#....#....###."},
    {']', ".###....#....#....#....#....#..###."}, {'%', "##...##..#...#...#...#...#..##...##"},
    {'_', "..............................#####"}, {'^', "..#...#.#.#...#...................."},
    {'*', ".......#..#.#.#.###.#.#.#..#......."}, {'>', ".#.....#.....#.....#...#...#...#..."},
    {'<', "...#...#...#...#.....#.....#.....#."}, {'\'', "..#....#...#......................."},
    {'|', "..#....#....#....#....#....#....#.."},
};

static const char *glyph_of(char c) {
  c = (char)toupper((unsigned char)c);
  for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; ++i)
    if (glyphs[i].c == c) return glyphs[i].rows;
  return NULL; /* space and anything unknown: blank */
}

int ipc_text_width(const char *text, int scale) {
  size_t n = strlen(text);
  return n ? (int)(6 * n - 1) * scale : 0;
}

int ipc_image_text(ipcc_image *im, int x, int y, const char *text, const unsigned char color[3],
                   int scale) {
  for (const char *p = text; *p; ++p, x += 6 * scale) {
    const char *g = glyph_of(*p);
    if (!g) continue;
    for (int r = 0; r < 7; ++r)
      for (int c = 0; c < 5; ++c) {
        if (g[5 * r + c] != '#') continue;
        for (int dy = 0; dy < scale; ++dy)
          for (int dx = 0; dx < scale; ++dx) {
            int px = x + c * scale + dx, py = y + r * scale + dy;
            if (px < 0 || py < 0 || px >= im->width || py >= im->height) continue;
            memcpy(im->rgb + 3 * ((size_t)py * (size_t)im->width + (size_t)px), color, 3);
          }
      }
  }
  return ipc_text_width(text, scale);
}

void ipc_image_frame_label(ipcc_image *im, int frame, double t) {
  char text[64];
  if (isfinite(t))
    snprintf(text, sizeof text, "FRAME %d  T = %.4g S", frame, t);
  else
    snprintf(text, sizeof text, "FRAME %d", frame);
  int scale = im->height >= 720 ? 2 : 1, w = ipc_text_width(text, scale), h = 7 * scale;
  int x0 = 6 * scale, y0 = im->height - h - 8 * scale;
  /* a light plate under the text: readable on the sky and on dark bodies alike */
  for (int y = y0 - 3 * scale; y < y0 + h + 3 * scale; ++y)
    for (int x = x0 - 3 * scale; x < x0 + w + 3 * scale; ++x) {
      if (x < 0 || y < 0 || x >= im->width || y >= im->height) continue;
      unsigned char *p = im->rgb + 3 * ((size_t)y * (size_t)im->width + (size_t)x);
      for (int d = 0; d < 3; ++d) p[d] = (unsigned char)(p[d] / 4 + 3 * 255 / 4);
    }
  static const unsigned char ink[3] = {30, 30, 36};
  ipc_image_text(im, x0, y0, text, ink, scale);
}
