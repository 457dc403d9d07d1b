"""The live table: the games in Redis and the one write path, shared by the gateway and the workers."""
