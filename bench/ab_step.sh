#!/usr/bin/env bash
# Two builds' bench_step in alternating rounds (A B A B ...), so the VM's drift hits both alike;
# prints each template's new/old median ratio with its spread (step, CPU per image, inference).
#   bench/ab_step.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS]
# An old build: git worktree add /tmp/old REV && cmake -S /tmp/old -B /tmp/old/build -G Ninja
#   -DCMAKE_BUILD_TYPE=Release -DLF_BUILD_GUI=OFF -DLF_BUILD_TESTS=OFF && cmake --build /tmp/old/build --target bench_step
set -euo pipefail
old=$1/bench/bench_step new=$2/bench/bench_step rounds=${3:-6}
templates=$(cd "$(dirname "$0")/../resources/templates" && pwd)
out=$(mktemp)
export OMP_WAIT_POLICY=passive
for t in fashion_cnn fashion_resnet fashion_mlp; do
  steps=15; [ "$t" = fashion_mlp ] && steps=200
  for r in $(seq "$rounds"); do
    for side in old new; do
      bin=$old; [ "$side" = new ] && bin=$new
      echo "$t $r $side $("$bin" --project "$templates/$t.lfproj" --fuse 1 --steps $steps --rounds 1 --threads 2 | grep '^on ')" >> "$out"
    done
  done
done
python3 - "$out" <<'PY'
import statistics as st, sys
d = {}
for line in open(sys.argv[1]):
    cols = line.split('|')
    t, i, side, _ = cols[0].split()
    d.setdefault(t, {}).setdefault(i, {})[side] = [float(cols[k].split()[0]) for k in (4, 5, 6)]
for t, pairs in d.items():
    for k, name in enumerate(["step ms", "CPU ms/image", "inference forward ms"]):
        r = [p["new"][k] / p["old"][k] for p in pairs.values()]
        print(f"{t:15s} {name:21s} new/old median {st.median(r):.3f} [{min(r):.3f}..{max(r):.3f}]")
PY
