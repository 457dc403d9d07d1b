"""The web client's tournaments page in a real browser (headless Chromium driven by puppeteer-core) against
a real gateway with its browser listener, Redis, rules services and a Celery worker playing the bots
(clients/web/test/tournament.mjs): a Swiss of the registry's title with the shortest games, created
from the page's form, joined, left and joined again, filled with bots of a strength picked from the
page's list and started; the player's round-1 notice in the inbox leads to it; the player withdraws
and the page follows the bots' tables to the end, showing each round's tables with their games and
results, the byes, and the standings with every tie-break, as GetTournament has them; a table's game
opens finished; the list of finished tournaments of the title has it."""

from __future__ import annotations

import json
import secrets
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2, tournaments_pb2_grpc

from i18n.messages import Catalog, text
from live import levels
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.workers.web import WEB_CLIENT, run_driver

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

DRIVER = WEB_CLIENT / "test" / "tournament.mjs"
TITLE = min(registry.games(), key=lambda name: (registry.get(name).info.max_game_length, name))
SEATS = registry.get(TITLE).info.min_players
BOTS = SEATS  # with the player, one entrant over a table: a bye each round
ROUNDS = 2
CAPACITY = 4
STRENGTH = gateway_pb2.BOT_STRENGTH_RANDOM
FINISH_SECONDS = 120
DRIVER_TIMEOUT_SECONDS = FINISH_SECONDS + 120
LOCALES = ["zh_Hant", "zh_Hans"]


def number(value: float) -> str:
    """A number as the page writes points and tie-breaks in English (at most two decimals)."""
    return f"{round(value, 2):g}"


@pytest.fixture(scope="module")
def player(web_gateway: GatewayProcess) -> Client:
    client = Client(grpc.insecure_channel(web_gateway.address))
    client.sign_in_as_guest("Tournament player")
    return client


@pytest.fixture(scope="module")
def report(
    web_gateway: GatewayProcess, player: Client, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    me = player.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=player.auth, timeout=10).player
    env = {
        "E2E_URL": web_gateway.web_url + "/",
        "E2E_TOKEN": player.token,
        "E2E_PLAYER": me.player_id,
        "E2E_TITLE": TITLE,
        "E2E_NAME": f"Web cup {secrets.token_hex(3)}",
        "E2E_SEATS": str(SEATS),
        "E2E_FORMAT": str(tournaments_pb2.TOURNAMENT_FORMAT_SWISS),
        "E2E_ROUNDS": str(ROUNDS),
        "E2E_CAPACITY": str(CAPACITY),
        "E2E_BOTS": str(BOTS),
        "E2E_STRENGTH": levels.of(STRENGTH).name,
        "E2E_FINISH_SECONDS": str(FINISH_SECONDS),
        "E2E_FINISHED_STATUS": str(tournaments_pb2.TOURNAMENT_STATUS_FINISHED),
        "E2E_OUT": str(tmp_path_factory.mktemp("tournament")),
        "E2E_LOCALES": " ".join(LOCALES),
    }
    result = run_driver(DRIVER, env, DRIVER_TIMEOUT_SECONDS)
    assert result["errors"] == [], "\n".join([*result["errors"], json.dumps(result["seen"], indent=1)])
    return {**result, "name": env["E2E_NAME"], "me": me}


@pytest.fixture(scope="module")
def tournament(
    web_gateway: GatewayProcess, player: Client, report: dict[str, Any]
) -> tournaments_pb2.Tournament:
    stub = tournaments_pb2_grpc.TournamentServiceStub(player.channel)
    request = tournaments_pb2.GetTournamentRequest(tournament_id=report["created"]["id"])
    return stub.GetTournament(request, metadata=player.auth, timeout=10).tournament


def names(tournament: tournaments_pb2.Tournament, me: str) -> dict[str, str]:
    """Each entrant's name as the page shows it ("... (you)" for the player)."""
    shown = {e.player.player_id: e.player.display_name for e in tournament.entrants}
    shown[me] = f"{shown[me]} (you)"
    return shown


