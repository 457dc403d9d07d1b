"""The gateway as `bg` calls it: stubs over one channel, the saved token, and a call that waits and
tries again when the gateway refuses it for the rate limit (RESOURCE_EXHAUSTED, reason RATE_LIMITED)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, TypeVar

import grpc
import icu
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from boardgame.rules.v1 import rules_pb2
from google.protobuf.message import Message

from cli.render import unpack
from cli.status import error_info
from i18n.data_texts import translated
from i18n.messages import DEFAULT_LOCALE, LOCALE_TAG, Catalog

RATE_LIMITED = "RATE_LIMITED"
RETRY_AFTER_KEY = "retry_after_ms"  # ErrorInfo metadata: how long to wait before the next call
DEFAULT_RETRY_AFTER_MS = 1000
MAX_RATE_LIMIT_RETRIES = 10
PROBE_TIMEOUT_SECONDS = 5.0  # how long to wait for a gateway's answer to tell "down" from "not signed in"

R = TypeVar("R")


def environment_locale() -> str:
    """The locale of the environment's messages ($LC_ALL, $LC_MESSAGES, then $LANG, such as
    "zh_TW.UTF-8" -> "zh_TW"); "" for none, "C" or "POSIX"."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").split(".")[0].split("@")[0]
        if value in ("C", "POSIX"):
            return ""
        if value and LOCALE_TAG.match(value):
            return value
    return ""


class Quit(Exception):
    """The person asked to stop, or input ended."""


class NotSignedIn(Exception):
    """A call needs a session, and there is none for this gateway."""


def retry_after(error: grpc.RpcError) -> float | None:
    """Seconds to wait before trying a call refused for the rate limit again; None for any other error."""
    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    info = error_info(error)
    if info is None or info.reason != RATE_LIMITED:
        return None
    wait_ms = info.metadata.get(RETRY_AFTER_KEY, "")
    return (int(wait_ms) if wait_ms.isdigit() else DEFAULT_RETRY_AFTER_MS) / 1000


