#!/usr/bin/python3
"""Summary of bench/compare_pytorch_cnn.sh for one model: reads DIR/ours-R-T.json (bench_cnn --json)
and DIR/torch-R-T.json (pytorch_cnn.py --json), R the round and T the thread count, and prints
every run, then per batch size each round's ratio (the faster thread count of each side in that
round) and the median over rounds against the 1.5x goal, then peak RSS.

Usage: /usr/bin/python3 bench/compare_cnn_summary.py DIR
"""
import glob
import json
import os
import statistics
import sys


def load(folder, side):
    """{round: [run, ...]} for one side, each run with its thread count under "threads"."""
    rounds = {}
    for path in sorted(glob.glob(os.path.join(folder, f"{side}-*-*.json"))):
        _, rnd, threads = os.path.basename(path)[:-5].split("-")
        with open(path) as f:
            run = json.load(f)
        run["threads"] = int(threads)
        rounds.setdefault(int(rnd), []).append(run)
    return rounds


def best_per_batch(runs):
    """{batch: result} with the highest training images/s among the runs, the run's threads and RSS kept."""
    best = {}
    for run in runs:
        for r in run["results"]:
            r = dict(r, threads=run["threads"], rss=run["peak_rss_mb"])
            if r["batch"] not in best or r["images_per_s"] > best[r["batch"]]["images_per_s"]:
                best[r["batch"]] = r
    return best


def print_run(name, rnd, run):
    for r in run["results"]:
        print(f"   round {rnd} {name} {run['threads']} thread(s), batch {r['batch']}: train {r['images_per_s']:.0f} "
              f"[{r['images_per_s_min']:.0f}..{r['images_per_s_max']:.0f}], inference "
              f"{r['inference_images_per_s']:.0f} images/s, peak RSS {run['peak_rss_mb']:.0f} MB")


def main(folder):
    ours, theirs = load(folder, "ours"), load(folder, "torch")
    first = ours[min(ours)][0]
    mflop = first["train_mflop_per_image"]
    ceilings = [run["sgemm_gflops"] for runs in ours.values() for run in runs if run["threads"] == 2] or \
               [run["sgemm_gflops"] for runs in ours.values() for run in runs]
    ceiling = statistics.median(ceilings)
    print(f"== {first['model']}: {first['samples']} images x {first['epochs']} epochs, {mflop:.1f} MFLOP per "
          f"training image; matmul ceiling (oneDNN sgemm, median of the runs) {ceiling:.0f} GFLOP/s; "
          f"{len(ours)} round(s)")
    for rnd in sorted(ours):
        for run in ours[rnd]:
            print_run("Layerforge", rnd, run)
        for run in theirs.get(rnd, []):
            print_run(f"PyTorch {run['torch']}", rnd, run)
    print("per round, the faster thread count of each side per batch size:")
    print(f"{'batch':>5} | {'round':>5} | {'ours train/s':>12} | {'PyTorch':>8} | ratio | {'ours GFLOP/s':>12} | "
          f"{'ours infer/s':>12} | {'PyTorch':>8}")
    ratios = {}
    for batch in sorted(best_per_batch(ours[min(ours)])):
        for rnd in sorted(ours):
            r, p = best_per_batch(ours[rnd])[batch], best_per_batch(theirs[rnd])[batch]
            ratio = r["images_per_s"] / p["images_per_s"]
            ratios.setdefault(batch, []).append(ratio)
            print(f"{batch:>5} | {rnd:>5} | {r['images_per_s']:>12.0f} | {p['images_per_s']:>8.0f} | {ratio:5.2f} | "
                  f"{r['gflops']:>5.0f} ({100 * r['gflops'] / ceiling:3.0f}%) | "
                  f"{r['inference_images_per_s']:>12.0f} | {p['inference_images_per_s']:>8.0f}")
    for batch, rs in ratios.items():
        med = statistics.median(rs)
        above = sum(1 for x in rs if x >= 1.5)
        print(f"batch {batch}: median ratio {med:.2f} [{min(rs):.2f}..{max(rs):.2f}], {above} of {len(rs)} rounds "
              f">= 1.5x: goal 1.5x {'met' if med >= 1.5 else 'NOT met'}")
    our_rss = max(run["peak_rss_mb"] for runs in ours.values() for run in runs)
    rss = min(run["peak_rss_mb"] for runs in theirs.values() for run in runs)
    print(f"peak RSS: ours {our_rss:.0f} MB (highest of our runs), PyTorch {rss:.0f} MB (lowest of its runs): "
          f"{'met' if our_rss <= rss else 'NOT met'}")
    print()


if __name__ == "__main__":
    main(sys.argv[1])
