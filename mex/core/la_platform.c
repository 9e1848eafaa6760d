/* la_platform.c -- what the core asks of the platform (see la_internal.h):
 * BLAS threads, worker threads and their CPUs, and the memory available
 * now. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu, CPU_SET */
#endif
#include "la_internal.h"
#include "la_blas.h"

#include <stdatomic.h>
#include <stdio.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#include <unistd.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

/* OpenBLAS's thread control, if OpenBLAS is the BLAS linked: weak symbols
 * (NULL when absent) with GCC and Clang; elsewhere BLAS threads are left as
 * they are (define LA_OPENBLAS to call them unconditionally). */
#if defined(__GNUC__)
extern void openblas_set_num_threads(int) __attribute__((weak));
extern int openblas_get_num_threads(void) __attribute__((weak));
#define LA_HAVE_OPENBLAS_THREADS (openblas_get_num_threads && openblas_set_num_threads)
#elif defined(LA_OPENBLAS)
extern void openblas_set_num_threads(int);
extern int openblas_get_num_threads(void);
#define LA_HAVE_OPENBLAS_THREADS 1
#endif

int la_blas_threads_begin(void)
{
  int saved = 0;
#ifdef LA_HAVE_OPENBLAS_THREADS
  if (LA_HAVE_OPENBLAS_THREADS) {
    saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
  }
#endif
  return saved;
}

void la_blas_threads_end(int saved)
{
#ifdef LA_HAVE_OPENBLAS_THREADS
  if (saved > 0 && LA_HAVE_OPENBLAS_THREADS) openblas_set_num_threads(saved);
#else
  (void)saved;
#endif
}

int la_max_threads(void)
{
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* ---- worker placement (la_spread_*, see la_internal.h) ---------------------
 * Measured on the project machine (a 2-CPU Firecracker VM, Linux 6.18): after
 * 0.25 s idle an empty parallel region took 5.8 ms, its worker woken on the
 * caller's CPU; with the worker pinned to the other CPU, 0.1-0.2 ms.  The
 * caller is held on its current CPU for the region as well (its mask is
 * restored after). */
#if defined(__linux__) && defined(_OPENMP)
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>

#define LA_SPREAD_MAX 64 /* workers placed; larger teams are left alone */

struct la_spread {
  pid_t tid[LA_SPREAD_MAX];        /* thread i's kernel id, seen in a region */
  cpu_set_t saved[LA_SPREAD_MAX];  /* its mask before la_spread_begin; [0]: the caller's */
  unsigned char pinned[LA_SPREAD_MAX];
};

/* One per calling thread: each has its own OpenMP team (libgomp). */
static _Thread_local struct la_spread la_spread_team;
static _Thread_local pid_t la_my_tid;

/* Thread tid (0: the calling one) allowed on cpu alone; 1 if done. */
static int la_pin(pid_t tid, int cpu)
{
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return sched_setaffinity(tid, sizeof one, &one) == 0;
}

la_spread *la_spread_begin(int nthreads)
{
  struct la_spread *sp = &la_spread_team;
  cpu_set_t allowed;
  const pid_t pid = getpid();
  int i, cpu, me, held = 0;
  /* (inside a caller's parallel region ours is nested: one thread) */
  if (nthreads < 2 || nthreads > LA_SPREAD_MAX || omp_in_parallel() ||
      omp_get_proc_bind() != omp_proc_bind_false || la_get_tuning().no_spread)
    return NULL;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < nthreads)
    return NULL;
  me = sched_getcpu();
  if (me < 0 || me >= CPU_SETSIZE || !CPU_ISSET(me, &allowed)) return NULL;
  for (i = 1, cpu = 0; i < nthreads; i++, cpu++) {
    const pid_t tid = sp->tid[i];
    while (cpu < CPU_SETSIZE && (!CPU_ISSET(cpu, &allowed) || cpu == me)) cpu++;
    sp->pinned[i] = 0;
    /* a worker of an earlier region, still a thread of this process */
    if (cpu >= CPU_SETSIZE || tid <= 0 || syscall(SYS_tgkill, pid, tid, 0) != 0) continue;
    if (sched_getaffinity(tid, sizeof sp->saved[i], &sp->saved[i]) != 0) continue;
    sp->pinned[i] = la_pin(tid, cpu);
    held += sp->pinned[i];
  }
  /* The caller stays on its CPU too (woken at a barrier by a worker, it
   * would otherwise land on that worker's CPU the same way), but only when
   * every worker already exists and is placed: a thread the runtime creates
   * in the region inherits its creator's mask, and one created while the
   * caller is held would keep the caller's single CPU for good (measured:
   * the first call of a process then ran both threads on one CPU, 3-8
   * times slower, and the worker stayed there after it). */
  sp->saved[0] = allowed;
  sp->pinned[0] = held == nthreads - 1 && la_pin(0, me);
  return sp; /* pinned[i >= nthreads]: 0, as la_spread_end left them */
}

void la_spread_note(la_spread *sp)
{
  const int i = omp_get_thread_num();
  if (!sp || i >= LA_SPREAD_MAX) return;
  if (!la_my_tid) la_my_tid = (pid_t)syscall(SYS_gettid);
  sp->tid[i] = la_my_tid;
}

void la_spread_end(la_spread *sp)
{
  int i;
  if (!sp) return;
  for (i = 0; i < LA_SPREAD_MAX; i++) /* [0]: the caller (tid 0: itself) */
    if (sp->pinned[i]) {
      (void)sched_setaffinity(i ? sp->tid[i] : 0, sizeof sp->saved[i], &sp->saved[i]);
      sp->pinned[i] = 0;
    }
}
#else
la_spread *la_spread_begin(int nthreads)
{
  (void)nthreads;
  return NULL;
}
void la_spread_note(la_spread *sp) { (void)sp; }
void la_spread_end(la_spread *sp) { (void)sp; }
#endif

