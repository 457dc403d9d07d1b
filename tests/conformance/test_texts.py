"""Every title's labels, event texts and score lines are translatable: each carries a Text whose
English rendering, with the catalog its rules service serves (GetCatalog), is the label or text
itself, and whose message ids and arguments every catalog of the title has (docs/translations.md).

A title without catalogs (`Game.catalogs`) has its checks expected to fail (strict xfail: the gap
shows in the summary)."""

from __future__ import annotations

import random

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2

from i18n.messages import Catalog, pattern_arguments
from services.common import registry
from tests.conformance.drivers import RPC_TIMEOUT_SECONDS, GrpcDriver, Pool
from tests.titles import TITLE

CONVERTED = {name for name, game in registry.games().items() if game.catalogs is not None}
PLAYOUTS = 6
OFFERED = ["en", "zh_Hans", "zh_Hant"]


def _converted(name: str) -> list[pytest.MarkDecorator]:
    return (
        [] if name in CONVERTED else [pytest.mark.xfail(strict=True, reason=f"{name}: texts not converted")]
    )


TITLES = [pytest.param(name, marks=_converted(name), id=name) for name in registry.games()]


def catalogs(stub: object) -> dict[str, rules_pb2.GetCatalogResponse]:
    """Each offered locale's catalog, as the rules service serves it."""
    return {
        locale: stub.GetCatalog(rules_pb2.GetCatalogRequest(locale=locale), timeout=RPC_TIMEOUT_SECONDS)  # type: ignore[attr-defined]
        for locale in OFFERED
    }


def used(text: rules_pb2.Text) -> list[tuple[str, set[str]]]:
    """The message ids a Text names (its template with its argument names, and its terms, nested)."""
    found = [(text.template, {arg.name for arg in text.arguments})]
    for arg in text.arguments:
        if arg.WhichOneof("value") == "term":
            found.append((arg.term, set()))
        elif arg.WhichOneof("value") == "text":
            found.extend(used(arg.text))
    return found


def playout_texts(driver: GrpcDriver, seed: int) -> list[tuple[str, rules_pb2.Text, bool]]:
    """(English, Text, whether the message field is set) of every label, event and final score line of
    a random playout."""
    game = driver.game
    rng = random.Random(seed)
    stub = driver.stub
    reply = stub.NewGame(
        rules_pb2.NewGameRequest(player_count=rng.choice(game.info.player_counts), seed=bytes([seed])),
        timeout=RPC_TIMEOUT_SECONDS,
    )
    state, acting, events = reply.state, list(reply.acting_seats), list(reply.events)
    found = []
    for _ in range(game.info.max_game_length + 1):
        found += [(event.text, event.message, event.HasField("message")) for event in events]
        if not acting:
            break
        seat = acting[0]
        legal = stub.ListLegalActions(
            rules_pb2.ListLegalActionsRequest(state=state, seat=seat), timeout=RPC_TIMEOUT_SECONDS
        ).actions
        found += [(action.label, action.message, action.HasField("message")) for action in legal]
        applied = stub.ApplyAction(
            rules_pb2.ApplyActionRequest(state=state, seat=seat, action=rng.choice(legal).action),
            timeout=RPC_TIMEOUT_SECONDS,
        )
        state, acting, events = applied.state, list(applied.acting_seats), list(applied.events)
    scores = stub.GetScores(rules_pb2.GetScoresRequest(state=state), timeout=RPC_TIMEOUT_SECONDS)
    found += [
        (item.label, item.message, item.HasField("message")) for seat in scores.scores for item in seat.items
    ]
    return found


@pytest.mark.parametrize("title", TITLES)
def test_labels_and_events_render_from_the_served_catalogs(pool: Pool, title: str) -> None:
    driver = pool.driver("grpc", title)
    assert isinstance(driver, GrpcDriver)
    served = catalogs(driver.stub)
    english = Catalog("en", dict(served["en"].messages))
    ids = {locale: dict(reply.messages) for locale, reply in served.items()}
    count = 0
    for seed in range(PLAYOUTS):
        for text, message, present in playout_texts(driver, seed):
            assert present, f"{text!r} has no Text"
            assert english.render(message) == text
            for template, names in used(message):
                for locale in OFFERED:
                    assert template in ids[locale], f"{template} missing from {locale}"
                    assert pattern_arguments(ids[locale][template]) == names, (template, locale)
            count += 1
    assert count > 1000


@pytest.mark.parametrize("title", TITLES)
def test_catalogs_agree_and_render_chinese(pool: Pool, title: str) -> None:
    driver = pool.driver("grpc", title)
    assert isinstance(driver, GrpcDriver)
    served = catalogs(driver.stub)
    assert [served[locale].locale for locale in OFFERED] == OFFERED
    assert sorted(served["en"].locales) == OFFERED
    english = dict(served["en"].messages)
    for locale in OFFERED:
        messages = dict(served[locale].messages)
        assert set(messages) == set(english), locale
        for key, pattern in messages.items():
            assert pattern_arguments(pattern) == pattern_arguments(english[key]), (key, locale)
    assert len({served[locale].digest for locale in OFFERED}) == 3
    text, message, _ = next(t for t in playout_texts(driver, 0) if t[1].arguments)
    chinese = Catalog("zh_Hant", dict(served["zh_Hant"].messages)).render(message)
    assert chinese != text and any("\u4e00" <= char <= "\u9fff" for char in chinese)


@pytest.mark.parametrize(
    ("asked", "given"),
    [
        ("zh-TW", "zh_Hant"),
        ("zh-HK", "zh_Hant"),
        ("zh-CN", "zh_Hans"),
        ("zh", "zh_Hans"),
        ("en-US", "en"),
        ("fr", "en"),
        ("", "en"),
        ("zh_Hant", "zh_Hant"),
    ],
)
def test_the_locale_falls_back_to_the_nearest_offered(pool: Pool, asked: str, given: str) -> None:
    driver = pool.driver("grpc", TITLE)
    assert isinstance(driver, GrpcDriver)
    reply = driver.stub.GetCatalog(rules_pb2.GetCatalogRequest(locale=asked), timeout=RPC_TIMEOUT_SECONDS)
    assert reply.locale == given
    again = driver.stub.GetCatalog(rules_pb2.GetCatalogRequest(locale=given), timeout=RPC_TIMEOUT_SECONDS)
    assert again.digest == reply.digest and dict(again.messages) == dict(reply.messages)


@pytest.mark.parametrize("asked", ["x", "zh TW", "../en", "e1"])
def test_a_malformed_locale_is_refused(pool: Pool, asked: str) -> None:
    driver = pool.driver("grpc", TITLE)
    assert isinstance(driver, GrpcDriver)
    with pytest.raises(grpc.RpcError) as raised:
        driver.stub.GetCatalog(rules_pb2.GetCatalogRequest(locale=asked), timeout=RPC_TIMEOUT_SECONDS)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "is not a locale" in raised.value.details()
