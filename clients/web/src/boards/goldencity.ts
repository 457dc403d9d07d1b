// The Golden City's whole table, drawn from the view (boardgame.goldencity.v1.View) and the title's
// data (boardgame.goldencity.v1.TitleData, from CatalogService.GetTitleData: every data set installed
// where the rules service runs, and the houses' colours). The island map in the middle: its four
// regions around the city, each place with its bonus, the roads, the city's outer and inner parts,
// and every house in its seat's colour (black houses black). A place lies towards its compass point,
// as many roads from the city as it takes to get there. Beside it: the round and the step, whose
// turn, the start player's key, the revealed scoring card and the backs of the coming ones, the
// landscape pairs with their bids and the price of displacing one, the face-up goods cards, the
// supplies (keys, bonus cards, the landscape deck and discard pile) and the bonus cards to choose
// from when the seat looking chooses. Below: each seat in its colour with its coins, trade letters,
// keys, houses, hand (face up where the seat may see it, else backs and a count), goods cards and
// bonus cards. The data set's RECONSTRUCTION flag is shown while its contents are placeholders; a set
// the title's data lacks at the view's data version is named and not drawn, never drawn on another
// set's board. Names and texts of places and cards are the data set's. Each legal action of the seat
// is marked where it applies (svg.actionable): a pair to bid on, a place to build on, a card of the
// hand to pay or discard, a joker pair to pay, a goods or bonus card to take, "build no more".
import { renderData, t, term } from "../i18n";
import { actionable, picture, svg, text, type Attrs, type Json, type Legal } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".gc-place";

const TITLE = "goldencity";
const WIDTH = 1080;
const LANDSCAPES = ["coast", "meadow", "forest", "desert", "mountains"];
const LANDSCAPE_FILL: Record<string, string> = { meadow: "#b9e08c", forest: "#5e9e5a", desert: "#ecd78f", mountains: "#b3a89b", coast: "#9cc9e8" };
const LANDSCAPE_INK: Record<string, string> = { meadow: "#3d6b1f", forest: "#1f4a1c", desert: "#9a6b12", mountains: "#4a4038", coast: "#1f5f99" };
const COLOUR_BY_NAME: Record<string, string> = {
  "light blue": "#8fcbea", blue: "#337ab7", red: "#d9534f", white: "#ffffff", black: "#222222",
  green: "#5cb85c", yellow: "#f0c330", orange: "#f0ad4e", purple: "#8e5ea2",
};
const SEAT_FALLBACK = ["#8fcbea", "#d9534f", "#ffffff", "#222222"];
const COMPASS_ANGLE: Record<string, number> = { N: -90, NE: -45, E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: -135 };
const BONUSES = ["coins", "landscape_card", "key", "bonus_card", "goods_card", "letters"];
const SPREAD = 70; // degrees a region's places spread over at one distance from the city
const CITY = 40, STEP = 60, SIZE = 720, TOP = 48;
const RIGHT = SIZE + 12, RIGHT_WIDTH = WIDTH - RIGHT - 10; // the column beside the map
const MARKED = "#e07b00"; // the outline of a place or card that takes an action
const INK = "#2b2b2b", PAPER = "#fffdf6", PANEL = "#f6efd9", EDGE = "#b89b5e";
const GOLD = "#e3b23c";
const BUILDS_PER_TURN = 2;
const HAND_LIMIT = 5;

type Spot = { x: number; y: number };
type Place = { id: number; name: string; kind: string; region: string; compass: string; onRiver: boolean; bonusType: string; bonusAmount: number };
type SetBoard = {
  name: string; dataVersion: string; places: Place[]; roads: { ends: number[] }[];
  scoringCards: string[]; goodsCards: string[]; bonusCards: string[];
  scoringCardMessages?: unknown[]; goodsCardMessages?: unknown[]; bonusCardMessages?: unknown[];
};

/** The lower-case key of an enum name: "LANDSCAPE_MEADOW" -> "meadow", "STEP_CHOOSE_GOODS_CARD" ->
 * "choose_goods_card" ("" for an unspecified one). */
function key(name: unknown): string {
  const parts = String(name ?? "").toLowerCase().split("_");
  return parts.at(-1) === "unspecified" ? "" : parts.slice(1).join("_");
}

const words = (k: string): string => k.replace(/_/g, " ");
const landscapeName = (k: string): string => term(TITLE, "landscape", k, words(k));
const bonusName = (k: string): string => term(TITLE, "bonus", k, words(k));
const kindName = (k: string): string => term(TITLE, "place_kind", k, words(k));
const STEP_WORDS: Record<string, string> = {
  bid: "bidding", build: "building", pay: "paying", choose_goods_card: "choosing a goods card",
  choose_bonus_card: "choosing a bonus card", discard: "discarding", game_over: "game over",
};
const stepName = (k: string): string => term(TITLE, "step", k, STEP_WORDS[k] ?? words(k));

/** The board of the data set a view names, if the title's data has that set at that data version. */
function setBoard(sets: SetBoard[], name: string, dataVersion: string): SetBoard | undefined {
  const found = sets.find((set) => set.name === name && set.dataVersion === dataVersion);
  if (!found) return undefined;
  // Each card's words in the reader's language (its English beside it in the data).
  const read = (words: string[], messages: unknown[] | undefined) => words.map((english, i) => renderData(messages?.[i], english, TITLE));
  return {
    ...found,
    scoringCards: read(found.scoringCards, found.scoringCardMessages),
    goodsCards: read(found.goodsCards, found.goodsCardMessages),
    bonusCards: read(found.bonusCards, found.bonusCardMessages),
  };
}

/** What can be drawn, for the notice shown instead of a board the data lacks. */
function drawable(sets: SetBoard[]): string {
  return sets.map((set) => `${set.name} (${set.dataVersion})`).join(", ");
}

