// Glen More: the rondel (the track's tiles, the players' figures and the die around its spaces, the
// stacks in the middle), the warehouse's rows of coins, and each player's territory as a grid of
// named tiles with their roads, rivers, cubes and clan members. The names, roads and rivers are the
// title's data (boardgame.glenmore.v1.TitleData: tiles[n - 1] is tile n). Each legal action is marked
// where it applies: a tile of the rondel to take, a free cell to place on, a tile to activate, pay
// from or move a clan member to, a warehouse row to buy, sell or choose a cube of.
import { list, renderData, t, term } from "../i18n";
import { actionable, lines, picture, svg, text, type Json, type Legal } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".gm-rondel";

const WIDTH = 1000;
const SEAT_COLOURS = ["#c0392b", "#2e6fb7", "#2f9e44", "#e0a100", "#8e44ad"];
const RESOURCES = ["wood", "stone", "grain", "cattle", "sheep"];
const CUBE_COLOURS: Record<string, string> = {
  wood: "#3c8d3c", stone: "#8a8f96", grain: "#f2cf3a", cattle: "#8b5a2b", sheep: "#f7f7f2",
};
const RONDEL = { cx: 300, cy: 290, radius: 225, space: 44 };
const CELL_MAX = 96;

type Cell = { x: number; y: number };
type TileInfo = { number: number; name: string; road?: boolean; river?: boolean; cost?: string; costMessage?: unknown; stack?: number };

const cellOf = (cell: Json): Cell => ({ x: cell?.x ?? 0, y: cell?.y ?? 0 });
const sameCell = (a: Json, b: Json): boolean => cellOf(a).x === cellOf(b).x && cellOf(a).y === cellOf(b).y;
const key = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
const resourceKey = (value: unknown): string => String(value ?? "").replace(/^RESOURCE_/, "").toLowerCase();

/** The fill of a tile by its kind: production green, lochs blue, castles and the abbey grey-violet,
 * villages and buildings straw. */
function tileFill(name: string): string {
  if (/^(Forest|Field|Quarry|Cattle pasture|Sheep pasture)$/.test(name)) return "#a9cf8a";
  if (name.startsWith("Loch")) return "#9cc7e6";
  if (/Castle|Abbey/.test(name)) return "#c9bfd8";
  return "#ecd9a0";
}

function tileName(info: TileInfo | undefined, number: number): string {
  if (!info) return t("glenmore.web.tile_number", "tile {number}", { number });
  return term("glenmore", "tile", key(info.name), info.name);
}

/** A label in at most `most` lines centred on (x, y), within about `width` pixels. */
function label(x: number, y: number, words: string, size: number, width: number, attrs: Record<string, string | number> = {}, most = 2): SVGElement[] {
  const perLine = Math.max(4, Math.floor(width / (size * 0.56)));
  const shown = lines(words, perLine).slice(0, most);
  return shown.map((line, i) => text(x, y + (i - (shown.length - 1) / 2) * (size + 1) + size / 3, line, {
    "font-size": size, "text-anchor": "middle", ...attrs,
  }));
}

function pawn(x: number, y: number, colour: string, size: number, cls: string): SVGElement {
  return svg("path", {
    d: `M${x - size * 0.6},${y + size} L${x - size * 0.35},${y - size * 0.1} A${size * 0.45},${size * 0.45} 0 1 1 ${x + size * 0.35},${y - size * 0.1} L${x + size * 0.6},${y + size} Z`,
    fill: colour, stroke: "#222", "stroke-width": 1.2, class: cls,
  });
}

function legalWhere(legal: Legal[], kind: string, test: (move: Json) => boolean = () => true): Legal[] {
  return legal.filter((l) => l.action?.[kind] !== undefined && test(l.action[kind] ?? {}));
}

