// LD_PRELOAD shim for the GPU machine: counts driver-API kernel launches per kernel name, the
// host time spent inside cuLaunchKernel, and the stream-ordered allocations and frees. Prints
// every kernel's count at exit (stderr, lines "launch_count: N MS NAME"). Launches per training
// step: run the same bench with two iteration counts and difference the tables
// (scripts/cuda/launch_diff.py). cuBLAS launches (through the runtime) are not seen.
//
//   gcc -O2 -shared -fPIC -o liblaunch_count.so scripts/cuda/launch_count.c -ldl
//   LD_PRELOAD=$PWD/liblaunch_count.so gpu_bench ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

#define MAXF 4096
static struct { void *f; const char *name; long n; double ns; } tab[MAXF];
static int nf;
static long n_alloc, n_free, n_launch;
static double launch_ns;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static const char *fname(void *f) {
  static CUresult (*get)(const char **, void *);
  if (!get) get = dlsym(RTLD_DEFAULT, "cuFuncGetName");
  const char *n = 0;
  if (get && get(&n, f) == 0 && n) return strdup(n);
  return "?";
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **p, void **e) {
  static CUresult (*real)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                          unsigned, CUstream, void **, void **);
  if (!real) real = dlsym(RTLD_NEXT, "cuLaunchKernel");
  double t0 = now_ns();
  CUresult r = real(f, gx, gy, gz, bx, by, bz, smem, s, p, e);
  double dt = now_ns() - t0;
  n_launch++;
  launch_ns += dt;
  int i;
  for (i = 0; i < nf && tab[i].f != f; i++) {}
  if (i == nf && nf < MAXF) { tab[nf].f = f; tab[nf].name = fname(f); nf++; }
  if (i < MAXF) { tab[i].n++; tab[i].ns += dt; }
  return r;
}

CUresult cuMemAllocAsync(CUdeviceptr *d, size_t n, CUstream s) {
  static CUresult (*real)(CUdeviceptr *, size_t, CUstream);
  if (!real) real = dlsym(RTLD_NEXT, "cuMemAllocAsync");
  n_alloc++;
  return real(d, n, s);
}

CUresult cuMemFreeAsync(CUdeviceptr d, CUstream s) {
  static CUresult (*real)(CUdeviceptr, CUstream);
  if (!real) real = dlsym(RTLD_NEXT, "cuMemFreeAsync");
  n_free++;
  return real(d, s);
}

static int by_count(const void *a, const void *b) {
  long x = ((const typeof(tab[0]) *)a)->n, y = ((const typeof(tab[0]) *)b)->n;
  return (y > x) - (y < x);
}

__attribute__((destructor)) static void report(void) {
  qsort(tab, nf, sizeof tab[0], by_count);
  fprintf(stderr, "launch_count: %ld launches, %.1f ms inside cuLaunchKernel, "
          "%ld cuMemAllocAsync, %ld cuMemFreeAsync\n", n_launch, launch_ns / 1e6, n_alloc, n_free);
  for (int i = 0; i < nf; i++)
    fprintf(stderr, "launch_count: %8ld %8.2f ms  %s\n", tab[i].n, tab[i].ns / 1e6, tab[i].name);
}
