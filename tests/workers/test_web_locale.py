"""The web client's language in a real browser (headless Chromium, its languages set to zh-TW) against a
real gateway, rules services and a Celery worker playing the bots, on a game of a title that has
catalogs: the page speaks Traditional Chinese (its navigation from clients/web/locale/zh_Hant.po, the
game's legal-action labels and events rendered from their Texts with the title's zh_Hant catalog,
exactly as i18n.messages renders them with ICU); an account whose locale is zh-CN gets Simplified
Chinese in that browser; and the header's language menu switches the page to English (the labels the
API sent) and to Simplified Chinese without reloading it, saving the choice to the account (GetMe)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from i18n.messages import Catalog
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.workers.support import bot_seat, new_game, wait_for
from tests.workers.web import WEB_CLIENT, run_driver

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

DRIVER = WEB_CLIENT / "test" / "locale.mjs"
DRIVER_TIMEOUT_SECONDS = 120
TURN_SECONDS = 60.0
TITLE = next(name for name, game in registry.games().items() if game.catalogs is not None)
NAV = [
    "web.nav.lobbies",
    "web.nav.games",
    "web.nav.inbox",
    "web.nav.match",
    "web.nav.tournaments",
    "web.nav.leaderboards",
]


def page_catalog(locale: str) -> Catalog:
    return Catalog.read(WEB_CLIENT / "locale" / f"{locale}.po", locale)


def title_catalog(client: Client, locale: str) -> Catalog:
    """The title's catalog as the gateway serves it."""
    request = gateway_pb2.GetCatalogRequest(title=TITLE, locale=locale)
    served = client.catalog.GetCatalog(request, metadata=client.auth, timeout=10).catalog
    assert served.locale == locale
    return Catalog(locale, dict(served.messages))


def my_turn(client: Client, game_id: str, what: str) -> gateway_pb2.GameView:
    """The game as the client's seat sees it once it is that seat's turn."""

    def mine() -> gateway_pb2.GameView | None:
        request = gateway_pb2.GetGameRequest(game_id=game_id)
        game = client.games.GetGame(request, metadata=client.auth, timeout=10).game
        return game if game.legal_actions else None

    return wait_for(mine, TURN_SECONDS, what)


def history(client: Client, game_id: str) -> list[gateway_pb2.GameEvent]:
    """The game's events as the seat's page receives them (WatchGame from 0): the view, then one reply
    per change up to its version."""
    stream = client.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=0), metadata=client.auth, timeout=10
    )
    opening = next(stream)
    assert not opening.resync
    found = [event for _ in range(opening.game.version) for event in next(stream).events]
    stream.cancel()
    return found


@pytest.fixture(scope="module")
def setup(web_gateway: GatewayProcess) -> Iterator[dict[str, Any]]:
    """Two guests, each on seat 0 of a game against bots, waited on by its game after a move at least
    (the guest's first legal action if it acts first), so that the page has events to show; the second
    guest's account keeps zh-CN. Each one's view, events and client."""
    channel = grpc.insecure_channel(web_gateway.address)
    players: dict[str, dict[str, Any]] = {}
    for name in ("browser", "account"):
        client = Client(channel)
        player = client.sign_in_as_guest(f"Locale {name}").player
        seats = [gateway_pb2.GameSeat(seat=0, player=player)]
        seats += [
            bot_seat(web_gateway, seat, "random") for seat in range(1, registry.get(TITLE).info.min_players)
        ]
        game_id = new_game(web_gateway, TITLE, seats)
        view = my_turn(client, game_id, f"{name}'s turn")
        if view.version == 0:
            submit = gateway_pb2.SubmitActionRequest(
                game_id=game_id, action=view.legal_actions[0].action, expected_version=0, request_id=name
            )
            client.games.SubmitAction(submit, metadata=client.auth, timeout=10)
            view = my_turn(client, game_id, f"{name}'s next turn")
        players[name] = {"client": client, "game": view, "events": history(client, game_id)}
        assert players[name]["events"], "the bots made no move the page could show"
    account: Client = players["account"]["client"]
    account.accounts.SetLocale(
        gateway_pb2.SetLocaleRequest(locale="zh-CN"), metadata=account.auth, timeout=10
    )
    yield players
    channel.close()


