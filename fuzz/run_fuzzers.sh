#!/bin/sh
# Runs every libFuzzer target of a LF_FUZZ=ON build one after another (see README.md).
#   fuzz/run_fuzzers.sh [BUILD_DIR] [SECONDS_PER_TARGET] [TARGET...]
# New inputs go to BUILD_DIR/fuzz-work/<target>/ (the committed seeds in fuzz/corpus/ are read only);
# crashes are written to BUILD_DIR/fuzz-findings/. Each target's last lines go to BUILD_DIR/fuzz-<target>.log.
set -u
build=${1:-build-fuzz}
seconds=${2:-120}
shift 2 2>/dev/null || shift $#
targets=${*:-"project keras keras_file idx image safetensors run_store"}
here=$(cd "$(dirname "$0")" && pwd)
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1   # any UB is a finding, not a warning
export OMP_NUM_THREADS=1
status=0
for t in $targets; do
  mkdir -p "$build/fuzz-work/$t" "$build/fuzz-findings"
  dict=; [ -f "$here/dict/$t.dict" ] && dict="-dict=$here/dict/$t.dict"   # fuzz/make_dicts.py
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
      -print_final_stats=1 -artifact_prefix="$build/fuzz-findings/$t-" $dict \
      "$build/fuzz-work/$t" "$here/corpus/$t" > "$build/fuzz-$t.log" 2>&1 || status=1
  echo "== $t: $(grep -E '^Done|^stat::number_of_executed_units|ERROR|SUMMARY' "$build/fuzz-$t.log" | tr '\n' ' ')"
done
exit $status
