// Puerto Rico's table as its players lay it out: the role cards with their doubloons, the cargo ships
// and the trading house, the supplies (colonist ship and supply, VP chips, quarries, the face-up
// plantations and the stack), the building market (prices, points, copies left), and each seat's
// island and city with colonists, goods, doubloons and VP chips where the view shows them. Each legal
// action of the seat is marked where it applies (svg.actionable): a role card, a plantation, a
// building in the market, a ship, the trading house, a space of the seat's own island or city, a good
// of its stock, the pass button. Drawn from the view and the title's data (TitleData) only.
import { t, term } from "../i18n";
import { actionable, picture, svg, text, type Json, type Legal } from "./svg";

// An element every drawing of this board has (the browser tests look for it).
export const MARK = ".pr-island";

const TITLE = "puertorico";
const WIDTH = 1080;
const GOODS = ["corn", "indigo", "sugar", "tobacco", "coffee"];
const GOOD_FILL: Record<string, string> = {
  corn: "#f3cf3a", indigo: "#2f4fb5", sugar: "#fbfbf7", tobacco: "#b9814a", coffee: "#3d2616",
  quarry: "#8d8d8d", forest: "#2f6b35",
};
const GOOD_INK: Record<string, string> = { indigo: "#fff", coffee: "#fff", forest: "#fff", quarry: "#fff" };
const VIOLET = "#d9c3e6";
const SEA = "#cfe3ee";
const INK = "#2b2b2b";
const COLONIST = "#6b3f1d";
const COLUMNS = 4; // the market's columns: buildings of 1, 2, 3 and 4 (or more) points

/** The snake_case key of an enum name: "BUILDING_SMALL_MARKET" -> "small_market". */
function key(name: unknown): string {
  const parts = String(name ?? "").toLowerCase().split("_");
  return parts.at(-1) === "unspecified" ? "" : parts.slice(1).join("_");
}

/** The English words of a key: "small_market" -> "small market". */
function words(k: string): string {
  return k.replace(/_/g, " ");
}

function goodName(good: string): string {
  return term(TITLE, "good", good, words(good));
}

function buildingName(k: string, data: Json): string {
  const row = buildingRow(k, data);
  return term(TITLE, "building", k, row?.name ?? words(k));
}

function buildingRow(k: string, data: Json): Json | undefined {
  return (data?.buildings ?? []).find((row: Json) => String(row.name ?? "").replace(/ /g, "_") === k);
}

/** The good a production building makes ("" for a violet one), from its name. */
function madeBy(k: string): string {
  return GOODS.find((good) => k.includes(good)) ?? "";
}

function tileKind(tile: unknown): string {
  return key(tile).replace(/_plantation$/, "");
}

/** Where on the table an action applies (a key the drawing marks), or "" for one left to the list. */
function placeOf(action: Json): string {
  const [kind, value]: [string, Json] = Object.entries(action ?? {})[0] ?? ["", null];
  const target = (v: Json) => (v?.tile ? `tile:${key(v.tile)}` : v?.building ? `building:${key(v.building)}` : "");
  switch (kind) {
    case "chooseRole": return `role:${key(value)}`;
    case "takePlantation": return `plantation:${key(value)}`;
    case "takeQuarry": return "quarry";
    case "haciendaDraw": return "building:hacienda";
    case "takeForest": case "placeDrawnTile": return "stack";
    case "hospiceColonist": return "building:hospice";
    case "universityColonist": return "building:university";
    case "mayorPrivilege": return "colonists";
    case "placeColonist": case "moveGuest": return target(value);
    case "moveColonist": return target(value?.destination);
    case "returnColonist": return value?.sanJuan ? "sanjuan" : target(value);
    case "build": case "draftBuilding": return `market:${key(value)}`;
    case "craftsmanBonus": case "storeInWarehouse": case "keepSingle": case "blackMarketGood": return `good:${key(value)}`;
    case "sell": return "trading";
    case "sellToTradingPost": return "building:trading_post";
    case "load": return `ship:${value?.ship ?? 0}`;
    case "shipWithWharf": return "building:wharf";
    case "useSmallWharf": case "smallWharfGoods": case "shipSmallWharf": return "building:small_wharf";
    case "blackMarketColonist": case "blackMarketVp": return "building:black_market";
    case "pass": return "pass";
    default: return "";
  }
}

