#!/bin/sh
# A long fuzzing campaign on a shared machine (see README.md, "Campaigns"):
#   fuzz/run_campaign.sh BUILD_DIR CHUNK_CPU_SECONDS ROUNDS TARGET...
# Runs the targets round-robin, ROUNDS times, each turn until its process has used CHUNK_CPU_SECONDS of
# CPU time. CPU time rather than wall time, and `nice 19`, so the campaign can share the cores with
# other work and still report honestly how long each target was fuzzed. Every turn resumes from
# BUILD_DIR/fuzz-work/<target>/ and appends one line to BUILD_DIR/fuzz-campaign.tsv:
#   target  round  cpu_seconds  executions  edges  exit_status
# Crashes go to BUILD_DIR/fuzz-findings/ as in run_fuzzers.sh, and fuzz/dict/<target>.dict is used
# when it exists (fuzz/make_dicts.py).
# While the file BUILD_DIR/fuzz-pause exists, the running turn is ended cleanly and no new one
# starts: a benchmark can have the cores that way. Stopping a fuzzer with SIGSTOP instead makes
# libFuzzer's wall-clock timeout report every input it was running as a hang.
set -u
build=$1; chunk=$2; rounds=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export OMP_NUM_THREADS=1
tick=$(getconf CLK_TCK)

cpu_seconds() {  # utime + stime of a live process, in whole seconds
  awk -v t="$tick" '{ sub(/^.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$1/stat" 2>/dev/null || echo -1
}

round=1
while [ "$round" -le "$rounds" ]; do
  for t in "$@"; do
    while [ -e "$build/fuzz-pause" ]; do sleep 5; done
    mkdir -p "$build/fuzz-work/$t" "$build/fuzz-findings"
    log="$build/fuzz-campaign-$t-$round.log"
    dict=; [ -f "$here/dict/$t.dict" ] && dict="-dict=$here/dict/$t.dict"
    nice -n 19 "$build/fuzz/fuzz_$t" -max_total_time=1000000 -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz-findings/$t-" $dict \
        "$build/fuzz-work/$t" "$here/corpus/$t" > "$log" 2>&1 &
    pid=$!
    used=0
    while kill -0 "$pid" 2>/dev/null; do
      used=$(cpu_seconds "$pid")
      { [ "$used" -ge "$chunk" ] || [ -e "$build/fuzz-pause" ]; } && kill -INT "$pid"
      sleep 5
    done
    wait "$pid"; rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$round" "$used" "${execs:-?}" "${edges:-?}" "$rc" >> "$build/fuzz-campaign.tsv"
  done
  round=$((round + 1))
done
