"""The gateway's and workers' Redis connections: a write that meets its connection closed under it (a
concurrent disconnect, as the cluster client does while it reloads its slot map) fails as a
ConnectionError, which redis-py retries, never as the AttributeError of asyncio's torn-down writer,
which reached clients as INTERNAL (a burst of CreateGuest on a Cluster did), nor as uvloop's
RuntimeError on a transport closed under it (a watch stream's clean-up after Redis went away); and
a command whose task is cancelled as its write completes is cancelled, not answered (Python 3.11's
asyncio.wait_for, which redis-py bounds each write with, lost such a cancellation)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis
import uvloop
from redis.exceptions import ConnectionError as RedisConnectionError

from live.connection import Connection, async_client, node_url
from live.settings import Settings


async def write_while_closed(connection_class: type[aioredis.Connection], url: str) -> BaseException | None:
    """What a PING written while another task disconnects the connection raises (its write is
    scheduled as a task of its own when the connection has a socket timeout, so the disconnect runs
    between the check that the connection is open and the write)."""
    pool = aioredis.ConnectionPool.from_url(
        node_url(url), connection_class=connection_class, socket_timeout=5
    )
    connection = pool.make_connection()
    await connection.connect()
    outcomes = await asyncio.gather(
        connection.send_packed_command(connection.pack_command("PING")),
        connection.disconnect(nowait=True),  # as on an error elsewhere: closed without waiting
        return_exceptions=True,
    )
    await connection.disconnect()
    await pool.aclose()
    return outcomes[0] if isinstance(outcomes[0], BaseException) else None


@pytest.mark.redis_modes("single")
def test_a_write_meeting_its_connection_closed_is_a_connection_error(redis_url: str) -> None:
    plain = asyncio.run(write_while_closed(aioredis.Connection, redis_url))
    assert isinstance(plain, AttributeError | TypeError), f"redis-py's own connection raised {plain!r}"
    ours = asyncio.run(write_while_closed(Connection, redis_url))
    assert isinstance(ours, RedisConnectionError), ours
    assert "closed while writing" in str(ours)


async def write_on_a_closed_transport(
    connection_class: type[aioredis.Connection], url: str
) -> BaseException | None:
    """What a PING written on a connection whose transport closed without redis-py hearing of it
    raises (as a pub/sub connection's did, told to unsubscribe after Redis went away)."""
    pool = aioredis.ConnectionPool.from_url(node_url(url), connection_class=connection_class)
    connection = pool.make_connection()
    await connection.connect()
    connection._writer.transport.close()  # type: ignore[attr-defined]
    await asyncio.sleep(0.1)  # the loop closes the transport's handle
    try:
        await connection.send_packed_command(connection.pack_command("PING"), check_health=False)
    except Exception as error:
        return error
    finally:
        await connection.disconnect()
        await pool.aclose()
    return None


@pytest.mark.redis_modes("single")
def test_a_write_on_a_transport_closed_under_it_on_the_gateways_loop_is_a_connection_error(
    redis_url: str,
) -> None:
    plain = uvloop.run(write_on_a_closed_transport(aioredis.Connection, redis_url))
    assert isinstance(plain, RuntimeError), f"redis-py's own connection raised {plain!r}"
    ours = uvloop.run(write_on_a_closed_transport(Connection, redis_url))
    assert isinstance(ours, RedisConnectionError), ours
    assert "the connection was closed" in str(ours)


class CancelledAsWritten:
    """A connection on which, once `armed`, the task sending the next command is cancelled just as
    the command's write completes: where more than half of the cancellations that came while a
    command ran did come."""

    armed = False
    caller: asyncio.Task[Any] | None = None

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        self.caller = asyncio.current_task()
        await super().send_packed_command(command, check_health)  # type: ignore[misc]

    async def _send_packed_command(self, command: Any) -> None:
        await super()._send_packed_command(command)  # type: ignore[misc]
        if type(self).armed and self.caller is not None:
            type(self).armed = False
            self.caller.cancel()


async def cancelled_as_written(connection_class: type[aioredis.Connection], url: str) -> tuple[str, str]:
    """What a SET cancelled as its write completes did (`cancelled` or `answered`), on a client of the
    settings a user gets but for its connections, then what a GET on the same client answers."""
    probe = type("Probe", (CancelledAsWritten, connection_class), {})
    pool = aioredis.ConnectionPool.from_url(node_url(url), connection_class=probe, max_connections=1)
    client = aioredis.Redis.from_pool(pool)
    await client.set("cancelled-as-written", "before")
    probe.armed = True
    try:
        outcome = "answered" if await asyncio.create_task(client.set("cancelled-as-written", "after")) else ""
    except asyncio.CancelledError:
        outcome = "cancelled"
    try:
        return outcome, (await client.get("cancelled-as-written")).decode()
    finally:
        await client.aclose()


@pytest.mark.redis_modes("single")
def test_a_command_cancelled_as_its_write_completes_is_cancelled(redis_url: str) -> None:
    plain = asyncio.run(cancelled_as_written(aioredis.Connection, redis_url))
    assert plain == ("answered", "after"), f"redis-py's own connection: {plain}"
    # Cancelled, and the connection that carried the unread reply is closed, so the next command
    # reads its own reply.
    assert asyncio.run(cancelled_as_written(Connection, redis_url)) == ("cancelled", "after")


async def connection_classes(url: str) -> set[type]:
    client = async_client(Settings(redis_url=url))
    try:
        await client.ping()
        if hasattr(client, "get_nodes"):  # a Cluster: every node it found
            return {node.connection_class for node in client.get_nodes()}
        return {client.connection_pool.connection_class}
    finally:
        await client.aclose()


def test_every_connection_of_the_clients_is_of_that_kind(redis_url: str) -> None:
    assert asyncio.run(connection_classes(redis_url)) == {Connection}
