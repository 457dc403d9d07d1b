"""`bg --lang` and the account's locale: labels, event texts and score lines rendered from their Texts
with the title's catalog fetched through a real gateway (real rules services, Redis and a worker
playing the bots), in Traditional or Simplified Chinese; English when neither is set."""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2

from tests.clients.conftest import Bg

TITLE = "puertorico"
MOVES = "1\n" * 6 + "q\n"  # a few moves, then leave the game


def test_bg_lang_shows_labels_and_events_in_traditional_chinese(bg: Bg, worker: None) -> None:
    code, out, err = bg("guest", "Lang Reader")
    assert code == 0, err
    code, out, err = bg("--lang", "zh-TW", "new", TITLE, "--seats", "2", "--bots", "1", "--play", stdin=MOVES)
    assert code == 0, err
    assert "played: 選擇" in out, out  # the first move is choosing a role: "選擇開墾者"
    assert "號座位" in out, out  # an event: "1號座位選擇了…"
    assert "Choose the " not in out and "Seat 0 chose" not in out, out


def test_the_accounts_locale_is_the_default_and_english_without_one(
    bg: Bg, worker: None, channel: grpc.Channel
) -> None:
    code, out, err = bg("guest", "Locale Keeper")
    assert code == 0, err
    code, out, err = bg("new", TITLE, "--seats", "2", "--bots", "1", "--play", stdin=MOVES)
    assert code == 0, err
    assert "played: Choose the " in out and "選擇" not in out, out
    api = bg.api(channel)
    api.accounts.SetLocale(gateway_pb2.SetLocaleRequest(locale="zh-CN"), metadata=api.auth)
    code, out, err = bg("new", TITLE, "--seats", "2", "--bots", "1", "--play", stdin=MOVES)
    assert code == 0, err
    assert "played: 选择" in out and "号座位" in out, out  # Simplified: 选择, not 選擇
    assert "選擇" not in out and "Choose the " not in out, out
