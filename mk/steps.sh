#!/usr/bin/env bash
# mk/steps.sh TIER STEP ... -- run the make targets STEP one after the
# other, quietly: each step's output goes to build/log/TIER/STEP.log and one
# line is printed per step (its wall-clock seconds, the CPU seconds of its
# processes, and the last line of its log); a failed
# step prints the tail of its log and the others still run.  The closing
# line is
#     N passed, M failed
# counting the test blocks of the Octave suite (the step whose log ends in
# such a line) plus one per other step; the exit status is 1 if any step
# failed.  Called by the Makefile's tiers (make check, make test, make
# validate); MAKE and BUILD come from the environment.
set -u
tier=$1
shift
make_cmd=${MAKE:-make}
logdir="${BUILD:-build}/log/$tier"
mkdir -p "$logdir"
rm -f "$logdir"/*.log "$logdir"/*.cpu
npass=0
nfail=0
failed=""
t_all=$(date +%s)
for step in "$@"; do
  log="$logdir/$step.log"
  t0=$(date +%s)
  cpu="$logdir/$step.cpu"
  timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -o "$cpu" -f '%U+%S')
  if "${timer[@]}" "$make_cmd" --no-print-directory "$step" > "$log" 2>&1; then ok=1; else ok=0; fi
  dt=$(( $(date +%s) - t0 ))
  cs=$(tail -n 1 "$cpu" 2>/dev/null | awk -F+ '{ printf "%d", $1 + $2 + 0.5 }')
  cs=${cs:-?}
  last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c 1-120)
  counts=$(tail -n 3 "$log" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p' | tail -n 1)
  if [ -n "$counts" ] && [ "$step" != "${step#test-octave}" ]; then
    npass=$(( npass + ${counts% *} ))
    nfail=$(( nfail + ${counts#* } ))
    [ "$ok" = 1 ] || [ "${counts#* }" != 0 ] || nfail=$(( nfail + 1 ))
  elif [ "$ok" = 1 ]; then
    npass=$(( npass + 1 ))
  else
    nfail=$(( nfail + 1 ))
  fi
  if [ "$ok" = 1 ]; then
    printf '  ok    %-22s %4d s (cpu %4s s)  %s\n' "$step" "$dt" "$cs" "$last"
  else
    failed="$failed $step"
    printf '  FAIL  %-22s %4d s (cpu %4s s)  (log: %s)\n' "$step" "$dt" "$cs" "$log"
    tail -n 30 "$log" | sed 's/^/        | /'
  fi
done
printf 'make %s: %d steps in %d s; logs in %s%s\n' "$tier" "$#" \
  $(( $(date +%s) - t_all )) "$logdir" "${failed:+; failed:$failed}"
echo "$npass passed, $nfail failed"
[ -z "$failed" ]
