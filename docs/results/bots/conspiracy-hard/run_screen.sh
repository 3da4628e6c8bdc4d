#!/bin/sh
# One variant's screen: CHUNKS chunks of DEALS deals (2 games each, seats swapped) of BOTS,
# seeds SEED + k*DEALS, no chunk started after UNTIL (seconds since the epoch).
# usage: run_screen.sh SRC BOTS OUT SEED DEALS CHUNKS UNTIL
set -u
src=$1; bots=$2; out=$3; seed=$4; deals=$5; chunks=$6; until=$7
py=${PY:-.venv/bin/python}
mkdir -p "$out"
k=0
while [ "$k" -lt "$chunks" ] && [ "$(date +%s)" -lt "$until" ]; do
    dir=$(printf '%s/chunk-%03d' "$out" "$k")
    s=$((seed + k * deals))
    echo "$(date -u +%FT%TZ) chunk $k seed $s" >> "$out/chunks.log"
    PYTHONPATH="$src" nice -n 10 /usr/bin/time -f "%U user s, %e wall s" -o "$dir.time" \
        "$py" -m porphyra tournament conspiracy --bots "$bots" --games $((2 * deals)) \
        --seed "$s" --workers 1 --out "$dir" --json > "$dir.json" 2> "$dir.err" \
        || { echo "chunk $k failed" >> "$out/chunks.log"; exit 1; }
    echo "$(date -u +%FT%TZ) chunk $k done" >> "$out/chunks.log"
    k=$((k + 1))
done
