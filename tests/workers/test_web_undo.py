"""Undo and takebacks on the web client's play screen in a real browser (headless Chromium driven by
puppeteer-core) against a real gateway with its browser listener, Redis and rules services, two guests
of an unrated game in two browser contexts (clients/web/test/undo.mjs): a decision taken back with the
Undo button (the version goes up by one, the board and actions are those before it, the other player's
page follows) and the next undo refused, said as the gateway's reason says; then a decision that passed
the turn on, whose undo is refused at the barrier, a takeback asked for from the page, shown on the
other player's page (who asks, back to which version, whom it waits for, the time left) and in its
inbox, and accepted there with the keyboard (both pages go back to that version); and a second request
declined from the inbox. Last, the lobby form's take-back settings: the API's defaults shown, the ones
chosen sent."""

from __future__ import annotations

import json
import uuid
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from google.rpc import error_details_pb2

from i18n.messages import Catalog, text
from live.games import start_game
from services.common.status import error_info
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players
from tests.gateway.undoing import LOOKING, acting, move, undo, view
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE
from tests.workers.web import WEB_CLIENT, run_driver

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

DRIVER = WEB_CLIENT / "test" / "undo.mjs"
DRIVER_TIMEOUT_SECONDS = 180
PLAYERS = 2
TAKEBACK_SECONDS = 120  # the gateway's default time to answer a takeback
BARRIERS = {"hand_over", "chance", "reveal"}
LOBBY_UNDO = gateway_pb2.UNDO_POLICY_OWN_TURN_ONLY
LOBBY_BOTS = gateway_pb2.BOT_TAKEBACKS_DECLINE
LOCALE = "zh_Hant"  # the other player's page is switched to it at the end


def english() -> Catalog:
    return Catalog.read(WEB_CLIENT / "locale" / "en.po", "en")


def page_catalog(locale: str) -> Catalog:
    return Catalog.read(WEB_CLIENT / "locale" / f"{locale}.po", locale)


def refusal_of(client: Client, game_id: str, version: int) -> error_details_pb2.ErrorInfo:
    """The reason and metadata of the client's undo at `version`, which must be refused."""
    request = gateway_pb2.UndoRequest(game_id=game_id, expected_version=version, request_id=uuid.uuid4().hex)
    with pytest.raises(grpc.RpcError) as raised:
        client.games.Undo(request, metadata=client.auth, timeout=10)
    info = error_info(raised.value)
    assert info is not None and raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    return info


def refusal_text(reason: str, barriers: str) -> str:
    """The page's words for an undo refused for `reason` (with the `barriers` its metadata names)."""
    if reason == "NOTHING_TO_UNDO":
        return english().render(text("web.undo.refused.nothing"))
    assert reason == "UNDO_BARRIER", reason
    named = [b for b in barriers.split(",") if b in BARRIERS]
    why = ", ".join(english().render(text(f"web.undo.barrier.{b}")) for b in named) or english().render(
        text("web.undo.barrier.other")
    )
    return english().render(text("web.undo.refused.barrier", why=why))


@pytest.fixture(scope="module")
def setup(web_gateway: GatewayProcess) -> dict[str, Any]:
    """Two guests in an unrated game of TITLE, left where the acting one's first legal action may be
    undone (found by making it and undoing it through the API), with the reason an undo is refused
    there."""
    channel = grpc.insecure_channel(web_gateway.address)
    clients = [Client(channel) for _ in range(PLAYERS)]
    for seat, client in enumerate(clients):
        client.sign_in_as_guest(f"Undo player {seat}")
    game_id = web_gateway.run(
        start_game(
            web_gateway.app,  # type: ignore[arg-type]
            title=TITLE,
            player_count=PLAYERS,
            options=[],
            seats=seat_players(clients),
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
            rated=False,
        )
    )
    for _ in range(LOOKING):
        mover, before = acting(clients, game_id)
        after = move(mover, before).game
        try:
            undone = undo(mover, game_id, after.version)
        except grpc.RpcError:
            continue
        assert undone.game.legal_actions == before.legal_actions
        info = refusal_of(mover, game_id, undone.version)
        other = next(c for c in clients if c is not mover)
        return {
            "game": game_id,
            "mover": mover,
            "other": other,
            "seat": undone.game.seat,
            "start": undone.game,
            "reason": info.reason,
            "barriers": info.metadata.get("barriers", ""),
            "names": {s.seat: s.player.display_name for s in undone.game.seats},
        }
    raise AssertionError(f"no decision could be undone in {LOOKING}")