function drawRondel(table: Json, tiles: TileInfo[], spaces: number, legal: Legal[]): SVGElement {
  const { cx, cy, radius, space } = RONDEL;
  const rondel = svg("g", { class: "gm-rondel" });
  rondel.append(
    svg("circle", { cx, cy, r: radius + space + 8, fill: "#e7dfc2", stroke: "#6b5d3a", "stroke-width": 2 }),
    svg("circle", { cx, cy, r: radius - space - 8, fill: "#d7cca5", stroke: "#6b5d3a" }),
  );
  const track: Json[] = table.track ?? [];
  const first = table.trackSpace ?? 0;
  const at = (index: number) => {
    const angle = (2 * Math.PI * index) / spaces - Math.PI / 2;
    return { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) };
  };
  for (let index = 0; index < spaces; index++) {
    const { x, y } = at(index);
    rondel.append(svg("circle", { cx: x, cy: y, r: space, fill: "#f6f1de", stroke: "#9a8b5e", class: "gm-space" }));
  }
  track.forEach((entry: Json, offset: number) => {
    const { x, y } = at((first + offset) % spaces);
    if (entry.tile !== undefined) {
      const info = tiles[entry.tile - 1];
      const name = tileName(info, entry.tile);
      const take = legalWhere(legal, "takeTile", (m) => m.tile === entry.tile);
      const group = svg("g", { class: "gm-track-tile", "data-tile": entry.tile });
      group.append(svg("rect", {
        x: x - space + 6, y: y - space + 6, width: 2 * space - 12, height: 2 * space - 12, rx: 6,
        fill: tileFill(info?.name ?? ""), stroke: "#4d4426", "stroke-width": 1.5,
      }));
      group.append(...label(x, y - 6, name, 12, 2 * space - 16, { "font-weight": "bold" }));
      const cost = info?.cost && info.cost !== "free" ? renderData(info.costMessage, info.cost, "glenmore") : t("glenmore.web.free", "free");
      group.append(...label(x, y + 22, cost, 9, 2 * space - 14, { fill: "#333" }, 3));
      group.append(text(x - space + 12, y - space + 18, String(entry.tile), { "font-size": 9, fill: "#555" }));
      rondel.append(take.length ? actionable(group, take) : group);
    } else if (entry.figure !== undefined) {
      rondel.append(pawn(x, y - 4, SEAT_COLOURS[entry.figure % SEAT_COLOURS.length], 16, "gm-figure"));
      rondel.append(text(x, y + 30, t("glenmore.web.seat", "seat {seat}", { seat: entry.figure }), { "font-size": 10, "text-anchor": "middle" }));
    } else {
      rondel.append(svg("rect", { x: x - 15, y: y - 15, width: 30, height: 30, rx: 5, fill: "#222", class: "gm-die" }));
      rondel.append(text(x, y + 5, String(table.lastDieRoll || "?"), { "font-size": 14, fill: "#fff", "text-anchor": "middle" }));
    }
  });
  const stacks: number[] = table.stackSizes ?? [];
  rondel.append(text(cx, cy - 60, t("glenmore.web.stacks", "Stacks"), { "font-size": 15, "font-weight": "bold", "text-anchor": "middle" }));
  stacks.forEach((size, i) => {
    const x = cx - 90 + i * 60, y = cy - 40;
    rondel.append(svg("rect", { x: x - 22, y, width: 44, height: 44, rx: 5, fill: ["#d8c9a0", "#c8b27a", "#b59b5a", "#9a7f40"][i] ?? "#ccc", stroke: "#4d4426" }));
    rondel.append(text(x, y + 20, ["I", "II", "III", "IV"][i] ?? String(i), { "font-size": 11, "text-anchor": "middle" }));
    rondel.append(text(x, y + 36, String(size ?? 0), { "font-size": 13, "font-weight": "bold", "text-anchor": "middle" }));
  });
  rondel.append(text(cx, cy + 34, t("glenmore.web.scorings", "Scorings done: {n} of 3", { n: table.scoringsDone ?? 0 }), { "font-size": 13, "text-anchor": "middle" }));
  rondel.append(text(cx, cy + 54, t("glenmore.web.to_act", "Seat {seat} to act: {step}", {
    seat: table.actor ?? 0, step: term("glenmore", "step", key(String(table.step ?? "").replace(/^STEP_/, "")), String(table.step ?? "").replace(/^STEP_/, "").toLowerCase().replace(/_/g, " ")),
  }), { "font-size": 13, "text-anchor": "middle" }));
  const discard = legalWhere(legal, "discardFirstTile");
  if (discard.length) {
    const button = svg("g", { class: "gm-discard" });
    button.append(svg("rect", { x: cx - 70, y: cy + 68, width: 140, height: 26, rx: 5, fill: "#fff", stroke: "#6b5d3a" }),
      text(cx, cy + 86, t("glenmore.web.discard", "discard the first tile"), { "font-size": 12, "text-anchor": "middle" }));
    rondel.append(actionable(button, discard));
  }
  return rondel;
}

