#!/usr/bin/env bash
# Counts the instructions JPST and SIPP execute in their `plan` calls, with
# two builds of examples/bench, under valgrind's callgrind. Counts do not
# move with the machine's load, so on a noisy machine they show a change
# of a few per cent that timings hide; they do not see cache misses, so a
# change that saves reads of memory rather than instructions needs
# benchmarks/compare.sh as well.
#
#   apt-get install -y valgrind
#   cargo build --release --example bench && cp target/release/examples/bench /tmp/bench_new
#   (build the other commit likewise to /tmp/bench_old)
#   bash benchmarks/instructions.sh /tmp/bench_old /tmp/bench_new
#
# Each workload takes 10 s to 3 min per build (callgrind runs the bench
# about 50 times slower; SIPP's share is the same in both builds, but the
# bench runs it too). Name the workloads to run only some of them:
#
#   bash benchmarks/instructions.sh OLD NEW den520d paris100
set -euo pipefail
old=$1
new=$2
shift 2
maps="$(cd "$(dirname "$0")/../assets/maps" && pwd)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The arguments of each workload, by name.
declare -A workloads=(
    [berlin100]="Berlin_1_256 even-1 100 --park"
    [paris100]="Paris_1_256 even-1 100 --park"
    [den520d]="den520d random-1 500"
    [ost003d]="ost003d random-1 500"
    [lak303d]="lak303d random-1 500"
    [room]="room-64-64-8 random-1 500"
    [maze]="maze-128-128-1 random-1 500"
    [brc202d]="brc202d random-1 500"
)
order=(berlin100 paris100 den520d ost003d lak303d room maze brc202d)
if (($# > 0)); then
    order=("$@")
fi

# Prints JPST's and SIPP's instructions (millions) and SIPP / JPST for one
# build on one workload.
count() {
    local bin=$1 map=$2 scen=$3 agents=$4
    shift 4
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" --mode sequential \
        --map "$maps/$map/$map.map" --scen "$maps/$map/$map-$scen.scen" --agents "$agents" "$@" \
        > /dev/null 2>&1
    # The largest inclusive count of each planner's `plan` is its whole.
    callgrind_annotate --inclusive=yes "$out/cg" 2> /dev/null | awk '
        function n(s) { gsub(",", "", s); return s + 0 }
        /Jpst as bevy_jpst::search::Planner>::plan$/ && n($1) > j { j = n($1) }
        /Sipp as bevy_jpst::search::Planner>::plan$/ && n($1) > s { s = n($1) }
        END { printf "JPST %8.1fM SIPP %8.1fM  %.3fx\n", j / 1e6, s / 1e6, s / j }'
}

for name in "${order[@]}"; do
    args=${workloads[$name]:?"unknown workload $name (one of ${!workloads[*]})"}
    # shellcheck disable=SC2086
    printf '%-10s old %s\n' "$name" "$(count "$old" $args)"
    # shellcheck disable=SC2086
    printf '%-10s new %s\n' "$name" "$(count "$new" $args)"
done
