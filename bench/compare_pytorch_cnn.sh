#!/bin/sh
# Layerforge vs PyTorch on every template: the Fashion-MNIST ones (fashion_mlp, fashion_functional,
# fashion_cnn, fashion_resnet; batch 50 and 128) and the image-folder ones (mobilenet_v2_small,
# cats_vs_dogs_cnn; batch 32 and 50, their steps are slow), Adam 1e-3. Builds nothing: pass the
# build directory holding bench/bench_cnn and app/layerforge-cli (default: build).
#
#   [ROUNDS=N] [MODELS="fashion_cnn ..."] [PRECISION=mixed_bfloat16] bench/compare_pytorch_cnn.sh [BUILD_DIR] [EPOCHS] [LIMIT]
#
# Both sides train one architecture: PyTorch runs the engine's own export of the template
# (layerforge-cli export --format pytorch, after a few steps made the weights file it needs).
# Both run here on the same LIMIT (default 12000) training images for EPOCHS (default 2) epochs,
# from memory; training images/s is the median over epochs. The image-folder templates train on
# a generated folder of photo-like JPEGs (make_photo_folder.py, one class per output unit, LIMIT
# images but at most IMAGES, default 2000), which each side decodes and resizes once before it
# trains (ours with the engine's image pipeline, PyTorch with PIL): that rate is reported apart.
# The two sides alternate in ROUNDS rounds (default 1): ours, then PyTorch, then ours again...
# so that a virtual machine's host slowing down for a minute hits both sides alike; each round
# gives one ratio per batch size, and the summary is the median ratio with the spread over
# rounds. PyTorch gets its best settings: torch.set_num_threads before anything else, with 2 and
# with 1 thread (PT_THREADS, the faster per batch size and round is compared), OpenBLAS with
# OpenMP, OPENBLAS_CORETYPE unset, glibc malloc neither mmapping nor trimming large blocks
# (bench_env.sh), and each memory format of PT_FORMATS (default "channels_last"; add
# "contiguous" for its default NCHW as another column, the faster of the two being PyTorch at its
# best). Ours: the same, OMP_NUM_THREADS=2 and 1 (LF_THREADS) with OMP_WAIT_POLICY=passive (what
# the CLI uses), the faster per batch size and round compared. Under other load one thread often
# wins. Peak RSS is each process's ru_maxrss (dataset included in both).
# PRECISION=mixed_bfloat16 trains ours under that policy and PyTorch under
# torch.autocast('cpu', dtype=torch.bfloat16). FASHION_BATCHES and IMAGE_BATCHES override the
# batch sizes.
set -eu
BUILD=${1:-build}
EPOCHS=${2:-2}
LIMIT=${3:-12000}
ROUNDS=${ROUNDS:-1}
MODELS=${MODELS:-fashion_mlp fashion_functional fashion_cnn fashion_resnet mobilenet_v2_small cats_vs_dogs_cnn}
LF_THREADS=${LF_THREADS:-2 1}
PT_THREADS=${PT_THREADS:-2 1}
PT_FORMATS=${PT_FORMATS:-${PT_FORMAT:-channels_last}}
PRECISION=${PRECISION:-float32}
IMAGES=${IMAGES:-2000}
FASHION_BATCHES=${FASHION_BATCHES:-50,128}
IMAGE_BATCHES=${IMAGE_BATCHES:-32,50}
PT_AUTOCAST=""
[ "$PRECISION" = mixed_bfloat16 ] && PT_AUTOCAST="--autocast bf16"
HERE=$(cd "$(dirname "$0")" && pwd)
TEMPLATES="$HERE/../resources/templates"
BENCH="$BUILD/bench/bench_cnn"
CLI="$BUILD/app/layerforge-cli"
for f in "$BENCH" "$CLI"; do
  [ -x "$f" ] || { echo "no $f: build the bench_cnn and layerforge-cli targets first" >&2; exit 2; }
