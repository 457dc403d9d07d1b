"""`bg guest`, `bg register`, `bg sign-in`, `bg whoami`: signing in and keeping the session."""

from __future__ import annotations

import argparse
import getpass

from boardgame.gateway.v1 import gateway_pb2

from cli import session
from cli.client import Client


def _keep(client: Client, signed_in: gateway_pb2.Session, how: str) -> int:
    session.save({"gateway": client.address, "token": signed_in.token, "name": signed_in.player.display_name})
    player = signed_in.player
    client.say(f"signed in as {player.display_name} ({how} {player.player_id}) at {client.address}")
    return 0


def password(client: Client, args: argparse.Namespace, *, confirm: bool) -> str:
    """The --password flag, else asked at the terminal (twice for a new account), else the first line
    of standard input when it is not a terminal."""
    if args.password:
        return str(args.password)
    if not client.inp.isatty():
        return client.inp.readline().rstrip("\n")
    first = getpass.getpass("password: ")
    if confirm and getpass.getpass("password again: ") != first:
        raise SystemExit("bg: the two passwords differ; nothing was registered")
    return first


def cmd_guest(client: Client, args: argparse.Namespace) -> int:
    """Create a guest account and keep its token."""
    request = gateway_pb2.CreateGuestRequest(display_name=args.name)
    return _keep(client, client.call(client.accounts.CreateGuest, request, signed_in=False).session, "guest")


def cmd_register(client: Client, args: argparse.Namespace) -> int:
    """Create a named account with a password and keep its token."""
    request = gateway_pb2.RegisterRequest(
        username=args.name,
        password=password(client, args, confirm=True),
        display_name=args.display_name or "",
    )
    return _keep(client, client.call(client.accounts.Register, request, signed_in=False).session, "player")


def cmd_sign_in(client: Client, args: argparse.Namespace) -> int:
    """Sign a named account in and keep its token."""
    request = gateway_pb2.SignInRequest(username=args.name, password=password(client, args, confirm=False))
    return _keep(client, client.call(client.accounts.SignIn, request, signed_in=False).session, "player")


def cmd_whoami(client: Client, args: argparse.Namespace) -> int:
    """Show the signed-in player."""
    player = client.call(client.accounts.GetMe, gateway_pb2.GetMeRequest()).player
    client.say(f"{player.display_name} ({'guest ' if player.guest else ''}{player.player_id})")
    return 0
