"""`bg tournament create|list|show|join|leave|add-bot|start|cancel`: tournaments (TournamentService) from the
terminal, and their standings as a table."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2, tournaments_pb2_grpc

from cli.client import Client
from cli.clock import add_clock_arguments, clock_of
from cli.lobby import DEFAULT_STRENGTH, STRENGTHS
from cli.players import when

FORMATS = {
    "swiss": tournaments_pb2.TOURNAMENT_FORMAT_SWISS,
    "round-robin": tournaments_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN,
    "elimination": tournaments_pb2.TOURNAMENT_FORMAT_SINGLE_ELIMINATION,
}
FORMAT_TEXT = {value: name for name, value in FORMATS.items()}
STATUSES = {
    "registration": tournaments_pb2.TOURNAMENT_STATUS_REGISTRATION,
    "running": tournaments_pb2.TOURNAMENT_STATUS_RUNNING,
    "finished": tournaments_pb2.TOURNAMENT_STATUS_FINISHED,
    "cancelled": tournaments_pb2.TOURNAMENT_STATUS_CANCELLED,
}
STATUS_TEXT = {value: name for name, value in STATUSES.items()}


def stub(client: Client) -> tournaments_pb2_grpc.TournamentServiceStub:
    """The TournamentService stub on the client's channel."""
    return tournaments_pb2_grpc.TournamentServiceStub(client.channel)


def points(value: float) -> str:
    """Points as people write them: 2, 1.5."""
    return f"{value:g}"


def tournament_line(tournament: tournaments_pb2.Tournament) -> str:
    """One tournament on one line."""
    status = STATUS_TEXT.get(tournament.status, "?")
    rounds = f", round {len(tournament.rounds)}/{tournament.round_count}" if tournament.rounds else ""
    return (
        f"{tournament.tournament_id}  {tournament.name}  {tournament.title} "
        f"{FORMAT_TEXT.get(tournament.format, '?')} at {tournament.seats_per_table}  "
        f"{tournament.entrant_count}/{tournament.capacity} entrants  {status}{rounds}"
    )


def standings_table(tournament: tournaments_pb2.Tournament) -> list[str]:
    """The standings as a table, best first, with each tie-break."""
    elimination = tournament.format == tournaments_pb2.TOURNAMENT_FORMAT_SINGLE_ELIMINATION
    columns = ("points", "Buch", "S-B", "score")
    head = (
        f"{'#':>3}  {'player':<24} "
        + " ".join(f"{c:>6}" for c in columns)
        + f" {'tie-break':>10} {'games':>5} {'byes':>4}"
    )
    lines = [head + ("  out" if elimination else "")]
    bots = {e.player.player_id for e in tournament.entrants if e.player.bot}
    for s in tournament.standings:
        name = (
            s.display_name
            + (" (bot)" if s.player_id in bots else "")
            + (" (withdrawn)" if s.withdrawn else "")
        )
        line = (
            f"{s.place:>3}  {name[:24]:<24} {points(s.points):>6} {points(s.buchholz):>6} "
            f"{points(s.sonneborn_berger):>6} {s.score_total:>6} {s.tiebreak_total:>10} "
            f"{s.games:>5} {s.byes:>4}"
        )
        if elimination:
            line += f"  {('round ' + str(s.eliminated_in_round)) if s.eliminated_in_round else '-'}"
        lines.append(line)
    return lines


def round_lines(tournament: tournaments_pb2.Tournament) -> list[str]:
    """Each round's tables (game, each seat's entrant and result) and byes."""
    names = {e.player.player_id: e.player.display_name for e in tournament.entrants}
    lines = []
    for round_ in tournament.rounds:
        state = "finished" if round_.finished else "playing"
        deadline = f", ends {when(round_.deadline)}" if round_.HasField("deadline") else ""
        lines.append(f"round {round_.number} ({state}{deadline})")
        for table in round_.tables:
            seats = []
            for seat in table.seats:
                forfeited = ", forfeited" if seat.forfeited else ""
                result = f" (rank {seat.rank}{forfeited}: {points(seat.points)} pt)"
                seats.append(names.get(seat.player_id, seat.player_id) + (result if table.finished else ""))
            lines.append(f"  table {table.number}  game {table.game_id}: " + ", ".join(seats))
        if round_.bye_player_ids:
            byes = ", ".join(names.get(player, player) for player in round_.bye_player_ids)
            lines.append(f"  bye ({points(round_.bye_points)}): {byes}")
    return lines


def cmd_create(client: Client, args: argparse.Namespace) -> int:
    """Open a tournament for registration."""
    request = tournaments_pb2.CreateTournamentRequest(
        name=args.name or "",
        title=args.title,
        options=[gateway_pb2.GameOptionValue(name=name, value=value) for name, value in args.option],
        seats_per_table=args.seats,
        format=FORMATS[args.format],
        swiss_rounds=args.rounds if args.format == "swiss" else 0,
        round_seconds=round(args.round_minutes * 60),
        clock=clock_of(args),
        rated=args.rated,
        capacity=args.capacity,
    )
    if args.closes_in:
        request.registration_closes_at.FromMilliseconds(int((time.time() + args.closes_in * 60) * 1000))
    tournament = client.call(stub(client).CreateTournament, request).tournament
    client.say(f"tournament {tournament_line(tournament)}")
    tid = tournament.tournament_id
    client.say(f"players run `bg tournament join {tid}`; `bg tournament add-bot {tid}` adds bots")
    closes = tournament.registration_closes_at
    client.say(
        f"it starts by itself at {when(closes)}"
        if tournament.HasField("registration_closes_at")
        else f"start it with `bg tournament start {tid}`"
    )
    return 0


