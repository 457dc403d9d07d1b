"""`bg leaderboard`, `bg replay`: ratings, and a finished game's record checked by replaying it (or, with
--step or --browse, stepped through: `cli.replay`)."""

from __future__ import annotations

import argparse

from boardgame.gateway.v1 import gateway_pb2

from cli.client import Client
from cli.render import message_lines, unpack
from cli.replay import step_through


def cmd_leaderboard(client: Client, args: argparse.Namespace) -> int:
    """Show a title's best players."""
    request = gateway_pb2.GetLeaderboardRequest(title=args.title, page_size=args.top)
    response = client.call(client.leaderboard.GetLeaderboard, request)
    client.say(f"{'rank':>4}  {'player':<24} {'rating':>7} {'games':>5} {'wins':>4}")
    for entry in response.entries:
        name = entry.player.display_name + (" (bot)" if entry.player.bot else "")
        client.say(f"{entry.rank:>4}  {name:<24} {entry.rating:>7.1f} {entry.games:>5} {entry.wins:>4}")
    if not response.entries:
        client.say("no rated games yet")
    return 0


def cmd_replay(client: Client, args: argparse.Namespace) -> int:
    """Show a finished game's record move by move (an undo or a takeback as the version it went back
    to) and check it replays exactly; with --step or --browse, step through it instead."""
    if args.step is not None or args.browse:
        return step_through(client, args)
    record = client.call(
        client.games.GetGameRecord, gateway_pb2.GetGameRecordRequest(game_id=args.game_id)
    ).record
    names = {seat.seat: seat.player.display_name for seat in record.seats}
    client.say(f"{record.title}, {record.player_count} players, {len(record.actions)} actions")
    if record.HasField("edition"):
        client.say(record.edition.notice)
    client.say(f"seed {record.seed.hex()} (published SHA-256 {record.seed_sha256})")
    for logged in record.actions:
        action = unpack(logged.action)
        text = "; ".join(message_lines(action)) if action is not None else logged.action.type_url
        if logged.HasField("returned_to"):  # an undo or a takeback: the game went back to that version
            how = "takeback" if logged.takeback else "undo"
            text = f"{how}: back to version {logged.returned_to}"
        client.say(
            f"{logged.version:>5}  seat {logged.seat} {names.get(logged.seat, '')}: {' '.join(text.split())}"
        )
    replay = client.call(client.games.ReplayGame, gateway_pb2.ReplayGameRequest(game_id=args.game_id))
    if replay.consistent:
        client.say(
            f"replay consistent: {replay.actions_replayed} actions re-applied, same final state and scores"
        )
        return 0
    client.say(f"replay NOT consistent: {replay.mismatch}")
    return 1