@dataclass
class Client:
    """Stubs of the gateway services over one channel, with the saved token."""

    address: str
    token: str
    out: IO[str]
    inp: IO[str]
    waits: list[float] = field(default_factory=list)  # the rate-limit waits taken, for people and tests
    data: dict[str, Message | None] = field(default_factory=dict)  # each title's static data, once fetched
    lang: str = ""  # the locale asked for with --lang ("": the account's, then $LANG's, then English)
    catalogs: dict[str, Catalog | None] = field(default_factory=dict)  # each title's catalog, once fetched

    def __post_init__(self) -> None:
        self.channel = grpc.insecure_channel(self.address)
        self.accounts = gateway_pb2_grpc.AccountServiceStub(self.channel)
        self.catalog = gateway_pb2_grpc.CatalogServiceStub(self.channel)
        self.lobbies = gateway_pb2_grpc.LobbyServiceStub(self.channel)
        self.games = gateway_pb2_grpc.GameServiceStub(self.channel)
        self.leaderboard = gateway_pb2_grpc.LeaderboardServiceStub(self.channel)
        self.matches = gateway_pb2_grpc.MatchServiceStub(self.channel)

    @property
    def auth(self) -> tuple[tuple[str, str], ...]:
        """Call metadata with the bearer token; NotSignedIn without one."""
        if not self.token:
            raise NotSignedIn
        return (("authorization", f"Bearer {self.token}"),)

    def unreachable(self) -> grpc.RpcError | None:
        """Why no gateway answers at the address (UNAVAILABLE, or no answer in time); None when one
        does, with any answer (to this call without a token, a refusal)."""
        try:
            self.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), timeout=PROBE_TIMEOUT_SECONDS)
        except grpc.RpcError as error:
            if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                return error
        return None

    def title_data(self, title: str) -> Message | None:
        """The title's static data message (CatalogService.GetTitleData), asked for once per title,
        its words in the caller's locale (`i18n.data_texts`); None when the gateway has none for it or
        its type is not one `bg` was built with."""
        if title not in self.data:
            try:
                request = gateway_pb2.GetTitleDataRequest(title=title)
                packed = self.call(self.catalog.GetTitleData, request).data.data
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.NOT_FOUND:
                    raise
                self.data[title] = None
            else:
                data = unpack(packed) if packed.type_url else None
                if data is not None and self.locale() != DEFAULT_LOCALE:
                    data = translated(data, lambda text: self.term(title, text))
                self.data[title] = data
        return self.data[title]

    def locale(self) -> str:
        """The locale texts are shown in: --lang, else the account's (GetMe), else $LANG's, else "en"."""
        if not self.lang:
            account = ""
            if self.token:
                try:
                    account = self.call(self.accounts.GetMe, gateway_pb2.GetMeRequest()).locale
                except grpc.RpcError:
                    account = ""
            self.lang = account or environment_locale() or DEFAULT_LOCALE
        return self.lang

    def words(self, title: str, english: str, message: rules_pb2.Text) -> str:
        """A label or event text in the caller's locale, rendered from its Text with the title's
        catalog (CatalogService.GetCatalog); the English as sent when there is no Text or catalog."""
        if not message.template or self.locale() == DEFAULT_LOCALE:
            return english
        return self.term(title, message) or english

    def term(self, title: str, message: rules_pb2.Text) -> str | None:
        """A message of the title's catalog in the caller's locale, English too (an option's label or
        choice, which the API sends only as an id); None when there is no catalog or no such message."""
        catalog = self.title_catalog(title)
        if catalog is None:
            return None
        try:
            return catalog.render(message)
        except (KeyError, icu.ICUError):
            return None

    def title_catalog(self, title: str) -> Catalog | None:
        """The title's catalog in the caller's locale (CatalogService.GetCatalog), fetched once; None
        for a title without catalogs."""
        if title not in self.catalogs:
            try:
                request = gateway_pb2.GetCatalogRequest(title=title, locale=self.locale())
                served = self.call(self.catalog.GetCatalog, request).catalog
            except grpc.RpcError as error:
                if error.code() not in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
                    raise
                self.catalogs[title] = None
            else:
                self.catalogs[title] = Catalog(served.locale, dict(served.messages))
        return self.catalogs[title]

    def call(self, method: Callable[..., R], request: Any, *, signed_in: bool = True) -> R:
        """`method(request)` with the token; after a rate-limit refusal, wait as told and try again."""
        metadata = self.auth if signed_in else ()
        attempt = 0
        while True:
            try:
                return method(request, metadata=metadata)
            except grpc.RpcError as error:
                self._wait_out(error, attempt)
                attempt += 1

    def watch(self, game_id: str) -> Iterator[gateway_pb2.WatchGameResponse]:
        """The game's watch stream, from its current view on; reopened after a rate-limit refusal from
        the last version received."""
        seen = attempt = 0
        while True:
            try:
                request = gateway_pb2.WatchGameRequest(game_id=game_id, from_version=seen)
                for change in self.games.WatchGame(request, metadata=self.auth):
                    if change.HasField("game"):
                        seen, attempt = change.game.version, 0
                    yield change
                return
            except grpc.RpcError as error:
                self._wait_out(error, attempt)
                attempt += 1

    def games_stream(self, method: Callable[..., Iterator[R]], request: Any) -> Iterator[R]:
        """A server stream opened with the token (again after a rate-limit refusal at its opening)."""
        attempt = 0
        while True:
            try:
                yield from method(request, metadata=self.auth)
                return
            except grpc.RpcError as error:
                self._wait_out(error, attempt)
                attempt += 1

    def _wait_out(self, error: grpc.RpcError, attempt: int) -> None:
        """Sleep as long as a rate-limit refusal asks; raise any other error, or after too many tries."""
        wait = retry_after(error)
        if wait is None or attempt >= MAX_RATE_LIMIT_RETRIES:
            raise error
        self.waits.append(wait)
        time.sleep(wait)

    def say(self, text: str = "") -> None:
        """Print a line."""
        print(text, file=self.out, flush=True)
