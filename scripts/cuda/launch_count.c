// LD_PRELOAD shim for the GPU machine: counts driver-API kernel launches per kernel name, the
// host time spent inside cuLaunchKernel, the stream-ordered allocations, frees and memsets (and
// the time inside them), and the time the host waits for the GPU (stream/context/event
// synchronisation and device-to-host copies). Prints
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
static long n_alloc, n_free, n_launch, n_memset, n_wait;
static double launch_ns, alloc_ns, memset_ns, wait_ns;

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

// One timed pass-through per wrapped driver call: count it in COUNT, its host time in NS.
#define TIMED(fn, COUNT, NS, PARAMS, ARGS)                                \
  CUresult fn PARAMS {                                                    \
    static CUresult (*real) PARAMS;                                       \
    if (!real) real = dlsym(RTLD_NEXT, #fn);                              \
    COUNT++;                                                              \
    double t0 = now_ns();                                                 \
    CUresult r = real ARGS;                                               \
    NS += now_ns() - t0;                                                  \
    return r;                                                             \
  }

TIMED(cuMemAllocAsync, n_alloc, alloc_ns, (CUdeviceptr *d, size_t n, CUstream s), (d, n, s))
TIMED(cuMemFreeAsync, n_free, alloc_ns, (CUdeviceptr d, CUstream s), (d, s))
TIMED(cuMemsetD8Async, n_memset, memset_ns, (CUdeviceptr d, unsigned char v, size_t n, CUstream s), (d, v, n, s))
TIMED(cuMemsetD16Async, n_memset, memset_ns, (CUdeviceptr d, unsigned short v, size_t n, CUstream s), (d, v, n, s))
TIMED(cuMemsetD32Async, n_memset, memset_ns, (CUdeviceptr d, unsigned int v, size_t n, CUstream s), (d, v, n, s))
// Waits: the host blocks until the GPU has caught up.
TIMED(cuStreamSynchronize, n_wait, wait_ns, (CUstream s), (s))
TIMED(cuEventSynchronize, n_wait, wait_ns, (void *e), (e))
TIMED(cuCtxSynchronize, n_wait, wait_ns, (void), ())
TIMED(cuMemcpyDtoH_v2, n_wait, wait_ns, (void *dst, CUdeviceptr src, size_t n), (dst, src, n))

static int by_count(const void *a, const void *b) {
  long x = ((const typeof(tab[0]) *)a)->n, y = ((const typeof(tab[0]) *)b)->n;
  return (y > x) - (y < x);
}

__attribute__((destructor)) static void report(void) {
  qsort(tab, nf, sizeof tab[0], by_count);
  fprintf(stderr, "launch_count: %ld launches, %.1f ms inside cuLaunchKernel, "
          "%ld cuMemAllocAsync, %ld cuMemFreeAsync\n", n_launch, launch_ns / 1e6, n_alloc, n_free);
  fprintf(stderr, "launch_wait: %.1f ms in allocs+frees, %ld memsets %.1f ms, %ld waits %.1f ms\n",
          alloc_ns / 1e6, n_memset, memset_ns / 1e6, n_wait, wait_ns / 1e6);
  for (int i = 0; i < nf; i++)
    fprintf(stderr, "launch_count: %8ld %8.2f ms  %s\n", tab[i].n, tab[i].ns / 1e6, tab[i].name);
}
