"""Reading a data file's JSON with its place in the file known, so every refusal names the file, the
field (a path such as `nodes[12].bonus.type`) and the rule broken."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any, Final, TypeVar

from services.goldencity.vocabulary import file_name

E = TypeVar("E", bound=IntEnum)

# Schema rules (the §12.3 rules are named in services.goldencity.board_rules).
FILE: Final = "FILE"  # the file exists and is JSON
REQUIRED: Final = "REQUIRED"  # a required field is present
UNKNOWN_FIELD: Final = "UNKNOWN_FIELD"  # no field outside the schema
TYPE: Final = "TYPE"  # a field has its schema type
CHOICE: Final = "CHOICE"  # a field holds one of its allowed values
UNIQUE: Final = "UNIQUE"  # ids, names and object keys appear once
REFERENCE: Final = "REFERENCE"  # a reference to another entry resolves


@dataclass(frozen=True)
class Problem:
    """One broken rule: in which file, at which field, which rule, and what was found."""

    file: str
    field: str
    rule: str
    detail: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.field}" if self.field else self.file
        return f"{where}: {self.detail} [rule {self.rule}]"


class DataError(ValueError):
    """A data set refused: every problem found, each naming file, field and rule."""

    def __init__(self, problems: Collection[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


class _Keys(dict[str, Any]):
    """A JSON object whose source repeated some keys (json keeps only the last one silently)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.repeated: tuple[str, ...] = ()


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = _Keys(pairs)
    if len(found) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        found.repeated = tuple(key for key, count in counts.items() if count > 1)
    return found


def read_json(path: Path) -> Node:
    """The root of the JSON file at `path`; DataError if it is missing or not JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError([Problem(path.name, "", FILE, f"the file is missing from {path.parent}")]) from None
    try:
        value = json.loads(text, object_pairs_hook=_object_pairs, parse_constant=_refuse_constant)
    except ValueError as error:
        raise DataError([Problem(path.name, "", FILE, f"not valid JSON: {error}")]) from None
    return Node(path.name, "", value)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


@dataclass(frozen=True)
class Node:
    """One JSON value of a data file and the path that leads to it."""

    file: str
    path: str
    value: Any

    def problem(self, rule: str, detail: str) -> Problem:
        """A problem at this node."""
        return Problem(self.file, self.path or "(top level)", rule, detail)

    def fail(self, rule: str, detail: str) -> DataError:
        """The refusal of this node."""
        return DataError([self.problem(rule, detail)])

    def _child(self, key: str | int) -> Node:
        path = f"{self.path}[{key}]" if isinstance(key, int) else f"{self.path}.{key}" if self.path else key
        return Node(self.file, path, self.value[key])

    def fields(self, required: Collection[str], optional: Collection[str] = ()) -> dict[str, Node]:
        """This object's fields: all of `required`, any of `optional`, nothing else."""
        unknown = [key for key in self._object() if key not in required and key not in optional]
        if unknown:
            allowed = ", ".join(sorted([*required, *optional]))
            raise self._child(unknown[0]).fail(UNKNOWN_FIELD, f"unknown field (the fields are: {allowed})")
        missing = [key for key in required if key not in self.value]
        if missing:
            raise self.fail(REQUIRED, f"the required field {missing[0]!r} is missing")
        return {key: self._child(key) for key in self.value}

    def field(self, name: str) -> Node:
        """This object's required field `name`, whatever its other fields."""
        if name not in self._object():
            raise self.fail(REQUIRED, f"the required field {name!r} is missing")
        return self._child(name)

    def entries(self) -> list[tuple[str, Node]]:
        """This object's keys and values, whatever the keys."""
        return [(key, self._child(key)) for key in self._object()]

    def _object(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail(TYPE, f"expected an object, found {_kind(self.value)}")
        if isinstance(self.value, _Keys) and self.value.repeated:
            raise self.fail(UNIQUE, f"the key {self.value.repeated[0]!r} appears more than once")
        return self.value

    def items(self) -> list[Node]:
        """This list's items."""
        if not isinstance(self.value, list):
            raise self.fail(TYPE, f"expected a list, found {_kind(self.value)}")
        return [self._child(index) for index in range(len(self.value))]

    def text(self) -> str:
        """This non-empty string."""
        if not isinstance(self.value, str):
            raise self.fail(TYPE, f"expected a string, found {_kind(self.value)}")
        if not self.value.strip():
            raise self.fail(TYPE, "expected a non-empty string")
        return self.value

    def integer(self) -> int:
        """This integer (a boolean is not one)."""
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail(TYPE, f"expected an integer, found {_kind(self.value)}")
        return self.value

    def flag(self) -> bool:
        """This boolean."""
        if not isinstance(self.value, bool):
            raise self.fail(TYPE, f"expected true or false, found {_kind(self.value)}")
        return self.value

    def choice(self, enum: type[E]) -> E:
        """The member of `enum` this string names."""
        names = {file_name(member): member for member in enum}
        text = self.text()
        if text not in names:
            raise self.fail(CHOICE, f"{text!r} is not one of {', '.join(names)}")
        return names[text]

    def lookup(self, table: dict[str, int], what: str, rule: str = REFERENCE) -> int:
        """The id that `table` gives this string, a reference to one of `what`."""
        text = self.text()
        if text not in table:
            raise self.fail(rule, f"{text!r} is not one of the {what}")
        return table[text]


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    kinds = {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def unique_names(nodes: list[Node], what: str) -> dict[str, int]:
    """Each string of `nodes` to its 1-based position; DataError if one repeats."""
    table: dict[str, int] = {}
    for node in nodes:
        name = node.text()
        if name in table:
            raise node.fail(UNIQUE, f"{what} {name!r} appears more than once")
        table[name] = len(table) + 1
    return table
