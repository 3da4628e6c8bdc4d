"""docs/envs.md holds the generated encoding tables verbatim, and the layouts are sound."""

from __future__ import annotations

from pathlib import Path

import pytest

from porphyra.core.registry import load_game
from porphyra.envs.codecs import codec_for
from porphyra.envs.docs import BEGIN, CONFIGS, END, generated

DOC = Path(__file__).parents[2] / "docs" / "envs.md"


def test_docs_tables_match_the_code() -> None:
    text = DOC.read_text()
    assert text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip() == generated().strip()


@pytest.mark.parametrize(("title", "name", "options"), CONFIGS)
def test_layout_fields_tile_the_tensor(title: str, name: str, options: dict[str, int]) -> None:
    layout = codec_for(load_game(name, **options)).layout
    offset = 0
    for field in layout.fields:
        assert field.offset == offset and field.size > 0 and field.meaning
        offset += field.size
    assert offset == layout.size
    assert len({f.name for f in layout.fields}) == len(layout.fields)


def test_module_doctests() -> None:
    import doctest

    import porphyra.envs.gymnasium
    import porphyra.envs.openspiel
    import porphyra.envs.pettingzoo

    for module in (porphyra.envs.pettingzoo, porphyra.envs.gymnasium, porphyra.envs.openspiel):
        result = doctest.testmod(module, verbose=False)
        assert result.attempted > 0 and result.failed == 0, module.__name__
