"""Running a campaign's games on Ray (the ``scale`` extra: ``pip install '.[scale]'``).

Each chunk of games is one Ray task; the caller puts the results back in task order, so a
campaign on Ray gives exactly the results of the same campaign run locally.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_on_ray(chunks: Sequence[T], fn: Callable[[T], R], address: str = "local") -> Iterator[R]:
    """Run ``fn`` on every chunk as Ray tasks; yield each result as it completes.

    Args:
        chunks: the work, one Ray task each.
        fn: a picklable top-level function.
        address: ``"local"`` starts (or joins) a Ray instance on this machine; anything
            else is passed to ``ray.init(address=...)`` (e.g. ``"ray://head:10001"``).

    Raises:
        RuntimeError: Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "--ray needs Ray: pip install 'porphyra[scale]' (or '.[scale]' in a checkout)"
        ) from None
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote: Any = ray.remote(fn)
        pending = [remote.remote(c) for c in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
