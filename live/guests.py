"""Guests are temporary: a guest's keys expire together `Settings.guest_idle_seconds` after its last
activity, while a registered account (or an operator's user, or a bot) is kept.

One script on the guest's Cluster slot (every key of a player carries {player_id}) gives all of a
guest's keys the expiry again, or takes it off them while the guest has a live game: a guest seated in
a game being played never expires. It runs when the guest is created, when its token is used (at most
once per `renewal_interval` per guest and process, so that a guest's calls cost no extra round trip),
when one of its games starts, and when one ends (after its scoring, which may have written a first
rating). An open lobby forgets itself after a day untouched (`gateway.lobbies`), far sooner than a
guest whose calls renew it.

Its session keys keep the token's own expiry; once the record expired, the token signs in no more
(UNAUTHENTICATED). Games and other players' lists name it through their own copies of the players.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.connection import run_script

if TYPE_CHECKING:
    from live.table import Table

log = logging.getLogger(__name__)

RENEW_EVERY_SECONDS = 3600  # at most, per guest and process; a tenth of the idle period if shorter
# KEYS: 1 the player's record, 2 its live games, then its other keys (all of one slot). ARGV: 1 the
# idle period (s). Returns 0 for no guest (or one gone), 1 once the keys expire again, 2 while kept.
LIFETIME_SCRIPT = """
if redis.call('HGET', KEYS[1], 'guest') ~= '1' then return 0 end
if redis.call('ZCARD', KEYS[2]) > 0 then
  for i = 1, #KEYS do redis.call('PERSIST', KEYS[i]) end
  return 2
end
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return 1
"""
EXPIRING, KEPT = 1, 2


def keys_of(player_id: str, titles: Iterable[str]) -> list[str]:
    """Every key of a guest that lasts as long as the guest: its record and live games first (as the
    script reads them), its lists of games, inbox, history, lobbies hosted and a rating per title. Its
    sessions, rate counters, watch leases and search claim expire sooner on their own."""
    return [
        keys.player(player_id),
        keys.my_live_games(player_id),
        keys.my_games(player_id),
        keys.my_finished_games(player_id),
        keys.inbox(player_id),
        keys.player_games(player_id),
        keys.hosted_lobbies(player_id),
        *(keys.rating(title, player_id) for title in sorted(set(titles))),
    ]


async def renew(app: Table, player_ids: Iterable[str], *titles: str) -> list[int]:
    """Run the lifetime script for each player (one round trip): EXPIRING, KEPT, or 0 for no guest.
    The ratings renewed are those of every title served, and of `titles` besides."""
    served = [*app.rules.titles, *titles]
    calls: list[tuple[list[str], list[bytes | str | int]]] = [
        (keys_of(player_id, served), [app.settings.guest_idle_seconds]) for player_id in player_ids
    ]
    if not calls:
        return []
    return [int(reply) for reply in await run_script(app.redis, app.script(LIFETIME_SCRIPT), calls)]


def guests_of(record: gateway_pb2.GameRecord) -> list[str]:
    """The ids of a game's guests, each once."""
    return list(dict.fromkeys(seat.player.player_id for seat in record.seats if seat.player.guest))


async def game_changed(app: Table, record: gateway_pb2.GameRecord) -> None:
    """Renew a game's guests as it starts or ends (kept while it is live); a failure is logged, never
    raised: their next call renews them."""
    try:
        await renew(app, guests_of(record), record.title)
    except Exception:
        log.exception("guest renewal failed", extra={"game_id": record.game_id})


def renewal_interval(app: Table) -> float:
    """How long a renewal holds before a call renews the guest again."""
    return min(RENEW_EVERY_SECONDS, app.settings.guest_idle_seconds / 10)


async def seen(app: Table, player: gateway_pb2.Player) -> None:
    """The player made a call: renew it if it is a guest this process did not renew within the
    interval. `app.renewed` holds when this process last renewed each guest (monotonic seconds),
    oldest first; entries older than the interval are dropped as others come, so it holds only the
    guests of the last interval."""
    if not player.guest:
        return
    renewed = app.renewed
    now = time.monotonic()
    since = now - renewal_interval(app)
    while renewed and next(iter(renewed.values())) < since:
        del renewed[next(iter(renewed))]
    if player.player_id in renewed:
        return
    await renew(app, [player.player_id])
    renewed[player.player_id] = now
