"""Generic tools for looking inside any game's native state: its structure as a comparable value, and
a read-only copy on which every change raises.

Native states are plain objects (with `__slots__` or a `__dict__`, or dataclasses, or classes compiled
by mypyc, which list their attributes in `__mypyc_attrs__`) holding ints, strings, lists, dicts, tuples
and further such objects; nothing here names a game. A compiled engine writes attributes and lists
directly, past any Python-level refusal, so only a state of classes run from source can be frozen
(`freezable`; test_conformance runs the freezing tests again from source when this process runs
compiled engines). The one field
treated apart is the legal-action memo of `services.common.decisions.DecisionLoop`: it is not part of
the state's value (it is never serialized), and filling it in is the one write the engines make to a
state they are given (a whole list, computed from the rest of the state, assigned at once).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from typing import Any

# `DecisionLoop.legal_now` caches the acting seat's legal actions in this attribute.
MEMO_FIELDS = frozenset({"legal"})
ATOMS = (int, float, str, bytes, bool, type(None))
UNSET = "<unset>"
COMPILED_ATTRIBUTES = "__mypyc_attrs__"  # a compiled class's attribute names


class StateChanged(AssertionError):
    """Raised by a frozen copy when anything tries to change it."""


def _field_names(obj: Any) -> Iterator[str]:
    """The names of an object's attributes: every class's `__slots__` (or compiled attributes), then
    its `__dict__`."""
    seen: set[str] = set()
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ()) or cls.__dict__.get(COMPILED_ATTRIBUTES, ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in seen and name not in ("__dict__", "__weakref__"):
                seen.add(name)
                yield name
    for name in getattr(obj, "__dict__", {}):
        if name not in seen:
            seen.add(name)
            yield name


def _is_record(obj: Any) -> bool:
    """Whether `obj` is an object whose attributes make up its value (not an atom or a container)."""
    return not isinstance(obj, (*ATOMS, list, dict, tuple, set, frozenset)) and (
        hasattr(obj, "__dict__")
        or any(
            name in cls.__dict__ for cls in type(obj).__mro__ for name in ("__slots__", COMPILED_ATTRIBUTES)
        )
    )


def compiled(state: Any) -> bool:
    """Whether a native state's class was compiled by mypyc (a title's classes are compiled together)."""
    return hasattr(type(state), COMPILED_ATTRIBUTES)


def structure(value: Any, *, memo: bool = False) -> Any:
    """A comparable value capturing everything in a native value: class names, every attribute,
    container types and order. Memo fields are left out unless `memo`."""
    if isinstance(value, ATOMS):
        return value
    if isinstance(value, list):
        return ("list", tuple(structure(item, memo=memo) for item in value))
    if isinstance(value, tuple):
        return (type(value).__qualname__, tuple(structure(item, memo=memo) for item in value))
    if isinstance(value, dict):
        return (
            "dict",
            tuple((structure(k, memo=memo), structure(v, memo=memo)) for k, v in value.items()),
        )
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, frozenset(structure(item, memo=memo) for item in value))
    if _is_record(value):
        cls = getattr(type(value), "_frozen_from", type(value))
        fields = tuple(
            (name, structure(getattr(value, name, UNSET), memo=memo))
            for name in sorted(_field_names(value))
            if memo or name not in MEMO_FIELDS
        )
        return (cls.__module__ + "." + cls.__qualname__, fields)
    raise TypeError(f"structure() does not know how to compare a {type(value).__qualname__}: add it")


def _refuse(what: str) -> Any:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
        raise StateChanged(f"{what} on a {type(self).__bases__[0].__name__} of a state given to the engine")

    return refuse


_LIST_CHANGES = (
    "__setitem__",
    "__delitem__",
    "__iadd__",
    "__imul__",
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "reverse",
    "sort",
    "clear",
)
_DICT_CHANGES = ("__setitem__", "__delitem__", "__ior__", "pop", "popitem", "setdefault", "update", "clear")
_SET_CHANGES = (
    "add",
    "discard",
    "remove",
    "pop",
    "clear",
    "update",
    "__ior__",
    "__iand__",
    "__isub__",
    "__ixor__",
    "difference_update",
    "intersection_update",
    "symmetric_difference_update",
)

FrozenList = type("FrozenList", (list,), {name: _refuse(name) for name in _LIST_CHANGES})
FrozenDict = type("FrozenDict", (dict,), {name: _refuse(name) for name in _DICT_CHANGES})
FrozenSet = type("FrozenSet", (set,), {name: _refuse(name) for name in _SET_CHANGES})
_frozen_classes: dict[type, type] = {}


def _frozen_class(cls: type) -> type:
    """A subclass of `cls` with the same layout whose instances refuse every attribute change except
    to memo fields."""
    if cls not in _frozen_classes:

        def setattr_(self: Any, name: str, value: Any) -> None:
            if name not in MEMO_FIELDS:
                raise StateChanged(f"setting {cls.__qualname__}.{name} on a state given to the engine")
            object.__setattr__(self, name, value)

        def delattr_(self: Any, name: str) -> None:
            raise StateChanged(f"deleting {cls.__qualname__}.{name} on a state given to the engine")

        _frozen_classes[cls] = type(
            cls.__name__,
            (cls,),
            {"__slots__": (), "__setattr__": setattr_, "__delattr__": delattr_, "_frozen_from": cls},
        )
    return _frozen_classes[cls]


def _freeze(value: Any) -> Any:
    """`value` (already a private deep copy) made read-only in place; returns what replaces it."""
    if isinstance(value, ATOMS):
        return value
    if isinstance(value, list):
        return FrozenList(_freeze(item) for item in value)
    if isinstance(value, dict):
        return FrozenDict((key, _freeze(item)) for key, item in value.items())
    if isinstance(value, set):
        return FrozenSet(_freeze(item) for item in value)
    if isinstance(value, frozenset):
        return value
    if isinstance(value, tuple):
        items = [_freeze(item) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return type(value)._make(items) if hasattr(value, "_make") else type(value)(items)
    if _is_record(value):
        for name in _field_names(value):
            if hasattr(value, name):
                object.__setattr__(value, name, _freeze(getattr(value, name)))
        params = getattr(type(value), "__dataclass_params__", None)
        if not (dataclasses.is_dataclass(value) and params is not None and params.frozen):
            value.__class__ = _frozen_class(type(value))
        return value
    raise TypeError(f"frozen_copy() does not know how to freeze a {type(value).__qualname__}: add it")


def frozen_copy(state: Any) -> Any:
    """A deep copy of a native state on which any change (an attribute set or deleted, a list, dict or
    set changed in place) raises StateChanged, except filling in a memo field. Reading works as on
    the original; copies the engine makes of it (`state.copy()`, slices, `dict.copy()`) are ordinary,
    changeable values. TypeError for a state of compiled classes (see `compiled`)."""
    if compiled(state):
        raise TypeError(f"a {type(state).__qualname__} of compiled classes cannot be frozen")
    return _freeze(copy.deepcopy(state))
