#!/bin/sh
# Runs the libFuzzer targets of tests/fuzz one after the other (`make fuzz`; docs/reliability.md).
#   tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS [TARGET...]
# The targets of FUZZ_LONG (default "lua state": the ones that take strangers' scripts and damaged states, and were
# still finding new edges at the end of short runs) run FUZZ_LONG_FACTOR (default 4) times SECONDS.
# BUILD_DIR is a clang build with -DRG_FUZZ=ON. Each target starts from its seed corpus (tests/fuzz/corpus/<t>,
# never written) and keeps what it discovers in a temporary folder, removed afterwards; with FUZZ_CORPUS_DIR set,
# in FUZZ_CORPUS_DIR/<t> instead, kept, so the next run goes on from there.
# Crashes, leaks, timeouts and out-of-memory inputs are written to tests/fuzz/crashes/<t>/ (kept for the
# regression test fuzz_<t>; an empty folder is removed). Prints one summary line per target; exits 1 when any
# target found something.
set -u
build=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run_fuzz.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=${*:-datatype json state movie zip a26rom lua}
here=$(cd "$(dirname "$0")" && pwd)
rss=${FUZZ_RSS_MB:-2048}
timeout=${FUZZ_TIMEOUT:-10}
long_targets=${FUZZ_LONG-lua state}
long_factor=${FUZZ_LONG_FACTOR:-4}

target_seconds() {
  case " $long_targets " in
    *" $1 "*) echo $((seconds * long_factor)) ;;
    *) echo "$seconds" ;;
  esac
}

max_len() {
  case $1 in
    datatype) echo 64 ;;
    a26rom) echo 65536 ;;
    state|movie|zip) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

status=0
summary=""
for t in $targets; do
  bin="$build/tests/fuzz_$t"
  if [ ! -x "$bin" ]; then
    echo "run_fuzz: $bin is missing (build with -DRG_FUZZ=ON, target rg_fuzzers)" >&2
    exit 2
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/rg-fuzz-run-XXXXXX")
  corpus="$work/corpus"
  [ -n "${FUZZ_CORPUS_DIR:-}" ] && corpus="$FUZZ_CORPUS_DIR/$t"
  mkdir -p "$corpus" "$work/tmp" "$here/crashes/$t"
  dict=""
  [ -f "$here/dict/$t.dict" ] && dict="-dict=$here/dict/$t.dict"
  log="$build/fuzz_$t.log" # kept: the last run of each target
  secs=$(target_seconds "$t")
  echo "== fuzz_$t for ${secs}s"
  # shellcheck disable=SC2086
  TMPDIR="$work/tmp" UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" "$corpus" "$here/corpus/$t" -max_total_time="$secs" -rss_limit_mb="$rss" \
    -malloc_limit_mb="$rss" -timeout="$timeout" -max_len="$(max_len "$t")" -print_final_stats=1 \
    -artifact_prefix="$here/crashes/$t/" $dict >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  units=$(ls "$corpus" | wc -l)
  found=$(ls "$here/crashes/$t" | wc -l)
  line="fuzz_$t: ${secs}s, ${execs:-?} runs, ${cov:-?} edges, ${ft:-?} features, $units inputs kept, rc $rc"
  if [ "$rc" != 0 ] && [ "$found" = 0 ]; then
    status=1
    line="$line: libFuzzer failed"
    tail -30 "$log"
  elif [ "$rc" != 0 ]; then
    status=1
    line="$line: FOUND SOMETHING (tests/fuzz/crashes/$t/)"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*invariant broken|.*deadly signal)' "$log" | head -5
    tail -30 "$log"
  fi
  echo "$line"
  summary="$summary$line
"
  [ "$found" = 0 ] && rmdir "$here/crashes/$t" 2>/dev/null
  rm -rf "$work"
done
printf '\n%s' "$summary"
exit $status
