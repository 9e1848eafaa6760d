#!/bin/sh
# bench_profile.sh -- where a goal row's time goes on one thread, sampled by perf.
#
#   validation/bench/bench_profile.sh PROG [reps]        (make bench-profile)
#
# PROG is bench_core built with -g (make's build/bench_core_prof: the same
# code as bench_core, with line tables).  Each of the six goal rows of
# `bench_core ... goals` runs `reps` times (default 100) back to back on one
# thread (OMP_NUM_THREADS=1) under `perf record -e cpu-clock`: a software
# clock that samples the thread only while it runs, so a busy machine's
# other processes change how long the run takes but not the shares (no
# hardware counters needed: a VM without a PMU has this clock).  The
# samples of the inputs' setup (bench_core.c, rand), of the dynamic loader
# and of the kernel are left out; the rest are sorted by where the inlined
# code comes from:
#   GEMM kernels        libxsmm's JIT code and OpenBLAS (the products)
#   the dispatch of products, transposed copies  la_xsmm.c, la_blas.h, libxsmm's own code
#   the gated products  la_stage_gated.tmpl.h: the diagonal sub-blocks
#                       pair by pair, the scaled copies of the
#                       off-diagonal ones, their backward
#   decays, exp         la_stage_decay.tmpl.h and libmvec: exp(g), the
#                       running products, QG, KG, KC; their backward
#   the solve           la_stage_wy.tmpl.h: A_raw, the substitution
#   the state's loops   la_stage_state.tmpl.h: v - S^T KG, the output's
#                       scaling, Diag(gamma) S, outside their GEMMs
#   memset, memcpy      libc
# and the rest by file.  Prints one table per row: each part's share of the
# row's samples and the row's median CPU seconds per call (sampling at
# 10 kHz slows the calls a little).  The warm-up call's one-time setup
# (libxsmm's init) is sampled too: few calls a row overweigh it.  The share of
# the GEMM kernels bounds the row's share of its GEMMs-alone ceiling (the
# goal of docs/performance.md) from above on any number of threads: the
# threads can only add waiting.  Needs perf (linux-perf); never part of
# make test.
set -e
prog=$1
reps=${2:-100}
[ -x "$prog" ] || { echo "usage: bench_profile.sh PROG [reps] (PROG: bench_core built with -g)"; exit 2; }
command -v perf >/dev/null || { echo "bench_profile: perf is not installed (linux-perf)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "Where each goal row's time goes on one thread ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)); OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-(unset)} LIBXSMM_TARGET=${LIBXSMM_TARGET:-(unset)}; perf cpu-clock samples, $reps calls a row"
for row in 0 1 2 3 4 5; do
  OMP_NUM_THREADS=1 perf record -q -e cpu-clock -F 10000 -o "$tmp/perf.data" -- \
    "$prog" "$reps" 1024 profile $row > "$tmp/row" 2>/dev/null
  echo
  cat "$tmp/row"
  echo
  echo "| part | share of the row's samples |"
  echo "|---|---:|"
  perf report -q -i "$tmp/perf.data" --no-children --sort dso,srcline --percent-limit 0 2>/dev/null |
    awk '
      /%/ {
        p = $1; sub(/%/, "", p); dso = $2; src = $3; file = src; sub(/:.*/, "", file);
        if (dso ~ /kernel|ld-linux/ || file ~ /bench_core\.c/ || src ~ /random|rand@|^rand/) next;
        if (dso ~ /^\[JIT\]/ || dso ~ /openblas/) part = "GEMM kernels (libxsmm JIT, OpenBLAS)";
        else if (dso ~ /libmvec/ || file ~ /la_stage_decay/) part = "decays, exp, QG, KG, KC (and their backward)";
        else if (file ~ /la_stage_gated/) part = "gated products: diagonal sub-blocks, scaled copies (and their backward)";
        else if (file ~ /la_stage_wy/) part = "A_raw and the solve (and their backward)";
        else if (file ~ /la_stage_state/) part = "the state steps outside their GEMMs";
        else if (file ~ /la_xsmm|la_blas|libxsmm/ || dso ~ /libxsmm/) part = "dispatch of the products, transposed copies";
        else if (dso ~ /libc/) part = "memset, memcpy (libc)";
        else if (dso ~ /libgomp/) part = "OpenMP runtime";
        else part = "other: " file;
        s[part] += p; tot += p;
      }
      END {
        for (k in s)
          if (k ~ /^other/ && s[k] < 0.005 * tot) { rest += s[k]; delete s[k] }
        for (k in s) printf "| %s | %.3f |\n", k, s[k] / tot
        printf "| the rest (each file under 0.005) | %.3f |\n", rest / tot
      }' | sort -t'|' -k3 -rn
done
