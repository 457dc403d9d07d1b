"""The Golden City's data sets: the board, scoring cards, bonus cards and goods cards, which no public
source gives, so the engine takes them from versioned files rather than code (rules §12). A
transcription of a printed copy replaces the shipped reconstruction with no code change.

A data set is a directory of four JSON files (`DATA_FILES`): the board (regions, goods kinds, nodes,
roads, areas), then the scoring, bonus and goods cards, each under `cards`. Every file carries the
set's `data_version` (the same in all four), `reconstruction` (true while its contents are
placeholders) and `provenance` (where they come from). The directory's name is the set's name.
`load` refuses a set that breaks a schema rule or a rule of §12.3 with a `DataError` naming file,
field and rule of every problem (`services.goldencity.checks`).

Where sets are found: under this package's `data/` folder (the shipped `v0`, a RECONSTRUCTION) and
under the directory named by `GOLDENCITY_DATA_DIR`, where an operator installs more; a name found
in both is refused rather than one set shadowing the other. `load` also takes a directory path.
A table chooses its set with the game option `data_set`; the service's default is the set named by
`GOLDENCITY_DATA_SET` (else `v0`, `configured_name`).

Installing a set: copy `data/v0/` to `$GOLDENCITY_DATA_DIR/<name>/`, edit the files, give them a new
`data_version` and `provenance` (and `reconstruction: false` once the contents are checked against a
printed copy), then run `python -m services.goldencity.dataset <name>`, which prints the set's
summary or every problem found.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from services.goldencity import checks, parse
from services.goldencity.reader import DataError, Problem, read_json
from services.goldencity.records import DataSet
from services.goldencity.vocabulary import file_name

BOARD_FILE: Final = "golden_city_board.json"
SCORING_CARDS_FILE: Final = "golden_city_scoring_cards.json"
BONUS_CARDS_FILE: Final = "golden_city_bonus_cards.json"
GOODS_CARDS_FILE: Final = "golden_city_goods_cards.json"
DATA_FILES: Final = (BOARD_FILE, SCORING_CARDS_FILE, BONUS_CARDS_FILE, GOODS_CARDS_FILE)

PACKAGE_DATA: Final = Path(__file__).resolve().parent / "data"
DATA_DIR_ENV: Final = "GOLDENCITY_DATA_DIR"
DATA_SET_ENV: Final = "GOLDENCITY_DATA_SET"
DEFAULT_DATA_SET: Final = "v0"
SET_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # a name of at most 64 characters
# A refusal about finding a set rather than about one of its files.
RULE_DATA_SET: Final = "DATA_SET"


class DataWarning(UserWarning):
    """A data set loaded, with a notice its operator should read (§12.3's bonus totals)."""


def configured_name(environ: Mapping[str, str] | None = None) -> str:
    """The name of the data set the service plays with: GOLDENCITY_DATA_SET, else `v0`."""
    environ = os.environ if environ is None else environ
    return environ.get("GOLDENCITY_DATA_SET") or DEFAULT_DATA_SET


def _operator_dir(environ: Mapping[str, str]) -> Path | None:
    directory = environ.get("GOLDENCITY_DATA_DIR")
    if not directory:
        return None
    path = Path(directory)
    if not path.is_dir():
        raise DataError([Problem(DATA_DIR_ENV, "", RULE_DATA_SET, f"{directory} is not a directory")])
    return path


def installed(environ: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Every installed data set's name and directory: the package's and the operator's."""
    environ = os.environ if environ is None else environ
    found: dict[str, Path] = {}
    for root in (PACKAGE_DATA, _operator_dir(environ)):
        if root is None:
            continue
        for directory in sorted(root.iterdir()):
            if not (directory / BOARD_FILE).is_file() or not SET_NAME.fullmatch(directory.name):
                continue
            if directory.name in found:
                detail = f"installed twice, in {found[directory.name].parent} and {root}: rename one"
                raise DataError([Problem(directory.name, "", RULE_DATA_SET, detail)])
            found[directory.name] = directory
    return found


def available(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The names of the installed data sets, sorted."""
    return tuple(sorted(installed(environ)))


def load(name_or_path: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> DataSet:
    """The data set installed under that name, or in that directory, validated; DataError if refused.
    Warnings (§12.3's bonus totals) are issued as DataWarning and kept in `DataSet.warnings`."""
    if isinstance(name_or_path, os.PathLike) or not SET_NAME.fullmatch(name_or_path):
        directory = Path(name_or_path)
        if not directory.is_dir():
            raise DataError([Problem(str(directory), "", RULE_DATA_SET, "no data set directory here")])
    else:
        sets = installed(environ)
        if name_or_path not in sets:
            detail = f"no data set of that name (installed: {', '.join(sorted(sets))})"
            raise DataError([Problem(name_or_path, "", RULE_DATA_SET, detail)])
        directory = sets[name_or_path]
    data_set = _read(directory)
    for notice in data_set.warnings:
        warnings.warn(notice, DataWarning, stacklevel=2)
    return data_set


def _read(directory: Path) -> DataSet:
    board_source, board = parse.board_from(read_json(directory / BOARD_FILE))
    scoring_source, scoring_cards = parse.scoring_cards_from(read_json(directory / SCORING_CARDS_FILE), board)
    bonus_source, bonus_cards = parse.bonus_cards_from(read_json(directory / BONUS_CARDS_FILE), board)
    goods_source, goods_cards = parse.goods_cards_from(read_json(directory / GOODS_CARDS_FILE), board)
    sources = (board_source, scoring_source, bonus_source, goods_source)
    problems = [
        *checks.board_problems(BOARD_FILE, board),
        *checks.scoring_card_problems(SCORING_CARDS_FILE, scoring_cards),
        *checks.bonus_card_problems(BONUS_CARDS_FILE, bonus_cards),
        *checks.goods_card_problems(GOODS_CARDS_FILE, goods_cards),
        *checks.version_problems(sources),
    ]
    if problems:
        raise DataError(problems)
    return DataSet(
        name=directory.name,
        data_version=board_source.data_version,
        reconstruction=any(source.reconstruction for source in sources),
        sources=sources,
        board=board,
        scoring_cards=scoring_cards,
        bonus_cards=bonus_cards,
        goods_cards=goods_cards,
        warnings=tuple(str(notice) for notice in checks.bonus_total_warnings(BOARD_FILE, board)),
    )


def summary(data_set: DataSet) -> str:
    """A few lines saying what a loaded data set holds."""
    board = data_set.board
    kinds = ", ".join(f"{file_name(kind)} {count}" for kind, count in sorted(board.bonus_totals().items()))
    return "\n".join(
        [
            f"{data_set.name}: data_version {data_set.data_version}, "
            f"reconstruction {data_set.reconstruction}",
            f"board: {len(board.places)} nodes, {len(board.roads)} roads, {len(board.areas)} areas",
            f"place bonuses: {kinds}",
            f"cards: {len(data_set.scoring_cards)} scoring, {len(data_set.bonus_cards)} bonus, "
            f"{len(data_set.goods_cards)} goods",
            *data_set.warnings,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Check the data sets named (or the configured one) and print each one's summary or problems."""
    names = sys.argv[1:] if argv is None else argv
    status = 0
    for name in names or [configured_name()]:
        try:
            print(summary(load(name)))
        except DataError as error:
            print(error, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
