#!/bin/sh
# Run a long 2-player tournament in chunks of consecutive seed ranges, so that stopping it
# (or a deadline) loses at most the chunk in progress; combine_chunks.py merges the
# finished chunks into the results of one run.  Run again with the same arguments, it
# skips the chunks that finished (their summary.json exists) and goes on: a run of a fixed
# size (CHUNKS) may span several sessions without changing its deals.
#
# usage: run_chunks.sh SRC GAME BOTS OUT SEED DEALS UNTIL [extra tournament options...]
#   SRC    the porphyra source tree to run (a snapshot: git archive HEAD src | tar -x)
#   GAME   byzantium | conspiracy;  BOTS  the --bots list
#   OUT    directory; chunk k goes to OUT/chunk-NNN (seeds SEED + k*DEALS ...)
#   DEALS  deals per chunk (2 games each: seats swapped; 1 with GAMES_PER_DEAL=1 for --solo)
#   UNTIL  stop starting chunks after this time (seconds since the epoch)
# environment: CHUNKS (stop after this many chunks; default: no limit), PY (the Python to
#   run; default /work/main/.venv/bin/python), NICE (niceness; default 0), START and STEP
#   (run chunks START, START+STEP, ...; default 0 and 1): two runs with STEP=2 and START
#   0 and 1 share one OUT on two cores without both taking the same chunk; LANES=N runs N
#   such runners at once (START 0..N-1, STEP N: one core each) and waits for them all
set -u
if [ "${LANES:-1}" -gt 1 ]; then
    lanes=$LANES
    lane=0
    while [ "$lane" -lt "$lanes" ]; do
        # (prefix assignments are made left to right: STEP takes $lanes, not LANES=1)
        LANES=1 START=$lane STEP=$lanes "$0" "$@" &
        lane=$((lane + 1))
    done
    wait
    exit 0
fi
src=$1; game=$2; bots=$3; out=$4; seed=$5; deals=$6; until=$7; shift 7
py=${PY:-/work/main/.venv/bin/python}
mkdir -p "$out"
k=${START:-0}
while [ "$(date +%s)" -lt "$until" ] && { [ -z "${CHUNKS:-}" ] || [ "$k" -lt "$CHUNKS" ]; }; do
    dir=$(printf '%s/chunk-%03d' "$out" "$k")
    s=$((seed + k * deals))
    if [ -f "$dir/summary.json" ]; then
        k=$((k + ${STEP:-1}))
        continue
    fi
    rm -rf "$dir"
    echo "$(date -u +%FT%TZ) chunk $k seed $s" >> "$out/chunks.log"
    PYTHONPATH="$src" nice -n "${NICE:-0}" /usr/bin/time -f "%U user s, %e wall s" \
        -o "$dir.time" "$py" -m porphyra tournament "$game" --bots "$bots" \
        --games $((${GAMES_PER_DEAL:-2} * deals)) --seed "$s" --workers 1 --out "$dir" --json "$@" \
        > "$dir.json" 2> "$dir.err" || { echo "chunk $k failed" >> "$out/chunks.log"; exit 1; }
    echo "$(date -u +%FT%TZ) chunk $k done" >> "$out/chunks.log"
    k=$((k + ${STEP:-1}))
done
