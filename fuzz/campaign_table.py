#!/usr/bin/python3
"""The README table of a fuzzing campaign, from the log fuzz/run_campaign.sh appends to.

Each line of BUILD_DIR/fuzz-campaign.tsv is one turn: target, round, CPU seconds, executions,
coverage edges at its end, exit status. Prints, per target, the campaign's turns, CPU time,
executions, executions per CPU second, the last coverage figure and the number of files in
BUILD_DIR/fuzz-findings/ named after the target; then the totals.

Usage: /usr/bin/python3 fuzz/campaign_table.py BUILD_DIR [FIRST_LINE]
FIRST_LINE (1-based, default 1) skips the turns of earlier campaigns kept in the same file.
"""
import os
import sys

ORDER = ["project", "keras", "idx", "image", "safetensors", "run_store"]  # as in fuzz/README.md


def turns(path, first_line):
    """[(target, cpu_s, executions, edges)] for the lines from first_line on."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, start=1):
            if number < first_line or not line.strip():
                continue
            target, _round, cpu_s, execs, edges, _rc = line.rstrip("\n").split("\t")
            rows.append((target, int(cpu_s), int(execs) if execs.isdigit() else 0,
                         edges if edges.isdigit() else None))
    return rows


def findings(folder, target):
    if not os.path.isdir(folder):
        return 0
    return sum(1 for name in os.listdir(folder) if name.startswith(target + "-"))


def main():
    build = sys.argv[1]
    first_line = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    per_target = {}
    for target, cpu_s, execs, edges in turns(os.path.join(build, "fuzz-campaign.tsv"), first_line):
        t = per_target.setdefault(target, {"turns": 0, "cpu_s": 0, "execs": 0, "edges": "?"})
        t["turns"] += 1
        t["cpu_s"] += cpu_s
        t["execs"] += execs
        if edges is not None:  # a turn cut short before libFuzzer's first status line has none
            t["edges"] = edges
    print("| target | turns | CPU time | executions | exec/s | coverage (edges) at the end | findings |")
    print("|---|---|---|---|---|---|---|")
    for target in sorted(per_target, key=lambda name: (ORDER + [name]).index(name)):
        t = per_target[target]
        rate = t["execs"] / t["cpu_s"] if t["cpu_s"] else 0
        print(f"| {target} | {t['turns']} | {t['cpu_s'] / 60:.1f} min | {t['execs']:,} | {rate:,.0f} "
              f"| {t['edges']} | {findings(os.path.join(build, 'fuzz-findings'), target)} |")
    cpu_s = sum(t["cpu_s"] for t in per_target.values())
    execs = sum(t["execs"] for t in per_target.values())
    print(f"\nIn all {cpu_s / 3600:.2f} CPU-hours and {execs:,} executions.")


if __name__ == "__main__":
    main()
