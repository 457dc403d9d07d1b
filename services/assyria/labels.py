"""Readable labels for actions and texts for events: what a client shows its players."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria import feeding
from services.assyria.assur import COST, INFLUENCE
from services.assyria.board import HEX_FOOD, HEX_REGION, SITE_HEXES, coords
from services.assyria.cards import (
    CARD_COST,
    CARD_FOOD,
    CARD_SYMBOLS,
    FOOD_NAMES,
    NO_CARD,
    WILD_CARD,
    card_name,
)
from services.assyria.data import OFFERING_MULT, PLOW_COST, WELL_VP, Dignitary, Region
from services.assyria.purchases import leftover_card
from services.assyria.state import State
from services.assyria.ziggurats import BASE_COST, PIECE_COST
from services.common.helpers import plural

REGION_WORDS = {
    Region.OUTSIDE: "outside the rivers",
    Region.RIVER_1: "on river 1",
    Region.RIVER_2: "on river 2",
    Region.INSIDE: "between the rivers",
}
DIGNITARY_NAMES = {int(d): d.name.lower() for d in Dignitary}
PIECE_NAMES = ("", "base", "centre", "roof")


def at(hex_number: int) -> str:
    """A hex's coordinates: "(3,1)"."""
    q, r = coords(hex_number)
    return f"({q},{r})"


def hex_name(hex_number: int) -> str:
    """A hex in words: "the salt hex at (3,1), on river 1"."""
    food = FOOD_NAMES[HEX_FOOD[hex_number]]
    return f"the {food} hex at {at(hex_number)}, {REGION_WORDS[Region(HEX_REGION[hex_number])]}"


def site_name(site: int) -> str:
    """A well site as the corner of its 3 hexes."""
    a, b, c = (at(h) for h in SITE_HEXES[site])
    return f"the corner of {a}, {b} and {c}"


def cards_text(cards: list[int] | tuple[int, ...]) -> str:
    """Cards in words."""
    present = [card_name(c) for c in cards if c != NO_CARD]
    return " + ".join(present) if present else "no cards"


def _camels(count: int) -> str:
    return plural(count, "camel")


def _feed_card(state: State, card: int) -> str:
    unfed = feeding.unfed_huts(state, state.actor)
    if card == WILD_CARD:
        return f"Play a wild card: feeds any 1 hut ({len(unfed)} unfed)"
    food = CARD_FOOD[card]
    matching = sum(1 for h in unfed if HEX_FOOD[h] == food)
    return (
        f"Play a {card_name(card)}: feeds up to {CARD_SYMBOLS[card]} huts on {FOOD_NAMES[food]} hexes"
        f" ({matching} unfed)"
    )


