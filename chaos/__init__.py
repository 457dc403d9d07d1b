"""Chaos runs (`make chaos`): the backend's real processes under the local launcher, played on by bots
and scripted clients through the gateway API while processes are killed with kill -9, then checked for
anything lost or applied twice (`chaos.tournament`); or a soak at a steady load (`chaos.soak`)."""

import os

# The launcher forks the processes from a thread of a process that has gRPC channels open: gRPC's fork
# handlers would only say, at every start, that they skip.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
