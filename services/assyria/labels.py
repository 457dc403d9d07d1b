"""Readable labels for actions and texts for events: what a client shows its players.

Each is a Message of Assyria's catalogs (locale/<locale>.po): the English string carrying its Text.
A label is worded from the few facts it depends on (the action, and for some kinds a count or price
the state gives), and each wording is built once and remembered; so is each event's text."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

from boardgame.rules.v1 import rules_pb2

from i18n.messages import Domain, Message, Term, Value, text
from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria import feeding
from services.assyria.assur import COST, INFLUENCE
from services.assyria.board import HEX_COUNT, HEX_FOOD, HEX_REGION, SITE_HEXES, coords
from services.assyria.cards import CARD_COST, CARD_FOOD, CARD_SYMBOLS, FOOD_NAMES, NO_CARD, WILD_CARD
from services.assyria.data import OFFERING_MULT, OFFERING_STEP_COST, PLOW_COST, WELL_VP, Dignitary, Region
from services.assyria.purchases import leftover_card
from services.assyria.state import State
from services.assyria.ziggurats import BASE_COST, PIECE_COST

CATALOGS = Domain("assyria", Path(__file__).parent / "locale")
"""Assyria's catalogs (locale/<locale>.po): every label, event text and score line is one of their
messages."""
_ = CATALOGS.message

DIGNITARY_NAMES = {int(d): d.name.lower() for d in Dignitary}
REGION_NAMES = {int(r): r.name.lower() for r in Region}
PIECE_NAMES = ("", "base", "centre", "roof")


def _card_key(kind: int) -> str:
    """A card kind's key, as the protobuf Card enum names it without its prefix: "grapes_2", "wild"."""
    if kind == WILD_CARD:
        return "wild"
    return f"{FOOD_NAMES[CARD_FOOD[kind]]}_{CARD_SYMBOLS[kind]}" if kind != NO_CARD else ""


CARD_KEYS = tuple(_card_key(kind) for kind in range(len(CARD_SYMBOLS)))


def food(number: int) -> Term:
    """A food's term: "salt"."""
    return Term(f"assyria.food.{FOOD_NAMES[number]}")


def dignitary(number: int) -> Term:
    """A dignitary's term: "higher"."""
    return Term(f"assyria.dignitary.{DIGNITARY_NAMES[number]}")


def piece(height: int) -> Term:
    """A ziggurat piece's term by its height: "base", "centre", "roof"."""
    return Term(f"assyria.piece.{PIECE_NAMES[height]}")


def _at(hex_number: int) -> rules_pb2.Text:
    q, r = coords(hex_number)
    return text("assyria.at", q=q, r=r)


def _hex_name(hex_number: int) -> rules_pb2.Text:
    region = Term(f"assyria.region.{REGION_NAMES[HEX_REGION[hex_number]]}")
    return text("assyria.hex", food=food(HEX_FOOD[hex_number]), at=_at(hex_number), region=region)


# The parts of texts, made once (a Text passed as an argument is copied, never changed): each card
# kind's term, and each hex's and well site's Text.
CARD_TERMS = tuple(Term(f"assyria.card.{key}") for key in CARD_KEYS)
AT = tuple(_at(h) for h in range(HEX_COUNT))
HEX_NAMES = tuple(_hex_name(h) for h in range(HEX_COUNT))
SITE_NAMES = (
    rules_pb2.Text(),  # no site 0
    *(text("assyria.site", a=AT[a], b=AT[b], c=AT[c]) for a, b, c in SITE_HEXES[1:]),
)


def card(kind: int) -> Term:
    """A card kind's term: "2-symbol dates card", "wild card"."""
    return CARD_TERMS[kind]


def at(hex_number: int) -> rules_pb2.Text:
    """A hex's coordinates: "(3,1)"."""
    return AT[hex_number]


def hex_name(hex_number: int) -> rules_pb2.Text:
    """A hex in words: "the salt hex at (3,1), on river 1"."""
    return HEX_NAMES[hex_number]


def site_name(site: int) -> rules_pb2.Text:
    """A well site as the corner of its 3 hexes."""
    return SITE_NAMES[site]


