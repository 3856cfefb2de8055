/* Parallel regions a process forks (issue #26): an LD_PRELOAD wrapper of
 * libgomp's GOMP_parallel that counts the regions whose team had more than
 * one thread (a region of one thread wakes nobody) and prints, at exit,
 * "TOTAL <all regions> MULTI <regions of more than one thread>" to the file
 * GOMP_REGIONS_OUT names, or to standard error. oneDNN shares PassLab's
 * libgomp, so its regions count too.
 *
 *   gcc -O2 -shared -fPIC -fopenmp -o /tmp/gomp_regions.so scripts/dev/gomp_regions.c -ldl
 *   GOMP_REGIONS_OUT=/tmp/r.txt OMP_WAIT_POLICY=PASSIVE LD_PRELOAD=/tmp/gomp_regions.so \
 *       build/tests/bench/bench_models --threads 2 --repeat 200 --warmup 2 MODEL.onnx
 *
 * Per run: (MULTI - 20) / 202 here (20: the regions of the fork-join measurement,
 * core/exec/fork_join_cost.cpp, none when PASSLAB_SMALL_STEP_MICROS is set; the first
 * runs' extra regions spread over 202 runs), or the difference of two processes of
 * different --repeat. Each process measures its own split limit, so to compare builds or
 * models fix it with PASSLAB_SMALL_STEP_MICROS. The wrapper adds no timing of its own
 * worth counting (two atomic adds a region).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*parallel_fn)(void (*)(void*), void*, unsigned, unsigned);

static long total_regions, multi_regions;

struct region {
  void (*fn)(void*);
  void* data;
  int multi;
};

static void run_region(void* p) {
  struct region* r = p;
  if (omp_get_thread_num() == 0) r->multi = omp_get_num_threads() > 1;
  r->fn(r->data);
}

void GOMP_parallel(void (*fn)(void*), void* data, unsigned threads, unsigned flags) {
  static parallel_fn real;
  if (!real) real = (parallel_fn)dlsym(RTLD_NEXT, "GOMP_parallel");
  struct region r = {fn, data, 0};
  real(run_region, &r, threads, flags);
  __atomic_add_fetch(&total_regions, 1, __ATOMIC_RELAXED);
  if (r.multi) __atomic_add_fetch(&multi_regions, 1, __ATOMIC_RELAXED);
}

__attribute__((destructor)) static void print_counts(void) {
  const char* path = getenv("GOMP_REGIONS_OUT");
  FILE* f = path ? fopen(path, "w") : stderr;
  if (!f) return;
  fprintf(f, "TOTAL %ld MULTI %ld\n", total_regions, multi_regions);
  if (path) fclose(f);
}
