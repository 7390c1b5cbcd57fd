#!/usr/bin/env bash
# Builds the libFuzzer targets (the "fuzz" preset: clang, ASan + UBSan) and runs them
# (docs/robustness.md). Exits non-zero when any target finds a crash, a leak, a
# sanitizer report, a violated property or a timeout.
#
#   scripts/fuzz.sh [smoke] [options] [TARGET...]   each target for --seconds (default 60)
#   scripts/fuzz.sh campaign [options] [TARGET...]  each target for --runs executions
#                                                   (default 10000000), corpus kept
# Options:
#   --seconds N   smoke: how long each target runs (default 60)
#   --runs N      campaign: executions per target (default 10000000)
#   --jobs N      targets run at the same time (default 1)
#   --no-build    use the targets already built in build/fuzz
# TARGET is decode, execute, assemble, vectors, npy or program (default: all of them).
#
# Corpora grow in build/fuzz/corpus/TARGET (seeds are read from build/fuzz/fuzz/seeds
# and never modified), logs go to build/fuzz/logs/MODE/TARGET.log (so that a smoke run
# beside a campaign does not overwrite its log) and anything found to
# build/fuzz/findings/TARGET/ (crash-*, leak-*, timeout-* files: reproduce one with
# build/fuzz/fuzz/fuzz_TARGET FILE, see docs/robustness.md).
set -euo pipefail
# The whole script is one compound command, read before it runs: a campaign runs for
# hours, and bash would otherwise go on reading an edited script from the middle.
{
cd "$(dirname "$0")/.."

mode=smoke
seconds=60
runs=10000000
jobs=1
build=1
targets=()
all_targets=(decode execute assemble vectors npy program)

if [ $# -gt 0 ] && { [ "$1" = smoke ] || [ "$1" = campaign ]; }; then
  mode="$1"
  shift
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    decode|execute|assemble|vectors|npy|program) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

out=build/fuzz
# Every UBSan check aborts, except pointer-overflow, which the preset leaves recoverable so
# that fuzz/ubsan.supp can suppress one report inside Highway's vqsort; halt_on_error makes
# any other pointer-overflow report fatal.
ubsan="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/fuzz/ubsan.supp"
bin="$out/fuzz"
logs="$out/logs/$mode"
if [ "$build" = 1 ]; then
  echo "=== fuzz: configure and build (clang, ASan + UBSan + libFuzzer)"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$(nproc)"
fi

# Per-target libFuzzer flags: the longest useful input and a dictionary.
flags_of() {
  case "$1" in
    decode) echo "-max_len=64" ;;
    execute) echo "-max_len=4096" ;;
    assemble) echo "-max_len=4096 -dict=$bin/seeds/assemble.dict" ;;
    vectors) echo "-max_len=8192 -dict=$bin/seeds/vectors.dict" ;;
    npy) echo "-max_len=4096" ;;
    program) echo "-max_len=4096" ;;
  esac
}

run_target() {
  local t="$1"
  local corpus="$out/corpus/$t" findings="$out/findings/$t" log="$logs/$t.log"
  mkdir -p "$corpus" "$findings" "$logs"
  local limit rc
  if [ "$mode" = smoke ]; then limit="-max_total_time=$seconds"; else limit="-runs=$runs"; fi
  # shellcheck disable=SC2046
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-$ubsan}" \
    "$bin/fuzz_$t" "$corpus" "$bin/seeds/$t" $(flags_of "$t") "$limit" -timeout=30 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 && rc=0 || rc=$?
  echo "$rc" >"$logs/$t.rc"
}

summarise() {
  local t="$1" rc="$2" log="$logs/$1.log"
  local execs rate
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$rc" = 0 ]; then
    printf '%-9s ok      %12s executions  %8s exec/s\n' "$t" "${execs:-?}" "${rate:-?}"
  else
    printf '%-9s FAILED  (exit %s) see %s and %s/findings/%s/\n' "$t" "$rc" "$log" "$out" "$t"
    grep -m1 -E 'ERROR: |property violated|SUMMARY' "$log" || true
  fi
}

echo "=== fuzz $mode: ${targets[*]} ($([ "$mode" = smoke ] && echo "${seconds}s" || echo "$runs runs") each, $jobs at a time)"
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  rm -f "$logs/$t.rc"
  run_target "$t" &
  running=$((running + 1))
done
wait
failed=0
for t in "${targets[@]}"; do
  rc=$(cat "$logs/$t.rc" 2>/dev/null || echo "no result")
  [ "$rc" = 0 ] || failed=$((failed + 1))
  summarise "$t" "$rc"
done
echo "fuzz: $((${#targets[@]} - failed)) passed, $failed failed"
exit "$((failed > 0))"
}