@pytest.fixture(scope="module")
def report(
    web_gateway: GatewayProcess, setup: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    env = {
        "E2E_OUT": str(tmp_path_factory.mktemp("undo")),
        "E2E_URL": web_gateway.web_url + "/",
        "E2E_GAME": setup["game"],
        "E2E_MOVER_TOKEN": setup["mover"].token,
        "E2E_OTHER_TOKEN": setup["other"].token,
        "E2E_MOVER_SEAT": str(setup["seat"]),
        "E2E_VERSION": str(setup["start"].version),
        "E2E_LOBBY_UNDO": str(LOBBY_UNDO),
        "E2E_LOBBY_BOTS": str(LOBBY_BOTS),
        "E2E_LOCALE": LOCALE,
    }
    result = run_driver(DRIVER, env, DRIVER_TIMEOUT_SECONDS)
    assert result["errors"] == [], "\n".join([*result["errors"], json.dumps(result["seen"], indent=1)])
    return result


def test_undo_takes_the_decision_back_and_the_board_and_version_follow(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    first, start = report["first"], setup["start"]
    assert first["undoShown"] and first["otherUndoShown"], "each player's page offers Undo"
    assert first["versions"] == [start.version, start.version + 1, start.version + 2]
    assert first["otherVersion"] == start.version + 2, "the other player's page follows the undo"
    assert first["actionsBefore"] == [action.label for action in start.legal_actions]
    assert first["actionsAfterUndo"] == first["actionsBefore"]
    assert first["boardAfterUndo"] == first["boardBefore"], "the board is drawn as before the decision"
    assert first["focused"] == "undo", "the Undo button keeps the keyboard's focus"


def test_a_refused_undo_is_said_by_its_reason(setup: dict[str, Any], report: dict[str, Any]) -> None:
    first = report["first"]
    assert first["refusal"] == {
        "reason": setup["reason"],
        "text": refusal_text(setup["reason"], setup["barriers"]),
        "offer": setup["reason"] == "UNDO_BARRIER",
    }
    assert first["versionAfterRefusal"] == setup["start"].version + 2


def test_a_takeback_asked_on_one_page_is_accepted_on_the_other(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    taken, names, seat = report["takeback"], setup["names"], setup["seat"]
    assert taken["refused"]["reason"] == "UNDO_BARRIER" and taken["refused"]["offer"]
    assert "the turn passed on" in taken["refused"]["text"], "the decision that passed the turn is named"
    returns_to = str(taken["handedOver"]["from"])
    catalog = english()
    asked = taken["asked"]
    assert (asked["status"], asked["returnsTo"], asked["buttons"]) == ("pending", returns_to, [])
    assert asked["ask"] == catalog.render(text("web.takeback.you_ask", version=returns_to))
    shown = taken["shown"]
    assert (shown["status"], shown["returnsTo"]) == ("pending", returns_to)
    assert shown["ask"] == catalog.render(text("web.takeback.asks", name=names[seat], version=returns_to))
    you = catalog.render(text("web.seat.you"))
    assert shown["waiting"] == catalog.render(text("web.takeback.waiting_for", names=you))
    assert shown["buttons"] == ["takeback-accept", "takeback-decline"]
    left, later = (int(m) * 60 + int(s) for m, s in (shown["left"].split(":"), taken["leftLater"].split(":")))
    assert 0 < later < left <= TAKEBACK_SECONDS, "the time left counts down"
    inbox = taken["inbox"]
    assert inbox["gameId"] == setup["game"]
    assert inbox["text"].startswith(f"{names[seat]} asks to take back their last decision")
    assert {"takeback-accept primary", "takeback-decline"} <= set(inbox["buttons"])

    mover, other = taken["moverAfter"], taken["otherAfter"]
    assert mover["version"] == other["version"] == taken["handedOver"]["at"] + 1, "the takeback is one commit"
    outcome = catalog.render(text("web.takeback.accepted", version=returns_to))
    assert mover["panel"]["outcome"] == other["panel"]["outcome"] == outcome
    assert mover["actions"] == taken["handedOver"]["actions"], "the mover chooses again as before"
    assert mover["board"] == taken["handedOver"]["board"], "the board is drawn as before the decision"
    assert report["declined"]["handedOver"]["from"] == mover["version"], "the mover acted on from there"


def test_a_takeback_declined_from_the_inbox_ends_on_both_pages(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    declined, names, seat = report["declined"], setup["names"], setup["seat"]
    other_seat = next(s for s in names if s != seat)
    catalog = english()
    assert declined["asked"]["status"] == "pending"
    assert declined["inboxNote"] == catalog.render(text("web.inbox.takeback_declined"))
    game = view(setup["mover"], setup["game"])
    assert declined["moverAfter"]["version"] == declined["otherAfter"]["version"] == game.version
    assert game.version == declined["handedOver"]["at"], "a declined takeback changes nothing"
    outcome = catalog.render(text("web.takeback.declined_by", names=names[other_seat]))
    assert declined["moverAfter"]["panel"]["outcome"] == outcome
    you = catalog.render(text("web.seat.you"))
    assert declined["otherAfter"]["panel"]["outcome"] == catalog.render(
        text("web.takeback.declined_by", names=you)
    )
    assert not game.HasField("takeback")


def test_the_lobby_form_sends_the_take_back_settings_from_the_apis_defaults(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    lobby = report["lobby"]
    assert lobby["defaults"] == {
        "undo": str(gateway_pb2.UNDO_POLICY_ALLOWED),
        "unrated": False,
        "botTakebacks": str(gateway_pb2.BOT_TAKEBACKS_ACCEPT),
        "undoChoices": [
            str(policy)
            for policy in (
                gateway_pb2.UNDO_POLICY_ALLOWED,
                gateway_pb2.UNDO_POLICY_OWN_TURN_ONLY,
                gateway_pb2.UNDO_POLICY_OFF,
            )
        ],
    }
    mover: Client = setup["mover"]
    request = gateway_pb2.GetLobbyRequest(lobby_id=lobby["lobbyId"])
    created = mover.lobbies.GetLobby(request, metadata=mover.auth, timeout=10).lobby
    assert (created.undo, created.unrated, created.bot_takebacks) == (LOBBY_UNDO, True, LOBBY_BOTS)


def test_the_play_screens_undo_and_takeback_speak_traditional_chinese(report: dict[str, Any]) -> None:
    catalog = page_catalog(LOCALE)
    you = catalog.render(text("web.seat.you"))
    assert report["chinese"] == {
        "undo": catalog.render(text("web.undo.button")),
        "outcome": catalog.render(text("web.takeback.declined_by", names=you)),
    }
    assert report["chinese"]["undo"] == "悔棋"


def test_the_pages_log_no_failed_request_nor_console_error(report: dict[str, Any]) -> None:
    assert report["missing"] == []
    assert report["problems"] == [], "\n".join(report["problems"])
