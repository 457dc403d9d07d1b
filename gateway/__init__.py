"""The gateway: accounts, lobbies and live play for clients, on Redis and the rules services."""
