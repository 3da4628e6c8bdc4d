#!/bin/bash
# medium baseline rows to 100 games (issue 34), sizes fixed before the first game:
# Byzantium medium:seconds=none vs easy and vs random, 100 games each; Conspiracy vs easy 100.
# Fresh deals from engine seed 43,200,000. Compiled engine built from main at 9c8075a.
cd /work/bl
P=/work/venv-bl/bin/python
B=/work/main/bench/baselines.py
log() { echo "$(date -u +%FT%TZ) $*" >> chain.log; }
( log "byz start $(cat /proc/loadavg)"; nice -n 10 $P $B --game byzantium --agents medium:seconds=none --references easy,random --games 100 --seed 43200000 --out /work/bl > byz.log 2>&1; log "byz done rc=$? $(cat /proc/loadavg)" ) &
( log "con start $(cat /proc/loadavg)"; nice -n 10 $P $B --game conspiracy --agents medium:seconds=none --references easy --games 100 --seed 43200000 --out /work/bl > con.log 2>&1; log "con done rc=$? $(cat /proc/loadavg)" ) &
wait
log ALL DONE
