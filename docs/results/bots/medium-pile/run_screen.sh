#!/bin/sh
# Issue 31's screen of medium with the pile rule as its redraw anchor (candidates=pile):
# two arms on the same deals, each against easy, chunk k of arm A then chunk k of arm B,
# so that a deadline leaves both arms on the same deals.  Sizes fixed before the first game:
# CHUNKS chunks of DEALS deals (2 games each, seats swapped), seeds SEED + k*DEALS.
# usage: run_screen.sh SRC OUT SEED DEALS CHUNKS UNTIL
set -u
src=$1; out=$2; seed=$3; deals=$4; chunks=$5; until=$6
py=${PY:-/work/main/.venv/bin/python}
budget=seconds=none,iterations=1650
k=0
while [ "$k" -lt "$chunks" ] && [ "$(date +%s)" -lt "$until" ]; do
    s=$((seed + k * deals))
    for arm in a b; do
        if [ "$arm" = a ]; then bots="medium:$budget,easy"; else bots="medium:$budget,candidates=pile,easy"; fi
        dir=$(printf '%s/%s/chunk-%03d' "$out" "$arm" "$k")
        mkdir -p "$out/$arm"
        [ -f "$dir/summary.json" ] && continue
        echo "$(date -u +%FT%TZ) $arm chunk $k seed $s" >> "$out/chunks.log"
        PYTHONPATH="$src" nice -n 5 /usr/bin/time -f "%U user s, %e wall s" -o "$dir.time" \
            "$py" -m porphyra tournament byzantium --bots "$bots" --games $((2 * deals)) \
            --seed "$s" --workers 1 --out "$dir" --json > "$dir.json" 2> "$dir.err" \
            || { echo "$arm chunk $k failed" >> "$out/chunks.log"; exit 1; }
        echo "$(date -u +%FT%TZ) $arm chunk $k done" >> "$out/chunks.log"
    done
    k=$((k + 1))
done