def test_the_form_creates_the_tournament_it_was_filled_in_with(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament
) -> None:
    assert report["created"]["hash"] == f"#/tournament/{tournament.tournament_id}"
    assert (tournament.name, tournament.title, tournament.seats_per_table) == (report["name"], TITLE, SEATS)
    assert tournament.format == tournaments_pb2.TOURNAMENT_FORMAT_SWISS
    assert (tournament.capacity, tournament.rated, tournament.round_seconds) == (CAPACITY, False, 0)
    assert not tournament.HasField("registration_closes_at")
    assert tournament.clock == gateway_pb2.TurnClock()
    assert tournament.organiser_player_id == report["me"].player_id
    facts = report["created"]["facts"]
    assert facts["tournament-status"] == "taking entrants" and facts["tournament-rated"] == "unrated"
    assert facts["tournament-seats"] == str(SEATS) and facts["tournament-clock"] == "no clock"
    assert facts["tournament-organiser"] == "you"


def test_join_leave_and_bots_of_the_chosen_strength(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament
) -> None:
    me = report["me"].player_id
    assert report["entrantsAfterJoin"] == [me] and report["entrantsAfterLeave"] == []
    bots = [e for e in tournament.entrants if e.player.bot]
    assert len(bots) == BOTS and {e.bot_strength for e in bots} == {STRENGTH}
    assert [e.player.player_id for e in tournament.entrants] == [me, *(e.player.player_id for e in bots)]
    shown = {e["playerId"]: e for e in report["entrants"]}
    assert set(shown) == {e.player.player_id for e in tournament.entrants}
    for entrant in tournament.entrants:
        row = shown[entrant.player.player_id]
        assert (row["seed"], row["withdrawn"]) == (str(entrant.seed), entrant.withdrawn)
    assert shown[me]["withdrawn"] and "withdrawn" in shown[me]["text"]


def test_the_round_one_notice_leads_to_the_tournament_and_its_table(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament
) -> None:
    me = report["me"].player_id
    first = tournament.rounds[0]
    table = next((t for t in first.tables if me in {s.player_id for s in t.seats}), None)
    notice = report["notice"]
    assert notice["hash"] == f"#/tournament/{tournament.tournament_id}"
    if table is not None:
        assert (notice["kind"], notice["gameId"]) == ("TOURNAMENT_TABLE_READY", table.game_id)
        assert notice["buttons"] == ["open-game", "open-tournament"]
    else:
        assert me in first.bye_player_ids
        assert (notice["kind"], notice["buttons"]) == ("TOURNAMENT_BYE", ["open-tournament"])


def test_the_rounds_are_followed_to_the_end_with_their_tables_games_and_byes(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament, player: Client
) -> None:
    assert tournament.status == tournaments_pb2.TOURNAMENT_STATUS_FINISHED
    assert len(tournament.rounds) == tournament.round_count == ROUNDS
    shown = names(tournament, report["me"].player_id)
    expected = [
        {
            "number": r.number,
            "finished": True,
            "tables": [
                {
                    "gameId": t.game_id,
                    "finished": True,
                    "seats": [
                        {
                            "playerId": s.player_id,
                            "text": f"seat {s.seat}: {shown[s.player_id]} rank {s.rank}, "
                            f"{number(s.points)} point{'' if s.points == 1 else 's'}, score {s.score}, "
                            f"tie-break {s.tiebreak}" + ("resigned or forfeited" if s.forfeited else ""),
                        }
                        for s in t.seats
                    ],
                    "link": f"#/game/{t.game_id}",
                }
                for t in r.tables
            ],
            "byes": list(r.bye_player_ids),
        }
        for r in tournament.rounds
    ]
    assert report["rounds"] == expected
    assert any(r["byes"] for r in report["rounds"]), "a field one over a table has byes"
    for game_id in (t.game_id for r in tournament.rounds for t in r.tables):
        game = player.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=player.auth).game
        assert game.status == gateway_pb2.GAME_STATUS_FINISHED
    assert report["game"] == {"gameId": tournament.rounds[0].tables[0].game_id, "status": "finished"}
    assert report["facts"]["tournament-status"] == "finished"
    assert report["controls"] == [], "nothing left to do in a finished tournament"


