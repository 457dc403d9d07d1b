"""The match queues: players who want the same kind of game (title, seat count, options, clock) wait in
one queue, and one Lua script groups them, so that nobody is matched twice whichever gateway replica
runs it, and however many run it at once.

A queue's keys carry its id as hash tag (`keys.match_*`), so the script touches one Cluster slot: the
tickets by join time, each ticket's facts (player, rating, when bots may fill, their strength) and each
ticket's status hash, which the searcher's stream reads. The script takes the oldest ticket first and
adds the tickets closest in rating that are within the band of every member, each ticket's band
widening with its wait (`band`); a group of the full seat count is matched, and so is a smaller one
once its oldest ticket has waited long enough for bots, which then fill the open seats. A matched
ticket leaves the queue and its status names the game id the script was handed (`MATCH_FORMING`).
A ticket lives while its searcher's stream looks at it (`look`, every tick): the script drops one not
looked at for UNSEEN_MS.

A formed group is kept in the queue's slot (`keys.match_forming`) with a lease of FORMING_LEASE_MS on
creating its game, held by the matcher whose script formed it. That matcher creates the game under the
group's id (creation is create-if-absent: `live.games.start_game`) and `finish`es the group, marking
its tickets matched. If it dies (or stalls) in between, the lease runs out and any matcher `take_over`s
the group and does the same; a game created twice is impossible, and a group whose game cannot be
created is cancelled by its lease's holder only, so nobody stays "forming" for good.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from dataclasses import dataclass

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.connection import register_script
from live.replies import text

MATCH_SEARCHING, MATCH_FORMING = "searching", "forming"
MATCH_MATCHED, MATCH_CANCELLED = "matched", "cancelled"
TICKET_TTL_SECONDS = 3600  # a ticket's status outlives any search (bots fill a seat within 10 min)
UNSEEN_MS = 15_000  # a ticket its stream has not looked at for this long is dropped (its gateway died)
CLAIM_TTL_SECONDS = 30  # a player's claim on a search, renewed by the stream while it lasts
GROUPS_PER_RUN = 32  # game ids handed to one run of the script
FORMING_LEASE_MS = 10_000  # a matcher's lease on creating a formed group's game (more than a NewGame takes)

# KEYS: 1 tickets by join time, 2 ticket facts, 3 when each ticket's stream last looked, 4 forming
# groups, 5 their leases. ARGV: 1 now (ms), 2 seat count, 3 band start, 4 growth per ms, 5 band max,
# 6 status key prefix, 7 status expiry (s), 8 how long a ticket unlooked-at stays (ms), 9 until when
# the lease on a group formed lasts (ms), 10 its holder, then game ids. Facts: "<player id>|<rating>|<bots
# after ms>|<bot strength>". A ticket whose stream stopped looking (its gateway died) is cancelled.
# Returns, per group: the game id, the bot strength, the number of tickets, then the tickets.
MATCH_SCRIPT = """
local now, seats = tonumber(ARGV[1]), tonumber(ARGV[2])
local start, growth, most = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local queued = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local tickets = {}
for i = 1, #queued, 2 do
  local facts = redis.call('HGET', KEYS[2], queued[i])
  local seen = tonumber(redis.call('HGET', KEYS[3], queued[i]) or queued[i + 1])
  if facts and now - seen > tonumber(ARGV[8]) then
    redis.call('ZREM', KEYS[1], queued[i])
    redis.call('HDEL', KEYS[2], queued[i])
    redis.call('HDEL', KEYS[3], queued[i])
    redis.call('HSET', ARGV[6] .. queued[i], 'status', 'cancelled')
    facts = nil
  end
  if facts then
    local player, rating, after, strength = string.match(facts, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
    local waited = now - tonumber(queued[i + 1])
    tickets[#tickets + 1] = {id = queued[i], rating = tonumber(rating), waited = waited,
      band = math.min(start + growth * math.max(waited, 0), most),
      bots = waited >= tonumber(after), strength = strength}
  end
end
local taken, out, next_id = {}, {}, 10
for a = 1, #tickets do
  local anchor = tickets[a]
  if not taken[a] and ARGV[next_id + 1] then
    local near = {}
    for b = 1, #tickets do
      if b ~= a and not taken[b] then
        local d = math.abs(tickets[b].rating - anchor.rating)
        if d <= math.min(anchor.band, tickets[b].band) then near[#near + 1] = {b, d} end
      end
    end
    table.sort(near, function(x, y) return x[2] < y[2] end)
    local group = {a}
    for _, pair in ipairs(near) do
      if #group == seats then break end
      local fits = true
      for _, m in ipairs(group) do
        local d = math.abs(tickets[m].rating - tickets[pair[1]].rating)
        if d > math.min(tickets[m].band, tickets[pair[1]].band) then fits = false break end
      end
      if fits then group[#group + 1] = pair[1] end
    end
    if #group == seats or anchor.bots then
      next_id = next_id + 1
      local game = ARGV[next_id]
      out[#out + 1] = game
      out[#out + 1] = anchor.strength
      out[#out + 1] = #group
      local members = {}
      for _, m in ipairs(group) do
        local t = tickets[m]
        taken[m] = true
        redis.call('ZREM', KEYS[1], t.id)
        redis.call('HDEL', KEYS[2], t.id)
        redis.call('HDEL', KEYS[3], t.id)
        local status = ARGV[6] .. t.id
        redis.call('HSET', status, 'status', 'forming', 'game_id', game, 'bots', seats - #group,
          'band', tostring(t.band), 'waited', t.waited)
        redis.call('EXPIRE', status, tonumber(ARGV[7]))
        out[#out + 1] = t.id
        members[#members + 1] = t.id
      end
      local group_facts = ARGV[10] .. '|' .. anchor.strength .. '|' .. table.concat(members, ',')
      redis.call('HSET', KEYS[4], game, group_facts)
      redis.call('ZADD', KEYS[5], ARGV[9], game)
    end
  end
end
return out
"""

# KEYS: 1 tickets by join time, 2 ticket facts, 3 the ticket's status, 4 when tickets were looked at.
# Withdraws a ticket still queued.
CANCEL_SCRIPT = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('HSET', KEYS[3], 'status', 'cancelled')
return 1
"""


# KEYS: 1 tickets by join time, 2 when tickets were looked at, 3 the ticket's status. ARGV: the
# ticket, now (ms). Marks a queued ticket looked at; returns the status hash as pairs.
LOOK_SCRIPT = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return redis.call('HGETALL', KEYS[3])
"""


# KEYS: 1 forming groups, 2 their leases. ARGV: 1 now (ms), 2 until when the new lease lasts, 3 its
# holder, 4 at most this many groups. Leases each group whose lease ran out to the caller; returns
# them as the match script does.
TAKE_OVER_SCRIPT = """
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, game in ipairs(due) do
  local group = redis.call('HGET', KEYS[1], game)
  if group then
    local _, strength, members = string.match(group, '^([^|]*)|([^|]*)|(.*)$')
    redis.call('HSET', KEYS[1], game, ARGV[3] .. '|' .. strength .. '|' .. members)
    redis.call('ZADD', KEYS[2], ARGV[2], game)
    local tickets = {}
    for ticket in string.gmatch(members, '[^,]+') do tickets[#tickets + 1] = ticket end
    out[#out + 1] = game
    out[#out + 1] = strength
    out[#out + 1] = #tickets
    for _, ticket in ipairs(tickets) do out[#out + 1] = ticket end
  else
    redis.call('ZREM', KEYS[2], game)
  end
end
return out
"""

# KEYS: 1 forming groups, 2 their leases. ARGV: 1 game id, 2 the tickets' new status, 3 status key
# prefix, 4 the lease holder it takes ('' for any). Ends a forming group, its tickets given the status;
# 1 if it did, 0 if the group is gone (finished by another) or leased to another holder.
FINISH_SCRIPT = """
local group = redis.call('HGET', KEYS[1], ARGV[1])
if not group then return 0 end
local holder, _, members = string.match(group, '^([^|]*)|([^|]*)|(.*)$')
if ARGV[4] ~= '' and holder ~= ARGV[4] then return 0 end
for ticket in string.gmatch(members, '[^,]+') do redis.call('HSET', ARGV[3] .. ticket, 'status', ARGV[2]) end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""

# KEYS: 1 the player's claim on a search. ARGV: 1 the ticket. Ends the claim if the ticket holds it: one
# step, so the stream renewing the claim at the same moment neither fails the release nor outlives it.
RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Bands:
    """How far apart the ratings of a game's players may be: `start` points at once, `growth` more
    per second of waiting, never more than `most`."""

    start: float
    growth: float
    most: float

    def band(self, waited_ms: int) -> float:
        """The band of a ticket that has waited `waited_ms`."""
        return min(self.start + self.growth * max(waited_ms, 0) / 1000, self.most)


@dataclass(frozen=True)
class Group:
    """Tickets the script matched into one game, and the strength of the bots filling its open seats."""

    game_id: str
    bot_strength: int
    tickets: tuple[str, ...]


def kind_of(request: gateway_pb2.FindMatchRequest) -> gateway_pb2.FindMatchRequest:
    """The kind of game a request asks for (title, seat count, options by name, clock): equal kinds
    share a queue."""
    options = sorted(request.options, key=lambda option: (option.name, option.value))
    return gateway_pb2.FindMatchRequest(
        title=request.title, seat_count=request.seat_count, options=options, clock=request.clock
    )


def queue_id(kind: gateway_pb2.FindMatchRequest) -> str:
    """The queue of a kind of game."""
    return hashlib.sha256(kind.SerializeToString(deterministic=True)).hexdigest()[:24]


def new_ticket(queue: str) -> str:
    """A fresh ticket id of the queue (the queue can be read back from it: `queue_of`)."""
    return f"{queue}.{uuid.uuid4().hex}"


def queue_of(ticket: str) -> str:
    """The queue a ticket waits in."""
    return ticket.partition(".")[0]


def facts(player_id: str, rating: float, bots_after_ms: int, bot_strength: int) -> str:
    """A ticket's facts as the match script reads them."""
    return f"{player_id}|{rating!r}|{bots_after_ms}|{bot_strength}"


def displayed(mu: float, sigma: float) -> float:
    """The displayed rating of a rating (openskill's ordinal, a conservative estimate): mu - 3 sigma."""
    return mu - 3 * sigma


async def rating(redis: aioredis.Redis, title: str, player_id: str) -> float:
    """The rating a search uses: the player's displayed rating on the title, as the leaderboard shows
    it or, for a guest (which it does not show), from its rating; 0, the prior's, if new."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.zscore(keys.leaderboard(title), player_id)
        pipe.hmget(keys.rating(title, player_id), ["mu", "sigma"])
        score, (mu, sigma) = await pipe.execute()
    if score is not None:
        return float(score)
    return displayed(float(mu), float(sigma)) if mu is not None and sigma is not None else 0.0


async def join(
    redis: aioredis.Redis,
    kind: gateway_pb2.FindMatchRequest,
    ticket: str,
    ticket_facts: str,
    now: int,
    who: bytes,
) -> None:
    """Queue a ticket (the player's single search was claimed before) and list its queue as active."""
    queue = queue_of(ticket)
    async with redis.pipeline(transaction=True) as pipe:
        pipe.set(keys.match_kind(queue), kind.SerializeToString(), ex=TICKET_TTL_SECONDS)
        pipe.hset(
            keys.match_ticket(ticket),
            mapping={"status": MATCH_SEARCHING, "joined": now, "who": who},
        )
        pipe.expire(keys.match_ticket(ticket), TICKET_TTL_SECONDS)
        pipe.hset(keys.match_facts(queue), ticket, ticket_facts)
        pipe.zadd(keys.match_tickets(queue), {ticket: now})
        await pipe.execute()
    await redis.sadd(keys.match_queues(), queue)


async def match(
    redis: aioredis.Redis, queue: str, seat_count: int, bands: Bands, now: int, holder: str = ""
) -> list[Group]:
    """Run the match script on a queue until it forms no more groups; the groups it formed, each leased
    to `holder` until FORMING_LEASE_MS from `now`."""
    script = register_script(redis, MATCH_SCRIPT)
    groups: list[Group] = []
    while True:
        ids = [uuid.uuid4().hex for _ in range(GROUPS_PER_RUN)]
        args: list[str | int | float] = [
            now,
            seat_count,
            bands.start,
            bands.growth / 1000,
            bands.most,
            keys.match_ticket_prefix(queue),
            TICKET_TTL_SECONDS,
            UNSEEN_MS,
            now + FORMING_LEASE_MS,
            holder,
            *ids,
        ]
        queue_keys = [
            keys.match_tickets(queue),
            keys.match_facts(queue),
            keys.match_seen(queue),
            *_forming_keys(queue),
        ]
        reply = await script(keys=queue_keys, args=args)
        formed = _groups([text(item) if isinstance(item, bytes) else str(item) for item in reply])
        groups.extend(formed)
        if len(formed) < GROUPS_PER_RUN:
            return groups


def _forming_keys(queue: str) -> list[str]:
    return [keys.match_forming(queue), keys.match_leases(queue)]


async def take_over(redis: aioredis.Redis, queue: str, holder: str, now: int) -> list[Group]:
    """The queue's formed groups whose lease ran out (their matcher died or stalled before creating
    the game), each leased to `holder` now."""
    script = register_script(redis, TAKE_OVER_SCRIPT)
    args: list[str | int] = [now, now + FORMING_LEASE_MS, holder, GROUPS_PER_RUN]
    reply = await script(keys=_forming_keys(queue), args=args)
    return _groups([text(item) if isinstance(item, bytes) else str(item) for item in reply])


async def finish(redis: aioredis.Redis, queue: str, game_id: str, status: str, holder: str = "") -> bool:
    """End a formed group, its tickets marked `status`: matched by anyone (its game exists), cancelled
    only by `holder` while it holds the lease. Whether it ended it (False: ended already, or leased to
    another)."""
    script = register_script(redis, FINISH_SCRIPT)
    args = [game_id, status, keys.match_ticket_prefix(queue), holder]
    return bool(await script(keys=_forming_keys(queue), args=args))


async def idle(redis: aioredis.Redis, queue: str) -> bool:
    """Whether a queue has neither a ticket waiting nor a group forming (the matchers may forget it)."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.match_tickets(queue))  # first: a match moves its tickets to forming atomically
        pipe.zcard(keys.match_leases(queue))
        waiting, forming = await pipe.execute()
    return not waiting and not forming


def _groups(flat: list[str]) -> list[Group]:
    groups, index = [], 0
    while index < len(flat):
        count = int(flat[index + 2])
        tickets = tuple(flat[index + 3 : index + 3 + count])
        groups.append(Group(flat[index], int(flat[index + 1]), tickets))
        index += 3 + count
    return groups


async def look(redis: aioredis.Redis, player_id: str, ticket: str, now: int) -> dict[bytes, bytes]:
    """A searching stream's look at its ticket: its status hash, the ticket marked as looked at and
    the player's claim renewed (so a ticket whose gateway died is dropped, and its claim ends)."""
    queue = queue_of(ticket)
    script = register_script(redis, LOOK_SCRIPT)
    script_keys = [keys.match_tickets(queue), keys.match_seen(queue), keys.match_ticket(ticket)]
    flat, _ = await asyncio.gather(
        script(keys=script_keys, args=[ticket, now]),
        redis.expire(keys.match_player(player_id), CLAIM_TTL_SECONDS),  # another slot: not in the script
    )
    return dict(zip(flat[::2], flat[1::2], strict=True))


async def cancel(redis: aioredis.Redis, ticket: str) -> bool:
    """Withdraw a ticket still queued; False if it is matched (or forming) already."""
    queue = queue_of(ticket)
    script = register_script(redis, CANCEL_SCRIPT)
    script_keys = [
        keys.match_tickets(queue),
        keys.match_facts(queue),
        keys.match_ticket(ticket),
        keys.match_seen(queue),
    ]
    return bool(await script(keys=script_keys, args=[ticket]))


async def release(redis: aioredis.Redis, player_id: str, ticket: str) -> bool:
    """End the player's claim on a search if `ticket` still holds it; whether it did."""
    script = register_script(redis, RELEASE_SCRIPT)
    return bool(await script(keys=[keys.match_player(player_id)], args=[ticket]))
