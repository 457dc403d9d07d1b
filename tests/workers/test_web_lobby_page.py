"""The web client's lobby page in a real browser (headless Chromium driven by puppeteer-core) against a
real gateway with its browser listener, Redis, rules services and a Celery worker playing the bots, as a
player whose games the test set up through the gRPC API: My games lists them your turn first, in the
API's order; the inbox shows the end of a finished game as the gateway posted it; the leaderboard shows
the player's rating after that game; the replay steps to a given move matching the record, drawing the
board at that move and at the end; and a match found from the page with a chosen bot strength ends in a
game whose bots play at that strength."""

from __future__ import annotations

import secrets
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import json_format

from live import levels
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE
from tests.workers.support import bot_seat, new_game, wait_for
from tests.workers.web import WEB_CLIENT, run_driver

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

DRIVER = WEB_CLIENT / "test" / "lobby-page.mjs"
DRIVER_TIMEOUT_SECONDS = 120
SEATS = registry.get(TITLE).info.min_players
STEP = 4  # the replay's move the page steps to
CHOSEN_STRENGTH = gateway_pb2.BOT_STRENGTH_SEARCH
PAIRS = 4  # two-guest games tried for one where each guest acts
SETTLE_SECONDS = 30.0
FINISH_SECONDS = 60.0


def my_games(client: Client) -> list[gateway_pb2.MyGame]:
    request = gateway_pb2.ListMyGamesRequest(page_size=100)
    return list(client.games.ListMyGames(request, metadata=client.auth, timeout=10).games)


def settled(client: Client, count: int) -> list[gateway_pb2.MyGame] | None:
    """The player's live games once `count` are listed and none waits on a bot."""
    live = [g for g in my_games(client) if g.status == gateway_pb2.GAME_STATUS_ACTIVE]
    bots = {(g.game_id, s.seat) for g in live for s in g.seats if s.player.bot}
    waiting_on_bots = any((g.game_id, s) in bots for g in live for s in g.acting_seats)
    return live if len(live) == count and not waiting_on_bots else None


def leaderboard_rating(client: Client, player_id: str) -> float | None:
    request = gateway_pb2.GetLeaderboardRequest(title=TITLE, page_size=100)
    entries = client.leaderboard.GetLeaderboard(request, metadata=client.auth, timeout=10).entries
    return next((e.rating for e in entries if e.player.player_id == player_id), None)


@pytest.fixture(scope="module")
def setup(web_gateway: GatewayProcess) -> dict[str, Any]:
    """A registered player with live games between it and a guest (some its turn, some not) and a finished
    game it resigned from, scored; the gRPC clients and the ids."""
    channel = grpc.insecure_channel(web_gateway.address)
    player, other = Client(channel), Client(channel)
    request = gateway_pb2.RegisterRequest(
        username=f"page{secrets.token_hex(4)}", password="a long enough password", display_name="Page player"
    )
    session = player.accounts.Register(request, timeout=10).session  # guests are rated, not shown
    player.token, me = session.token, session.player
    them = other.sign_in_as_guest("Page opponent").player
    bots = [bot_seat(web_gateway, seat, "random") for seat in range(2, SEATS)]
    count = 0
    live: list[gateway_pb2.MyGame] = []
    for _ in range(PAIRS):
        for first, second in ((me, them), (them, me)):
            seats = [gateway_pb2.GameSeat(seat=0, player=first), gateway_pb2.GameSeat(seat=1, player=second)]
            new_game(web_gateway, TITLE, seats + bots)
            count += 1
        live = wait_for(
            lambda n=count: settled(player, n), SETTLE_SECONDS, "the live games to wait on a guest"
        )
        if len({g.my_turn for g in live}) == 2:
            break
    finished = new_game(
        web_gateway, TITLE, [gateway_pb2.GameSeat(seat=0, player=me), bot_seat(web_gateway, 1, "random")]
    )
    player.games.Resign(gateway_pb2.ResignRequest(game_id=finished), metadata=player.auth, timeout=10)
    wait_for(
        lambda: leaderboard_rating(player, me.player_id) is not None,
        FINISH_SECONDS,
        "the resigned game scored",
    )
    return {"player": player, "me": me, "live": count, "finished": finished, "channel": channel}


