"""A minimal agent for ``porphyra agent``: it plays the first legal action it is offered.

Run it as a seat::

    porphyra agent conspiracy --seat 0 --command "python3 examples/first_legal_agent.py"

Each decision arrives as one JSON line on stdin (``type``, ``id``, ``game``, ``seat``,
``observation``, ``legal_actions``, ``error``, ``attempt``); the answer is one action text
on stdout, flushed.  The last line has ``type`` ``"end"`` with the ``returns``.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    """Answer every decision with its first legal action until the game ends."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end":
            print(f"game over, my return: {message['returns'][message['seat']]}", file=sys.stderr)
            return
        print(message["legal_actions"][0], flush=True)


if __name__ == "__main__":
    main()