function drawWarehouse(table: Json, names: string[], slots: number, legal: Legal[], top: number): SVGElement {
  const left = 640;
  const market = svg("g", { class: "gm-market" });
  market.append(svg("rect", { x: left, y: top, width: WIDTH - left - 10, height: 320, rx: 8, fill: "#efe6cc", stroke: "#6b5d3a" }));
  market.append(text(left + 16, top + 28, t("glenmore.web.warehouse", "Warehouse"), { "font-size": 18, "font-weight": "bold" }));
  market.append(text(left + 16, top + 46, t("glenmore.web.warehouse_help", "buy for the first empty price, sell for the last coin"), { "font-size": 11, fill: "#555" }));
  (table.market ?? []).forEach((row: Json, i: number) => {
    const resource = resourceKey(row.resource);
    const y = top + 62 + i * 50;
    const name = term("glenmore", "resource", resource, names[RESOURCES.indexOf(resource)] ?? resource);
    const group = svg("g", { class: "gm-market-row", "data-resource": resource });
    group.append(svg("rect", { x: left + 10, y, width: WIDTH - left - 30, height: 44, rx: 6, fill: "#f8f3e3", stroke: "#c9b98a" }));
    group.append(svg("rect", { x: left + 20, y: y + 10, width: 24, height: 24, rx: 3, fill: CUBE_COLOURS[resource] ?? "#ccc", stroke: "#333" }));
    group.append(text(left + 54, y + 27, name, { "font-size": 14 }));
    for (let slot = 0; slot < slots; slot++) {
      const x = left + 165 + slot * 52;
      const filled = slot < (row.filled ?? 0);
      group.append(svg("circle", { cx: x, cy: y + 22, r: 17, fill: filled ? "#e8b923" : "#fff", stroke: "#8a6d1a", "stroke-width": 1.5, class: filled ? "gm-coin" : "gm-slot" }));
      group.append(text(x, y + 27, String(slot + 1), { "font-size": 13, "text-anchor": "middle", "font-weight": "bold" }));
    }
    const here = legal.filter((l) => {
      const move = l.action?.buyCube ?? l.action?.sell ?? l.action?.chooseCube;
      return move !== undefined && resourceKey(move.resource) === resource;
    });
    market.append(here.length ? actionable(group, here) : group);
  });
  return market;
}

