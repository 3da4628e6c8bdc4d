#!/bin/bash
# Deck v6 against v5, paired on the v6 validation deals (sizes fixed before the first game):
# easy 4,000 deals (seeds 40,000,000-), ISMCTS(100) 800 deals (40,100,000-).
cd /work/v6c
P=/work/venv-v6s/bin/python
log() { echo "$(date -u +%FT%TZ) $*" >> chain.log; }
run() { name=$1; shift; [ -f $name/summary.json ] && return; log "$name start"; nice -n 10 $P -m porphyra balance byzantium "$@" --compare /work/venv-v6s/lib/python3.11/site-packages/porphyra/games/byzantium/data/deck-v5.json /work/venv-v6s/lib/python3.11/site-packages/porphyra/games/byzantium/data/deck-v6.json --workers 2 --out /work/v6c/$name >> run.log 2>&1; log "$name done rc=$?"; }
run v5-v6-easy --bots easy,easy --games 4000 --seed 40000000
run v5-v6-ismcts100 --bots ismcts:iterations=100,ismcts:iterations=100 --games 800 --seed 40100000
log ALL DONE
