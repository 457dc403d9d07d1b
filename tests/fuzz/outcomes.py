"""What a fuzzed call may answer, and the tally of what each kind of request got.

The codes come from the error table of docs/errors.md, read here from the document itself (not from
the code that raises them), so a refusal whose reason is missing from the table, or whose code differs
from the table's, fails the test. A fuzzed request must never get UNKNOWN or INTERNAL, nor an outage
code: nothing is down while the fuzz runs, so UNAVAILABLE or DEADLINE_EXCEEDED means the request broke
or stalled something.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc

from services.common.status import error_info

ERRORS_DOC = Path(__file__).resolve().parents[2] / "docs" / "errors.md"
ROW = re.compile(r"^\| `(?P<reason>[A-Z_<>]+)` \| (?P<code>[^|]+) \|")
FIELD_REASON = "INVALID_<FIELD>"
RULES_REFUSED = "RULES_REFUSED"
# Codes a rules service's refusal may carry on through the gateway ("the rules service's code").
RULES_CODES = frozenset({"INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE"})
FORBIDDEN = frozenset(
    {
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.DATA_LOSS,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)
MESSAGE_LIMIT = 512  # bytes of UTF-8 a readable message may have (gateway refusals are clipped to it)
RPC_TIMEOUT = 10.0  # seconds any one fuzzed call may take


def error_table(text: str) -> dict[str, frozenset[str]]:
    """Reason -> the gRPC code names the table gives it, from the Markdown of docs/errors.md."""
    table: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        row = ROW.match(line)
        if row is None:
            continue
        code = row["code"].strip()
        if code.startswith("`"):
            table[row["reason"]] = frozenset({code.strip("`")})
        elif row["reason"] == RULES_REFUSED:
            table[row["reason"]] = RULES_CODES
    return table


TABLE = error_table(ERRORS_DOC.read_text())


def table_codes(reason: str) -> frozenset[str]:
    """The codes the error table allows for `reason` (INVALID_<FIELD> covers every INVALID_ reason
    of a request field); empty if the table does not have it."""
    if reason in TABLE:
        return TABLE[reason]
    if reason.startswith("INVALID_"):
        return TABLE[FIELD_REASON]
    return frozenset()


def readable(message: str) -> bool:
    """Whether a refusal's message is for a person: some words, printable, not a traceback, short."""
    return (
        bool(re.search(r"[A-Za-z]{2}", message))
        and message.isprintable()
        and "Traceback" not in message
        and "Exception" not in message
        and len(message.encode()) <= MESSAGE_LIMIT
    )


@dataclass(frozen=True)
class Outcome:
    """What a call answered: OK, or a refusal's code, ErrorInfo reason and message."""

    code: grpc.StatusCode
    reason: str = ""
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.code == grpc.StatusCode.OK

    @property
    def label(self) -> str:
        """The code name, and the reason of a refusal."""
        return "OK" if self.ok else f"{self.code.name} {self.reason}".strip()


def outcome_of(error: grpc.RpcError) -> Outcome:
    """The Outcome of a failed call."""
    info = error_info(error)
    return Outcome(error.code(), info.reason if info is not None else "", error.details() or "")


def check_refusal(outcome: Outcome, allowed: Iterable[str] = ()) -> None:
    """Fail unless a refusal has a code of the table for its reason and a readable message, and (when
    `allowed` names reasons) one of those reasons. A refusal by gRPC itself of an oversize message
    (RESOURCE_EXHAUSTED) carries no ErrorInfo."""
    assert outcome.code not in FORBIDDEN, f"{outcome.label}: {outcome.message}"
    if outcome.code == grpc.StatusCode.RESOURCE_EXHAUSTED and not outcome.reason:
        return
    codes = table_codes(outcome.reason)
    assert codes, (
        f"reason {outcome.reason!r} ({outcome.code.name}: {outcome.message}) is not in docs/errors.md"
    )
    assert outcome.code.name in codes, f"{outcome.label}: the table gives {sorted(codes)}"
    assert readable(outcome.message), f"{outcome.label}: unreadable message {outcome.message!r}"
    allowed = tuple(allowed)
    if allowed:
        assert outcome.reason in allowed, f"{outcome.label} ({outcome.message}), expected one of {allowed}"


class Tally:
    """Requests tried per kind and the outcomes they got, printed after the run."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()

    def add(self, kind: str, outcome: Outcome) -> None:
        self.counts[(kind, outcome.label)] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def rows(self) -> Iterator[str]:
        """The table: one line per kind with its total, then one per outcome it got."""
        kinds = sorted({kind for kind, _ in self.counts})
        width = max((len(kind) for kind in kinds), default=4)
        yield f"{'kind':<{width}}  {'tried':>6}  outcomes"
        for kind in kinds:
            got = sorted(
                ((label, n) for (k, label), n in self.counts.items() if k == kind), key=lambda x: -x[1]
            )
            tried = sum(n for _, n in got)
            yield f"{kind:<{width}}  {tried:>6}  " + ", ".join(f"{label} {n}" for label, n in got)
        codes: Counter[str] = Counter()
        for (_, label), n in self.counts.items():
            codes[label.split()[0]] += n
        yield f"{'all':<{width}}  {self.total:>6}  " + ", ".join(f"{c} {n}" for c, n in codes.most_common())


TALLY = Tally()

T = TypeVar("T")


def call(kind: str, method: Callable[..., T], request: Any, **kwargs: Any) -> tuple[Outcome, T | None]:
    """Call a unary method, count its outcome under `kind`, and fail on a forbidden code or a refusal
    outside the table; the response, or None if refused."""
    try:
        response = method(request, **kwargs)
    except grpc.RpcError as error:
        outcome = outcome_of(error)
        TALLY.add(kind, outcome)
        check_refusal(outcome)
        return outcome, None
    TALLY.add(kind, Outcome(grpc.StatusCode.OK))
    return Outcome(grpc.StatusCode.OK), response