function drawTerritory(player: Json, seat: number, tiles: TileInfo[], legal: Legal[], top: number, mine: boolean): { group: SVGElement; height: number } {
  const group = svg("g", { class: "gm-territory", "data-seat": seat });
  const placed: Json[] = player.territory ?? [];
  const free = mine ? legalWhere(legal, "placeTile").map((l) => cellOf(l.action.placeTile.cell)) : [];
  const cells = [...placed.map((p) => cellOf(p.cell)), ...free, { x: 0, y: 0 }];
  const minX = Math.min(...cells.map((c) => c.x)), maxX = Math.max(...cells.map((c) => c.x));
  const minY = Math.min(...cells.map((c) => c.y)), maxY = Math.max(...cells.map((c) => c.y));
  const size = Math.min(CELL_MAX, Math.floor((WIDTH - 20) / (maxX - minX + 1)));
  const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
  const vp = player.vpHidden ? "?" : String(player.vp ?? 0);
  group.append(svg("rect", { x: 4, y: top, width: WIDTH - 8, height: 34, rx: 6, fill: colour, opacity: 0.15 }));
  group.append(pawn(22, top + 14, colour, 10, "gm-seat-pawn"));
  group.append(text(40, top + 23, t("glenmore.web.player", "Seat {seat}: {coins, plural, one {# coin} other {# coins}}, {whisky} whisky, {vp} VP, {chieftains, plural, one {# chieftain} other {# chieftains}}", {
    seat, coins: player.coins ?? 0, whisky: player.whisky ?? 0, vp, chieftains: player.chieftains ?? 0,
  }), { "font-size": 15, "font-weight": "bold" }));
  const cards: string[] = (player.cards ?? []).map((c: string) => {
    const k = String(c).replace(/^SPECIAL_LOCATION_/, "").toLowerCase();
    return term("glenmore", "card", k, k.replace(/_/g, " ").replace(/\b\w/g, (s) => s.toUpperCase()));
  });
  if (cards.length) group.append(text(WIDTH - 14, top + 23, t("glenmore.web.cards", "cards: {cards}", { cards: list(cards) }), { "font-size": 12, "text-anchor": "end" }));
  const chieftain = mine ? legalWhere(legal, "payChieftain") : [];
  if (chieftain.length) {
    const pay = svg("g", { class: "gm-chieftain" });
    pay.append(svg("rect", { x: WIDTH - 200, y: top + 4, width: 90, height: 26, rx: 4, fill: "#fff", stroke: colour }),
      text(WIDTH - 155, top + 22, t("glenmore.web.pay_chieftain", "pay a chieftain"), { "font-size": 11, "text-anchor": "middle" }));
    group.append(actionable(pay, chieftain));
  }
  const gridTop = top + 42;
  const origin = (c: Cell) => ({ x: 10 + (c.x - minX) * size, y: gridTop + (maxY - c.y) * size });
  for (const cell of free) {
    const { x, y } = origin(cell);
    const place = legalWhere(legal, "placeTile", (m) => sameCell(m.cell, cell));
    const spot = svg("rect", { x: x + 3, y: y + 3, width: size - 6, height: size - 6, rx: 6, fill: "#fffbe8", stroke: "#6b5d3a", "stroke-dasharray": "6 4", class: "gm-free" });
    group.append(actionable(spot, place));
  }
  for (const tile of placed) {
    const cell = cellOf(tile.cell);
    const { x, y } = origin(cell);
    const info = tiles[(tile.tile ?? 0) - 1];
    const piece = svg("g", { class: "gm-tile", "data-tile": tile.tile ?? 0, "data-cell": `${cell.x},${cell.y}` });
    piece.append(svg("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: 5, fill: tileFill(info?.name ?? ""), stroke: "#4d4426", "stroke-width": 1.5 }));
    if (info?.road) piece.append(svg("rect", { x: x + 2, y: y + size / 2 - size * 0.06, width: size - 4, height: size * 0.12, fill: "#b9a27a", opacity: 0.85, class: "gm-road" }));
    if (info?.river) piece.append(svg("rect", { x: x + size / 2 - size * 0.06, y: y + 2, width: size * 0.12, height: size - 4, fill: "#3f86c6", opacity: 0.8, class: "gm-river" }));
    const font = Math.max(8, Math.round(size / 8));
    piece.append(...label(x + size / 2, y + size * 0.22, tileName(info, tile.tile ?? 0), font, size - 8, { "font-weight": "bold", stroke: "#fffbe8", "stroke-width": 2.5, "paint-order": "stroke" }));
    let cube = 0;
    for (const resource of RESOURCES) {
      for (let n = 0; n < (tile.cubes?.[resource] ?? 0); n++, cube++) {
        piece.append(svg("rect", { x: x + 6 + cube * (size * 0.2 + 3), y: y + size * 0.72, width: size * 0.2, height: size * 0.2, rx: 2, fill: CUBE_COLOURS[resource], stroke: "#222", class: `gm-cube gm-cube-${resource}` }));
      }
    }
    for (let n = 0; n < (tile.clanMembers ?? 0); n++) piece.append(pawn(x + size - 14 - n * 18, y + size * 0.5, colour, size / 8, "gm-clan"));
    const here = mine ? legal.filter((l) => {
      const a = l.action ?? {};
      const move = a.activate ?? a.payCube ?? a.payClanMember ?? a.makeChieftain;
      if (move !== undefined) return sameCell(move.cell, cell);
      return a.moveClanMember !== undefined && sameCell(a.moveClanMember.to, cell);
    }) : [];
    group.append(here.length ? actionable(piece, here) : piece);
  }
  return { group, height: 42 + (maxY - minY + 1) * size + 16 };
}

export function drawGlenMore(view: Json, data: Json, legal: Legal[] = []): SVGElement {
  const table = view.table ?? {};
  const tiles: TileInfo[] = data.tiles ?? [];
  const names: string[] = data.resourceNames ?? RESOURCES;
  const players: Json[] = table.players ?? [];
  const actor = table.actor ?? 0;
  const parts: SVGElement[] = [drawRondel(table, tiles, data.trackSpaces ?? 14, legal), drawWarehouse(table, names, data.marketSlots ?? 3, legal, 20)];
  let top = 580;
  players.forEach((player, seat) => {
    const drawn = drawTerritory(player, seat, tiles, legal, top, seat === actor);
    parts.push(drawn.group);
    top += drawn.height;
  });
  const discarded: number[] = table.discardedTiles ?? [];
  const gone = discarded.length ? list(discarded.map((n) => tileName(tiles[n - 1], n))) : "-";
  const rows = lines(t("glenmore.web.discarded", "Discarded: {tiles}", { tiles: gone }), 150);
  const discards = svg("g", { class: "gm-discarded" });
  rows.forEach((line, i) => discards.append(text(10, top + 10 + i * 16, line, { "font-size": 12, fill: "#444" })));
  parts.push(discards);
  top += (rows.length - 1) * 16;
  const board = picture(t("glenmore.web.title", "Glen More"), WIDTH, top + 24);
  board.classList.add("gm-board");
  board.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: top + 24, fill: "#faf6ea" }), ...parts);
  return board;
}