@pytest.fixture(scope="module")
def report(
    web_gateway: GatewayProcess, setup: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    visits: list[dict[str, Any]] = [
        {"name": "browser", "picks": ["en", "zh_Hans"]},
        {"name": "account", "picks": []},
    ]
    for visit in visits:
        player = setup[visit["name"]]
        visit.update(token=player["client"].token, gameId=player["game"].game_id)
    visits.append({"name": "signed out", "picks": [], "token": "", "gameId": ""})
    env = {
        "E2E_URL": web_gateway.web_url + "/",
        "E2E_BROWSER_LANG": "zh-TW",
        "E2E_VISITS": json.dumps(visits),
        "E2E_OUT": str(tmp_path_factory.mktemp("locale")),
    }
    result = run_driver(DRIVER, env, DRIVER_TIMEOUT_SECONDS)
    assert result["errors"] == [], "\n".join(result["errors"])
    return result


def shown_in(player: dict[str, Any], locale: str, client: Client) -> dict[str, Any]:
    """What the page must show of `player`'s game in `locale` (English: the strings the API sent)."""
    game, sent = player["game"], player["events"]
    if locale == "en":
        labels = [action.label for action in game.legal_actions]
        texts = [event.text for event in sent]
    else:
        catalog = title_catalog(client, locale)
        labels = [catalog.render(action.message) for action in game.legal_actions]
        texts = [catalog.render(event.message) for event in sent]
    page = page_catalog(locale).messages if locale != "en" else {}
    english = ["Lobbies", "My games", "Inbox", "Match", "Tournaments", "Leaderboards"]
    nav = [page[id] for id in NAV] if page else english
    return {
        "lang": locale.replace("_", "-"),
        "locale": locale,
        "nav": nav,
        "actions": labels,
        "events": texts[::-1],
    }


def seen(page: dict[str, Any]) -> dict[str, Any]:
    return {key: page[key] for key in ("lang", "locale", "nav", "actions", "events")}


def test_a_zh_tw_browser_gets_the_navigation_labels_and_events_in_traditional_chinese(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    player = setup["browser"]
    first = report["visits"]["browser"][0]
    expected = shown_in(player, "zh_Hant", player["client"])
    assert seen(first) == expected
    assert first["title"] == page_catalog("zh_Hant").messages["web.header.title"]
    assert all(label not in first["actions"] for label in (a.label for a in player["game"].legal_actions))


def test_the_sign_in_screen_of_a_zh_tw_browser_is_in_traditional_chinese(report: dict[str, Any]) -> None:
    page = page_catalog("zh_Hant").messages
    (shown,) = report["visits"]["signed out"]
    assert (shown["lang"], shown["locale"]) == ("zh-Hant", "zh_Hant")
    ids = ["guest_heading", "guest", "account_heading", "sign_in", "register"]  # headings and buttons
    assert shown["signIn"] == [page[f"web.signin.{id}"] for id in ids]


def test_the_accounts_zh_cn_wins_over_a_zh_tw_browser(setup: dict[str, Any], report: dict[str, Any]) -> None:
    player = setup["account"]
    assert seen(report["visits"]["account"][0]) == shown_in(player, "zh_Hans", player["client"])


def test_the_language_menu_switches_the_page_without_a_reload_and_saves_the_accounts_locale(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    player = setup["browser"]
    _, english, simplified = report["visits"]["browser"]
    assert seen(english) == shown_in(player, "en", player["client"])
    assert seen(simplified) == shown_in(player, "zh_Hans", player["client"])
    assert not english["reloaded"] and not simplified["reloaded"]
    assert [page["current"] for page in report["visits"]["browser"]] == ["nav-games"] * 3
    client = player["client"]
    assert (
        client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth, timeout=10).locale
        == "zh-Hans"
    )


def test_every_message_is_found_and_nothing_fails(report: dict[str, Any]) -> None:
    assert report["missing"] == []
    assert report["problems"] == [], "\n".join(report["problems"])
