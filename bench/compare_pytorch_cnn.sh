#!/bin/sh
# Layerforge vs PyTorch on the convolutional templates: the tutorial's CNN (fashion_cnn, batch 50
# and 128) and the small residual network (fashion_resnet, batch 50), Fashion-MNIST, Adam 1e-3.
# Builds nothing: pass the build directory holding bench/bench_cnn (default: build).
#
#   [ROUNDS=N] bench/compare_pytorch_cnn.sh [BUILD_DIR] [EPOCHS] [LIMIT]
#
# Both run here on the same LIMIT (default 12000) training images for EPOCHS (default 2) epochs;
# training images/s is the median over epochs. The two sides alternate in ROUNDS rounds (default
# 1): ours, then PyTorch, then ours again... so that a virtual machine's host slowing down for a
# minute hits both sides alike; each round gives one ratio per batch size, and the summary is the
# median ratio with the spread over rounds. PyTorch gets its best settings: torch.set_num_threads
# before anything else, with 2 and with 1 thread (PT_THREADS, the faster per batch size and round
# is compared), OpenBLAS with OpenMP, OPENBLAS_CORETYPE unset, glibc malloc tuned so large blocks
# are neither mmapped nor trimmed every step.
# Ours: the same, OMP_NUM_THREADS=2 and 1 (LF_THREADS) with OMP_WAIT_POLICY=passive (what the CLI
# uses), the faster per batch size and round compared. Under other load one thread often wins.
# Peak RSS is each process's ru_maxrss (dataset included in both).
# PyTorch runs channels_last (PT_FORMAT=contiguous for its default NCHW). PRECISION=mixed_bfloat16
# trains ours under that policy and PyTorch under torch.autocast('cpu', dtype=torch.bfloat16).
set -eu
BUILD=${1:-build}
EPOCHS=${2:-2}
LIMIT=${3:-12000}
ROUNDS=${ROUNDS:-1}
LF_THREADS=${LF_THREADS:-2 1}
PT_THREADS=${PT_THREADS:-2 1}
PT_FORMAT=${PT_FORMAT:-channels_last}
PRECISION=${PRECISION:-float32}
PT_AUTOCAST=""
[ "$PRECISION" = mixed_bfloat16 ] && PT_AUTOCAST="--autocast bf16"
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH="$BUILD/bench/bench_cnn"
[ -x "$BENCH" ] || { echo "no $BENCH: build the bench_cnn target first" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

. "$HERE/bench_env.sh"

run_model() {  # MODEL BATCHES: one JSON file per side, round and thread count under $OUT/MODEL
  mkdir -p "$OUT/$1"
  round=1
  while [ "$round" -le "$ROUNDS" ]; do
    for t in $LF_THREADS; do
      OMP_NUM_THREADS=$t OMP_WAIT_POLICY=passive "$BENCH" --json --epochs "$EPOCHS" --limit "$LIMIT" --precision "$PRECISION" \
          --batch "$2" --project "$HERE/../resources/templates/$1.lfproj" > "$OUT/$1/ours-$round-$t.json"
    done
    for t in $PT_THREADS; do
      /usr/bin/python3 "$HERE/pytorch_cnn.py" --model "$1" --json --epochs "$EPOCHS" --limit "$LIMIT" \
          --batch "$2" --threads "$t" --memory-format "$PT_FORMAT" $PT_AUTOCAST > "$OUT/$1/torch-$round-$t.json"
    done
    round=$((round + 1))
  done
  /usr/bin/python3 "$HERE/compare_cnn_summary.py" "$OUT/$1"
}

run_model fashion_cnn 50,128
run_model fashion_resnet 50