/** Each place's spot: its distance (roads) from the city sets the radius, its compass the angle. */
function spots(board: SetBoard): Map<number, Spot> {
  const places = board.places;
  const depth = new Map<number, number>();
  for (const place of places) if (place.kind === "city_outer") depth.set(place.id, 0);
  for (const place of places) if (place.kind === "city_inner") depth.set(place.id, -0.6);
  let frontier = [...depth.keys()].filter((id) => depth.get(id) === 0);
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const { ends: [a, b] } of board.roads)
      for (const [from, to] of [[a, b], [b, a]])
        if (frontier.includes(from) && !depth.has(to)) {
          depth.set(to, (depth.get(from) ?? 0) + 1);
          next.push(to);
        }
    frontier = next;
  }
  const groups = new Map<string, number[]>();
  for (const place of places) {
    const k = `${place.compass}:${depth.get(place.id) ?? 5}`;
    groups.set(k, [...(groups.get(k) ?? []), place.id]);
  }
  const centre = SIZE / 2;
  const result = new Map<number, Spot>();
  for (const place of places) {
    const d = depth.get(place.id) ?? 5;
    const group = groups.get(`${place.compass}:${d}`) ?? [place.id];
    const spread = d <= 0 ? 0 : SPREAD * Math.min(1, (group.length - 1) / 3);
    const share = group.length > 1 ? group.indexOf(place.id) / (group.length - 1) - 0.5 : 0;
    const angle = ((COMPASS_ANGLE[place.compass] ?? 0) + share * spread) * (Math.PI / 180);
    const radius = (place.compass as string) === "C" ? 0 : CITY + (d + 0.6) * STEP;
    result.set(place.id, { x: centre + radius * Math.cos(angle), y: TOP + centre + radius * Math.sin(angle) });
  }
  return result;
}

// Where on the table each legal action applies.

/** The key of the drawn element an action applies to, or "" for one left to the list. */
function placeOf(action: Json): string {
  const [kind, value]: [string, Json] = Object.entries(action ?? {})[0] ?? ["", null];
  switch (kind) {
    case "bid": return `pair:${value?.pair ?? 0}`;
    case "build": return `place:${value?.place ?? 0}`;
    case "endBuilding": return "end";
    case "payCard": return `hand:${key(value?.landscape)}`;
    case "discard": return `hand:${key(value?.landscape)}`;
    case "payPair": return `joker:${key(value?.first)}+${key(value?.second)}`;
    case "chooseGoodsCard": return `goods:${value?.card ?? 0}`;
    case "chooseBonusCard": return `bonus:${value?.card ?? 0}`;
    default: return "";
  }
}

/** The seat's legal actions by the element they apply to, and a way to mark a drawn element. */
function places(legal: Legal[]) {
  const byPlace = new Map<string, Legal[]>();
  for (const l of legal) {
    const place = placeOf(l.action);
    if (place) byPlace.set(place, [...(byPlace.get(place) ?? []), l]);
  }
  return {
    has: (place: string) => byPlace.has(place),
    keys: (prefix: string) => [...byPlace.keys()].filter((k) => k.startsWith(prefix)),
    mark: (element: SVGElement, place: string) => actionable(element, byPlace.get(place) ?? []),
  };
}

type Marks = ReturnType<typeof places>;

// Drawing helpers.

/** A group drawn at (x, y), so a part is laid out from its own corner. */
function at(x: number, y: number, cls: string): SVGElement {
  return svg("g", { transform: `translate(${x},${y})`, class: cls });
}

function box(x: number, y: number, width: number, height: number, fill: string, attrs: Attrs = {}): SVGElement {
  return svg("rect", { x, y, width, height, rx: 5, fill, stroke: EDGE, "stroke-width": 1, ...attrs });
}

/** A seat's house colour from the title's data (a colour's name there), as a fill. */
function seatColour(data: Json, seat: number): string {
  const name = String((data?.houseColours ?? [])[seat] ?? "").toLowerCase();
  return COLOUR_BY_NAME[name] ?? (name.startsWith("#") ? name : SEAT_FALLBACK[seat % SEAT_FALLBACK.length]);
}

function blackColour(data: Json): string {
  const name = String(data?.blackHouseColour ?? "black").toLowerCase();
  return COLOUR_BY_NAME[name] ?? "#222222";
}

/** Dark ink on a light fill, light ink on a dark one. */
function inkOn(fill: string): string {
  const hex = fill.replace("#", "");
  if (hex.length !== 6) return INK;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? "#fff" : INK;
}

/** A trading house centred on (x, y), `size` wide. */
function house(x: number, y: number, size: number, fill: string, cls = "gc-house"): SVGElement {
  const h = size / 2;
  return svg("path", {
    d: `M${x - h},${y + h} V${y - h * 0.15} L${x},${y - h} L${x + h},${y - h * 0.15} V${y + h} Z`,
    fill, stroke: fill === "#222222" ? "#888" : "#222", "stroke-width": 1, class: cls,
  });
}

/** A key centred on (x, y), `size` long. */
function keyIcon(x: number, y: number, size: number, fill = GOLD): SVGElement {
  const s = size / 12; // the bow's centre at x - 3.5s, the bit's end at x + 6s
  return svg("path", {
    d: `M${x - 6 * s},${y} a${2.5 * s},${2.5 * s} 0 1 0 ${5 * s},0 a${2.5 * s},${2.5 * s} 0 1 0 ${-5 * s},0 M${x - s},${y} H${x + 6 * s} M${x + 3.5 * s},${y} V${y + 2.5 * s} M${x + 6 * s},${y} V${y + 2.5 * s}`,
    fill: "none", stroke: fill, "stroke-width": Math.max(1.2, 1.4 * s), "stroke-linecap": "round", class: "gc-key",
  });
}

function coinIcon(x: number, y: number, r: number): SVGElement {
  return svg("circle", { cx: x, cy: y, r, fill: GOLD, stroke: "#8a6410", "stroke-width": 1 });
}

