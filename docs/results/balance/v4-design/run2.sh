#!/bin/bash
# run2.sh NAME SEEDLO COUNT BOTS [edits...]: a candidate on 2 processes, then its summary
name=$1; lo=$2; n=$3; bots=$4; shift 4
d=/tmp/v4/$name; mkdir -p $d
PY=/work/venv-fast/bin/python
$PY make_deck.py $d/deck.json "$@"
half=$((n/2))
$PY shape.py --cards $d/deck.json --bots $bots --seeds $lo:$((lo+half)) --out $d/a.jsonl &
$PY shape.py --cards $d/deck.json --bots $bots --seeds $((lo+half)):$((lo+n)) --out $d/b.jsonl &
wait
$PY shape.py --summary $d/a.jsonl $d/b.jsonl | tee $d/summary.json
