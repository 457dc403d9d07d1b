"""The conformance suite run against every registered game, in-process and over gRPC."""