/** A trade letter (an envelope) centred on (x, y). */
function letterIcon(x: number, y: number, w: number): SVGElement {
  const h = w * 0.7;
  const group = svg("g", { class: "gc-letter-icon" });
  group.append(svg("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, fill: "#fff", stroke: "#8a5a2b", "stroke-width": 1 }),
    svg("path", { d: `M${x - w / 2},${y - h / 2} L${x},${y + h * 0.1} L${x + w / 2},${y - h / 2}`, fill: "none", stroke: "#8a5a2b", "stroke-width": 1 }));
  return group;
}

function starPoints(x: number, y: number, r: number): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${x + radius * Math.cos(angle)},${y + radius * Math.sin(angle)}`);
  }
  return points.join(" ");
}

/** A place's bonus as a small picture centred on (x, y), its amount beside it where it has one. */
function bonusIcon(x: number, y: number, bonus: string, amount: number): SVGElement {
  const group = svg("g", { class: `gc-bonus gc-bonus-${bonus}` });
  const count = (n: number) => text(x + 4, y + 4, String(n), { "font-size": 9, "font-weight": "bold", fill: INK });
  switch (bonus) {
    case "coins":
      group.append(coinIcon(x - 2, y, 5.5));
      if (amount > 1) group.append(count(amount));
      break;
    case "letters":
      group.append(letterIcon(x - 3, y, 10), count(amount));
      break;
    case "key":
      group.append(keyIcon(x, y, 14, "#8a6410"));
      break;
    case "landscape_card":
      group.append(svg("rect", { x: x - 4, y: y - 6, width: 8, height: 12, rx: 1.5, fill: "#fff", stroke: "#555" }),
        svg("rect", { x: x - 3, y: y - 5, width: 6, height: 3, fill: LANDSCAPE_FILL.meadow }),
        svg("rect", { x: x - 3, y: y - 1.5, width: 6, height: 3, fill: LANDSCAPE_FILL.desert }),
        svg("rect", { x: x - 3, y: y + 2, width: 6, height: 3, fill: LANDSCAPE_FILL.coast }));
      break;
    case "bonus_card":
      group.append(svg("rect", { x: x - 4.5, y: y - 6, width: 9, height: 12, rx: 1.5, fill: "#8e5ea2", stroke: "#4a2a5a" }),
        svg("polygon", { points: starPoints(x, y, 3.6), fill: "#fff" }));
      break;
    case "goods_card":
      group.append(svg("rect", { x: x - 4.5, y: y - 6, width: 9, height: 12, rx: 1.5, fill: "#d8b27a", stroke: "#6b4a2a" }),
        svg("circle", { cx: x, cy: y - 2.5, r: 1.8, fill: "#6b4a2a" }), svg("circle", { cx: x, cy: y + 2.5, r: 1.8, fill: "#6b4a2a" }));
      break;
  }
  return group;
}

/** A landscape's picture centred on (x, y), `s` across. */
function landscapeIcon(x: number, y: number, s: number, landscape: string): SVGElement {
  const ink = LANDSCAPE_INK[landscape] ?? INK;
  const u = s / 10;
  switch (landscape) {
    case "coast":
      return svg("path", { d: `M${x - 5 * u},${y - 1 * u} q${1.25 * u},${-2 * u} ${2.5 * u},0 t${2.5 * u},0 t${2.5 * u},0 t${2.5 * u},0 M${x - 5 * u},${y + 2 * u} q${1.25 * u},${-2 * u} ${2.5 * u},0 t${2.5 * u},0 t${2.5 * u},0 t${2.5 * u},0`, fill: "none", stroke: ink, "stroke-width": Math.max(1, u) });
    case "meadow":
      return svg("path", { d: `M${x - 4 * u},${y + 3 * u} l${u},${-4 * u} M${x - 2 * u},${y + 3 * u} l${-u},${-3 * u} M${x + u},${y + 3 * u} l${u},${-5 * u} M${x + 3 * u},${y + 3 * u} l${-0.5 * u},${-4 * u} M${x + 4 * u},${y + 3 * u} l${u},${-3 * u}`, fill: "none", stroke: ink, "stroke-width": Math.max(1, 0.8 * u), "stroke-linecap": "round" });
    case "forest":
      return svg("path", { d: `M${x},${y - 5 * u} L${x + 3.5 * u},${y + 2.5 * u} H${x - 3.5 * u} Z M${x - 0.6 * u},${y + 2.5 * u} h${1.2 * u} v${2 * u} h${-1.2 * u} Z`, fill: ink });
    case "desert":
      return svg("path", { d: `M${x - 5 * u},${y + 3 * u} q${2.5 * u},${-4 * u} ${5 * u},0 q${2.5 * u},${-3 * u} ${5 * u},0 M${x + 2.5 * u},${y - 2.5 * u} m${-1.6 * u},0 a${1.6 * u},${1.6 * u} 0 1 0 ${3.2 * u},0 a${1.6 * u},${1.6 * u} 0 1 0 ${-3.2 * u},0`, fill: "none", stroke: ink, "stroke-width": Math.max(1, 0.8 * u) });
    default:
      return svg("path", { d: `M${x - 5 * u},${y + 3.5 * u} L${x - 1.5 * u},${y - 3.5 * u} L${x + 1 * u},${y + 0.5 * u} L${x + 2.5 * u},${y - 1.5 * u} L${x + 5 * u},${y + 3.5 * u} Z`, fill: ink });
  }
}

/** A landscape card (`landscape` its key) of `w` x `h` at (x, y); `name` writes its name under the
 * picture. */
function landscapeCard(x: number, y: number, w: number, h: number, landscape: string, name: boolean, marked = false): SVGElement {
  const card = svg("g", { class: `gc-card gc-landscape gc-landscape-${landscape}`, "data-landscape": landscape });
  card.append(svg("rect", { x, y, width: w, height: h, rx: 4, fill: LANDSCAPE_FILL[landscape] ?? "#ddd", stroke: marked ? MARKED : "#5b4a3a", "stroke-width": marked ? 3 : 1 }));
  card.append(svg("rect", { x: x + 3, y: y + 3, width: w - 6, height: h - 6, rx: 3, fill: "none", stroke: "#ffffff90" }));
  card.append(landscapeIcon(x + w / 2, y + (name ? h * 0.4 : h / 2), Math.min(w, h) * 0.62, landscape));
  if (name) {
    const words = landscapeName(landscape);
    const size = Math.min(9, w / 5);
    const fit: Attrs = textWidth(words, size) * 1.1 > w - 6 ? { textLength: w - 6, lengthAdjust: "spacingAndGlyphs" } : {};
    card.append(text(x + w / 2, y + h - 6, words, { "font-size": size, "text-anchor": "middle", fill: LANDSCAPE_INK[landscape] ?? INK, "font-weight": "bold", ...fit }));
  }
  else card.append(svg("title", {}, landscapeName(landscape)));
  return card;
}

/** A card's back of `w` x `h` at (x, y) (`fill` tells the decks apart), `label` written on it. */
function cardBack(x: number, y: number, w: number, h: number, fill: string, label = ""): SVGElement {
  const back = svg("g", { class: "gc-card-back" });
  back.append(svg("rect", { x, y, width: w, height: h, rx: 4, fill, stroke: "#3b2f1e", "stroke-width": 1 }),
    svg("rect", { x: x + 3, y: y + 3, width: w - 6, height: h - 6, rx: 2, fill: "none", stroke: "#ffffff80", "stroke-dasharray": "2 2" }));
  if (label) back.append(text(x + w / 2, y + h / 2 + 4, label, { "font-size": Math.min(12, h / 2.5), "text-anchor": "middle", fill: "#fff", "font-weight": "bold" }));
  return back;
}

/** About how wide `words` are at font size `size` (a CJK character a full em, others a little over
 * half). */
function textWidth(words: string, size: number): number {
  let width = 0;
  for (const ch of words) width += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? size : size * 0.56;
  return width;
}

/** `words` in at most `most` lines of about `width` pixels at `size` (words longer than a line, and
 * text without spaces, broken between characters; the last line marked "…" when cut short). */
function lines(words: string, size: number, width: number, most: number): string[] {
  const fits = (line: string) => textWidth(line, size) <= width;
  const result: string[] = [];
  for (const word of words.split(/\s+/).filter(Boolean)) {
    const last = result[result.length - 1];
    if (last !== undefined && fits(last + " " + word)) {
      result[result.length - 1] = last + " " + word;
      continue;
    }
    let rest = word;
    while (rest.length > 1 && !fits(rest)) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n))) n--;
      result.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    result.push(rest);
  }
  if (result.length > most) {
    result.length = most;
    let last = result[most - 1];
    while (last.length > 1 && !fits(last + "…")) last = last.slice(0, -1);
    result[most - 1] = last + "…";
  }
  return result;
}

/** A card text of the data set ("sc05 (north x2, goods_2 x2)"): its name and what it shows. */
function cardText(texts: string[] | undefined, id: number): { name: string; what: string } {
  const whole = String(texts?.[id - 1] ?? id);
  const found = /^(.*?)\s*[(（](.*)[)）]\s*$/.exec(whole); // English or full-width brackets
  return found ? { name: found[1], what: found[2] } : { name: whole, what: "" };
}

/** A face-up card of the data set (a scoring, goods or bonus card) with its name and text. */
function textCard(x: number, y: number, w: number, h: number, texts: string[] | undefined, id: number, fill: string, cls: string, marked = false): SVGElement {
  const { name, what } = cardText(texts, id);
  const card = svg("g", { class: `gc-card ${cls}`, "data-card": id });
  card.append(svg("rect", { x, y, width: w, height: h, rx: 4, fill, stroke: marked ? MARKED : "#5b4a3a", "stroke-width": marked ? 3 : 1 }));
  card.append(text(x + 5, y + 13, name, { "font-size": 11, "font-weight": "bold", fill: INK }));
  const size = h >= 60 ? 10 : 9;
  const most = Math.max(1, Math.floor((h - 18) / (size + 1)));
  what.split(/[,，、]\s*/).flatMap((part) => lines(part, size, w - 8, most)).slice(0, most).forEach((line, i) =>
    card.append(text(x + 4, y + 25 + i * (size + 1), line, { "font-size": size, fill: "#3b2f1e" })));
  return card;
}

// The board.

export function drawGoldenCity(view: Json, data: Json, legal: Legal[] = []): SVGElement {
  const sets: SetBoard[] = data?.dataSets ?? [];
  const table = view.table ?? {};
  const dataSet = table.dataSet ?? {};
  const drawn = setBoard(sets, String(dataSet.name ?? ""), String(dataSet.dataVersion ?? ""));
  const heading = text(8, 18, t("goldencity.web.data_set", "Data set {name} ({version})", { name: dataSet.name ?? "?", version: dataSet.dataVersion ?? "?" })
    + (dataSet.reconstruction ? t("goldencity.web.reconstruction", " — RECONSTRUCTION (placeholders, not the printed game)") : ""),
  { class: "gc-data-set reconstruction", "font-size": 13, "font-weight": dataSet.reconstruction ? "bold" : "normal", fill: dataSet.reconstruction ? "#b00" : INK });
  if (!drawn) {
    const board = picture(t("goldencity.web.title", "The Golden City"), WIDTH, 100);
    board.append(heading);
    board.append(text(8, 50, t("goldencity.web.no_board", "The rules service has no data set {name} ({version}) installed, so this board is not drawn; the view below is complete.", { name: dataSet.name ?? "?", version: dataSet.dataVersion ?? "?" }), { class: "gc-no-board", fill: "#b00", "font-size": 12 }));
    board.append(text(8, 70, t("goldencity.web.installed", "It has: {sets}.", { sets: drawable(sets) }), { class: "gc-no-board", fill: "#b00", "font-size": 12 }));
    return board;
  }
  const marks = places(legal);
  const parts: SVGElement[] = [heading, drawMap(view, data, drawn, marks), drawLegend(SIZE + TOP + 6)];
  let column = TOP;
  for (const part of [drawTurn(view, data, drawn, marks), drawScoring(view, drawn), drawPairs(view, data, marks), drawGoods(view, drawn, marks), drawSupplies(view, drawn, marks)]) {
    if (!part) continue;
    part.setAttribute("transform", `translate(${RIGHT},${column})`);
    parts.push(part);
    column += Number(part.getAttribute("data-height")) + 8;
  }
  let top = Math.max(SIZE + TOP + 52, column + 4);
  (table.players ?? []).forEach((player: Json, seat: number) => {
    const row = drawSeat(view, data, drawn, player, seat, seat === view.seat ? marks : places([]));
    row.setAttribute("transform", `translate(10,${top})`);
    parts.push(row);
    top += Number(row.getAttribute("data-height")) + 8;
  });
  const board = picture(t("goldencity.web.title", "The Golden City"), WIDTH, top + 4);
  board.classList.add("gc-board");
  board.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: top + 4, fill: "#fbf7ea" }), ...parts);
  return board;
}

// The island.

function drawMap(view: Json, data: Json, board: SetBoard, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const map = svg("g", { class: "gc-map" });
  const spot = spots(board);
  const houses = new Map<number, string[]>(); // each place's houses, as fills
  (table.players ?? []).forEach((player: Json, seat: number) => {
    for (const place of player.houses ?? []) houses.set(place, [...(houses.get(place) ?? []), seatColour(data, seat)]);
    for (const place of player.blackHouses ?? []) houses.set(place, [...(houses.get(place) ?? []), blackColour(data)]);
  });
  map.append(svg("circle", { cx: SIZE / 2, cy: TOP + SIZE / 2, r: SIZE / 2 - 6, fill: "#dcebf3", stroke: "#9cc9e8", "stroke-width": 2, class: "gc-sea" }));
  map.append(svg("circle", { cx: SIZE / 2, cy: TOP + SIZE / 2, r: CITY + 0.6 * STEP + 14, fill: "#f5e6a3", stroke: "#c9a227", "stroke-width": 3, class: "gc-city" }));
  const roads = svg("g", { class: "gc-roads", stroke: "#8a6d3b", "stroke-width": 2 });
  for (const { ends: [a, b] } of board.roads) {
    const from = spot.get(a), to = spot.get(b);
    if (from && to) roads.append(svg("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "gc-road" }));
  }
  map.append(roads);
  const building = table.step === "STEP_PAY" ? table.buildingPlace ?? 0 : 0;
  for (const place of board.places) {
    const at = spot.get(place.id);
    if (!at) continue;
    const city = place.kind.startsWith("city");
    const fill = city ? "#e8c547" : LANDSCAPE_FILL[place.kind === "coast" ? "coast" : place.region] ?? "#ddd";
    const where = `place:${place.id}`;
    const marked = marks.has(where);
    const group = svg("g", { class: "gc-place", "data-place": place.id });
    if (!marked) group.append(svg("title", {}, placeText(place)));
    if (marked) group.append(svg("circle", { cx: at.x, cy: at.y, r: 19, fill: "#fff3dd", stroke: MARKED, "stroke-width": 3 }));
    if (place.id === building) {
      group.append(svg("circle", { cx: at.x, cy: at.y, r: 20, fill: seatColour(data, table.actor ?? 0), stroke: "#b3261e", "stroke-width": 3, "stroke-dasharray": "5 3", class: "gc-building" }));
    }
    group.append(svg("circle", { cx: at.x, cy: at.y, r: 14, fill, stroke: place.kind === "coast" ? "#2b6ca3" : place.onRiver ? "#3f86c6" : "#555", "stroke-width": place.onRiver ? 3 : 1 }));
    if (city) {
      if (place.kind === "city_inner") group.append(svg("polygon", { points: starPoints(at.x, at.y, 7), fill: "#fff7cc", stroke: "#a8841a" }));
      else group.append(landscapeIcon(at.x, at.y, 16, place.region));
    } else group.append(bonusIcon(at.x, at.y, place.bonusType, place.bonusAmount));
    const here = houses.get(place.id) ?? [];
    here.forEach((fill, i) => {
      const offset = city ? [[10, -12], [-10, -12], [10, 12], [-10, 12]][i % 4] : [9, -11];
      group.append(house(at.x + offset[0], at.y + offset[1], 13, fill));
    });
    map.append(marks.mark(group, where));
  }
  return map;
}

/** A place in words: its name, kind and bonus. */
function placeText(place: Place): string {
  const kind = kindName(place.kind);
  if (place.kind.startsWith("city") || place.bonusType === "none") return t("goldencity.web.place_city", "{name}: {kind}", { name: place.name, kind });
  return t("goldencity.web.place", "{name}: {kind}, bonus {bonus} {amount}", { name: place.name, kind, bonus: bonusName(place.bonusType), amount: place.bonusAmount });
}

function drawLegend(y: number): SVGElement {
  const legend = at(8, y, "gc-legend");
  let x = 0;
  for (const bonus of BONUSES) {
    legend.append(bonusIcon(x + 6, 10, bonus, bonus === "letters" ? 2 : 1));
    const name = bonusName(bonus);
    const gap = bonus === "letters" ? 24 : 16;
    legend.append(text(x + gap, 14, name, { "font-size": 10, fill: "#444" }));
    x += gap + 12 + textWidth(name, 10);
  }
  x = 0;
  for (const landscape of LANDSCAPES) {
    legend.append(svg("circle", { cx: x + 6, cy: 30, r: 6, fill: LANDSCAPE_FILL[landscape], stroke: landscape === "coast" ? "#2b6ca3" : "#555" }));
    const name = landscape === "coast" ? kindName("coast") : landscapeName(landscape);
    legend.append(text(x + 16, 34, name, { "font-size": 10, fill: "#444" }));
    x += 28 + textWidth(name, 10);
  }
  legend.append(svg("circle", { cx: x + 6, cy: 30, r: 6, fill: "#e8c547", stroke: "#555" }));
  legend.append(text(x + 16, 34, t("goldencity.web.city_parts", "{outer} / {inner}", { outer: kindName("city_outer"), inner: kindName("city_inner") }), { "font-size": 10, fill: "#444" }));
  return legend;
}

// The column beside the map.

function panel(title: string, height: number, cls: string, size = 12): SVGElement {
  const group = svg("g", { class: cls, "data-height": height });
  group.append(box(0, 0, RIGHT_WIDTH, height, PANEL), text(8, 4 + size, title, { "font-size": size, "font-weight": "bold", fill: INK }));
  return group;
}

function drawTurn(view: Json, data: Json, board: SetBoard, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const step = key(table.step);
  const over = step === "game_over";
  const group = panel(t("goldencity.web.round", "Round {round} of {rounds}", { round: table.round ?? 0, rounds: board.scoringCards.length || 16 }), 116, "gc-turn", 15);
  if (table.lastRound && !over) {
    group.append(box(RIGHT_WIDTH - 96, 4, 90, 18, "#b3261e", { stroke: "none", rx: 9 }),
      text(RIGHT_WIDTH - 51, 17, t("goldencity.web.last_round", "last round"), { "font-size": 11, "text-anchor": "middle", fill: "#fff", "font-weight": "bold" }));
  }
  const actor = table.actor ?? 0;
  if (over) group.append(text(8, 40, t("goldencity.web.game_over", "The game is over."), { "font-size": 14, "font-weight": "bold", class: "gc-whose-turn" }));
  else {
    group.append(house(16, 35, 14, seatColour(data, actor)));
    group.append(text(30, 40, t("goldencity.web.to_act", "Seat {seat} to act: {step}", { seat: actor, step: stepName(step) }), { "font-size": 14, "font-weight": "bold", class: "gc-whose-turn" }));
  }
  const detail = ((): string => {
    switch (step) {
      case "bid": return t("goldencity.web.bidding", "Coins to displace a bid: {price}", { price: (table.displacement ?? 0) + 1 });
      case "build": return t("goldencity.web.building", "Houses built this turn: {builds} of {most}", { builds: table.builds ?? 0, most: BUILDS_PER_TURN });
      case "pay": {
        const place = board.places[(table.buildingPlace ?? 0) - 1];
        const what = table.buildingBlack ? t("goldencity.web.black_house", "black house") : t("goldencity.web.house", "house");
        return t("goldencity.web.paying", "Paying for the {house} on {place}; cards still owed: {owed}", { house: what, place: place?.name ?? "?", owed: table.owed ?? 0 });
      }
      case "choose_goods_card": return t("goldencity.web.choose_goods", "Take one of the face-up goods cards");
      case "choose_bonus_card": return t("goldencity.web.choose_bonus", "Seat {seat} takes one of the bonus cards", { seat: table.bonusChooser ?? actor });
      case "discard": return t("goldencity.web.discarding", "Discard down to {limit} landscape cards", { limit: HAND_LIMIT });
      default: return "";
    }
  })();
  lines(detail, 11, RIGHT_WIDTH - 16, 2).forEach((line, i) => group.append(text(8, 60 + i * 13, line, { "font-size": 11, fill: "#333" })));
  const start = table.startPlayer ?? 0;
  group.append(svg("circle", { cx: 18, cy: 94, r: 11, fill: seatColour(data, start), stroke: "#5b4a3a" }), keyIcon(18, 94, 16, inkOn(seatColour(data, start)) === "#fff" ? "#ffe38a" : "#7a5a10"));
  group.append(text(36, 98, t("goldencity.web.start_player", "Start player's key: seat {seat}", { seat: start }), { "font-size": 11, class: "gc-start-player" }));
  if (marks.has("end")) {
    const button = at(RIGHT_WIDTH - 128, 78, "gc-end-building");
    button.append(box(0, 0, 120, 30, "#f7d9a8", { rx: 15, stroke: MARKED, "stroke-width": 3 }),
      text(60, 20, t("goldencity.web.end_building", "Build no more"), { "font-size": 13, "font-weight": "bold", "text-anchor": "middle" }));
    group.append(marks.mark(button, "end"));
  }
  return group;
}

function drawScoring(view: Json, board: SetBoard): SVGElement {
  const table = view.table ?? {};
  const backs: number[] = view.scoringBacks ?? [];
  const scored: number[] = table.scoredCards ?? [];
  const group = panel(t("goldencity.web.scoring", "Scoring card"), 104, "gc-scoring");
  group.append(text(RIGHT_WIDTH - 8, 16, t("goldencity.web.scored", "{scored} scored, {left} to come", { scored: scored.length, left: backs.length }), { "font-size": 11, "text-anchor": "end", fill: "#444" }));
  const card = table.scoringCard ?? 0;
  const last = scored[scored.length - 1] ?? 0;
  if (card) group.append(textCard(8, 24, 150, 72, board.scoringCards, card, "#f3e3b0", "gc-scoring-card"));
  else if (last && key(table.step) !== "bid") {
    // This round's card, scored (out of the game).
    const done = textCard(8, 24, 150, 72, board.scoringCards, last, "#e4ddcb", "gc-scoring-card gc-scored");
    done.setAttribute("opacity", "0.75");
    group.append(done, text(150, 90, t("goldencity.web.scored_stamp", "scored"), { "font-size": 12, "font-weight": "bold", "text-anchor": "end", fill: "#b3261e", transform: "rotate(-8 150 90)" }));
  } else group.append(box(8, 24, 150, 72, "none", { "stroke-dasharray": "4 3" }), text(83, 64, t("goldencity.web.no_scoring_card", "none revealed"), { "font-size": 10, "text-anchor": "middle", fill: "#777" }));
  // The coming cards, top first: each run of one back value as a stack with its count.
  const coming = [...backs].reverse();
  const runs: { back: number; count: number }[] = [];
  for (const back of coming) {
    if (runs.length && runs[runs.length - 1].back === back) runs[runs.length - 1].count += 1;
    else runs.push({ back, count: 1 });
  }
  const step = Math.min(56, (RIGHT_WIDTH - 176) / Math.max(runs.length, 1));
  runs.forEach(({ back, count }, i) => {
    const x = 170 + i * step;
    const pile = svg("g", { class: "gc-scoring-backs", "data-back": back });
    for (let n = Math.min(count, 4) - 1; n >= 0; n--) pile.append(cardBack(x + n * 3, 28 - n * 2, 26, 38, ["#6b8fb5", "#4f6f95", "#344f75"][back - 1] ?? "#555", n ? "" : String(back)));
    pile.append(text(x + 16, 82, t("goldencity.web.times", "×{count}", { count }), { "font-size": 10, "text-anchor": "middle", fill: "#444" }));
    group.append(pile);
  });
  if (coming.length) group.append(text(170, 97, t("goldencity.web.next_back", "next: a card of back {back}", { back: coming[0] }), { "font-size": 10, fill: "#444" }));
  return group;
}

function drawPairs(view: Json, data: Json, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const pairs: Json[] = table.pairs ?? [];
  const price = (table.displacement ?? 0) + 1;
  const group = panel(t("goldencity.web.pairs", "Landscape pairs"), pairs.length ? 118 : 44, "gc-pairs");
  if (!pairs.length) {
    group.append(text(8, 34, t("goldencity.web.no_pairs", "None on display (the bidding is over)"), { "font-size": 11, fill: "#666" }));
    return group;
  }
  const width = Math.min(80, (RIGHT_WIDTH - 16) / pairs.length - 4);
  pairs.forEach((pair, i) => {
    const x = 8 + i * (width + 4);
    const where = `pair:${i}`;
    const marked = marks.has(where);
    const cell = at(x, 24, "gc-pair");
    cell.setAttribute("data-pair", String(i));
    const bidder = pair.bidSeat ?? -1;
    cell.append(box(0, 0, width, 88, marked ? "#fff3dd" : PAPER, { stroke: marked ? MARKED : EDGE, "stroke-width": marked ? 3 : 1 }));
    const cards: string[] = (pair.cards ?? []).map(key);
    const cardWidth = Math.min(32, (width - 10) / Math.max(cards.length, 1) - 2);
    cards.forEach((landscape, c) => cell.append(landscapeCard(5 + c * (cardWidth + 3), 5, cardWidth, 44, landscape, false)));
    if (bidder >= 0) {
      const colour = seatColour(data, bidder);
      cell.append(svg("rect", { x: 5, y: 54, width: width - 10, height: 16, rx: 8, fill: colour, stroke: "#333", class: "gc-bid-hand" }),
        text(width / 2, 66, t("goldencity.web.bid_by", "seat {seat}", { seat: bidder }), { "font-size": 10, "text-anchor": "middle", fill: inkOn(colour), "font-weight": "bold" }),
        text(width / 2 - 6, 83, t("goldencity.web.displace", "displace: {price}", { price }), { "font-size": 9.5, "text-anchor": "middle", fill: "#444" }),
        coinIcon(width / 2 + 30, 80, 4.5));
    } else cell.append(text(width / 2, 66, t("goldencity.web.free_pair", "free"), { "font-size": 11, "text-anchor": "middle", fill: "#2f6b35", "font-weight": "bold" }));
    group.append(marks.mark(cell, where));
  });
  return group;
}

function drawGoods(view: Json, board: SetBoard, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const shown: number[] = table.goodsDisplay ?? [];
  const group = panel(t("goldencity.web.goods_display", "Goods cards on display"), 96, "gc-goods-display");
  group.append(cardBack(RIGHT_WIDTH - 48, 24, 40, 56, "#8a6a3a", String(view.goodsDeckSize ?? 0)),
    text(RIGHT_WIDTH - 28, 92, t("goldencity.web.deck", "deck"), { "font-size": 9, "text-anchor": "middle", fill: "#444" }));
  if (!shown.length) group.append(text(8, 50, t("goldencity.web.none_left", "none left"), { "font-size": 11, fill: "#666" }));
  const width = Math.min(88, (RIGHT_WIDTH - 64) / Math.max(shown.length, 1) - 4);
  shown.forEach((card, i) => {
    const where = `goods:${card}`;
    const drawn = textCard(8 + i * (width + 4), 24, width, 62, board.goodsCards, card, "#ead2a8", "gc-goods-card", marks.has(where));
    group.append(marks.mark(drawn, where));
  });
  return group;
}

function drawSupplies(view: Json, board: SetBoard, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const choosing: number[] = view.bonusSupply ?? [];
  const perRow = 4, cardWidth = (RIGHT_WIDTH - 16) / perRow - 4;
  const rows = Math.ceil(choosing.length / perRow);
  const height = 92 + (rows ? 20 + rows * 60 : 0);
  const group = panel(t("goldencity.web.supplies", "Supplies"), height, "gc-supplies");
  const discard: string[] = table.landscapeDiscard ?? [];
  const stacks: [string, SVGElement, string][] = [
    [t("goldencity.web.landscape_deck", "landscape deck"), cardBack(0, 0, 36, 50, "#4d7a3a", String(view.landscapeDeckSize ?? 0)), "gc-landscape-deck"],
    [t("goldencity.web.discard_pile", "discard pile: {count}", { count: discard.length }),
      discard.length ? landscapeCard(0, 0, 36, 50, key(discard[discard.length - 1]), false) : box(0, 0, 36, 50, "none", { "stroke-dasharray": "4 3" }), "gc-discard"],
    [t("goldencity.web.bonus_supply", "bonus cards: {count}", { count: view.bonusSupplySize ?? 0 }), cardBack(0, 0, 36, 50, "#8e5ea2", String(view.bonusSupplySize ?? 0)), "gc-bonus-supply"],
    [t("goldencity.web.key_supply", "keys: {count}", { count: table.keySupply ?? 0 }), svg("g", {}, box(0, 0, 36, 50, "#fff8e0"), keyIcon(18, 20, 24, "#8a6410"), text(18, 44, String(table.keySupply ?? 0), { "font-size": 12, "font-weight": "bold", "text-anchor": "middle" })), "gc-key-supply"],
  ];
  const step = (RIGHT_WIDTH - 16) / stacks.length;
  stacks.forEach(([label, drawn, cls], i) => {
    const cell = at(8 + i * step + (step - 36) / 2, 22, cls);
    cell.append(drawn, text(18, 64, label, { "font-size": 9.5, "text-anchor": "middle", fill: "#444" }));
    group.append(cell);
  });
  if (rows) {
    group.append(text(8, 104, t("goldencity.web.bonus_choice", "The bonus cards to choose from (only you see them)"), { "font-size": 11, "font-weight": "bold" }));
    choosing.forEach((card, i) => {
      const where = `bonus:${card}`;
      const drawn = textCard(8 + (i % perRow) * (cardWidth + 4), 112 + Math.floor(i / perRow) * 60, cardWidth, 56, board.bonusCards, card, "#e2d0ec", "gc-bonus-offer", marks.has(where));
      group.append(marks.mark(drawn, where));
    });
  }
  return group;
}

// The seats.

function drawSeat(view: Json, data: Json, board: SetBoard, player: Json, seat: number, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const config = table.config ?? {};
  const over = key(table.step) === "game_over";
  const colour = seatColour(data, seat);
  const width = WIDTH - 20;
  const built = (player.houses ?? []).length, black = (player.blackHouses ?? []).length;
  const group = svg("g", { class: "gc-seat", "data-seat": seat });
  const acting = !over && (table.actor ?? 0) === seat;
  // Its holdings, left to right: the tally, the hand, the goods cards, the bonus cards.
  const hand = drawHand(view, player, seat, config, marks);
  const goods: number[] = player.goodsCards ?? [];
  const bonusShown = Boolean(config.bonusCardsPublic) || seat === view.seat || over;
  const bonus: number[] = player.bonusCards?.cards ?? [];
  const bonusCount = bonusShown ? bonus.length : (view.bonusCardCounts ?? [])[seat] ?? 0;
  const cardsPerRow = 4;
  const goodsRows = Math.max(1, Math.ceil(goods.length / cardsPerRow));
  const bonusRows = Math.max(1, Math.ceil((bonusShown ? bonus.length : 1) / 3));
  const bonusHeight = bonusShown ? bonusRows * 62 : 50;
  const tallyLines = 4 + (black || player.blackHousesLeft ? 1 : 0) + (over ? 1 : 0);
  const height = Math.max(44 + tallyLines * 17, 12 + hand.height, 30 + goodsRows * 50, 30 + bonusHeight) + 6;
  group.setAttribute("data-height", String(height));
  group.append(box(0, 0, width, height, seat === view.seat ? "#fffaf0" : PAPER, { stroke: acting ? "#b3261e" : EDGE, "stroke-width": acting ? 3 : 1 }));
  group.append(svg("rect", { x: 0, y: 0, width: 8, height, rx: 3, fill: colour, stroke: "#5b4a3a", "stroke-width": 0.8 }));
  group.append(house(24, 15, 16, colour));
  const you = seat === view.seat ? t("goldencity.web.you", " (you)") : "";
  const name = t("goldencity.web.seat", "Seat {seat}{you}", { seat, you });
  group.append(text(38, 20, name, { "font-size": 14, "font-weight": "bold" }));
  let tag = 46 + textWidth(name, 14) * 1.1;
  if ((table.startPlayer ?? 0) === seat) {
    const startKey = keyIcon(tag + 8, 15, 18, "#8a6410");
    startKey.append(svg("title", {}, t("goldencity.web.start_key", "start player's key")));
    group.append(startKey);
    tag += 22;
  }
  if (acting) group.append(text(tag, 20, t("goldencity.web.acting", "to act"), { "font-size": 11, fill: "#b3261e", "font-weight": "bold" }));
  // The tally.
  const tally: [SVGElement, string][] = [
    [coinIcon(20, 0, 6), t("goldencity.web.coins", "Coins: {count}", { count: player.coins ?? 0 })],
    [letterIcon(20, 0, 12), t("goldencity.web.letters", "Trade letters: {count}", { count: player.letters ?? 0 })],
    [keyIcon(20, 0, 16, "#8a6410"), t("goldencity.web.keys", "Keys: {count}", { count: player.keys ?? 0 })],
    [house(20, 0, 12, colour), t("goldencity.web.houses", "Houses: {built} built, {left} left", { built, left: player.housesLeft ?? 0 })],
  ];
  if (black || player.blackHousesLeft) tally.push([house(20, 0, 12, blackColour(data)), t("goldencity.web.black_houses", "Black houses: {built} built, {left} left", { built: black, left: player.blackHousesLeft ?? 0 })]);
  if (over) tally.push([svg("polygon", { points: starPoints(20, 0, 6), fill: "#8e5ea2" }), t("goldencity.web.final", "Bonus card points: {bonus}; total: {total}", { bonus: player.bonusPoints ?? 0, total: (player.letters ?? 0) + (player.bonusPoints ?? 0) })]);
  tally.forEach(([icon, words], i) => {
    const line = at(0, 40 + i * 17, "gc-tally");
    line.append(icon, text(34, 4, words, { "font-size": 11.5 }));
    group.append(line);
  });
  hand.group.setAttribute("transform", `translate(250,6)`);
  group.append(hand.group);
  // The goods cards (public).
  const goodsLeft = 560;
  group.append(text(goodsLeft, 20, t("goldencity.web.goods_cards", "Goods cards: {count}", { count: goods.length }), { "font-size": 11, "font-weight": "bold" }));
  goods.forEach((card, i) => group.append(textCard(goodsLeft + (i % cardsPerRow) * 66, 28 + Math.floor(i / cardsPerRow) * 50, 62, 46, board.goodsCards, card, "#ead2a8", "gc-held-goods")));
  // The bonus cards: faces where the seat looking may see them, else backs and a count.
  const bonusLeft = 836;
  group.append(text(bonusLeft, 20, t("goldencity.web.bonus_cards", "Bonus cards: {count}", { count: bonusCount }), { "font-size": 11, "font-weight": "bold" }));
  if (bonusShown) bonus.forEach((card, i) => group.append(textCard(bonusLeft + (i % 3) * 72, 28 + Math.floor(i / 3) * 62, 68, 58, board.bonusCards, card, "#e2d0ec", "gc-held-bonus")));
  else for (let i = 0; i < Math.min(bonusCount, 8); i++) group.append(cardBack(bonusLeft + i * 12, 28, 34, 46, "#8e5ea2"));
  return group;
}

/** A seat's landscape hand: face up by landscape (each stack with its count) where the seat looking
 * may see it, else card backs and a count; the seat's marks on the cards it may pay or discard, and
 * the joker pairs it may pay. */
function drawHand(view: Json, player: Json, seat: number, config: Json, marks: Marks): { group: SVGElement; height: number } {
  const group = svg("g", { class: "gc-hand", "data-seat": seat });
  const shown = Boolean(config.publicHands) || seat === view.seat;
  const size = (view.handSizes ?? [])[seat] ?? 0;
  group.append(text(0, 14, t("goldencity.web.hand", "Landscape cards in hand: {count}", { count: size }), { "font-size": 11, "font-weight": "bold" }));
  const cardW = 46, cardH = 64;
  if (!shown) {
    for (let i = 0; i < Math.min(size, 10); i++) group.append(cardBack(i * 14, 22, cardW, cardH, "#4d7a3a"));
    return { group, height: 22 + cardH };
  }
  const counts = new Map<string, number>();
  for (const card of player.hand?.cards ?? []) counts.set(key(card), (counts.get(key(card)) ?? 0) + 1);
  let x = 0;
  for (const landscape of LANDSCAPES) {
    const count = counts.get(landscape) ?? 0;
    if (!count) continue;
    const where = `hand:${landscape}`;
    const stack = svg("g", { class: "gc-hand-stack", "data-landscape": landscape });
    for (let i = Math.min(count, 3) - 1; i > 0; i--) stack.append(svg("rect", { x: x + i * 3, y: 22 - i * 3, width: cardW, height: cardH, rx: 4, fill: LANDSCAPE_FILL[landscape], stroke: "#5b4a3a" }));
    stack.append(landscapeCard(x, 22, cardW, cardH, landscape, true, marks.has(where)));
    if (count > 1) {
      stack.append(svg("circle", { cx: x + cardW - 8, cy: 30, r: 8.5, fill: "#fff", stroke: "#5b4a3a" }),
        text(x + cardW - 8, 34, t("goldencity.web.times", "×{count}", { count }), { "font-size": 10, "font-weight": "bold", "text-anchor": "middle" }));
    }
    group.append(marks.mark(stack, where));
    x += cardW + 12;
  }
  if (!counts.size) group.append(text(0, 50, t("goldencity.web.no_cards", "no cards"), { "font-size": 11, fill: "#777" }));
  // The joker pairs the seat may pay now: two cards for one.
  const jokers = marks.keys("joker:");
  if (!jokers.length) return { group, height: 22 + cardH };
  group.append(text(0, 104, t("goldencity.web.jokers", "Joker: two cards for one"), { "font-size": 11, "font-weight": "bold" }));
  jokers.forEach((where, i) => {
    const [first, second] = where.slice("joker:".length).split("+");
    const chip = svg("g", { class: "gc-joker", "data-pair": `${first}+${second}` });
    const cx = (i % 6) * 50, cy = 110 + Math.floor(i / 6) * 44;
    chip.append(box(cx - 2, cy - 2, 46, 42, "#fff3dd", { stroke: MARKED, "stroke-width": 2.5 }));
    chip.append(landscapeCard(cx + 2, cy + 2, 24, 34, first, false), landscapeCard(cx + 16, cy + 2, 24, 34, second, false));
    group.append(marks.mark(chip, where));
  });
  return { group, height: 110 + Math.ceil(jokers.length / 6) * 44 };
}
