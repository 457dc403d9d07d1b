"""The Golden City (Die Goldene Stadt): so far only its versioned data sets and their loader
(`services.goldencity.dataset`). The game is not registered yet: nothing generic sees this package."""
