"""bench.strength: the Wilson interval and the seat rotation. A title's rows against an outside
competition are that title's test (tests/<title>/test_competition.py)."""

from __future__ import annotations

from bench.strength import rotations, wilson


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert (round(low, 4), round(high, 4)) == (0.0, 0.2775)
    low, high = wilson(10, 10)
    assert (round(low, 4), round(high, 4)) == (0.7225, 1.0)
    low, high = wilson(60, 100)
    assert low < 0.6 < high and round(low, 3) == 0.502
    assert wilson(0, 0) == (0.0, 1.0)


def test_rotation_puts_each_bot_in_every_seat() -> None:
    orders = rotations(("search", "mcts", "mcts"), 6)
    assert orders[:3] == [("search", "mcts", "mcts"), ("mcts", "mcts", "search"), ("mcts", "search", "mcts")]
    assert orders[3:] == orders[:3]
    assert [order.index("search") for order in orders] == [0, 2, 1, 0, 2, 1]