def label(state: State, action: act.Action) -> str:
    """What a legal action does, in the words of the game."""
    kind, a = action
    player = state.players[state.actor]
    if kind == act.CHOOSE_START_SPACE:
        return f"Start on {hex_name(a)}: your first ziggurat base"
    if kind == act.DRAFT_CARD:
        return f"Take the {card_name(a)}"
    if kind == act.TAKE_COLUMN:
        cards = cards_text((state.sowing_row_1[a], state.sowing_row_2[a]))
        return f"Take column {a + 1}: {cards}"
    if kind == act.PLACE_HUT:
        return f"Place a hut on {hex_name(a)} ({plural(state.huts_to_place, 'hut')} left to place)"
    if kind == act.STOP_PLACING:
        return "Place no more huts"
    if kind == act.PLAY_CARD:
        return _feed_card(state, a)
    if kind == act.PLAY_PLOW:
        return "Play your plow card: feeds any 1 hut"
    if kind == act.FEED_HUT:
        return f"Feed your hut on {hex_name(a)}"
    if kind == act.CLOSE_CARD:
        return f"Leave the card's last {plural(state.feeding_symbols, 'symbol')} unused"
    if kind == act.END_FEEDING:
        unfed = len(feeding.unfed_huts(state, state.actor))
        verbs = "starves and returns" if unfed == 1 else "starve and return"
        return f"Stop feeding: {plural(unfed, 'unfed hut')} {verbs} to your stock"
    if kind == act.BUILD_WELL:
        return f"Build a well at {site_name(a)} for {WELL_VP[state.reign - 1]} VP"
    if kind == act.END_WELLS:
        return "Build no more wells"
    if kind == act.BUILD_BASE:
        cost = _camels(BASE_COST)
        return f"Build a ziggurat base on your hut at {hex_name(a)} ({cost}; the hut returns to stock)"
    if kind == act.RAISE_ZIGGURAT:
        height = state.ziggurat_heights[a] + 1
        return f"Add a {PIECE_NAMES[height]} to your ziggurat at {at(a)} ({_camels(PIECE_COST[height])})"
    if kind == act.INTRIGUE:
        return (
            f"Send a hut to the {DIGNITARY_NAMES[a]} dignitary of Assur ({_camels(COST[a])};"
            f" influence {INFLUENCE[a]})"
        )
    if kind == act.MAKE_OFFERING:
        position = player.offerings + 1
        return f"Make an offering: disc to {position}, x{OFFERING_MULT[position]} per ziggurat (1 camel)"
    if kind == act.BUY_PLOW:
        return f"Buy a plow card ({_camels(PLOW_COST)})"
    if kind == act.BUY_FOOD_CARD:
        card = leftover_card(state, a)
        return f"Buy the leftover {card_name(card)} of row {a} ({_camels(CARD_COST[card])})"
    return "End your actions"


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """One readable sentence for an event."""
    seat = f"Seat {event.seat}" if hasattr(event, "seat") else ""
    e = event
    if isinstance(e, ev.GameStarted):
        return "The game begins; turn order: " + ", ".join(f"seat {s}" for s in e.turn_order)
    if isinstance(e, ev.StartSpaceChosen):
        return f"{seat} starts on {hex_name(e.hex)}"
    if isinstance(e, ev.CardDrafted):
        return f"{seat} drafted a {card_name(e.card)}"
    if isinstance(e, ev.FoodDeckReshuffled):
        return f"The food discards were shuffled into a new deck of {e.cards} cards"
    if isinstance(e, ev.RowsSown):
        return f"Turn {e.turn} sowing: row 1 {cards_text(e.sowing_row_1)}; row 2 {cards_text(e.sowing_row_2)}"
    if isinstance(e, ev.ColumnTaken):
        return f"{seat} took column {e.column + 1}: {cards_text(e.cards)}"
    if isinstance(e, ev.TurnOrderSet):
        return "New turn order: " + ", ".join(f"seat {s}" for s in e.turn_order)
    if isinstance(e, ev.HutPlaced):
        return f"{seat} placed a hut on {hex_name(e.hex)}"
    if isinstance(e, ev.CardPlayed):
        return f"{seat} played {'a plow card' if e.card == NO_CARD else 'a ' + card_name(e.card)}"
    if isinstance(e, ev.HutFed):
        return f"{seat} fed the hut at {at(e.hex)}"
    if isinstance(e, ev.HutsStarved):
        return f"{seat} lost {plural(len(e.hexes), 'unfed hut')}: " + ", ".join(at(h) for h in e.hexes)
    if isinstance(e, ev.WellBuilt):
        return f"{seat} built a well at {site_name(e.site)} for {e.vp} VP"
    if isinstance(e, ev.RevenueGained):
        lost = f" ({e.camels_lost} lost)" if e.camels_lost else ""
        return f"{seat} gained {_camels(e.camels)}{lost} and {e.vp} VP of prestige"
    if isinstance(e, ev.ZigguratBuilt):
        return f"{seat} built a ziggurat {PIECE_NAMES[e.height]} at {at(e.hex)} for {_camels(e.cost)}"
    if isinstance(e, ev.HutSentToAssur):
        return f"{seat} sent a hut to the {DIGNITARY_NAMES[e.dignitary]} dignitary for {_camels(e.cost)}"
    if isinstance(e, ev.OfferingMade):
        return f"{seat} made an offering (disc at {e.offerings})"
    if isinstance(e, ev.PlowBought):
        return f"{seat} bought a plow card"
    if isinstance(e, ev.FoodCardBought):
        return f"{seat} bought a {card_name(e.card)} for {_camels(e.cost)}"
    if isinstance(e, ev.ExpansionCardRevealed):
        return f"Turn {e.turn}: the expansion card is {e.value}"
    if isinstance(e, ev.FloodCame):
        return f"The Flood of reign {e.reign}: river huts lost " + ", ".join(
            f"seat {s}: {n}" for s, n in enumerate(e.huts_lost)
        )
    if isinstance(e, ev.AssurScored):
        return f"{seat} ranks {e.rank} in Assur: {e.vp} VP"
    if isinstance(e, ev.DignitaryRewarded):
        what = f"{e.vp} VP" if e.dignitary == Dignitary.HIGHER else ("a plow card" if e.plow else "")
        if e.dignitary == Dignitary.LOWER:
            what = _camels(e.camels)
        return f"{seat} from the {DIGNITARY_NAMES[e.dignitary]} dignitary: {what or 'nothing'}"
    if isinstance(e, ev.OfferingsScored):
        return f"{seat} offerings: {plural(e.ziggurats, 'ziggurat')} x{e.multiplier} = {e.vp} VP"
    if isinstance(e, ev.GameEnded):
        scores = ", ".join(f"seat {s.seat}: {s.total}" for s in e.seats)
        winners = " and ".join(f"seat {w}" for w in e.winners)
        return f"Game over ({scores}); winner: {winners}"
    raise TypeError(f"unknown event {event!r}")
