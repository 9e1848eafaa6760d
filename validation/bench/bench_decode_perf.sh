#!/bin/sh
# bench_decode_perf.sh -- where a decode call's time goes, sampled by perf.
#
#   validation/bench/bench_decode_perf.sh [calls [H]]     (make bench-decode-perf)
#
# Runs `calls` (default 20000) decode steps [o, S] = kda_recurrent (q, k, v,
# g, beta, 'InitialState', S) at B = 1, T = 1, K = V = 128, single, H heads
# (default 4) under `perf record` (after 2.5 s: Octave's start and a
# warm-up are not sampled), and prints each part's share of the
# samples and its microseconds per call (the loop's wall time per call times
# the share): Octave's conversion of the returned arrays (the fp_to_ov
# copies, the memsets in them), the step's arithmetic (rec_step_*), the rest
# of the MEX file (gateway and core), malloc/free, the rest of the
# interpreter, the kernel.  It confirms the split bench_decode measures with
# la_mex_testing ('last_call', the test build).  Needs perf (linux-perf); never part of make test.
set -e
calls=${1:-20000}
H=${2:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v perf >/dev/null || { echo "bench_decode_perf: perf is not installed (linux-perf)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/loop.m" <<EOM
addpath ('$root/octave');
K = 128; V = 128; H = $H; randn ('seed', 1); rand ('seed', 1);
q = single (randn (K, 1, H)); k = single (randn (K, 1, H)); k = k ./ sqrt (sum (k .^ 2, 1));
v = single (randn (V, 1, H)); g = single (-log1p (exp (-(2 + randn (K, 1, H)))));
beta = single (rand (1, H)); S = single (0.1 * randn (K, V, H));
t0 = tic ();   % warm up while perf waits (--delay): only the loop below is sampled
while (toc (t0) < 3), [o, S1] = kda_recurrent (q, k, v, g, beta, 'InitialState', S); end
t0 = tic ();
for j = 1:$calls, [o, S1] = kda_recurrent (q, k, v, g, beta, 'InitialState', S); end
printf ('%.3f\n', 1e6 * toc (t0) / $calls);
EOM
perf record -q -o "$tmp/perf.data" -F 4999 -D 2500 -- octave --no-gui --no-window-system --quiet --norc \
  --no-history --eval "source ('$tmp/loop.m')" > "$tmp/us" 2>/dev/null || true
us=$(grep -E '^[0-9.]+$' "$tmp/us" | tail -1)
perf report -q -i "$tmp/perf.data" --no-children --sort dso,sym --percent-limit 0 2>/dev/null |
  awk -v us="$us" -v calls="$calls" -v H="$H" '
    /%/ {
      p = $1; sub(/%/, "", p); dso = $2; sym = "";
      for (i = 4; i <= NF; i++) sym = sym " " $i;
      if (sym ~ /fp_to_ov/) part = "Octave: copy of the returned arrays (fp_to_ov)";
      else if (sym ~ /memset/) part = "memset (Octave zero-filling the copies)";
      else if (sym ~ /rec_step_/) part = "the step'"'"'s arithmetic (rec_step_*)";
      else if (dso ~ /kda_recurrent|la_mex/) part = "the rest of the MEX file (gateway, core)";
      else if (sym ~ /malloc|free|_int_|unlink_chunk|consolidate/) part = "malloc and free";
      else if (dso ~ /kernel/) part = "the kernel";
      else if (dso ~ /liboct/) part = "the rest of the interpreter";
      else part = "other";
      share[part] += p;
    }
    END {
      printf "\n## Decode call under perf (H = %s, %d calls, %s us per call)\n\n", H, calls, us;
      printf "| part | share of samples | us per call |\n|---|---:|---:|\n";
      n = split("Octave: copy of the returned arrays (fp_to_ov)|memset (Octave zero-filling the copies)|the step'"'"'s arithmetic (rec_step_*)|the rest of the MEX file (gateway, core)|malloc and free|the rest of the interpreter|the kernel|other", order, "|");
      for (i = 1; i <= n; i++)
        printf "| %s | %.1f %% | %.1f |\n", order[i], share[order[i]], share[order[i]] * us / 100;
    }'
