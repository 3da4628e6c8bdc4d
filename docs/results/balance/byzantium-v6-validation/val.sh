#!/bin/bash
# Deck v6 (Serbian Empire 3->2) on fresh deals, sample sizes fixed before the first game:
# easy 4,000 (seeds 40,000,000-), ISMCTS(100) both sides 2,000 in 4 chunks of 500
# (40,100,000-40,101,999), easy vs random 1,000 (40,200,000-), medium(1,500 iterations)
# vs easy 400 in 4 chunks of 100 (40,300,000-40,300,399). A finished run is skipped.
cd /work/v6s
P=/work/venv-v6s/bin/python
log() { echo "$(date -u +%FT%TZ) $*" >> chain.log; }
run() { name=$1; shift; [ -f val-$name/summary.json ] && return; log "$name start"; nice -n 19 $P -m porphyra balance byzantium "$@" --deck v6 --workers 2 --out /work/v6s/val-$name >> val.log 2>&1; log "$name done rc=$?"; }
run easy --bots easy,easy --games 4000 --seed 40000000
for k in 0 1 2 3; do run ismcts-$k --bots ismcts:iterations=100,ismcts:iterations=100 --games 500 --seed $((40100000 + k * 500)); done
run easy-random --bots easy,random --games 1000 --seed 40200000
for k in 0 1 2 3; do run medium-easy-$k --bots medium:seconds=none,iterations=1500,easy --games 100 --seed $((40300000 + k * 100)); done
log ALL DONE
