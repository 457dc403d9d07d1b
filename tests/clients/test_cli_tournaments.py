"""`bg tournament`: create, add bots, join, list, start (the organiser only), leave while it runs, and
show its standings as a table, checked against the gateway API with the session `bg` saved; the
tournament is played to its end by a real worker."""

from __future__ import annotations

import re
import time

import grpc
from boardgame.gateway.v1 import tournaments_pb2, tournaments_pb2_grpc

from services.common import registry
from tests.clients.conftest import Bg

# The title with the shortest games among those played at two seats.
TITLE = min(
    (name for name, game in registry.games().items() if game.info.min_players <= 2 <= game.info.max_players),
    key=lambda name: (registry.get(name).info.max_game_length, name),
)
FINISH_SECONDS = 240


def tournament_of(out: str) -> str:
    """The tournament id `bg tournament create` announced."""
    found = re.search(r"^tournament (\S+) ", out, re.M)
    assert found, out
    return found.group(1)


def test_bg_tournament_from_creation_to_its_standings(bg: Bg, channel: grpc.Channel, worker: None) -> None:
    other = Bg(bg.home.parent / "other", bg.address)
    assert bg("guest", "Organiser")[0] == 0 and other("guest", "Walker")[0] == 0
    code, out, err = bg(
        "tournament", "create", TITLE, "--format", "round-robin", "--seats", "2", "--name", "Cup"
    )
    assert code == 0, err
    tid = tournament_of(out)
    assert f"`bg tournament join {tid}`" in out and f"`bg tournament start {tid}`" in out
    code, out, err = bg("tournament", "add-bot", tid, "--strength", "random", "--count", "2")
    assert code == 0 and len(re.findall(r"^entered Random bot \d+$", out, re.M)) == 2, err
    code, out, err = other("tournament", "join", tid)
    assert code == 0 and out.startswith(f"registered: {tid}  Cup  {TITLE} round-robin at 2  3/16 entrants"), (
        err
    )
    code, out, _ = other("tournament", "list", TITLE, "--status", "registration")
    assert code == 0 and any(line.startswith(f"{tid}  Cup") for line in out.splitlines())
    code, _, err = other("tournament", "start", tid)
    assert code == 1 and "PERMISSION_DENIED" in err and "organiser" in err
    code, out, err = bg("tournament", "start", tid)
    assert code == 0 and out.startswith(f"started: {tid}") and "round 1 (playing" in out, err
    assert re.search(r"^  table 1  game \w+: ", out, re.M) and re.search(r"^  bye \(0.5\): ", out, re.M)
    code, out, err = other("tournament", "leave", tid)
    assert code == 0 and out.startswith("withdrawn: "), err

    stub = tournaments_pb2_grpc.TournamentServiceStub(channel)
    api = bg.api(channel)
    request = tournaments_pb2.GetTournamentRequest(tournament_id=tid)
    deadline = time.monotonic() + FINISH_SECONDS
    while True:
        tournament = stub.GetTournament(request, metadata=api.auth).tournament
        if tournament.status == tournaments_pb2.TOURNAMENT_STATUS_FINISHED:
            break
        assert time.monotonic() < deadline, "the tournament did not finish"
        time.sleep(0.5)

    code, out, err = other("tournament", "show", tid)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"{tid}  Cup") and "finished, round 3/3" in lines[0]
    table = lines[lines.index("final standings:") + 1 :]
    assert table[0].split() == ["#", "player", "points", "Buch", "S-B", "score", "tie-break", "games", "byes"]
    rows = table[1:]
    assert len(rows) == 3 == len(tournament.standings)
    for row, standing in zip(rows, tournament.standings, strict=True):
        place, *rest = row.split()
        assert int(place) == standing.place and standing.display_name in row
        numbers = rest[-7:]
        assert [float(numbers[0]), float(numbers[1]), float(numbers[2])] == [
            standing.points,
            standing.buchholz,
            standing.sonneborn_berger,
        ]
        assert [int(n) for n in numbers[3:]] == [
            standing.score_total,
            standing.tiebreak_total,
            standing.games,
            standing.byes,
        ]
        assert ("(withdrawn)" in row) == standing.withdrawn
        assert ("(bot)" in row) == (standing.display_name.startswith("Random bot"))
    assert [s.withdrawn for s in tournament.standings].count(True) == 1
    for number in (1, 2, 3):
        assert re.search(rf"^round {number} \(finished\)$", out, re.M)


def test_bg_tournament_cancel_calls_it_off_for_the_organiser_only(bg: Bg, channel: grpc.Channel) -> None:
    other = Bg(bg.home.parent / "other", bg.address)
    assert bg("guest", "Caller-off")[0] == 0 and other("guest", "Bystander")[0] == 0
    code, out, err = bg("tournament", "create", TITLE, "--seats", "2")
    assert code == 0, err
    tid = tournament_of(out)
    code, _, err = other("tournament", "cancel", tid)
    assert code == 1 and "PERMISSION_DENIED" in err and "organiser" in err
    code, out, err = bg("tournament", "cancel", tid)
    assert code == 0 and out.startswith(f"cancelled: {tid}"), err
    api = bg.api(channel)
    request = tournaments_pb2.GetTournamentRequest(tournament_id=tid)
    tournament = tournaments_pb2_grpc.TournamentServiceStub(channel).GetTournament(request, metadata=api.auth)
    assert tournament.tournament.status == tournaments_pb2.TOURNAMENT_STATUS_CANCELLED