@pytest.fixture(scope="module")
def report(
    web_gateway: GatewayProcess, setup: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    env = {
        "E2E_URL": web_gateway.web_url + "/",
        "E2E_TOKEN": setup["player"].token,
        "E2E_TITLE": TITLE,
        "E2E_FINISHED": setup["finished"],
        "E2E_STEP": str(STEP),
        "E2E_SEATS": str(SEATS),
        "E2E_GAMES": str(setup["live"] + 1),
        "E2E_STRENGTH": levels.of(CHOSEN_STRENGTH).name,
        "E2E_OUT": str(tmp_path_factory.mktemp("lobby-page")),
    }
    result = run_driver(DRIVER, env, DRIVER_TIMEOUT_SECONDS)
    assert result["errors"] == [], "\n".join(result["errors"])
    return result


def test_my_games_are_listed_your_turn_first_in_the_apis_order(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    shown = report["games"]
    matched = report["match"]["gameId"]  # found after the page read its list
    listed = [(g.game_id, g.my_turn) for g in my_games(setup["player"]) if g.game_id != matched]
    assert [(g["gameId"], g["myTurn"]) for g in shown] == listed
    turns = [g["myTurn"] for g in shown if g["status"] == "active"]
    assert True in turns and False in turns, f"the live games' turns are {turns}"
    assert turns == sorted(turns, reverse=True), "a game where it is not the player's turn comes first"
    assert shown[-1] == {"gameId": setup["finished"], "myTurn": False, "status": "finished"}


def test_the_inbox_shows_the_end_the_gateway_posted(setup: dict[str, Any], report: dict[str, Any]) -> None:
    player = setup["player"]
    stream = player.games.WatchInbox(
        gateway_pb2.WatchInboxRequest(from_event_id="0-0"), metadata=player.auth, timeout=10
    )
    posted = []
    for reply in stream:
        if reply.HasField("event"):
            posted.append(reply.event)
        if len(posted) == len(report["inbox"]):
            break
    stream.cancel()
    shown = [(e["eventId"], e["kind"], e["gameId"]) for e in report["inbox"]]
    expected = [
        (e.event_id, gateway_pb2.InboxEventKind.Name(e.kind).removeprefix("INBOX_EVENT_KIND_"), e.game_id)
        for e in reversed(posted)
    ]
    assert shown == expected
    assert (setup["finished"], "GAME_ENDED") in {(game, kind) for _, kind, game in shown}
    assert report["unread"] == str(len(shown))


def test_the_leaderboard_shows_the_players_rating_after_the_game(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    rating = leaderboard_rating(setup["player"], setup["me"].player_id)
    mine = [row for row in report["leaderboard"] if row["playerId"] == setup["me"].player_id]
    assert mine == [{"playerId": setup["me"].player_id, "rating": f"{rating:.1f}", "me": True}]


def test_the_replay_steps_to_a_move_matching_the_record_and_draws_the_board_at_each(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    player = setup["player"]
    request = gateway_pb2.GetGameRecordRequest(game_id=setup["finished"])
    record = player.games.GetGameRecord(request, metadata=player.auth, timeout=10).record
    final = player.games.GetGame(
        gateway_pb2.GetGameRequest(game_id=setup["finished"]), metadata=player.auth, timeout=10
    ).game
    moves = len(record.actions)
    logged = record.actions[STEP - 1]
    action = json_format.MessageToDict(logged.action, always_print_fields_with_no_presence=True)
    action.pop("@type")
    replay = report["replay"]
    assert replay["position"].startswith(
        f"move {STEP} of {moves}: version {logged.version}, seat {logged.seat}"
    )
    assert (replay["version"], replay["seat"]) == (str(logged.version), str(logged.seat))
    assert replay["action"] == action
    step = player.games.GetReplayStep(
        gateway_pb2.GetReplayStepRequest(game_id=setup["finished"], step=STEP),
        metadata=player.auth,
        timeout=10,
    )
    assert replay["shown"].endswith(f": {step.move.label}") and step.move.action == logged.action
    assert replay["boardAtStep"] == str(logged.version), "the board drawn is the move's"
    assert replay["lastPosition"].startswith(f"move {moves} of {moves}")
    assert replay["boardDrawn"] and replay["boardVersion"] == str(final.version)
    assert replay["positionAfterSlider"].startswith(f"move 2 of {moves}")
    assert replay["check"] == f"consistent ({moves} actions)"


def test_a_match_found_from_the_page_seats_bots_of_the_chosen_strength(
    setup: dict[str, Any], report: dict[str, Any]
) -> None:
    player = setup["player"]
    game_id = report["match"]["gameId"]
    assert game_id and report["match"]["hash"] == f"#/game/{game_id}"
    game = player.games.GetGame(
        gateway_pb2.GetGameRequest(game_id=game_id), metadata=player.auth, timeout=10
    ).game
    assert game.title == TITLE and len(game.seats) == SEATS
    assert [s.player.player_id for s in game.seats if not s.player.bot] == [setup["me"].player_id]
    assert {s.bot_strength for s in game.seats if s.player.bot} == {CHOSEN_STRENGTH}


def test_the_new_lobby_form_is_drawn_with_its_labels_and_stands_still(report: dict[str, Any]) -> None:
    """The title's option labels are in when the form is first drawn: it once drew fallbacks and grew
    when they came, under a pointer about to press its button."""
    first, later = report["form"]["first"], report["form"]["later"]
    assert later["labels"], "the form shows no option"
    assert first == later


def test_the_page_logs_no_failed_request_nor_console_error(report: dict[str, Any]) -> None:
    assert report["problems"] == [], "\n".join(report["problems"])
