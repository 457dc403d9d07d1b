"""`python -m gateway` runs the gateway (see gateway.server)."""

from gateway.server import main

main()