done
for m in $MODELS; do
  [ -f "$TEMPLATES/$m.lfproj" ] || { echo "no template $TEMPLATES/$m.lfproj (MODELS names templates)" >&2; exit 2; }
done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

. "$HERE/bench_env.sh"

field() {  # FILE KEY: the project's dataset.KEY
  /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["dataset"][sys.argv[2]])' "$1" "$2"
}

classes() {  # PROJECT: the output layer's units, from layerforge-cli info
  "$CLI" info "$1" --json | /usr/bin/python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["layers"][-1]["output_shape"][-1])'
}

bind_folder() {  # PROJECT DIR: the project's dataset bound to the image folder DIR, in place
  /usr/bin/python3 - "$1" "$2" <<'EOF'
import json, sys
with open(sys.argv[1]) as f:
    project = json.load(f)
project["dataset"]["path"] = sys.argv[2]
with open(sys.argv[1], "w") as f:
    json.dump(project, f, indent=2)
EOF
}

logged() {  # LOG COMMAND...: runs it with its output in LOG; where it fails, shows LOG's end and stops
  log=$1
  shift
  "$@" > "$log" 2>&1 || { echo "$* failed; the end of $log:" >&2; tail -5 "$log" >&2; exit 1; }
}

# MODEL: sets work=$OUT/MODEL holding MODEL/ (the PyTorch export) and, for an image-folder
# template, images/ (the generated folder), and data / torch_data to the sides' data options.
prepare() {
  work="$OUT/$1"
  mkdir -p "$work/runs"
  cp "$TEMPLATES/$1.lfproj" "$work/project.lfproj"
  if [ "$(field "$work/project.lfproj" kind)" = image-folder ]; then
    n=$((LIMIT < IMAGES ? LIMIT : IMAGES))
    /usr/bin/python3 "$HERE/make_photo_folder.py" "$work/images" "$n" --classes "$(classes "$work/project.lfproj")"
    bind_folder "$work/project.lfproj" "$work/images"
    data="--data $work/images"
    torch_data="--image-folder $work/images"
  else
    data="" torch_data=""
  fi
  # export writes trained weights beside the code: a few steps make a weights file first.
  logged "$work/train.log" "$CLI" train "$work/project.lfproj" --epochs 1 --limit-train 100 --limit-test 100 \
      --weights-out "$work/weights.safetensors"
  logged "$work/export.log" "$CLI" export "$work/project.lfproj" --weights "$work/weights.safetensors" \
      --format pytorch --out "$work/$1"
}

run_model() {  # MODEL BATCHES: one JSON file per side, round and thread count under $OUT/MODEL/runs
  prepare "$1"
  round=1
  while [ "$round" -le "$ROUNDS" ]; do
    for t in $LF_THREADS; do
      # $data: empty or "--data DIR", split on purpose.
      # shellcheck disable=SC2086
      OMP_NUM_THREADS=$t OMP_WAIT_POLICY=passive "$BENCH" --json --epochs "$EPOCHS" --limit "$LIMIT" --precision "$PRECISION" \
          --batch "$2" --project "$TEMPLATES/$1.lfproj" $data > "$work/runs/ours-$round-$t.json"
    done
    for fmt in $PT_FORMATS; do
      for t in $PT_THREADS; do
        # shellcheck disable=SC2086
        /usr/bin/python3 "$HERE/pytorch_cnn.py" --model-dir "$work/$1" $torch_data --json --epochs "$EPOCHS" \
            --limit "$LIMIT" --batch "$2" --threads "$t" --memory-format "$fmt" $PT_AUTOCAST \
            > "$work/runs/torch_$fmt-$round-$t.json"
      done
    done
    round=$((round + 1))
  done
  /usr/bin/python3 "$HERE/compare_cnn_summary.py" "$work/runs"
}

for m in $MODELS; do
  if [ "$(field "$TEMPLATES/$m.lfproj" kind)" = image-folder ]; then
    run_model "$m" "$IMAGE_BATCHES"
  else
    run_model "$m" "$FASHION_BATCHES"
  fi
done
