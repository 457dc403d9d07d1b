"""The regular part of the codec: native objects mirror the boardgame.goldencity.v1 messages field by
field (same names, ids and enums as proto numbers), so one walk over a message's descriptor converts
either way. `NATIVE` pairs each message with its native class; everything else is a scalar or a list
of scalars. The State message groups the public fields under `table`; the native State holds them
directly."""

from __future__ import annotations

import functools
from typing import Any

from boardgame.goldencity.v1 import goldencity_pb2 as pb
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from services.goldencity.state import BonusCards, Cards, Config, DataSet, Pair, Player

NATIVE: dict[str, Any] = {
    pb.Config.DESCRIPTOR.full_name: Config,
    pb.DataSet.DESCRIPTOR.full_name: DataSet,
    pb.Pair.DESCRIPTOR.full_name: Pair,
    pb.Player.DESCRIPTOR.full_name: Player,
    pb.Cards.DESCRIPTOR.full_name: Cards,
    pb.BonusCards.DESCRIPTOR.full_name: BonusCards,
}
FROZEN = (Config, DataSet)  # built by their constructors; the others attribute by attribute


@functools.cache
def fields(descriptor: Any) -> tuple[tuple[str, bool, Any], ...]:
    """(name, repeated, message class or None) of each field of a message type."""
    return tuple(
        (
            field.name,
            field.is_repeated,
            None if field.message_type is None else _message_class(field.message_type),
        )
        for field in descriptor.fields
    )


def _message_class(descriptor: Descriptor) -> type[Message]:
    found: type[Message] = getattr(pb, descriptor.name)
    return found


def to_kwargs(obj: Any, descriptor: Any) -> dict[str, Any]:
    """The constructor arguments of the message `obj` mirrors."""
    kwargs: dict[str, Any] = {}
    for name, repeated, sub in fields(descriptor):
        value = getattr(obj, name)
        if sub is not None:
            value = [encode(v, sub) for v in value] if repeated else encode(value, sub)
        kwargs[name] = value
    return kwargs


def encode(obj: Any, cls: type[Message]) -> Message:
    """The message of type `cls` a native object mirrors."""
    return cls(**to_kwargs(obj, cls.DESCRIPTOR))


def values(message: Message) -> dict[str, Any]:
    """A message's fields as native values (sub-messages decoded, repeated fields as lists)."""
    found: dict[str, Any] = {}
    for name, repeated, sub in fields(message.DESCRIPTOR):
        value = getattr(message, name)
        if sub is not None:
            value = [decode(v) for v in value] if repeated else decode(value)
        elif repeated:
            value = list(value)
        found[name] = value
    return found


def decode(message: Message) -> Any:
    """The native object a message mirrors (unchecked: the codec checks consistency)."""
    cls = NATIVE[message.DESCRIPTOR.full_name]
    found = values(message)
    if cls in FROZEN:
        return cls(**found)
    obj = cls.__new__(cls)
    for name, value in found.items():
        setattr(obj, name, value)
    return obj
