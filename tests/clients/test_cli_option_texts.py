"""`bg titles` shows each title's lobby options in the reader's language: the option's name, raw choices
and default (what `--option NAME VALUE` takes) with its label, then its description, then each choice
in words, all from the title's catalog as a real gateway serves it (CatalogService.GetCatalog); in
English, Traditional or Simplified Chinese as `--lang` asks."""

from __future__ import annotations

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from i18n.messages import Catalog
from i18n.options import choice_id, label_id
from tests.clients.conftest import Bg


def expected_lines(info: rules_pb2.GameInfo, catalog: Catalog) -> str:
    """The lines `bg titles` prints for the options of a title (GameInfo), from its served catalog."""
    lines = []
    for option in info.options:
        title, name = info.name, option.name
        lines.append(
            f"{'':14}{name} = {'|'.join(option.choices)} (default {option.default_value}): "
            f"{catalog.messages[label_id(title, name)]}"
        )
        lines.append(f"{'':16}{catalog.render(option.message)}")
        lines += [
            f"{'':16}{choice}: {catalog.messages[choice_id(title, name, choice)]}"
            for choice in option.choices
        ]
    return "\n".join(lines) + "\n"


def chinese(text: str) -> set[str]:
    """The CJK ideographs of a text."""
    return {char for char in text if "\u4e00" <= char <= "\u9fff"}


@pytest.mark.parametrize(("tag", "locale"), [("en", "en"), ("zh-TW", "zh_Hant"), ("zh-CN", "zh_Hans")])
def test_bg_titles_shows_every_option_in_the_readers_language(
    bg: Bg, channel: grpc.Channel, tag: str, locale: str
) -> None:
    assert bg("guest", "Option Reader")[0] == 0
    code, out, err = bg("--lang", tag, "titles")
    assert code == 0, err
    api = bg.api(channel)
    titles = api.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=api.auth).titles
    assert titles
    for info in titles:
        request = gateway_pb2.GetCatalogRequest(title=info.name, locale=tag)
        served = api.catalog.GetCatalog(request, metadata=api.auth).catalog
        assert served.locale == locale
        catalog = Catalog(locale, dict(served.messages))
        block = expected_lines(info, catalog)
        assert block in out, f"{info.name}:\n{block}\nnot in:\n{out}"
        if locale == "en":
            descriptions = [f"{'':16}{option.description}\n" for option in info.options]
            assert all(line in block for line in descriptions), block
            assert not chinese(block)
        else:
            # Every label, description and choice in words is Chinese; the names and raw choices stay.
            for line in block.splitlines():
                assert chinese(line.split(": ", 1)[1] if ": " in line else line), line
