"""Requests to the rules services as the fuzz sends them: a state-carrying method's request around
given State and Action bytes, sent over gRPC and its refusal checked against the method's reasons."""

from __future__ import annotations

from typing import Any

import grpc
from boardgame.rules.v1 import rules_pb2, rules_pb2_grpc
from google.protobuf import any_pb2

from services.common import registry
from tests.fuzz.outcomes import RPC_TIMEOUT, call, check_refusal

STATE_METHODS = ("ListLegalActions", "ApplyAction", "GetView", "GetScores")

# What the rules may refuse a request with a bad state or seat for; a move also for the rules' reasons.
STATE_REFUSALS = ("MALFORMED_REQUEST",)
MOVE_REFUSALS = ("MALFORMED_REQUEST", "ILLEGAL_ACTION", "NOT_YOUR_TURN", "GAME_OVER")


def state_any(title: str, value: bytes) -> any_pb2.Any:
    """`value` packed as the title's State."""
    name = registry.get(title).messages.state.DESCRIPTOR.full_name
    return any_pb2.Any(type_url=f"type.googleapis.com/{name}", value=value)


def action_any(title: str, value: bytes) -> any_pb2.Any:
    """`value` packed as the title's Action."""
    name = registry.get(title).messages.action.DESCRIPTOR.full_name
    return any_pb2.Any(type_url=f"type.googleapis.com/{name}", value=value)


def request(method: str, state: any_pb2.Any, seat: int, action: any_pb2.Any | None) -> Any:
    """A request of a state-carrying RulesService method."""
    if method == "ListLegalActions":
        return rules_pb2.ListLegalActionsRequest(state=state, seat=seat)
    if method == "ApplyAction":
        return rules_pb2.ApplyActionRequest(state=state, seat=seat, action=action, include_views=True)
    if method == "GetView":
        return rules_pb2.GetViewRequest(state=state, seat=seat, include_legal_actions=True)
    return rules_pb2.GetScoresRequest(state=state)


def send(channels: dict[str, grpc.Channel], kind: str, title: str, method: str, message: Any) -> None:
    """Send one request to the title's rules service; refusals must be the method's."""
    stub = rules_pb2_grpc.RulesServiceStub(channels[title])
    outcome, _ = call(f"rules {kind}", getattr(stub, method), message, timeout=RPC_TIMEOUT)
    if not outcome.ok:
        check_refusal(outcome, MOVE_REFUSALS if method == "ApplyAction" else STATE_REFUSALS)
