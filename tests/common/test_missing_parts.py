"""A State message with any one part left out (a sub-message unset, a list emptied) decodes to a
state or is refused as MalformedRequest, for every registered game: never another exception, which
the rules service would answer as an engine failure (INTERNAL). The fuzz once met such TypeErrors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from services.common import registry
from services.common.errors import MalformedRequest
from services.common.playout import random_playout
from services.common.rng import Rng


def _without_one_part(message: Message) -> Iterator[tuple[str, Message]]:
    """Copies of `message` with one set sub-message or one non-empty list cleared, at any depth."""
    for field, value in message.ListFields():
        if field.is_repeated or field.type == FieldDescriptor.TYPE_MESSAGE:
            copy = type(message)()
            copy.CopyFrom(message)
            copy.ClearField(field.name)
            yield field.name, copy
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        children = list(value) if field.is_repeated else [value]
        for index, child in enumerate(children[:2]):
            if isinstance(child, Message) and not hasattr(child, "keys"):
                for path, changed in _without_one_part(child):
                    copy = type(message)()
                    copy.CopyFrom(message)
                    target = getattr(copy, field.name)
                    (target[index] if field.is_repeated else target).CopyFrom(changed)
                    yield f"{field.name}[{index}].{path}", copy


@pytest.mark.parametrize("title", list(registry.games()))
def test_a_state_missing_any_one_part_is_a_state_or_malformed(title: str) -> None:
    game = registry.get(title)
    players = game.info.max_players
    playout = random_playout(game, players, b"missing parts", rng=Rng.from_seed(b"parts"), max_steps=60)
    message = game.state_to_proto(playout.state)
    tried = 0
    for path, changed in _without_one_part(message):
        tried += 1
        try:
            game.state_from_proto(changed)
        except MalformedRequest:
            pass
        except Exception as error:  # the point: nothing else may come out
            pytest.fail(f"{title}: a state without {path} raised {type(error).__name__}: {error}")
    assert tried > 10
