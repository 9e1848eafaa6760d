/*
 * fuzz_mat.c -- the .mat reader (mex/files/la_files_mat.c) on randomly
 * damaged files, under AddressSanitizer and UndefinedBehaviorSanitizer
 * (make fuzz-mat-c).
 *
 *   fuzz_mat SEED COUNT FILE...
 *
 * Each case takes one of the FILEs (valid .mat files: Octave's save -v7
 * and -v6, la_save's, ones holding cells and structs) and damages it one
 * to three times: bytes set at random, a cut, a slice repeated, a 32-bit
 * number set to an extreme (0, 1, 2^31 - 1, 2^32 - 1, ...), bytes
 * appended; compressed variables are inflated first half the time, so
 * that the damage reaches the matrix inside.  Every case must end in
 * LA_FILE_OK or LA_FILE_BAD with a reason; any memory error, undefined
 * behaviour or leak stops the run (the sanitizers).  Prints the counts.
 */
#include "../../../mex/files/la_files_mat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint64_t state;

static uint64_t next_rand(void)
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static size_t pick(size_t n) { return n ? (size_t)(next_rand() % n) : 0; }

typedef struct {
  void *block[LA_MAT_MAX_VARS * 2];
  size_t n;
} blocks;

static int alloc(void *ctx, const la_mat_var *v, void **re, void **im)
{
  static const size_t size[16] = {0, 0, 0, 0, 2, 0, 8, 4, 1, 1, 2, 2, 4, 4, 8, 8};
  blocks *b = ctx;
  const size_t bytes = v->count * (v->logical ? 1 : size[v->cls]);
  if (!(*re = b->block[b->n++] = malloc(bytes ? bytes : 1))) return -1;
  if (im && !(*im = b->block[b->n++] = malloc(bytes ? bytes : 1))) return -1;
  return 0;
}

/* the file with every compressed variable inflated in place (its matrix
 * as an miMATRIX element), or NULL when there is none */
static unsigned char *inflated(const unsigned char *b, size_t n, size_t *out)
{
  unsigned char *r;
  size_t at = 128, m = 128, cap;
  int any = 0;
  if (n < 128) return NULL;
  cap = 2 * n + 4096;
  if (!(r = malloc(cap))) return NULL;
  memcpy(r, b, 128);
  while (at + 8 <= n) {
    uint32_t type, len;
    memcpy(&type, b + at, 4);
    memcpy(&len, b + at + 4, 4);
    if (len > n - at - 8) break;
    if (type == 15) {
      uLongf got = (uLongf)(cap - m - 8);
      if (uncompress(r + m, &got, b + at + 8, len) != Z_OK) break;
      m += got;
      while (m % 8) r[m++] = 0;
      any = 1;
    } else {
      memcpy(r + m, b + at, 8 + (size_t)len);
      m += 8 + len;
    }
    at += 8 + len;
    if (type == 14) at = (at + 7) / 8 * 8;
  }
  if (!any) {
    free(r);
    return NULL;
  }
  *out = m;
  return r;
}

static unsigned char *damage(unsigned char *b, size_t *n)
{
  static const uint32_t extreme[] = {0, 1, 8, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x10000u, 40000};
  int r, rounds = 1 + (int)pick(3);
  for (r = 0; r < rounds; r++) {
    size_t p = pick(*n), q, k;
    switch (pick(5)) {
    case 0:
      for (k = 1 + pick(8); k > 0 && *n; k--) b[pick(*n)] = (unsigned char)next_rand();
      break;
    case 1:
      *n = pick(*n + 1);
      break;
    case 2:
      q = p + 1 + pick(64);
      if (q > *n) q = *n;
      b = realloc(b, *n + (q - p) + 1);
      memmove(b + q + (q - p), b + q, *n - q);
      memcpy(b + q, b + p, q - p);
      *n += q - p;
      break;
    case 3:
      if (*n >= 4) {
        p = pick(*n - 3) & ~(size_t)3;
        memcpy(b + p, &extreme[pick(8)], 4);
      }
      break;
    default:
      k = 1 + pick(100);
      b = realloc(b, *n + k);
      for (q = 0; q < k; q++) b[*n + q] = (unsigned char)next_rand();
      *n += k;
    }
  }
  return b;
}

int main(int argc, char **argv)
{
  unsigned char *seed[32];
  size_t seed_n[32], i, nseeds = 0, ok = 0, bad = 0;
  long count;
  char err[320];
  if (argc < 4) {
    fprintf(stderr, "usage: fuzz_mat SEED COUNT FILE...\n");
    return 2;
  }
  state = (uint64_t)strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ull + 0xD1B54A32D192ED03ull; /* never 0 */
  for (i = 0; i < 8; i++) next_rand();
  count = strtol(argv[2], NULL, 10);
  for (i = 3; i < (size_t)argc && nseeds < 32; i++) {
    FILE *f = fopen(argv[i], "rb");
    long n;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) return 2;
    seed[nseeds] = malloc((size_t)n + 1);
    if (fread(seed[nseeds], 1, (size_t)n, f) != (size_t)n) return 2;
    fclose(f);
    seed_n[nseeds++] = (size_t)n;
  }
  for (i = 0; i < (size_t)count; i++) {
    const size_t s = pick(nseeds);
    size_t n = seed_n[s], k;
    unsigned char *b = NULL;
    blocks out;
    la_mat_sink sink;
    if (pick(2)) b = inflated(seed[s], seed_n[s], &n);
    if (!b) {
      n = seed_n[s];
      b = malloc(n + 1);
      memcpy(b, seed[s], n);
    }
    b = damage(b, &n);
    out.n = 0;
    sink.alloc = alloc;
    sink.intr = NULL;
    sink.ctx = &out;
    sink.avail = 1 << 30;
    err[0] = '\0';
    switch (la_mat_read(b, n, &sink, err, sizeof err)) {
    case LA_FILE_OK: ok++; break;
    case LA_FILE_BAD:
      if (!err[0]) {
        fprintf(stderr, "fuzz_mat: case %zu refused without a reason\n", i);
        return 1;
      }
      bad++;
      break;
    default:
      fprintf(stderr, "fuzz_mat: case %zu: an unexpected result\n", i);
      return 1;
    }
    for (k = 0; k < out.n; k++) free(out.block[k]);
    free(b);
  }
  for (i = 0; i < nseeds; i++) free(seed[i]);
  printf("fuzz_mat: %ld damaged .mat files (seed %s): %zu read, %zu refused, 0 failures\n", count, argv[1], ok, bad);
  return 0;
}