def cmd_list(client: Client, args: argparse.Namespace) -> int:
    """List tournaments, newest first."""
    request = tournaments_pb2.ListTournamentsRequest(
        title=args.title or "",
        status=STATUSES.get(args.status or "", tournaments_pb2.TOURNAMENT_STATUS_UNSPECIFIED),
        page_size=args.limit,
    )
    listed = client.call(stub(client).ListTournaments, request).tournaments
    for tournament in listed:
        client.say(tournament_line(tournament))
    if not listed:
        client.say("no tournaments")
    return 0


def cmd_show(client: Client, args: argparse.Namespace) -> int:
    """Show a tournament: its settings, rounds, tables and standings."""
    request = tournaments_pb2.GetTournamentRequest(tournament_id=args.tournament_id)
    tournament = client.call(stub(client).GetTournament, request).tournament
    client.say(tournament_line(tournament))
    rated = "rated" if tournament.rated else "unrated"
    limit = f", {points(tournament.round_seconds / 60)} min a round" if tournament.round_seconds else ""
    client.say(f"{rated}{limit}, organised by {tournament.organiser_player_id}")
    if tournament.cancel_reason:
        client.say(f"cancelled: {tournament.cancel_reason}")
    for line in round_lines(tournament):
        client.say(line)
    client.say(
        "final standings:"
        if tournament.status == tournaments_pb2.TOURNAMENT_STATUS_FINISHED
        else "standings:"
    )
    for line in standings_table(tournament):
        client.say(line)
    return 0


def _changed(client: Client, call: Callable[..., Any], request: Any, done: str) -> int:
    tournament = client.call(call, request).tournament
    client.say(f"{done}: {tournament_line(tournament)}")
    return 0


def cmd_join(client: Client, args: argparse.Namespace) -> int:
    """Register the caller."""
    request = tournaments_pb2.JoinTournamentRequest(tournament_id=args.tournament_id)
    return _changed(client, stub(client).JoinTournament, request, "registered")


def cmd_leave(client: Client, args: argparse.Namespace) -> int:
    """Withdraw the caller (or, for the organiser, a bot)."""
    request = tournaments_pb2.LeaveTournamentRequest(
        tournament_id=args.tournament_id, player_id=args.player or ""
    )
    return _changed(client, stub(client).LeaveTournament, request, "withdrawn")


def cmd_add_bot(client: Client, args: argparse.Namespace) -> int:
    """Register bots of a strength (organiser)."""
    request = tournaments_pb2.AddTournamentBotRequest(
        tournament_id=args.tournament_id, strength=STRENGTHS[args.strength]
    )
    for _ in range(args.count):
        reply = client.call(stub(client).AddTournamentBot, request)
        client.say(f"entered {reply.bot.display_name}")
    client.say(tournament_line(reply.tournament) if args.count else "no bot entered")
    return 0


def cmd_start(client: Client, args: argparse.Namespace) -> int:
    """Start a tournament (organiser): seeds, and round 1's tables."""
    request = tournaments_pb2.StartTournamentRequest(tournament_id=args.tournament_id)
    tournament = client.call(stub(client).StartTournament, request).tournament
    client.say(f"started: {tournament_line(tournament)}")
    for line in round_lines(tournament):
        client.say(line)
    return 0


def cmd_cancel(client: Client, args: argparse.Namespace) -> int:
    """Call off a tournament still taking entrants (organiser)."""
    request = tournaments_pb2.CancelTournamentRequest(tournament_id=args.tournament_id)
    return _changed(client, stub(client).CancelTournament, request, "cancelled")


def add_commands(commands: Any) -> None:
    """`bg tournament ...` on the command line's subcommands."""
    top = commands.add_parser(
        "tournament", help="tournaments: create, list, show, join, leave, add-bot, start, cancel"
    )
    actions = top.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = actions.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    create = action("create", cmd_create, "open a tournament for registration (you organise it)")
    create.add_argument("title")
    create.add_argument("--format", choices=list(FORMATS), default="swiss")
    create.add_argument("--seats", type=int, default=2, help="seats per table")
    create.add_argument("--rounds", type=int, default=4, help="rounds of a Swiss")
    create.add_argument("--capacity", type=int, default=16, help="most entrants")
    create.add_argument("--name", help="its name (default: the title and format)")
    create.add_argument("--round-minutes", type=float, default=0, help="time limit of a round (0: none)")
    create.add_argument("--closes-in", type=float, default=0, metavar="MINUTES", help="start by itself then")
    create.add_argument("--rated", action="store_true", help="its games change ratings")
    create.add_argument("--option", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    add_clock_arguments(create)
    listing = action("list", cmd_list, "list tournaments, newest first")
    listing.add_argument("title", nargs="?")
    listing.add_argument("--status", choices=list(STATUSES))
    listing.add_argument("--limit", type=int, default=50)
    action("show", cmd_show, "show a tournament's rounds and standings").add_argument("tournament_id")
    action("join", cmd_join, "register for a tournament").add_argument("tournament_id")
    leave = action("leave", cmd_leave, "withdraw from a tournament (the organiser: a bot, with --player)")
    leave.add_argument("tournament_id")
    leave.add_argument("--player", help="the bot entrant to withdraw (organiser)")
    add_bot = action("add-bot", cmd_add_bot, "enter bots (organiser)")
    add_bot.add_argument("tournament_id")
    add_bot.add_argument("--strength", choices=sorted(STRENGTHS), default=DEFAULT_STRENGTH)
    add_bot.add_argument("--count", type=int, default=1)
    action("start", cmd_start, "start a tournament (organiser)").add_argument("tournament_id")
    action("cancel", cmd_cancel, "call off a tournament still taking entrants (organiser)").add_argument(
        "tournament_id"
    )
