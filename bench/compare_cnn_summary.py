#!/usr/bin/python3
"""Summary of bench/compare_pytorch_cnn.sh for one template: reads DIR/ours-R-T.json (bench_cnn
--json) and DIR/torch_FORMAT-R-T.json (pytorch_cnn.py --json, FORMAT channels_last or
contiguous), R the round and T the thread count. Prints every run; the decoding into memory
apart (image folders); then per batch size each round's ratios (the faster thread count of each
side in that round) to PyTorch in each memory format and to PyTorch at its best (the faster
format), and their medians with the spread over rounds against issue 23's goal: float32 not
behind PyTorch at its best, mixed_bfloat16 faster than PyTorch's bf16 autocast with
channels_last; then peak RSS.

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
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError):
            sys.exit(f"{path}: not a benchmark result (did its run fail?)")
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


def median_of(rounds, key):
    values = [run[key] for runs in rounds.values() for run in runs if run.get(key)]
    return statistics.median(values) if values else None


def print_decode(ours, theirs):
    """Image folders: the one-off decoding into memory, median over every run of each side."""
    rate = median_of(ours, "decode_images_per_s")
    if rate is None:
        return
    workers = median_of(ours, "decode_workers")
    line = f"decode into memory (scan, decode, resize; not in the training figures): ours {rate:.0f} images/s " \
           f"({workers:.0f} worker(s))"
    for fmt, rounds in theirs.items():
        pil = median_of(rounds, "decode_images_per_s")
        line += f", PyTorch side (PIL, one thread, {fmt} run) {pil:.0f}" if pil else ""
    print(line + " (medians of the runs)")


def goal_of(precision, columns):
    """(the PyTorch column the goal compares with, its wording)."""
    if precision == "mixed_bfloat16" and "channels_last" in columns:
        return "channels_last", "faster than PyTorch's bf16 autocast with channels_last"
    return columns[-1], "not behind PyTorch at its best" + ("" if columns[-1] == "best" else f" ({columns[-1]} only)")


SHORT = {"channels_last": "cl", "contiguous": "nchw", "best": "best"}


def print_runs(ours, theirs):
    for rnd in sorted(ours):
        for run in ours[rnd]:
            print_run("Layerforge", rnd, run)
        for fmt, rounds in theirs.items():
            for run in rounds.get(rnd, []):
                print_run(f"PyTorch {run['torch']} {fmt} ({run['conv_inputs_in_format']} convs in it), "
                          f"autocast {run['autocast']},", rnd, run)


def ratio_table(ours, theirs, columns, ceiling):
    """Prints each round's row per batch size; returns {batch: {column: [ratio per round]}}."""
    formats = list(theirs)
    best = ", best: the faster format" if "best" in columns else ""
    print("per round, the faster thread count of each side per batch size; PyTorch per memory format (cl: channels_last, "
          f"nchw: contiguous){best}; ratio = ours / PyTorch:")
    print(f"{'batch':>5} | {'round':>5} | {'ours/s':>8} | " + " | ".join(f"{'PT ' + SHORT[f] + '/s':>10}" for f in formats) +
          " | " + " | ".join(f"{'ratio ' + SHORT[c]:>10}" for c in columns) + " | ours GFLOP/s (% sgemm) | inference/s ours, PT")
    ratios = {}
    for batch in sorted(best_per_batch(ours[min(ours)])):
        for rnd in sorted(ours):
            r = best_per_batch(ours[rnd])[batch]
            p = {fmt: best_per_batch(theirs[fmt][rnd])[batch] for fmt in formats if rnd in theirs[fmt]}
            if not p:
                continue
            p["best"] = max(p.values(), key=lambda x: x["images_per_s"])
            row = {c: r["images_per_s"] / p[c]["images_per_s"] for c in columns if c in p}
            for c, x in row.items():
                ratios.setdefault(batch, {}).setdefault(c, []).append(x)
            print(f"{batch:>5} | {rnd:>5} | {r['images_per_s']:>8.0f} | " +
                  " | ".join(f"{p[f]['images_per_s']:>10.0f}" if f in p else f"{'-':>10}" for f in formats) + " | " +
                  " | ".join(f"{row[c]:>10.2f}" if c in row else f"{'-':>10}" for c in columns) +
                  f" | {r['gflops']:>14.0f} ({100 * r['gflops'] / ceiling:3.0f}%) | {r['inference_images_per_s']:.0f}, " +
                  ", ".join(f"{p[f]['inference_images_per_s']:.0f}" for f in formats if f in p))
    return ratios


def print_goals(ratios, precision, columns):
    """Per batch size the median ratio [spread] per column, and issue 23's goal on its column."""
    reference, wording = goal_of(precision, columns)
    # "Not behind" (float32) is met at parity; "faster" (mixed_bfloat16) needs more than it.
    passes = (lambda x: x > 1) if precision == "mixed_bfloat16" else (lambda x: x >= 1)
    for batch, by_column in ratios.items():
        spread = ", ".join(f"vs {c} {statistics.median(v):.2f} [{min(v):.2f}..{max(v):.2f}]" for c, v in by_column.items())
        rs = by_column.get(reference, [])
        met = bool(rs) and passes(statistics.median(rs))
        print(f"batch {batch}: median ratio {spread}; {sum(map(passes, rs))} of {len(rs)} rounds: goal ({wording}) "
              f"{'met' if met else 'NOT met'}")


def print_rss(ours, theirs):
    our_rss = max(run["peak_rss_mb"] for runs in ours.values() for run in runs)
    rss = min(run["peak_rss_mb"] for rounds in theirs.values() for runs in rounds.values() for run in runs)
    print(f"peak RSS: ours {our_rss:.0f} MB (highest of our runs), PyTorch {rss:.0f} MB (lowest of its runs): "
          f"{'met' if our_rss <= rss else 'NOT met'}")


def main(folder):
    ours = load(folder, "ours")
    formats = sorted({os.path.basename(p)[6:].rsplit("-", 2)[0] for p in glob.glob(os.path.join(folder, "torch_*-*-*.json"))})
    if not ours or not formats:
        sys.exit(f"{folder}: no ours-*-*.json or no torch_*-*-*.json results")
    theirs = {fmt: load(folder, f"torch_{fmt}") for fmt in formats}
    first = ours[min(ours)][0]
    ceilings = [run["sgemm_gflops"] for runs in ours.values() for run in runs if run["threads"] == 2] or \
               [run["sgemm_gflops"] for runs in ours.values() for run in runs]
    ceiling = statistics.median(ceilings)
    print(f"== {first['model']}, {first['precision']}: {first['samples']} images x {first['epochs']} epochs, "
          f"{first['train_mflop_per_image']:.1f} MFLOP per training image; matmul ceiling (oneDNN sgemm, median of "
          f"the runs) {ceiling:.0f} GFLOP/s; {len(ours)} round(s)")
    print_runs(ours, theirs)
    print_decode(ours, theirs)
    columns = formats + ["best"] if len(formats) > 1 else formats
    print_goals(ratio_table(ours, theirs, columns, ceiling), first["precision"], columns)
    print_rss(ours, theirs)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
