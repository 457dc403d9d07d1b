"""Building trading houses (§5, §7, rulings 1, 2 and 10): where a house may go, choosing it, and
placing it once paid. A turn builds 0, 1 or 2 houses (OP-14); the place bonus comes at once and may
pay for the second house (OP-16).

Where a house may go: a coastal or inland place holds one house; a city part one per player, and in
the 2-player variant a black house may join the builder's own house in a part the opponent has none
in, closing it to them. Every place but the coast must be one road from one of the builder's houses
(OP-15 for the city), so a first house is always coastal (ruling 2)."""

from __future__ import annotations

from services.goldencity import bonuses, payment, round_end
from services.goldencity import events as ev
from services.goldencity.actions import BUILD, END_BUILDING_ACTION, Action, action
from services.goldencity.landscapes import counts
from services.goldencity.rules import (
    BUILDS_PER_TURN,
    CITY_LETTERS,
    CITY_NEEDS_CONNECTION,
    JOKER_ANY_PAIR,
    NO_PLACE,
)
from services.goldencity.state import BUILD as STEP_BUILD
from services.goldencity.state import PAY, State
from services.goldencity.tables import Cost
from services.goldencity.vocabulary import PlaceKind


def houses_on(state: State, place: int) -> int:
    """How many houses stand on a place, black ones included."""
    return sum(p.houses.count(place) + p.black_houses.count(place) for p in state.players)


class _Builder:
    """What deciding where a seat may build needs, worked out once per decision."""

    __slots__ = (
        "any_pair",
        "city",
        "costs",
        "have",
        "others",
        "others_black",
        "own",
        "paid",
        "player",
        "state",
        "taken",
    )

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.player = player = state.players[seat]
        self.others = [p for s, p in enumerate(state.players) if s != seat]
        self.own = {*player.houses, *player.black_houses}
        self.others_black = {place for o in self.others for place in o.black_houses}
        self.taken = taken = set(player.houses)
        for other in state.players:
            taken.update(other.houses)
            taken.update(other.black_houses)
        self.have = counts(player.hand.cards)
        self.any_pair = state.config.joker == JOKER_ANY_PAIR
        self.city = state.tables.city_parts
        self.costs = state.tables.costs[state.config.inner_cost]
        self.paid: dict[Cost, bool] = {}

    def candidates(self) -> list[int]:
        """The places a connection allows, sorted: the coast, and one road from an own house
        (every city part too without OP-15's connection)."""
        tables = self.state.tables
        found = set(tables.coast_places)
        for place in self.own:
            found |= tables.neighbours[place]
        if not CITY_NEEDS_CONNECTION:
            found |= tables.city_parts
        return sorted(found)

    def connected(self, place: int) -> bool:
        """Whether the connection rule allows `place`."""
        tables = self.state.tables
        kind = tables.kind[place]
        if kind == PlaceKind.COAST or (kind != PlaceKind.INLAND and not CITY_NEEDS_CONNECTION):
            return True
        return not self.own.isdisjoint(tables.neighbours[place])

    def takes(self, place: int, black: bool) -> bool:
        """Whether the place takes the seat's house (black: a black house) and the seat has one."""
        player = self.player
        if black:
            return bool(
                player.black_houses_left
                and place in self.city
                and place in player.houses
                and place not in player.black_houses
                and not any(o.has_house(place) for o in self.others)
            )
        if not player.houses_left:
            return False
        if place in self.city:
            return place not in self.own and place not in self.others_black
        return place not in self.taken

    def pays(self, place: int) -> bool:
        """Whether the seat can pay for a house on `place`."""
        price = self.costs[place]
        known = self.paid.get(price)
        if known is None:
            known = (not price.key or self.player.keys >= 1) and payment.can_pay(
                self.have, price.landscape, price.cards, self.any_pair
            )
            self.paid[price] = known
        return known


def may_build(state: State, seat: int, place: int, black: bool) -> bool:
    """Whether `seat` may put a house (black: one of the variant's black houses) on `place` now:
    the place takes it, it is connected, and the seat has the house and can pay for it."""
    builder = _Builder(state, seat)
    return builder.takes(place, black) and builder.connected(place) and builder.pays(place)


def legal(state: State) -> list[Action]:
    """Every house the actor may build now, then building no more."""
    player = state.players[state.actor]
    found = []
    if player.houses_left or player.black_houses_left:
        builder = _Builder(state, state.actor)
        pays = builder.pays
        if player.houses_left:
            city, own, others_black, taken = builder.city, builder.own, builder.others_black, builder.taken
            for place in builder.candidates():
                if place in city:
                    if place in own or place in others_black:
                        continue
                elif place in taken:
                    continue
                if pays(place):
                    found.append(action(BUILD, place, 0))
        if player.black_houses_left:  # only beside an own house in a city part (§7)
            found += [
                action(BUILD, place, 1)
                for place in sorted(set(player.houses) & builder.city)
                if builder.takes(place, True) and pays(place)
            ]
            found.sort()
    found.append(END_BUILDING_ACTION)
    return found


def play_build(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Start building on the chosen place: spend a key if it costs one, then pay its cards."""
    price = payment.cost(state, action.a)
    state.building_place = action.a
    state.building_black = bool(action.b)
    state.owed = price.cards
    if price.key:
        state.players[state.actor].keys -= 1
        state.key_supply += 1  # OP-21
        events.append(ev.KeySpent(state.actor))
    if state.owed:
        state.step = PAY
    else:
        finish_house(state, events)


def play_pay(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Pay one card or pair; the house goes up once the last is paid."""
    if payment.play(state, action, events):
        finish_house(state, events)


def city_letters(state: State, place: int) -> int:
    """The letters the next builder of a city part gets (OP-6): 1st, 2nd, then none."""
    table = CITY_LETTERS[PlaceKind(state.tables.kind[place])]
    already = houses_on(state, place)
    return table[already] if already < len(table) else 0


def finish_house(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Put the paid house on its place and give what it earns: city letters, or the place bonus."""
    seat = state.actor
    player = state.players[seat]
    place = state.building_place
    black = state.building_black
    letters = city_letters(state, place) if state.tables.is_city(place) else 0
    if black:
        player.black_houses.append(place)
        player.black_houses_left -= 1
    else:
        player.houses.append(place)
        player.houses_left -= 1
        if not player.houses_left:
            state.last_round = True  # §8.1 (OP-23: black houses do not count)
    state.building_place = NO_PLACE
    state.building_black = False
    events.append(ev.HouseBuilt(seat, place, black, state.tables.place_names[place]))
    if letters:
        player.letters += letters
        events.append(ev.LettersGained(seat, letters, ev.FROM_CITY))
    state.step = STEP_BUILD
    if not bonuses.take(state, place, events):
        house_done(state, events)


def house_done(state: State, events: list) -> None:  # type: ignore[type-arg]
    """After a house and its bonus: build again, or end the turn after the second."""
    state.builds += 1
    state.step = STEP_BUILD
    if state.builds >= BUILDS_PER_TURN:
        end_turn(state, events)


def play_end_building(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Build no more this turn."""
    end_turn(state, events)


def end_turn(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The next player builds; after the last, the round's card is scored and the round ends."""
    events.append(ev.TurnEnded(state.actor))
    state.builds = 0
    state.actor = state.next_seat(state.actor)
    if state.actor == state.start_player:
        round_end.after_building(state, events)
