"""FindMatch against two gateway processes on one Redis: 200 players from four client processes,
all at once, are each matched exactly once, into games of the seat count asked for, every player
within the band of every other that their waits allowed; the leftovers get bots after their wait, of
the level nearest their mean rating."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import json_format

from deploy.throwaway import ROOT
from gateway.auth import create_api_key
from live import keys, levels
from live.connection import async_client, sync_client
from live.settings import Settings
from live.store import read_meta
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client
from tests.titles import GAME, TITLE

PLAYERS = 200
PROCESSES = 4
SEATS = min(3, GAME.info.max_players)
BOTS_AFTER_SECONDS = 4
SEARCH_TIMEOUT_SECONDS = 90  # every search is over within the bots' wait, plus the time to start games
RATINGS = (0.0, 40.0)  # the spread of the players' displayed ratings
USER = Settings()  # the bands every user gets


def players(address: str, url: str) -> dict[str, str]:
    """PLAYERS new players (player id -> token), each with a rating on TITLE's leaderboard."""

    async def key() -> str:
        client = async_client(Settings(redis_url=url))
        try:
            return await create_api_key(client, "matchmaking-test")
        finally:
            await client.aclose()

    api_key = asyncio.run(key())
    tokens: dict[str, str] = {}
    store = sync_client(url)
    rng = random.Random(19)
    with patient_channel(address) as channel:
        accounts = Client(channel).accounts
        for index in range(PLAYERS):
            session = accounts.IssuePlayerToken(
                gateway_pb2.IssuePlayerTokenRequest(external_id=f"u{index}", display_name=f"Player {index}"),
                metadata=(("x-api-key", api_key),),
            ).session
            tokens[session.player.player_id] = session.token
            store.zadd(keys.leaderboard(TITLE), {session.player.player_id: rng.uniform(*RATINGS)})
    store.close()
    return tokens


def searches(gateways: list[str], tokens: dict[str, str], folder: Path) -> dict[str, dict[str, object]]:
    """Every player's last FindMatch message, the players split over PROCESSES client processes (each
    given its job as a file in `folder`)."""
    request = gateway_pb2.FindMatchRequest(
        title=TITLE, seat_count=SEATS, bots_after_seconds=BOTS_AFTER_SECONDS
    )
    items = list(tokens.items())
    jobs = []
    for part in range(PROCESSES):
        job = {
            "gateways": gateways,
            "players": dict(items[part::PROCESSES]),
            "request": json_format.MessageToDict(request, preserving_proto_field_name=True),
        }
        path = folder / f"searchers-{part}.json"
        path.write_text(json.dumps(job))
        command = [sys.executable, "-m", "tests.matchmaking.searchers", str(path)]
        jobs.append(subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE))
    results: dict[str, dict[str, object]] = {}
    try:
        for process in jobs:
            out, _ = process.communicate(timeout=SEARCH_TIMEOUT_SECONDS)
            results.update(json.loads(out))
    finally:
        for process in jobs:
            process.kill()
            process.wait()
    return results


def test_200_players_at_once_are_each_matched_once_within_their_bands(
    redis_url: str, gateways: list[str], tmp_path: Path
) -> None:
    tokens = players(gateways[0], redis_url)
    results = searches(gateways, tokens, tmp_path)
    store = sync_client(redis_url)
    ratings = {p: float(store.zscore(keys.leaderboard(TITLE), p) or 0) for p in tokens}

    assert set(results) == set(tokens)
    errors = {p: r for p, r in results.items() if "error" in r or r.get("status") != "MATCH_STATUS_MATCHED"}
    assert not errors, f"{len(errors)} searches not matched, such as {next(iter(errors.values()))}"
    by_game: dict[str, list[str]] = defaultdict(list)
    for player_id, result in results.items():
        by_game[str(result["game_id"])].append(player_id)

    async def metas() -> dict[str, list[gateway_pb2.GameSeat]]:
        client = async_client(Settings(redis_url=redis_url))
        try:
            found = {g: await read_meta(client, g) for g in by_game}
        finally:
            await client.aclose()
        assert all(meta is not None for meta in found.values()), "a matched game does not exist"
        return {g: list(meta.record.seats) for g, meta in found.items() if meta is not None}

    seats_of = asyncio.run(metas())
    seated = [s.player.player_id for seats in seats_of.values() for s in seats if not s.player.bot]
    assert sorted(seated) == sorted(tokens), "a player sits in no game, or in two"
    for game_id, members in by_game.items():
        seats = seats_of[game_id]
        assert len(seats) == SEATS
        humans = {s.player.player_id for s in seats if not s.player.bot}
        assert humans == set(members)
        bots = SEATS - len(members)
        assert all(int(results[p].get("bots", 0)) == bots for p in members)
        bot_names = sorted(s.player.display_name for s in seats if s.player.bot)
        # No level asked for: the level nearest the mean of the players' ratings (`live.levels`).
        level = levels.nearest(TITLE, statistics.fmean(ratings[p] for p in members))
        named = [f"{level.display_name} {n}" for n in range(1, bots + 1)]
        assert bot_names == named, "the same few bots every game, of the level nearest the players"
        assert all(s.bot_strength == level.strength for s in seats if s.player.bot)
        for player_id in members:
            result = results[player_id]
            waited = max(int(result.get("waited_ms", 0)), 0)  # the matcher's clock may lag the joiner's
            band = float(result.get("band", 0))
            allowed = min(
                USER.match_band_start + USER.match_band_growth_per_second * waited / 1000, USER.match_band_max
            )
            assert band <= allowed + 1e-6, "a band wider than the wait allows"
            if bots:
                assert waited >= BOTS_AFTER_SECONDS * 1000 or any(
                    int(results[o].get("waited_ms", 0)) >= BOTS_AFTER_SECONDS * 1000 for o in members
                ), "bots came before anyone's wait for them"
        for one, other in itertools.combinations(members, 2):
            distance = abs(ratings[one] - ratings[other])
            band = min(float(results[one].get("band", 0)), float(results[other].get("band", 0)))
            assert distance <= band + 1e-9, f"{distance:.2f} apart in a band of {band:.2f}"
    assert len(by_game) >= PLAYERS // SEATS
    assert (
        store.scard(keys.match_queues()) == 0
        or store.zcard(keys.match_tickets(next(iter(store.smembers(keys.match_queues()))).decode())) == 0
    )
    store.close()
