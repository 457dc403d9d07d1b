"""A process of searchers: `python -m tests.matchmaking.searchers JOB` reads the JSON file JOB (gateway
addresses, tokens, the FindMatchRequest fields), starts every player's FindMatch at once (one thread
each, players spread over the gateways), and prints each stream's last message as JSON."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from google.protobuf import json_format

from tests.gateway.patience import rate_limit_delay

MAX_ATTEMPTS = 100


def search(address: str, token: str, request: gateway_pb2.FindMatchRequest, go: threading.Event) -> Any:
    """The last message of one player's search (retried while it is refused as RATE_LIMITED)."""
    with grpc.insecure_channel(address) as channel:
        stub = gateway_pb2_grpc.MatchServiceStub(channel)
        go.wait()
        for _ in range(MAX_ATTEMPTS):
            try:
                *_, last = stub.FindMatch(request, metadata=(("authorization", f"Bearer {token}"),))
                return json_format.MessageToDict(last, preserving_proto_field_name=True)
            except grpc.RpcError as error:
                delay = rate_limit_delay(error)
                if delay is None:
                    return {"error": f"{error.code().name}: {error.details()}"}
                time.sleep(delay)
        return {"error": "rate limited every time"}


def main() -> None:
    with open(sys.argv[1]) as job_file:
        job = json.load(job_file)
    request = json_format.ParseDict(job["request"], gateway_pb2.FindMatchRequest())
    results: dict[str, Any] = {}
    go = threading.Event()

    def run(index: int, player_id: str, token: str) -> None:
        results[player_id] = search(job["gateways"][index % len(job["gateways"])], token, request, go)

    threads = [
        threading.Thread(target=run, args=(index, player_id, token))
        for index, (player_id, token) in enumerate(job["players"].items())
    ]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join()
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
