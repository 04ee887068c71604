#!/bin/sh
# Layerforge vs PyTorch on the convolutional templates: the tutorial's CNN (fashion_cnn, batch 50
# and 128) and the small residual network (fashion_resnet, batch 50), Fashion-MNIST, Adam 1e-3.
# Builds nothing: pass the build directory holding bench/bench_cnn (default: build).
#
#   bench/compare_pytorch_cnn.sh [BUILD_DIR] [EPOCHS] [LIMIT]
#
# Both run here, one after the other, on the same LIMIT (default 12000) training images for
# EPOCHS (default 2) epochs; training images/s is the median over epochs. PyTorch gets its best
# settings: torch.set_num_threads before anything else, with 2 and with 1 thread (PT_THREADS,
# the faster per batch size is compared), OpenBLAS with OpenMP, OPENBLAS_CORETYPE unset, glibc
# malloc tuned so large blocks are neither mmapped nor trimmed every step.
# Ours: the same, OMP_NUM_THREADS=2 and 1 (LF_THREADS) with OMP_WAIT_POLICY=passive, the faster
# per batch size compared. Under other load (this machine is shared) one thread often wins.
# Peak RSS is each process's ru_maxrss (dataset included in both).
set -eu
BUILD=${1:-build}
EPOCHS=${2:-2}
LIMIT=${3:-12000}
LF_THREADS=${LF_THREADS:-2 1}
PT_THREADS=${PT_THREADS:-2 1}
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH="$BUILD/bench/bench_cnn"
[ -x "$BENCH" ] || { echo "no $BENCH: build the bench_cnn target first" >&2; exit 2; }

. "$HERE/bench_env.sh"

run_model() {  # MODEL BATCHES
  ours=""
  for t in $LF_THREADS; do
    ours="$ours$(OMP_NUM_THREADS=$t OMP_WAIT_POLICY=passive "$BENCH" --json --epochs "$EPOCHS" --limit "$LIMIT" \
           --batch "$2" --project "$HERE/../resources/templates/$1.lfproj")
"
  done
  theirs=""
  for t in $PT_THREADS; do
    theirs="$theirs$(/usr/bin/python3 "$HERE/pytorch_cnn.py" --model "$1" --json --epochs "$EPOCHS" \
             --limit "$LIMIT" --batch "$2" --threads "$t")
"
  done
  /usr/bin/python3 - "$ours" "$theirs" <<'PY'
import json, sys


def best_of(runs, threads_key):
    best = {}
    for run in runs:
        for r in run["results"]:
            r["threads"], r["rss"] = run[threads_key], run["peak_rss_mb"]
            if r["batch"] not in best or r["images_per_s"] > best[r["batch"]]["images_per_s"]:
                best[r["batch"]] = r
    return best


def parse_all(text):  # the concatenated JSON objects of several runs
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        obj, i = dec.raw_decode(text, i)
        out.append(obj)


our_runs, runs = parse_all(sys.argv[1]), parse_all(sys.argv[2])
best, ours_best, ours = best_of(runs, "threads"), best_of(our_runs, "omp_threads"), our_runs[0]
mflop = ours["train_mflop_per_image"]
print(f"== {ours['model']}: {ours['samples']} images x {ours['epochs']} epochs, {mflop:.1f} MFLOP per training "
      f"image; matmul ceiling (oneDNN sgemm, {ours['omp_threads']} threads) {ours['sgemm_gflops']:.0f} GFLOP/s")
for run in our_runs:
    for r in run["results"]:
        print(f"   Layerforge {run['omp_threads']} thread(s), batch {r['batch']}: train {r['images_per_s']:.0f} "
              f"[{r['images_per_s_min']:.0f}..{r['images_per_s_max']:.0f}], inference "
              f"{r['inference_images_per_s']:.0f} images/s, peak RSS {run['peak_rss_mb']:.0f} MB")
for run in runs:
    for r in run["results"]:
        print(f"   PyTorch {run['torch']} {run['threads']} thread(s), batch {r['batch']}: train {r['images_per_s']:.0f} "
              f"[{r['images_per_s_min']:.0f}..{r['images_per_s_max']:.0f}], inference "
              f"{r['inference_images_per_s']:.0f} images/s, peak RSS {run['peak_rss_mb']:.0f} MB")
print("faster thread count of each side per batch size:")
print(f"{'batch':>5} | {'ours train/s':>13} | {'PyTorch':>8} | ratio | ours GFLOP/s | {'ours infer/s':>12} | "
      f"{'PyTorch':>8} | goal 1.5x")
for b in sorted(ours_best):
    r, p = ours_best[b], best[b]
    ratio = r["images_per_s"] / p["images_per_s"]
    print(f"{r['batch']:>5} | {r['images_per_s']:>13.0f} | {p['images_per_s']:>8.0f} | {ratio:5.2f} | "
          f"{r['gflops']:>6.0f} ({100 * r['gflops'] / ours['sgemm_gflops']:3.0f}%) | "
          f"{r['inference_images_per_s']:>12.0f} | {p['inference_images_per_s']:>8.0f} | "
          f"{'met' if ratio >= 1.5 else 'NOT met'}")
rss, our_rss = min(run["peak_rss_mb"] for run in runs), max(run["peak_rss_mb"] for run in our_runs)
print(f"peak RSS: ours {our_rss:.0f} MB (higher of our runs), PyTorch {rss:.0f} MB (lower of its runs): "
      f"{'met' if our_rss <= rss else 'NOT met'}")
print()
PY
}

run_model fashion_cnn 50,128
run_model fashion_resnet 50
