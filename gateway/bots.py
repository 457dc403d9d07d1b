"""The bots' players: a fixed set of each strength (bot level, `live.levels`), numbered ("Easy bot 1",
"Easy bot 2", ...), seated game after game, so Redis holds the same few bot records however many games
bots play.

A game seating k bots of one strength seats that strength's bots 1 to k, or, in a lobby, the lowest
numbers not seated there yet; a game holds at most its seats, so no strength ever needs more bots
than the most seats a title has. A bot's id is derived from its strength and number, the same on
every gateway replica, and its record (`keys.player`, on the bot's own Cluster slot like any
player's) is written on first use by a script that writes nothing when it exists already: replicas
racing to create it write it once. A shared bot keeps one rating per title, as any player does.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable

from boardgame.gateway.v1 import gateway_pb2

from gateway.auth import BOT_NAMES
from live import keys
from live.table import Table

# The namespace of the bots' ids (uuid5 of strength and number): 32 hex digits like every player id,
# never equal to a person's (uuid4) id.
BOT_IDS = uuid.UUID("5b0e6c1e-7a55-4c3e-9d2b-0b07b07b07b0")
# KEYS: the bot's record. ARGV: its field/value pairs, display_name first. 1 if this call created it; a
# record of another name (a bot named before the levels, "Heuristic bot 1") takes the level's name.
CREATE_ONCE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""


def bot(strength: int, number: int) -> gateway_pb2.Player:
    """Bot `number` (1 or more) of the strength, as seated (an unknown strength is the random one's)."""
    if strength not in BOT_NAMES:
        strength = gateway_pb2.BOT_STRENGTH_RANDOM
    player_id = uuid.uuid5(BOT_IDS, f"{strength}:{number}").hex
    return gateway_pb2.Player(player_id=player_id, display_name=f"{BOT_NAMES[strength]} {number}", bot=True)


def lineup(strength: int, count: int, seated: Iterable[str] = ()) -> list[gateway_pb2.Player]:
    """The `count` lowest-numbered bots of the strength whose ids are not among `seated`."""
    taken, number = set(seated), 1
    chosen: list[gateway_pb2.Player] = []
    while len(chosen) < count:
        candidate = bot(strength, number)
        if candidate.player_id not in taken:
            chosen.append(candidate)
        number += 1
    return chosen


async def create(app: Table, players: Iterable[gateway_pb2.Player]) -> None:
    """Store the record of each of these bots that has none yet (idempotent, race-safe)."""
    for player in players:
        fields = {"display_name": player.display_name, "guest": "0", "bot": "1", "username": ""}
        fields["created_at"] = str(int(time.time()))
        await app.script(CREATE_ONCE)(
            keys=[keys.player(player.player_id)], args=[item for pair in fields.items() for item in pair]
        )