/** The seat's legal actions by the place they apply to, and a way to mark a drawn element with them. */
function places(legal: Legal[]) {
  const byPlace = new Map<string, Legal[]>();
  for (const l of legal) {
    const place = placeOf(l.action);
    if (place) byPlace.set(place, [...(byPlace.get(place) ?? []), l]);
  }
  return {
    has: (place: string) => byPlace.has(place),
    mark: (element: SVGElement, place: string) => actionable(element, byPlace.get(place) ?? []),
  };
}

type Marks = ReturnType<typeof places>;

function box(x: number, y: number, width: number, height: number, fill: string, attrs: Record<string, string | number> = {}): SVGElement {
  return svg("rect", { x, y, width, height, rx: 4, fill, stroke: "#5b4a3a", "stroke-width": 1, ...attrs });
}

function colonist(cx: number, cy: number, r = 5): SVGElement {
  return svg("circle", { cx, cy, r, fill: COLONIST, stroke: "#fff", "stroke-width": 1, class: "pr-colonist" });
}

function barrel(x: number, y: number, good: string, size = 14): SVGElement {
  return svg("rect", { x, y, width: size, height: size, rx: 3, fill: GOOD_FILL[good] ?? "#ddd", stroke: "#333", "stroke-width": 0.8, class: `pr-good pr-${good}` });
}

/** A group drawn at (x, y), so a part is laid out from its own corner. */
function at(x: number, y: number, cls: string): SVGElement {
  return svg("g", { transform: `translate(${x},${y})`, class: cls });
}

export function drawPuertoRico(view: Json, data: Json, legal: Legal[]): SVGElement {
  const table = view.table ?? {};
  const players: Json[] = table.players ?? [];
  const marks = places(legal);
  const seatRows = Math.ceil(players.length / 2);
  const marketTop = 112;
  const market = drawMarket(table, data, marks);
  const marketHeight = Number(market.getAttribute("data-height"));
  const playersTop = marketTop + Math.max(marketHeight, 360) + 16;
  const height = playersTop + seatRows * 244 + 8;
  const board = picture(t("puertorico.web.title", "Puerto Rico"), WIDTH, height);
  board.classList.add("pr-board");
  board.append(svg("rect", { x: 0, y: 0, width: WIDTH, height, fill: "#f6efdc" }));
  board.append(drawHeader(view, marks));
  board.append(drawRoles(table, marks));
  const left = at(10, marketTop, "pr-supply");
  left.append(drawShips(table, marks), drawTradingHouse(table, data, marks), drawSupplies(view, marks));
  board.append(left);
  market.setAttribute("transform", `translate(440,${marketTop})`);
  board.append(market);
  players.forEach((player, seat) => {
    const x = 10 + (seat % 2) * 535, y = playersTop + Math.floor(seat / 2) * 244;
    board.append(drawSeat(view, data, player, seat, x, y, seat === view.seat ? marks : places([])));
  });
  return board;
}

function drawHeader(view: Json, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const group = at(10, 0, "pr-header");
  const step = key(table.step);
  const role = key(table.role);
  const over = step === "game_over";
  const doing = over ? t("puertorico.web.game_over", "Game over")
    : role ? t("puertorico.web.phase", "{role} phase, seat {seat} acts", { role: term(TITLE, "role", role, words(role)), seat: table.actor ?? 0 })
    : t("puertorico.web.choosing", "Seat {seat} chooses a role", { seat: table.actor ?? 0 });
  group.append(
    text(0, 20, t("puertorico.web.round", "Round {round}", { round: table.round ?? 0 }), { "font-size": 15, "font-weight": "bold", fill: INK }),
    text(90, 20, doing, { "font-size": 14, fill: INK, class: "pr-turn" }),
  );
  if (marks.has("pass")) {
    const button = at(WIDTH - 130, 4, "pr-pass");
    button.append(box(0, 0, 100, 24, "#f7d9a8", { rx: 12 }), text(50, 16, t("puertorico.web.pass", "Pass"), { "text-anchor": "middle", "font-size": 13, "font-weight": "bold" }));
    group.append(marks.mark(button, "pass"));
  }
  return group;
}

