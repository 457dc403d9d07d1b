"""A gateway remembers a game's meta (its record and seats) for its watchers only as long as they may
use it (META_REFRESH_SECONDS): after a second without moves it holds none of the games played before,
however many there were, so its memory does not grow with the games it has served."""

from __future__ import annotations

import time

from gateway.play import META_REFRESH_SECONDS
from tests.gateway.support import GatewayProcess
from tests.gateway.test_play import new_game, signed_in
from tests.titles import TITLE
from tests.workers.test_players import acting_client, move

GAMES = 6


def test_the_metas_of_games_played_over_a_second_ago_are_let_go(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    games = [new_game(gateway, TITLE, clients) for _ in range(GAMES + 1)]
    metas = gateway.gateway.servicers.game.metas
    for game_id in games[:GAMES]:
        move(acting_client(clients, game_id), game_id)
    assert set(games[:GAMES]) <= set(metas), "each move's meta is shared with the game's watchers"
    time.sleep(META_REFRESH_SECONDS + 0.1)
    move(acting_client(clients, games[GAMES]), games[GAMES])
    assert list(metas) == [games[GAMES]]