def test_the_standings_show_every_tie_break_and_the_withdrawal(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament
) -> None:
    shown = names(tournament, report["me"].player_id)
    expected = [
        {
            "playerId": s.player_id,
            "cells": [
                str(s.place),
                shown[s.player_id],
                number(s.points),
                number(s.buchholz),
                number(s.sonneborn_berger),
                str(s.score_total),
                str(s.tiebreak_total),
                str(s.games),
                str(s.byes),
                str(s.seed),
                ("withdrawn" if s.withdrawn else "")
                + (f"out in round {s.eliminated_in_round}" if s.eliminated_in_round else ""),
            ],
        }
        for s in tournament.standings
    ]
    assert report["standings"] == expected
    assert len(expected) == BOTS + 1
    assert [s.withdrawn for s in tournament.standings if s.player_id == report["me"].player_id] == [True]


def test_the_list_of_finished_tournaments_of_the_title_has_it(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament
) -> None:
    assert report["listed"] == [
        {
            "status": "finished",
            "cells": [
                report["name"],
                registry.get(TITLE).info.display_name,
                "Swiss",
                f"{BOTS + 1} of {CAPACITY}",
                "finished",
                report["listed"][0]["cells"][5],  # how long ago it was created, in words
            ],
        }
    ]


def test_the_organiser_calls_a_tournament_off_from_the_page(player: Client, report: dict[str, Any]) -> None:
    stub = tournaments_pb2_grpc.TournamentServiceStub(player.channel)
    request = tournaments_pb2.GetTournamentRequest(tournament_id=report["cancelled"]["id"])
    cancelled = stub.GetTournament(request, metadata=player.auth, timeout=10).tournament
    assert cancelled.status == tournaments_pb2.TOURNAMENT_STATUS_CANCELLED and cancelled.cancel_reason
    assert cancelled.name == f"{report['name']} called off"
    catalog = Catalog.read(WEB_CLIENT / "locale" / "en.po", "en")
    assert report["cancelled"]["asked"] == catalog.render(text("web.tournament.cancel_confirm"))
    status = catalog.render(text("web.tournaments.status.cancelled"))
    assert report["cancelled"]["status"] == f"{status}: {cancelled.cancel_reason}"
    assert report["cancelled"]["controls"] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_finished_tournament_in_chinese(
    report: dict[str, Any], tournament: tournaments_pb2.Tournament, locale: str
) -> None:
    catalog = Catalog.read(WEB_CLIENT / "locale" / f"{locale}.po", locale)

    def say(id: str, **arguments: Any) -> str:
        return catalog.render(text(id, **arguments))

    columns = ["place", "player", "points", "buchholz", "sonneborn_berger", "score_total", "tiebreak_total"]
    columns += ["games", "byes_column", "seed"]
    format_ = say("web.tournaments.format.swiss")
    assert report["chinese"][locale] == {
        "headings": [
            report["name"],
            say("web.tournament.standings"),
            say("web.tournament.rounds"),
            say("web.tournament.entrants"),
        ],
        "standings": [*(say(f"web.tournament.{column}") for column in columns), ""],
        "status": say("web.tournaments.status.finished"),
        "format": say("web.tournament.format_rounds", format=format_, rounds=ROUNDS),
        "nav": say("web.nav.tournaments"),
    }


def test_the_page_logs_no_failed_request_nor_console_error(report: dict[str, Any]) -> None:
    assert report["missing"] == []
    assert report["problems"] == [], "\n".join(report["problems"])