def joined(items: Sequence[Value], template: str = "assyria.list") -> Value:
    """A list as nested Texts of `template` ("{head}, {tail}"); one item is itself, none is empty."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return text(template, head=items[0], tail=joined(items[1:], template))


def cards_text(cards: Sequence[int]) -> Value:
    """Cards in words: "1-symbol salt card + wild card", "no cards"."""
    present: list[Value] = [card(c) for c in cards if c != NO_CARD]
    return joined(present, "assyria.list.plus") if present else Term("assyria.cards.none")


def seats(numbers: Sequence[int]) -> Value:
    """Seats in words: "seat 0, seat 2"."""
    return joined([text("assyria.seat", seat=s) for s in numbers])


# Each kind of action: the facts its label depends on (hashable, from the state and the action's
# argument), and its wording from them.
Facts = Callable[[State, int], Hashable]
Words = Callable[[Any], Message]


def _argument(_state: State, a: int) -> int:
    return a


def _feed_facts(state: State, card_kind: int) -> tuple[int, int]:
    """The card and the unfed huts it could feed."""
    unfed = feeding.unfed_huts(state, state.actor)
    if card_kind == WILD_CARD:
        return card_kind, len(unfed)
    food_kind = CARD_FOOD[card_kind]
    return card_kind, sum(1 for h in unfed if HEX_FOOD[h] == food_kind)


def _play_card(facts: tuple[int, int]) -> Message:
    kind, unfed = facts
    if kind == WILD_CARD:
        return _("assyria.action.play_wild", card=card(kind), unfed=unfed)
    symbols, food_kind = CARD_SYMBOLS[kind], food(CARD_FOOD[kind])
    return _("assyria.action.play_card", card=card(kind), symbols=symbols, food=food_kind, unfed=unfed)


def _take_column(facts: tuple[int, int, int]) -> Message:
    column, first, second = facts
    return _("assyria.action.take_column", column=column + 1, cards=cards_text((first, second)))


def _raise(facts: tuple[int, int]) -> Message:
    hex_number, height = facts
    return _(
        "assyria.action.raise_ziggurat", piece=piece(height), at=at(hex_number), camels=PIECE_COST[height]
    )


def _buy_food_card(facts: tuple[int, int]) -> Message:
    row, kind = facts
    return _("assyria.action.buy_food_card", card=card(kind), row=row, camels=CARD_COST[kind])


ACTION_WORDS: dict[int, tuple[Facts, Words]] = {
    act.CHOOSE_START_SPACE: (_argument, lambda h: _("assyria.action.choose_start_space", hex=hex_name(h))),
    act.DRAFT_CARD: (_argument, lambda c: _("assyria.action.draft_card", card=card(c))),
    act.TAKE_COLUMN: (
        lambda s, a: (a, s.sowing_row_1[a], s.sowing_row_2[a]),
        _take_column,
    ),
    act.PLACE_HUT: (
        lambda s, a: (a, s.huts_to_place),
        lambda f: _("assyria.action.place_hut", hex=hex_name(f[0]), huts=f[1]),
    ),
    act.STOP_PLACING: (_argument, lambda _a: _("assyria.action.stop_placing")),
    act.PLAY_CARD: (_feed_facts, _play_card),
    act.PLAY_PLOW: (_argument, lambda _a: _("assyria.action.play_plow")),
    act.FEED_HUT: (_argument, lambda h: _("assyria.action.feed_hut", hex=hex_name(h))),
    act.CLOSE_CARD: (
        lambda s, _a: s.feeding_symbols,
        lambda symbols: _("assyria.action.close_card", symbols=symbols),
    ),
    act.END_FEEDING: (
        lambda s, _a: len(feeding.unfed_huts(s, s.actor)),
        lambda unfed: _("assyria.action.end_feeding", unfed=unfed),
    ),
    act.BUILD_WELL: (
        lambda s, a: (a, WELL_VP[s.reign - 1]),
        lambda f: _("assyria.action.build_well", site=site_name(f[0]), vp=f[1]),
    ),
    act.END_WELLS: (_argument, lambda _a: _("assyria.action.end_wells")),
    act.BUILD_BASE: (_argument, lambda h: _("assyria.action.build_base", hex=hex_name(h), camels=BASE_COST)),
    act.RAISE_ZIGGURAT: (lambda s, a: (a, s.ziggurat_heights[a] + 1), _raise),
    act.INTRIGUE: (
        _argument,
        lambda d: _(
            "assyria.action.intrigue", dignitary=dignitary(d), camels=COST[d], influence=INFLUENCE[d]
        ),
    ),
    act.MAKE_OFFERING: (
        lambda s, _a: s.players[s.actor].offerings + 1,
        lambda position: _(
            "assyria.action.make_offering",
            position=position,
            multiplier=OFFERING_MULT[position],
            camels=OFFERING_STEP_COST,
        ),
    ),
    act.BUY_PLOW: (_argument, lambda _a: _("assyria.action.buy_plow", camels=PLOW_COST)),
    act.BUY_FOOD_CARD: (lambda s, a: (a, leftover_card(s, a)), _buy_food_card),
    act.END_ACTIONS: (_argument, lambda _a: _("assyria.action.end_actions")),
}
# The labels worded so far, by kind and facts (at most LABEL_MEMO; some 1,500 occur).
REMEMBERED: dict[tuple[int, Hashable], Message] = {}
LABEL_MEMO = 4096


def label(state: State, action: act.Action) -> str:
    """What a legal action does, in the words of the game: a Message of the catalogs."""
    kind, a = action
    try:
        facts_of, words = ACTION_WORDS[kind]
    except KeyError:
        raise ValueError(f"no label for {action!r}") from None
    key = (kind, facts_of(state, a))
    made = REMEMBERED.get(key)
    if made is None:
        if len(REMEMBERED) >= LABEL_MEMO:
            REMEMBERED.clear()
        made = REMEMBERED[key] = words(key[1])
    return made


E = "assyria.event."


def _dignitary_rewarded(e: ev.DignitaryRewarded) -> Message:
    who: dict[str, Value] = {"seat": e.seat, "dignitary": dignitary(e.dignitary)}
    if e.dignitary == Dignitary.HIGHER:
        return _(E + "dignitary_rewarded.vp", **who, vp=e.vp)
    if e.dignitary == Dignitary.LOWER:
        return _(E + "dignitary_rewarded.camels", **who, camels=e.camels)
    return _(E + ("dignitary_rewarded.plow" if e.plow else "dignitary_rewarded.nothing"), **who)


def _game_ended(e: ev.GameEnded) -> Message:
    scores = joined([text(E + "score", seat=s.seat, total=s.total) for s in e.seats])
    winners = joined([text("assyria.seat", seat=w) for w in e.winners], "assyria.list.and")
    return _(E + "game_ended", scores=scores, winners=winners)


EVENT_WORDS: dict[type, Callable[[Any], Message]] = {
    ev.GameStarted: lambda e: _(E + "game_started", order=seats(e.turn_order)),
    ev.StartSpaceChosen: lambda e: _(E + "start_space_chosen", seat=e.seat, hex=hex_name(e.hex)),
    ev.CardDrafted: lambda e: _(E + "card_drafted", seat=e.seat, card=card(e.card)),
    ev.FoodDeckReshuffled: lambda e: _(E + "food_deck_reshuffled", cards=e.cards),
    ev.RowsSown: lambda e: _(
        E + "rows_sown", turn=e.turn, row_1=cards_text(e.sowing_row_1), row_2=cards_text(e.sowing_row_2)
    ),
    ev.ColumnTaken: lambda e: _(
        E + "column_taken", seat=e.seat, column=e.column + 1, cards=cards_text(e.cards)
    ),
    ev.TurnOrderSet: lambda e: _(E + "turn_order_set", order=seats(e.turn_order)),
    ev.HutPlaced: lambda e: _(E + "hut_placed", seat=e.seat, hex=hex_name(e.hex)),
    ev.CardPlayed: lambda e: (
        _(E + "card_played.plow", seat=e.seat)
        if e.card == NO_CARD
        else _(E + "card_played", seat=e.seat, card=card(e.card))
    ),
    ev.HutFed: lambda e: _(E + "hut_fed", seat=e.seat, at=at(e.hex)),
    ev.HutsStarved: lambda e: _(
        E + "huts_starved", seat=e.seat, huts=len(e.hexes), hexes=joined([at(h) for h in e.hexes])
    ),
    ev.WellBuilt: lambda e: _(E + "well_built", seat=e.seat, site=site_name(e.site), vp=e.vp),
    ev.RevenueGained: lambda e: _(
        E + "revenue_gained", seat=e.seat, camels=e.camels, lost=e.camels_lost, vp=e.vp
    ),
    ev.ZigguratBuilt: lambda e: _(
        E + "ziggurat_built", seat=e.seat, piece=piece(e.height), at=at(e.hex), camels=e.cost
    ),
    ev.HutSentToAssur: lambda e: _(
        E + "hut_sent_to_assur", seat=e.seat, dignitary=dignitary(e.dignitary), camels=e.cost
    ),
    ev.OfferingMade: lambda e: _(E + "offering_made", seat=e.seat, offerings=e.offerings),
    ev.PlowBought: lambda e: _(E + "plow_bought", seat=e.seat),
    ev.FoodCardBought: lambda e: _(E + "food_card_bought", seat=e.seat, card=card(e.card), camels=e.cost),
    ev.ExpansionCardRevealed: lambda e: _(E + "expansion_card_revealed", turn=e.turn, value=e.value),
    ev.FloodCame: lambda e: _(
        E + "flood_came",
        reign=e.reign,
        losses=joined([text(E + "flood_came.seat", seat=s, huts=n) for s, n in enumerate(e.huts_lost)]),
    ),
    ev.AssurScored: lambda e: _(E + "assur_scored", seat=e.seat, rank=e.rank, vp=e.vp),
    ev.DignitaryRewarded: _dignitary_rewarded,
    ev.OfferingsScored: lambda e: _(
        E + "offerings_scored", seat=e.seat, ziggurats=e.ziggurats, multiplier=e.multiplier, vp=e.vp
    ),
    ev.GameEnded: _game_ended,
}
# The event texts worded so far, by the event's kind and fields (at most EVENT_MEMO: some 30 new ones
# a game, each about 1 KiB).
EVENTS_REMEMBERED: dict[tuple[type, tuple], Message] = {}  # type: ignore[type-arg]
EVENT_MEMO = 4096


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """One readable sentence for an event: a Message of the catalogs."""
    kind = type(event)
    key = (kind, event)
    made = EVENTS_REMEMBERED.get(key)
    if made is None:
        words = EVENT_WORDS.get(kind)
        if words is None:
            raise TypeError(f"unknown event {event!r}")
        if len(EVENTS_REMEMBERED) >= EVENT_MEMO:
            EVENTS_REMEMBERED.clear()
        made = EVENTS_REMEMBERED[key] = words(event)
    return made
