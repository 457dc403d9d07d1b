"""Final scoring (§7.2): VP chips, printed building VP, large-building bonuses; tie-break and ranks."""

from __future__ import annotations

from typing import Final

from services.common.game import Scores, ranked_scores
from services.puertorico.data import (
    BUILDINGS,
    CITY_HALL,
    CLOISTER,
    CLOISTER_COUNTS_UNOCCUPIED,
    CLOISTER_KIND_SETS,
    CLOISTER_SET_SIZE,
    CLOISTER_TABLE,
    CUSTOMS_HOUSE,
    CUSTOMS_HOUSE_VP_PER_VP,
    FOREST,
    FORTRESS,
    FORTRESS_COLONISTS_PER_VP,
    GUILD_HALL,
    GUILD_HALL_LARGE,
    GUILD_HALL_SMALL,
    RESIDENCE,
    RESIDENCE_BONUS,
    RESIDENCE_MIN_BONUS,
)
from services.puertorico.labels import CATALOGS
from services.puertorico.labels import building as building_term
from services.puertorico.state import Config, Player, State


def _guild_hall(player: Player) -> int:
    """+1 per small and +2 per large production building, occupied or not (ruling 29)."""
    total = 0
    for building in player.buildings:
        info = BUILDINGS[building]
        if not info.violet:
            total += GUILD_HALL_LARGE if info.large_production else GUILD_HALL_SMALL
    return total


def _residence(player: Player) -> int:
    """By filled island spaces, forests included: <=9 -> 4, 10 -> 5, 11 -> 6, 12 -> 7."""
    return RESIDENCE_BONUS.get(player.island_used(), RESIDENCE_MIN_BONUS)


def _fortress(player: Player) -> int:
    """+1 per 3 colonists on the board, San Juan included."""
    return player.colonists() // FORTRESS_COLONISTS_PER_VP


def _customs_house(player: Player) -> int:
    """+1 per 4 VP held as chips, VP beyond the pool included (OP-18)."""
    return player.vp // CUSTOMS_HOUSE_VP_PER_VP


def _city_hall(player: Player) -> int:
    """+1 per violet building owned, itself included."""
    return sum(1 for building in player.buildings if BUILDINGS[building].violet)


def _cloister(player: Player, config: Config) -> int:
    """Sets of 3 island tiles of one kind (by default quarries and forests are kinds; OP-11): 1/3/6/10 VP."""
    counts = player.tiles if CLOISTER_COUNTS_UNOCCUPIED else [*player.occupied, player.tiles[FOREST]]
    sets = sum(counts[kind] // CLOISTER_SET_SIZE for kind in CLOISTER_KIND_SETS[config.cloister_kinds])
    return CLOISTER_TABLE[min(sets, len(CLOISTER_TABLE) - 1)]


LARGE_BUILDING_BONUS: Final = (
    (GUILD_HALL, _guild_hall),
    (RESIDENCE, _residence),
    (FORTRESS, _fortress),
    (CUSTOMS_HOUSE, _customs_house),
    (CITY_HALL, _city_hall),
)


_ = CATALOGS.message
# The score lines' names without arguments (the same for every score).
VP_CHIPS_LINE: Final = _("puertorico.score.vp_chips")
BUILDINGS_LINE: Final = _("puertorico.score.buildings")


def score_items(player: Player, config: Config) -> list[tuple[str, int]]:
    """The lines of a player's score; large-building bonuses only when occupied (ruling 25)."""
    items: list[tuple[str, int]] = [
        (VP_CHIPS_LINE, player.vp),
        (BUILDINGS_LINE, sum(BUILDINGS[b].vp for b in player.buildings)),
    ]
    for large, bonus in LARGE_BUILDING_BONUS:
        if player.has(large):
            items.append((_("puertorico.score.building", building=building_term(large)), bonus(player)))
    if player.has(CLOISTER):
        cloister = _("puertorico.score.building", building=building_term(CLOISTER))
        items.append((cloister, _cloister(player, config)))
    return items


def tiebreak(player: Player) -> int:
    """Doubloons plus goods, one good counting as one doubloon."""
    return player.doubloons + sum(player.goods)


def final_scores(state: State) -> Scores:
    """Scores for every seat; winners and shared ranks once the game is over (OP-2: shared victory)."""
    rows = []
    for player in state.players:
        items = score_items(player, state.config)
        rows.append((sum(points for _, points in items), tuple(items), tiebreak(player)))
    return ranked_scores(rows, state.terminal)
