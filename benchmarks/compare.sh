#!/usr/bin/env bash
# Runs every workload of the README's benchmark table with two builds of
# examples/bench, one right after the other, taking turns at going first,
# and prints each build's JPST and SIPP times and speed-up (sequential
# runs: also the speed-up of each group of already-planned agents).
#
#   cargo build --release --example bench && cp target/release/examples/bench /tmp/bench_new
#   (build the other commit likewise to /tmp/bench_old)
#   bash benchmarks/compare.sh /tmp/bench_old /tmp/bench_new
#
# The batch rows skip time-expanded A* (--astar-budget 1), so JPST and
# SIPP alone take turns. On a noisy machine, run it a few times.
set -euo pipefail
old=$1
new=$2
maps="$(cd "$(dirname "$0")/../assets/maps" && pwd)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
turn=0

# Prints one line per build: the whole run's times and speed-up, then the
# groups' speed-ups (sequential mode) or nothing more (batch mode).
summary() {
    local name=$1 label=$2 file=$3
    if grep -q '^| all |' "$file"; then
        awk -F'|' -v n="$name" -v v="$label" '
            /^\| [0-9]+-[0-9]+ \| [0-9]+ \|/ { groups = groups " " $7 }
            /^\| all \| [0-9]+ \|/ { line = sprintf("%-30s %s JPST %9s SIPP %9s %s", n, v, $5, $6, $7) }
            END { print line "  groups:" groups }' "$file"
    else
        awk -v n="$name" -v v="$label" '
            /^\| (jpst|sipp) / { t[$2] = $6 }
            END { printf "%-30s %s JPST %9s SIPP %9s  %.2fx\n", n, v, t["jpst"], t["sipp"], t["sipp"] / t["jpst"] }' "$file"
    fi
    grep -q 'all costs equal' "$file" || echo "  !! $label: costs not confirmed equal"
}

# Runs one workload (a name, then the bench's arguments) with both builds.
both() {
    local name=$1
    shift
    if (( turn % 2 == 0 )); then
        "$old" "$@" > "$out/old.txt" 2>&1
        "$new" "$@" > "$out/new.txt" 2>&1
    else
        "$new" "$@" > "$out/new.txt" 2>&1
        "$old" "$@" > "$out/old.txt" 2>&1
    fi
    turn=$((turn + 1))
    summary "$name" old "$out/old.txt"
    summary "$name" new "$out/new.txt"
}

batch="--astar-budget 1 --queries 200"
seq="--mode sequential"
m() { echo "--map $maps/$1/$1.map --scen $maps/$1/$1-$2.scen"; }
# shellcheck disable=SC2046
{
both "den520d batch 0" $(m den520d random-1) --obstacles 0 $batch
both "den520d batch 100" $(m den520d random-1) --obstacles 100 $batch
both "Berlin batch 100" $(m Berlin_1_256 random-1) --obstacles 100 $batch
both "Paris batch 100" $(m Paris_1_256 random-1) --obstacles 100 $batch
both "den520d batch 500 parked" $(m den520d random-1) --obstacles 500 --park $batch
both "maze batch 100" $(m maze-128-128-1 even-1) --obstacles 100 $batch
both "Berlin sequential parked" $seq $(m Berlin_1_256 even-1) --agents 1000 --park
both "Berlin first 100" $seq $(m Berlin_1_256 even-1) --agents 100 --park
both "Paris sequential parked" $seq $(m Paris_1_256 even-1) --agents 1000 --park
both "Paris first 100" $seq $(m Paris_1_256 even-1) --agents 100 --park
for map in den520d brc202d ost003d lak303d maze-128-128-1 room-64-64-8; do
    both "$map sequential 500" $seq $(m "$map" random-1) --agents 500
done
both "Berlin perfect parked" $seq $(m Berlin_1_256 even-1) --agents 1000 --park --heuristic perfect
}
