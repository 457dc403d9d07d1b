"""What every rules service shares: the game interface, errors, RNG, registry and the gRPC server."""
