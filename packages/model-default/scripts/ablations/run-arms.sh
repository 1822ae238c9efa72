#!/usr/bin/env bash
# Trains and measures ablation arms one after another: one training process at a time, under
# nice 19, each logging to <runs>/<arm>/log. An arm with results/<arm>.json is skipped; a failed
# or killed one is resumed from its last checkpoint (up to 3 tries). Run it detached:
#
#   setsid nohup bash packages/model-default/scripts/ablations/run-arms.sh [arm ...] > /work/ablate-runs/driver.log 2>&1 &
#
# With no arm named, every arm of arms.ts, in its order. ABLATION_RUNS overrides /work/ablate-runs.
set -u
cd "$(dirname "$0")/../.."
runs=${ABLATION_RUNS:-/work/ablate-runs}
tsx=(nice -n 19 node_modules/.bin/tsx --conditions=@reward-lens/source)
if [ $# -gt 0 ]; then
  arms=("$@")
else
  read -r -a arms <<< "$("${tsx[@]}" -e "import('./scripts/ablations/arms.ts').then((m) => console.log(m.arms.map((arm) => arm.name).join(' ')))")"
fi
for arm in "${arms[@]}"; do
  if [ -f "scripts/ablations/results/$arm.json" ]; then
    echo "$(date -u +%T) $arm: results/$arm.json exists, skipped"
    continue
  fi
  mkdir -p "$runs/$arm"
  for attempt in 1 2 3; do
    echo "$(date -u +%T) $arm: attempt $attempt"
    if "${tsx[@]}" scripts/ablations/run-arm.ts --arm "$arm" --runs "$runs" >> "$runs/$arm/log" 2>&1; then
      echo "$(date -u +%T) $arm: done"
      break
    fi
    echo "$(date -u +%T) $arm: attempt $attempt failed (see $runs/$arm/log)"
    sleep 30
  done
done
echo "$(date -u +%T) all arms finished"