function drawRoles(table: Json, marks: Marks): SVGElement {
  const group = at(10, 32, "pr-roles");
  const cards: Json[] = table.roles ?? [];
  const width = Math.min(128, (WIDTH - 20 - 6 * cards.length) / Math.max(cards.length, 1));
  cards.forEach((card, i) => {
    const role = key(card.role);
    const current = key(table.role) === role;
    const cardGroup = at(i * (width + 6), 0, `pr-role${card.taken ? " pr-taken" : ""}`);
    cardGroup.setAttribute("data-role", role);
    cardGroup.append(box(0, 0, width, 66, card.taken ? "#cfc7b8" : "#f1dca4", { "stroke-width": current ? 3 : 1, stroke: current ? "#b3261e" : "#5b4a3a" }));
    cardGroup.append(text(width / 2, 20, term(TITLE, "role", role.replace(/_2$/, ""), words(role.replace(/_2$/, ""))), { "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: card.taken ? "#6d6558" : INK }));
    const coins = card.doubloons ?? 0;
    for (let c = 0; c < Math.min(coins, 6); c++) {
      cardGroup.append(svg("circle", { cx: 14 + c * 12, cy: 44, r: 6, fill: "#d8a521", stroke: "#8a6410" }));
    }
    if (coins) cardGroup.append(text(width - 8, 48, String(coins), { "text-anchor": "end", "font-size": 12, "font-weight": "bold" }));
    if (card.taken) cardGroup.append(text(width / 2, 60, t("puertorico.web.taken", "taken"), { "text-anchor": "middle", "font-size": 10, fill: "#6d6558" }));
    group.append(marks.mark(cardGroup, `role:${role}`));
  });
  return group;
}

function drawShips(table: Json, marks: Marks): SVGElement {
  const group = at(0, 0, "pr-ships");
  group.append(box(0, 0, 420, 130, SEA, { stroke: "#7aa" }));
  group.append(text(8, 16, t("puertorico.web.ships", "Cargo ships"), { "font-size": 12, "font-weight": "bold" }));
  (table.cargoShips ?? []).forEach((ship: Json, i: number) => {
    const good = key(ship.good);
    const y = 24 + i * 34;
    const hull = at(8, y, "pr-ship");
    hull.setAttribute("data-ship", String(i));
    const length = 20 * ship.capacity + 30;
    hull.append(svg("path", { d: `M0 4 H${length} L${length - 12} 28 H10 Z`, fill: "#8b5a2b", stroke: "#4a2e14" }));
    for (let slot = 0; slot < ship.capacity; slot++) {
      const filled = slot < (ship.count ?? 0);
      hull.append(filled ? barrel(12 + slot * 20, 8, good, 16)
        : svg("rect", { x: 12 + slot * 20, y: 8, width: 16, height: 16, rx: 3, fill: "#d9c4a0", stroke: "#6b4a2a", "stroke-width": 0.6 }));
    }
    const holds = t("puertorico.web.ship", "{count}/{capacity} {good}", { count: ship.count ?? 0, capacity: ship.capacity, good: good ? goodName(good) : t("puertorico.web.empty", "empty") });
    hull.append(text(length + 8, 20, holds, { "font-size": 11 }));
    group.append(marks.mark(hull, `ship:${i}`));
  });
  return group;
}

function drawTradingHouse(table: Json, data: Json, marks: Marks): SVGElement {
  const group = at(0, 138, "pr-trading-house");
  const capacity = data?.tradingHouseCapacity || 4;
  group.append(box(0, 0, 200, 56, "#e8d2ad"));
  group.append(text(8, 15, t("puertorico.web.trading_house", "Trading house"), { "font-size": 12, "font-weight": "bold" }));
  const held: Json[] = table.tradingHouse ?? [];
  for (let slot = 0; slot < capacity; slot++) {
    const good = key(held[slot]);
    group.append(good ? barrel(10 + slot * 30, 24, good, 22)
      : svg("rect", { x: 10 + slot * 30, y: 24, width: 22, height: 22, rx: 3, fill: "#f6ead4", stroke: "#8a7455", "stroke-dasharray": "3 2" }));
  }
  return marks.mark(group, "trading");
}

function drawSupplies(view: Json, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const group = at(0, 202, "pr-supplies");
  // The colonist ship and the colonist supply, the VP chips, the quarries.
  const ship = at(0, 0, "pr-colonist-ship");
  ship.append(box(0, 0, 200, 40, SEA, { stroke: "#7aa" }), colonist(16, 20, 7),
    text(30, 18, t("puertorico.web.colonist_ship", "Colonist ship: {count}", { count: table.colonistShip ?? 0 }), { "font-size": 12 }),
    text(30, 33, t("puertorico.web.colonist_supply", "Supply: {count}", { count: table.colonistSupply ?? 0 }), { "font-size": 11, fill: "#444" }));
  group.append(marks.mark(ship, "colonists"));
  const vp = at(210, -64, "pr-vp-pool");
  vp.append(box(0, 0, 100, 56, "#efe3c8"), svg("polygon", { points: "16,14 28,22 16,30 4,22", fill: "#c8102e" }),
    text(34, 20, t("puertorico.web.vp_pool", "VP chips"), { "font-size": 11 }),
    text(34, 40, String(table.vpPool ?? 0), { "font-size": 16, "font-weight": "bold" }));
  group.append(vp);
  const quarry = at(320, -64, "pr-quarries");
  quarry.append(box(0, 0, 100, 56, "#e4e0da"), svg("rect", { x: 8, y: 12, width: 26, height: 26, rx: 3, fill: GOOD_FILL.quarry }),
    text(40, 20, t("puertorico.web.quarries", "Quarries"), { "font-size": 11 }),
    text(40, 40, String(table.quarries ?? 0), { "font-size": 16, "font-weight": "bold" }));
  group.append(marks.mark(quarry, "quarry"));
  // The face-up plantations and the face-down stack.
  const fields = at(0, 48, "pr-plantations");
  fields.append(box(0, 0, 420, 64, "#dfe9cf", { stroke: "#7a9a60" }));
  fields.append(text(8, 15, t("puertorico.web.plantations", "Plantations"), { "font-size": 12, "font-weight": "bold" }));
  const stack = at(8, 22, "pr-stack");
  stack.append(box(0, 0, 34, 34, "#55704a"), text(17, 22, String(view.plantationStackSize ?? 0), { "text-anchor": "middle", fill: "#fff", "font-size": 12, "font-weight": "bold" }));
  fields.append(marks.mark(stack, "stack"));
  (table.faceUpPlantations ?? []).forEach((tile: Json, i: number) => {
    const kind = tileKind(tile);
    const plantation = at(54 + i * 40, 22, "pr-plantation-offer");
    plantation.setAttribute("data-tile", kind);
    plantation.append(drawTile(kind, 34, true));
    fields.append(marks.mark(plantation, `plantation:${kind}`));
  });
  group.append(fields);
  // The goods left in the supply.
  const goods = at(0, 120, "pr-goods-supply");
  goods.append(text(0, 12, t("puertorico.web.goods_supply", "Goods in supply"), { "font-size": 11, "font-weight": "bold" }));
  GOODS.forEach((good, i) => {
    goods.append(barrel(i * 62, 18, good, 16), text(i * 62 + 20, 31, String(table.goodsSupply?.[good] ?? 0), { "font-size": 12 }));
  });
  group.append(goods);
  return group;
}

/** An island tile of `kind` ("corn", "quarry", "forest"...) in a `size` square, its name as a tooltip. */
function drawTile(kind: string, size: number, label: boolean): SVGElement {
  const tile = svg("g", { class: `pr-tile pr-tile-${kind}` });
  tile.append(svg("rect", { x: 0, y: 0, width: size, height: size, rx: 4, fill: GOOD_FILL[kind] ?? "#bcd", stroke: "#3a4a2a" }));
  for (let row = 1; row < 3; row++) {
    tile.append(svg("line", { x1: 4, y1: (row * size) / 3, x2: size - 4, y2: (row * size) / 3, stroke: GOOD_INK[kind] ? "#ffffff55" : "#00000026" }));
  }
  const name = kind === "quarry" || kind === "forest" ? term(TITLE, "tile", kind, kind) : t("puertorico.web.plantation", "{good} plantation", { good: goodName(kind) });
  tile.append(svg("title", {}, name));
  if (label) tile.append(text(size / 2, size - 4, name.slice(0, 6), { "text-anchor": "middle", "font-size": 8, fill: GOOD_INK[kind] ?? INK }));
  return tile;
}

function drawMarket(table: Json, data: Json, marks: Marks): SVGElement {
  const group = svg("g", { class: "pr-market" });
  const stock: Json[] = table.buildingsForSale ?? [];
  const columns: Json[][] = Array.from({ length: COLUMNS }, () => []);
  for (const entry of stock) {
    const k = key(entry.building);
    const row = buildingRow(k, data) ?? {};
    columns[Math.min(Math.max(row.vp ?? 1, 1), COLUMNS) - 1].push({ k, row, count: entry.count ?? 0 });
  }
  const cellWidth = 152, cellHeight = 34;
  const rows = Math.max(...columns.map((c) => c.length), 1);
  const height = 22 + rows * (cellHeight + 4) + 6;
  group.setAttribute("data-height", String(height));
  group.append(box(0, 0, COLUMNS * (cellWidth + 4) + 6, height, "#efe6d2"));
  group.append(text(8, 15, t("puertorico.web.market", "Buildings for sale (cost, points, left)"), { "font-size": 12, "font-weight": "bold" }));
  columns.forEach((column, c) => {
    column.sort((a, b) => (a.row.cost ?? 0) - (b.row.cost ?? 0));
    column.forEach(({ k, row, count }: Json, r: number) => {
      const cell = at(6 + c * (cellWidth + 4), 22 + r * (cellHeight + 4), `pr-for-sale${count ? "" : " pr-sold-out"}`);
      cell.setAttribute("data-building", k);
      const good = madeBy(k);
      const large = (row.spaces ?? 1) > 1;
      cell.append(box(0, 0, cellWidth, cellHeight, count ? (good ? GOOD_FILL[good] : VIOLET) : "#ddd", { opacity: count ? 1 : 0.6, "stroke-width": large ? 2 : 1 }));
      const ink = count ? GOOD_INK[good] ?? INK : "#777";
      cell.append(text(5, 13, buildingName(k, data), { "font-size": 10.5, "font-weight": "bold", fill: ink, class: "pr-building-name" }));
      cell.append(text(5, 28, t("puertorico.web.price", "{cost} db · {vp} VP", { cost: row.cost ?? 0, vp: row.vp ?? 0 }), { "font-size": 10, fill: ink }));
      for (let circle = 0; circle < (row.circles ?? 0); circle++) {
        cell.append(svg("circle", { cx: 92 + circle * 10, cy: 24, r: 4, fill: "#fff", stroke: "#555", "stroke-width": 0.8 }));
      }
      cell.append(text(cellWidth - 5, 28, t("puertorico.web.left", "×{count}", { count }), { "text-anchor": "end", "font-size": 11, "font-weight": "bold", fill: ink, class: "pr-left" }));
      group.append(marks.mark(cell, `market:${k}`));
    });
  });
  return group;
}

function drawSeat(view: Json, data: Json, player: Json, seat: number, x: number, y: number, marks: Marks): SVGElement {
  const table = view.table ?? {};
  const group = at(x, y, "pr-player");
  group.setAttribute("data-seat", String(seat));
  const acting = table.actor === seat && key(table.step) !== "game_over";
  group.append(box(0, 0, 525, 236, seat === view.seat ? "#fffaf0" : "#f9f4e8", { "stroke-width": acting ? 3 : 1, stroke: acting ? "#b3261e" : "#5b4a3a" }));
  const you = seat === view.seat ? t("puertorico.web.you", " (you)") : "";
  group.append(text(10, 18, t("puertorico.web.seat", "Seat {seat}{you}", { seat, you }), { "font-size": 14, "font-weight": "bold" }));
  if (table.governor === seat) {
    const crown = at(110, 4, "pr-governor");
    crown.append(box(0, 0, 74, 18, "#3c2a6b", { rx: 9 }), text(37, 13, t("puertorico.web.governor", "Governor"), { "text-anchor": "middle", fill: "#fff", "font-size": 10, "font-weight": "bold" }));
    group.append(crown);
  }
  const vp = (view.vpChips ?? []).find((entry: Json) => (entry.seat ?? 0) === seat);
  const purse = [
    t("puertorico.web.doubloons", "{count, plural, one {# doubloon} other {# doubloons}}", { count: player.doubloons ?? 0 }),
    ...(vp ? [t("puertorico.web.vp", "{count, plural, one {# VP chip} other {# VP chips}}", { count: vp.vpChips ?? 0 })] : []),
  ].join(" · ");
  group.append(text(515, 18, purse, { "text-anchor": "end", "font-size": 12, class: "pr-purse" }));
  group.append(drawIsland(player, marks), drawCity(player, data, marks), drawStock(player, marks));
  return group;
}

function drawIsland(player: Json, marks: Marks): SVGElement {
  const group = at(10, 28, "pr-island");
  const size = 40;
  group.append(box(-4, -4, 4 * (size + 4) + 4, 3 * (size + 4) + 4, "#a9d39a", { stroke: "#5d8a4f" }));
  const tiles: { kind: string; occupied: boolean }[] = [];
  for (const entry of player.island ?? []) {
    for (let n = 0; n < (entry.count ?? 0); n++) tiles.push({ kind: tileKind(entry.tile), occupied: n < (entry.occupied ?? 0) });
  }
  for (let space = 0; space < 12; space++) {
    const tile = tiles[space];
    const cell = at((space % 4) * (size + 4), Math.floor(space / 4) * (size + 4), tile ? "pr-island-tile" : "pr-space");
    if (!tile) {
      cell.append(svg("rect", { x: 0, y: 0, width: size, height: size, rx: 4, fill: "#c4e3b8", stroke: "#8ab47c", "stroke-dasharray": "3 2" }));
      group.append(cell);
      continue;
    }
    cell.setAttribute("data-tile", tile.kind);
    cell.append(drawTile(tile.kind, size, false));
    cell.append(svg("circle", { cx: size / 2, cy: size / 2, r: 7, fill: "none", stroke: GOOD_INK[tile.kind] ?? "#333", "stroke-width": 1 }));
    if (tile.occupied) cell.append(colonist(size / 2, size / 2, 6));
    const k = tile.kind === "quarry" || tile.kind === "forest" ? tile.kind : `${tile.kind}_plantation`;
    group.append(marks.mark(cell, `tile:${k}`));
  }
  return group;
}

function drawCity(player: Json, data: Json, marks: Marks): SVGElement {
  const group = at(196, 28, "pr-city");
  const width = 78, height = 40, gap = 3;
  group.append(box(-4, -4, 4 * (width + gap) + 5, 3 * (height + gap) + 5, "#e7d8bb", { stroke: "#a08a66" }));
  // The city fills column by column, three spaces each; a large building takes two spaces of a column.
  const free: boolean[][] = Array.from({ length: 4 }, () => [true, true, true]);
  const placed: { k: string; colonists: number; col: number; row: number; spaces: number }[] = [];
  for (const entry of player.city ?? []) {
    const k = key(entry.building);
    const spaces = Math.min(buildingRow(k, data)?.spaces ?? 1, 2);
    let spot: [number, number] | null = null;
    for (let col = 0; col < 4 && !spot; col++) {
      for (let row = 0; row + spaces <= 3 && !spot; row++) {
        if (free[col].slice(row, row + spaces).every(Boolean)) spot = [col, row];
      }
    }
    if (!spot) continue;
    for (let s = 0; s < spaces; s++) free[spot[0]][spot[1] + s] = false;
    placed.push({ k, colonists: entry.colonists ?? 0, col: spot[0], row: spot[1], spaces });
  }
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 3; row++) {
      if (free[col][row]) group.append(svg("rect", { x: col * (width + gap), y: row * (height + gap), width, height, rx: 3, fill: "#f1e7d3", stroke: "#c3ae8a", "stroke-dasharray": "3 2", class: "pr-space" }));
    }
  }
  for (const b of placed) {
    const good = madeBy(b.k);
    const cell = at(b.col * (width + gap), b.row * (height + gap), "pr-building");
    cell.setAttribute("data-building", b.k);
    const h = b.spaces * height + (b.spaces - 1) * gap;
    cell.append(box(0, 0, width, h, good ? GOOD_FILL[good] : VIOLET, { "stroke-width": b.spaces > 1 ? 2 : 1 }));
    const ink = GOOD_INK[good] ?? INK;
    const name = buildingName(b.k, data);
    const lines = name.length > 14 && name.includes(" ") ? [name.slice(0, name.lastIndexOf(" ")), name.slice(name.lastIndexOf(" ") + 1)] : [name];
    lines.forEach((line, i) => cell.append(text(4, 12 + i * 10.5, line, { "font-size": 9.5, "font-weight": "bold", fill: ink, class: "pr-building-name" })));
    const circles = buildingRow(b.k, data)?.circles ?? 0;
    for (let c = 0; c < circles; c++) {
      const cx = width - 9 - c * 13, cy = h - 8;
      cell.append(svg("circle", { cx, cy, r: 5, fill: "#fff", stroke: "#555", "stroke-width": 0.8 }));
      if (c < b.colonists) cell.append(colonist(cx, cy, 4.5));
    }
    group.append(marks.mark(cell, `building:${b.k}`));
  }
  return group;
}

function drawStock(player: Json, marks: Marks): SVGElement {
  const group = at(10, 172, "pr-stock");
  const sanJuan = at(0, 0, "pr-san-juan");
  sanJuan.append(box(0, 0, 150, 54, "#f0e2c4"), text(8, 15, t("puertorico.web.san_juan", "San Juan"), { "font-size": 11, "font-weight": "bold" }));
  const waiting = player.sanJuan ?? 0;
  for (let c = 0; c < Math.min(waiting, 10); c++) sanJuan.append(colonist(12 + c * 13, 34, 5));
  if (waiting > 10) sanJuan.append(text(140, 38, `+${waiting - 10}`, { "text-anchor": "end", "font-size": 10 }));
  group.append(marks.mark(sanJuan, "sanjuan"));
  group.append(text(168, 12, t("puertorico.web.goods", "Goods"), { "font-size": 11, "font-weight": "bold" }));
  GOODS.forEach((good, i) => {
    const count = player.goods?.[good] ?? 0;
    const cell = at(168 + i * 68, 18, `pr-stock-good${count ? "" : " pr-none"}`);
    cell.setAttribute("data-good", good);
    cell.append(box(0, 0, 62, 32, "#fffdf6", { opacity: count ? 1 : 0.5 }), barrel(5, 8, good, 16),
      text(26, 15, String(count), { "font-size": 13, "font-weight": "bold", fill: count ? INK : "#999" }),
      text(26, 27, goodName(good), { "font-size": 9, fill: "#555" }));
    group.append(marks.mark(cell, `good:${good}`));
  });
  return group;
}
