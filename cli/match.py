"""`bg match`: search for a game through the matchmaker, say how the search goes, then play it;
`bg cancel-match` withdraws the search (from another terminal)."""

from __future__ import annotations

import argparse

import grpc
from boardgame.gateway.v1 import gateway_pb2

from cli.client import Client
from cli.clock import clock_of
from cli.lobby import STRENGTHS, after_start


def cmd_match(client: Client, args: argparse.Namespace) -> int:
    """Search for a game; say when the band widens; play (or name) the game once matched."""
    options = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in args.option]
    request = gateway_pb2.FindMatchRequest(
        title=args.title,
        seat_count=args.seats,
        options=options,
        clock=clock_of(args),
        bots_after_seconds=args.bots_after,
        bot_strength=STRENGTHS[args.strength] if args.strength else gateway_pb2.BOT_STRENGTH_UNSPECIFIED,
    )
    last = gateway_pb2.FindMatchResponse()
    try:
        for last in client.games_stream(client.matches.FindMatch, request):
            if last.status == gateway_pb2.MATCH_STATUS_SEARCHING:
                client.say(
                    f"searching: rating {last.rating:.1f}, players within {last.band:.1f}, "
                    f"waited {last.waited_ms / 1000:.0f} s"
                )
    except KeyboardInterrupt:
        client.say("search withdrawn")
        return 1
    if last.status != gateway_pb2.MATCH_STATUS_MATCHED:
        client.say("search cancelled")
        return 1
    bots = f" ({last.bots} bot{'s' if last.bots != 1 else ''})" if last.bots else ""
    client.say(f"matched{bots} after {last.waited_ms / 1000:.0f} s: game {last.game_id}")
    return after_start(client, last.game_id, play_after=args.play)


def cmd_cancel_match(client: Client, args: argparse.Namespace) -> int:
    """Withdraw the signed-in player's search."""
    try:
        client.call(client.matches.CancelMatch, gateway_pb2.CancelMatchRequest())
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
            raise
        client.say(error.details() or "no search to cancel")
        return 1
    client.say("search cancelled")
    return 0
