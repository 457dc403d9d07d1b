"""T9, the game part: v0 plays as a RECONSTRUCTION and says so in GetGameInfo, the state, every view
and the record; a second valid data set made here changes the game with no code change; a broken
set is refused, naming file, field and rule."""

# Covered here, by the tests named after them: scenarios T9.

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from boardgame.goldencity.v1 import goldencity_pb2 as pb

from services.common.errors import MalformedRequest
from services.goldencity import GAME, dataset, tables
from services.goldencity.codec import CODEC
from tests.goldencity.datasets import BOARD, SCORING, copy_v0, edit, node
from tests.goldencity.scenario import (
    COAST,
    A,
    build_paying,
    checked,
    ev,
    game,
    of_type,
    set_hand,
    to_building,
)


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An operator's directory with `t9game` (valid, a transcription, meadow_c1 paying 4 letters and
    the first scoring card worth 3 per house) and `t9broken` (a coastal place's bonus of 3 coins)."""
    good = copy_v0(tmp_path, "t9game")
    header = {"reconstruction": False, "data_version": "t9-game", "provenance": "made by a test"}
    for file in dataset.DATA_FILES:
        edit(good, file, lambda data: data.update(header))
    edit(good, BOARD, lambda data: node(data, "meadow_c1").update(bonus={"type": "letters", "amount": 4}))
    edit(good, SCORING, lambda data: data["cards"][0].update(house_points=3))
    broken = copy_v0(tmp_path, "t9broken")
    edit(broken, BOARD, lambda data: node(data, "meadow_c2").update(bonus={"type": "coins", "amount": 3}))
    monkeypatch.setenv(dataset.DATA_DIR_ENV, str(tmp_path))
    tables.named.cache_clear()
    yield tmp_path
    tables.named.cache_clear()


def test_v0_is_a_reconstruction_everywhere_it_is_shown() -> None:
    option = next(o for o in GAME.info.options if o.name == "data_set")
    assert option.default == "v0" and "v0" in option.choices and "RECONSTRUCTION" in option.description
    state, events = GAME.new_game(3, GAME.config_from_proto(pb.Config()), b"t9")
    assert (state.data_set.name, state.data_set.reconstruction) == ("v0", True)
    assert state.data_set.data_version == "v0-reconstruction"
    message, text, _ = GAME.event_to_proto(events[0])
    assert message.game_started.reconstruction and "RECONSTRUCTION" in text
    for view in GAME.views_to_proto(state, None):
        assert view.table.data_set == pb.DataSet(
            name="v0", data_version="v0-reconstruction", reconstruction=True
        )
    assert GAME.state_to_proto(state).table.config.data_set == "v0"


def _coast_bonus(data_set: str) -> list[tuple]:  # type: ignore[type-arg]
    state = to_building(game(3, data_set=data_set))
    set_hand(state, A, [COAST])
    return build_paying(checked(state), "meadow_c1")


def test_t9_another_valid_set_changes_the_game_with_no_code_change(installed: Path) -> None:
    assert "t9game" in dataset.available()
    v0 = _coast_bonus("v0")
    assert [e.amount for e in of_type(v0, ev.CoinsGained)] == [1] and not of_type(v0, ev.LettersGained)
    other = _coast_bonus("t9game")
    assert [e.amount for e in of_type(other, ev.LettersGained)] == [4] and not of_type(other, ev.CoinsGained)
    config = GAME.config_from_proto(pb.Config(data_set="t9game"))
    state, _ = GAME.new_game(3, config, b"t9")
    view = GAME.view_to_proto(state, 0)
    assert view.table.data_set == pb.DataSet(name="t9game", data_version="t9-game", reconstruction=False)
    first = state.tables.scoring_cards[1]
    assert first is not None and first.house_points == 3
    assert GAME.state_from_proto(GAME.state_to_proto(state)).data_set.name == "t9game"


def test_t9_a_broken_set_is_refused_naming_file_field_and_rule(installed: Path) -> None:
    with pytest.raises(MalformedRequest) as refused:
        CODEC.config_from_proto(pb.Config(data_set="t9broken"))
    message = str(refused.value)
    assert (
        "golden_city_board.json" in message
        and "nodes[1].bonus.amount" in message
        and "BONUS_AMOUNT" in message
    )
    with pytest.raises(MalformedRequest, match="no data set of that name"):
        CODEC.config_from_proto(pb.Config(data_set="nowhere"))


def test_the_configured_set_is_the_default(installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(dataset.DATA_SET_ENV, "t9game")
    assert CODEC.config_from_proto(pb.Config()).data_set == "t9game"
