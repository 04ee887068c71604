#!/bin/sh
# Layerforge vs PyTorch training throughput on the tutorial MLP (Fashion-MNIST, Adam 1e-3).
# Builds nothing: pass the build directory holding bench/bench_mlp (default: build).
#
#   bench/compare_pytorch.sh [BUILD_DIR] [EPOCHS]
#
# Both run here, one after the other, on the same data with the same batch sizes; images/s is
# the median over EPOCHS (default 3) whole epochs. PyTorch is given its best settings, as the
# benchmark issue asks: 2 threads (torch.set_num_threads before anything else), OpenBLAS with
# OpenMP (libopenblas0-openmp), OPENBLAS_CORETYPE unset, glibc malloc tuned so large blocks are
# not mmapped and trimmed every step. Ours: OMP_NUM_THREADS (default 2; LF_THREADS overrides)
# with OMP_WAIT_POLICY=passive.
set -eu
BUILD=${1:-build}
EPOCHS=${2:-3}
LF_THREADS=${LF_THREADS:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH="$BUILD/bench/bench_mlp"
[ -x "$BENCH" ] || { echo "no $BENCH: build the bench_mlp target first" >&2; exit 2; }

unset OPENBLAS_CORETYPE
export MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=4294967296

echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "nproc: $(nproc)"
echo "cpu:   $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "load:  $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min, before the run)"
echo

OURS=$(OMP_NUM_THREADS=$LF_THREADS OMP_WAIT_POLICY=passive "$BENCH" --epochs "$EPOCHS" --json)
THEIRS=$(/usr/bin/python3 "$HERE/pytorch_mlp.py" --epochs "$EPOCHS" --threads 2 --json)

/usr/bin/python3 - "$OURS" "$THEIRS" "$LF_THREADS" <<'EOF'
import json, sys
ours, theirs, threads = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
t = {r["batch"]: r for r in theirs["results"]}
print(f"Layerforge: Trainer::fit, OMP_NUM_THREADS={threads} OMP_WAIT_POLICY=passive; "
      f"PyTorch {theirs['torch']}: {theirs['threads']} threads, CrossEntropyLoss on logits")
print("images/s = median over epochs [min..max]")
print(f"{'batch':>5} | {'ours images/s':<24} | {'PyTorch images/s':<24} | ratio | goal")
goals = {50: 2.0, 128: 1.5}
for r in ours["results"]:
    b = r["batch"]
    p = t[b]
    ratio = r["fit_images_per_s"] / p["images_per_s"]
    g = goals.get(b)
    goal = f">= {g}x {'met' if ratio >= g else 'NOT met'}" if g else ""
    o = f"{r['fit_images_per_s']:.0f} [{r['fit_images_per_s_min']:.0f}..{r['fit_images_per_s_max']:.0f}]"
    q = f"{p['images_per_s']:.0f} [{p['images_per_s_min']:.0f}..{p['images_per_s_max']:.0f}]"
    print(f"{b:>5} | {o:<24} | {q:<24} | {ratio:5.2f} | {goal}")
print()
print("step ms (median / p90):")
for r in ours["results"]:
    p = t[r["batch"]]
    print(f"  batch {r['batch']:>4}: ours fit {r['fit_step_ms_median']:.3f} / {r['fit_step_ms_p90']:.3f}, "
          f"bare {r['bare_step_ms_median']:.3f} / {r['bare_step_ms_p90']:.3f}; "
          f"PyTorch {p['step_ms_median']:.3f} / {p['step_ms_p90']:.3f}")
EOF