/* The number in a file such as memory.max ("max" or missing: -1), or with
 * key, the number after "key:" in a file such as /proc/meminfo, times unit. */
static ptrdiff_t read_number(const char *path, const char *key, ptrdiff_t unit)
{
  FILE *f = fopen(path, "r");
  char line[256];
  ptrdiff_t r = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    const size_t n = key ? strlen(key) : 0;
    long long x;
    if (key && (strncmp(line, key, n) != 0 || line[n] != ':')) continue;
    if (sscanf(line + (key ? n + 1 : 0), "%lld", &x) == 1 && x >= 0 &&
        !la_mul((ptrdiff_t)x, unit, &r))
      r = PTRDIFF_MAX;
    break;
  }
  fclose(f);
  return r;
}

/* Room under a cgroup limit (file limit minus file used), or -1. */
static ptrdiff_t cgroup_room(const char *limit, const char *used)
{
  const ptrdiff_t lim = read_number(limit, NULL, 1), cur = read_number(used, NULL, 1);
  if (lim < 0) return -1;
  return cur < 0 ? lim : (lim > cur ? lim - cur : 0);
}

static ptrdiff_t min_known(ptrdiff_t a, ptrdiff_t b)
{
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}

/* Room left in the address space under RLIMIT_AS (ulimit -v): the limit
 * minus the process's size now (/proc/self/statm), or -1. */
static ptrdiff_t address_room(void)
{
#if defined(RLIMIT_AS) && defined(_SC_PAGESIZE)
  struct rlimit rl;
  ptrdiff_t size, lim;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return -1;
  size = read_number("/proc/self/statm", NULL, (ptrdiff_t)sysconf(_SC_PAGESIZE));
  if (size < 0) return -1;
  lim = rl.rlim_cur > (rlim_t)PTRDIFF_MAX ? PTRDIFF_MAX : (ptrdiff_t)rl.rlim_cur;
  return lim > size ? lim - size : 0;
#else
  return -1;
#endif
}

ptrdiff_t la_mem_available(void)
{
  /* /sys/fs/cgroup is the process's own cgroup in a container (namespace);
   * v2 has memory.max, v1 memory/memory.limit_in_bytes */
  ptrdiff_t avail = read_number("/proc/meminfo", "MemAvailable", 1024);
  avail = min_known(avail, cgroup_room("/sys/fs/cgroup/memory.max",
                                       "/sys/fs/cgroup/memory.current"));
  avail = min_known(avail, cgroup_room("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                       "/sys/fs/cgroup/memory/memory.usage_in_bytes"));
  avail = min_known(avail, address_room());
#if defined(_SC_PAGESIZE) && (defined(_SC_AVPHYS_PAGES) || defined(_SC_PHYS_PAGES))
  if (avail < 0) { /* no /proc: free physical pages, else all of them */
    ptrdiff_t pages = -1, bytes;
#ifdef _SC_AVPHYS_PAGES
    pages = (ptrdiff_t)sysconf(_SC_AVPHYS_PAGES);
#else
    pages = (ptrdiff_t)sysconf(_SC_PHYS_PAGES);
#endif
    if (pages > 0 && la_mul(pages, (ptrdiff_t)sysconf(_SC_PAGESIZE), &bytes)) avail = bytes;
  }
#endif
  return avail;
}

/* OpenBLAS 0.3.21 (driver/others/memory.c) takes a buffer of this size
 * (plus a page) from a pool of slots for each product that runs at the
 * same time, maps it on the slot's first use and keeps it; when neither
 * mmap nor malloc gives it one it retries without end.  The guard counts
 * a buffer for each thread that may run a product and has not yet returned
 * from one (la_blas_note): only then is a buffer known to be mapped. */
#define LA_BLAS_BUFFER ((ptrdiff_t)128 << 20)
static atomic_int la_blas_threads_seen;
_Thread_local int la_blas_thread_done;

void la_blas_note(void)
{
  la_blas_thread_done = 1;
  atomic_fetch_add(&la_blas_threads_seen, 1);
}

static ptrdiff_t blas_buffers(int threads)
{
#ifdef LA_HAVE_OPENBLAS_THREADS
  const int seen = atomic_load(&la_blas_threads_seen);
  if (LA_HAVE_OPENBLAS_THREADS && threads > seen)
    return (ptrdiff_t)(threads - seen) * LA_BLAS_BUFFER;
#endif
  (void)threads;
  return 0;
}

int la_workspace_ok(ptrdiff_t items, ptrdiff_t bytes_per_thread, int blas)
{
  ptrdiff_t threads = 1, blas_threads = 1, total, avail, buffers;
  la_gemm_engine_start(); /* its tables mapped before the room is measured */
#ifdef _OPENMP
  threads = blas_threads = omp_get_max_threads();
#endif
  if (items < threads) threads = items > 0 ? items : 1;
  if (!la_mul(threads, bytes_per_thread, &total)) return 0;
  /* reading /proc and /sys costs tens of microseconds: not for a decode
   * step (once BLAS's buffers are there) */
  buffers = blas ? blas_buffers((int)blas_threads) : 0;
  if (total <= LA_GUARD_MIN && buffers == 0) return 1;
  if (!la_add(total, buffers, &total)) return 0;
  avail = la_mem_available();
  return avail < 0 || total <= avail;
}
