"""CatalogService: the titles this gateway's rules services play."""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from gateway import auth
from gateway.errors import rpc
from live.table import Table


class CatalogService(gateway_pb2_grpc.CatalogServiceServicer):
    """Lists the titles with their static facts and options."""

    def __init__(self, app: Table) -> None:
        self.app = app

    @rpc
    async def ListTitles(
        self, request: gateway_pb2.ListTitlesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListTitlesResponse:
        """Every title, sorted by name."""
        await auth.authenticate(self.app, context)
        titles = sorted(self.app.rules.titles.values(), key=lambda title: title.info.name)
        return gateway_pb2.ListTitlesResponse(titles=[title.info for title in titles])


def add_to_server(app: Table, server: grpc.aio.Server) -> None:
    """Serve CatalogService on `server`."""
    gateway_pb2_grpc.add_CatalogServiceServicer_to_server(CatalogService(app), server)
