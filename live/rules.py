"""The rules services the gateway talks to, found by asking each configured address for its GameInfo.

Nothing here names a game: a title is whatever a rules service says it is.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import grpc
from boardgame.rules.v1 import rules_pb2, rules_pb2_grpc

from live import balancing
from live.errors import GatewayError, not_found, unavailable

log = logging.getLogger(__name__)

# Codes a rules service returns for a bad request: passed on to the client as they are.
PASSED_ON = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.OUT_OF_RANGE,
}


@dataclass
class Title:
    """One title: its static facts and the stub of its rules service."""

    info: rules_pb2.GameInfo
    stub: rules_pb2_grpc.RulesServiceStub
    channel: grpc.aio.Channel
    timeout: float

    async def call(self, method: str, request: Any) -> Any:
        """Call a RulesService method; refusals keep their code, outages become UNAVAILABLE."""
        try:
            return await getattr(self.stub, method)(request, timeout=self.timeout)
        except grpc.aio.AioRpcError as error:
            if error.code() in PASSED_ON:
                raise GatewayError(
                    error.code(), _reason(error), error.details() or "refused by the rules"
                ) from error
            log.warning("rules service %s failed: %s %s", self.info.name, error.code(), error.details())
            raise unavailable(
                "RULES_UNAVAILABLE",
                f"the {self.info.display_name} rules service is unavailable; nothing was changed",
            ) from error


def _reason(error: grpc.aio.AioRpcError) -> str:
    from services.common.status import error_info

    info = error_info(error)
    return info.reason if info is not None else "RULES_REFUSED"


class RulesDirectory:
    """Title name -> rules service, filled by `connect`."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.titles: dict[str, Title] = {}

    async def connect(self, addresses: tuple[str, ...]) -> None:
        """Ask every address for its GameInfo, then dial one channel per title over all the addresses
        that serve it (`live.balancing`): a title may be listed several times, one address per
        replica, or once as dns:///NAME:PORT for a name that resolves to every replica."""
        infos: dict[str, rules_pb2.GameInfo] = {}
        served: dict[str, list[str]] = {}
        for address in addresses:
            async with grpc.aio.insecure_channel(address) as probe:
                response = await rules_pb2_grpc.RulesServiceStub(probe).GetGameInfo(
                    rules_pb2.GetGameInfoRequest(), timeout=self.timeout, wait_for_ready=True
                )
            infos[response.info.name] = response.info
            served.setdefault(response.info.name, []).append(address)
        for name, title_addresses in served.items():
            target = balancing.target(name, title_addresses)
            channel = grpc.aio.insecure_channel(target, options=balancing.CHANNEL_OPTIONS)
            stub = rules_pb2_grpc.RulesServiceStub(channel)
            self.titles[name] = Title(infos[name], stub, channel, self.timeout)
            log.info("rules service found", extra={"title": name, "target": target})

    def get(self, name: str) -> Title:
        """The title called `name`; NOT_FOUND if no rules service plays it."""
        title = self.titles.get(name)
        if title is None:
            raise not_found("title", name)
        return title

    async def close(self) -> None:
        """Close every channel."""
        for title in self.titles.values():
            await title.channel.close()
