// Assyria: the whole hex map at its axial coordinates (flat-topped hexes in columns), each hex named
// by its food and coloured by region (sand outside the rivers, blue the river hexes, green between),
// the hexes the player count leaves out faded; huts by seat colour (filled and ticked when fed, a
// hollow ring when not), ziggurats as stepped pyramids of their pieces, the built wells where their
// three hexes meet. Beside it the sowing rows, the Assur track of the three dignitaries, the
// offerings track and each seat's camels, score, huts and hand. The map is the title's data
// (boardgame.assyria.v1.TitleData). Each legal action is marked where it applies: a hex (start
// space, hut, feeding, base, raise), a well site, a column or card of the sowing rows, a card in
// hand, a dignitary, the offerings track, the plow stack.
import { t, term } from "../i18n";
import { actionable, picture, svg, text, type Attrs, type Json, type Legal } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".as-hex";

const WIDTH = 1000;
const COLOURS = ["#c0392b", "#2e6fb7", "#2f9e44", "#e0a100"];
const REGION_FILL: Record<string, string> = { outside: "#ead9a6", river_1: "#8fc1e3", river_2: "#8fc1e3", inside: "#b5d88a" };
const FOOD_COLOURS: Record<string, string> = { grapes: "#7b3f8c", palms: "#2f7d32", salt: "#9e9e9e", barley: "#d4a017", dates: "#8b4513", wild: "#444" };
const FOODS = ["grapes", "palms", "salt", "barley", "dates"];
const MARGIN = 24;
const TOP = 44;

type Point = { x: number; y: number };
type Hex = { q?: number; r?: number; region?: string; food?: string; river?: boolean; playerCounts?: number[] };

function corners({ x, y }: Point, size: number): string {
  return Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 3) * k;
    return `${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

/** A card's key and number: "CARD_GRAPES_2" -> ["grapes_2", 2]. */
function cardKey(card: unknown): { key: string; number: number; food: string; symbols: number } {
  const key = String(card ?? "").replace(/^CARD_/, "").toLowerCase();
  if (key === "wild") return { key, number: 16, food: "wild", symbols: 1 };
  const [food, symbols] = key.split("_");
  return { key, number: FOODS.indexOf(food) * 3 + Number(symbols), food, symbols: Number(symbols) };
}

function cardName(card: unknown, names: string[]): string {
  const { key, number } = cardKey(card);
  return term("assyria", "card", key, names[number] || key.replace("_", " "));
}

function foodName(food: string): string {
  return term("assyria", "food", food, food);
}

/** A food card: its food's colour and symbols. */
function drawCard(x: number, y: number, card: unknown, names: string[], cls: string, width = 64, height = 44): SVGElement {
  const { food, symbols } = cardKey(card);
  const group = svg("g", { class: cls });
  group.append(svg("rect", { x, y, width, height, rx: 5, fill: "#fffaf0", stroke: FOOD_COLOURS[food] ?? "#666", "stroke-width": 2.5 }));
  for (let n = 0; n < symbols; n++) group.append(svg("circle", { cx: x + width / 2 + (n - (symbols - 1) / 2) * 13, cy: y + 15, r: 5, fill: FOOD_COLOURS[food] ?? "#666" }));
  group.append(text(x + width / 2, y + height - 8, food === "wild" ? cardName(card, names) : foodName(food), { "font-size": 11, "text-anchor": "middle" }));
  group.append(svg("title", {}, cardName(card, names)));
  return group;
}

function hut(x: number, y: number, seat: number, fed: boolean, size: number): SVGElement {
  const colour = COLOURS[seat % COLOURS.length];
  const group = svg("g", { class: fed ? "as-hut as-fed" : "as-hut as-unfed" });
  const attrs: Attrs = fed ? { fill: colour, stroke: "#222", "stroke-width": 1.5 } : { fill: "#fff", stroke: colour, "stroke-width": 3 };
  group.append(svg("path", { d: `M${x - size},${y + size * 0.8} L${x - size},${y - size * 0.1} L${x},${y - size} L${x + size},${y - size * 0.1} L${x + size},${y + size * 0.8} Z`, ...attrs }));
  if (fed) group.append(svg("path", { d: `M${x - size * 0.45},${y + size * 0.15} L${x - size * 0.1},${y + size * 0.5} L${x + size * 0.5},${y - size * 0.3}`, fill: "none", stroke: "#fff", "stroke-width": 2 }));
  return group;
}

function ziggurat(x: number, y: number, seat: number, height: number, size: number): SVGElement {
  const colour = COLOURS[seat % COLOURS.length];
  const group = svg("g", { class: "as-ziggurat", "data-height": height });
  for (let level = 0; level < Math.max(1, height); level++) {
    const w = size * (1.6 - level * 0.45), h = size * 0.42;
    group.append(svg("rect", { x: x - w / 2, y: y + size * 0.5 - (level + 1) * h, width: w, height: h, fill: colour, stroke: "#222", "stroke-width": 1.2 }));
  }
  return group;
}

const hexAt = (move: Json): number => move?.hex ?? 0;

export function drawAssyria(view: Json, data: Json, legal: Legal[] = []): SVGElement {
  const hexes: Hex[] = data.hexes ?? [];
  const sites: number[][] = (data.wellSites ?? []).map((site: Json) => site.hexes ?? []);
  const names: string[] = data.cardNames ?? [];
  const dignitaries: Json[] = data.dignitaries ?? [];
  const table = view.table ?? {};
  const players: number = table.playerCount ?? 4;
  const q = (h: Hex) => h.q ?? 0, r = (h: Hex) => h.r ?? 0;
  const maxQ = Math.max(...hexes.map(q));
  const size = (WIDTH - 2 * MARGIN) / (1.5 * maxQ + 2);
  const ys = hexes.map((h) => r(h) + q(h) / 2);
  const minY = Math.min(...ys);
  const centre = (hex: number): Point => {
    const h = hexes[hex] ?? {};
    return { x: MARGIN + size + size * 1.5 * q(h), y: TOP + (size * Math.sqrt(3)) / 2 + size * Math.sqrt(3) * (r(h) + q(h) / 2 - minY) };
  };
  const mapBottom = TOP + size * Math.sqrt(3) * (Math.max(...ys) - minY + 1) + 8;
  const huts: number[] = table.hutSeats ?? [];
  const fed: boolean[] = table.fed ?? [];
  const ziggurats: number[] = table.zigguratSeats ?? [];
  const heights: number[] = table.zigguratHeights ?? [];
  const wells: number[] = table.wells ?? [];
  const parts: SVGElement[] = [];
  const step = String(table.step ?? "").replace(/^STEP_/, "").toLowerCase();
  parts.push(text(MARGIN, 28, t("assyria.web.status", "Reign {reign}, turn {turn}: seat {seat} to act ({step}); {players} players", {
    reign: table.reign ?? 0, turn: table.turn ?? 0, seat: table.actor ?? 0, players,
    step: term("assyria", "step", step, step.replace(/_/g, " ")),
  }), { "font-size": 17, "font-weight": "bold" }));

  // The map.
  const map = svg("g", { class: "as-map" });
  const hexActions = (hex: number) => legal.filter((l) => {
    const a = l.action ?? {};
    const move = a.chooseStartSpace ?? a.placeHut ?? a.feedHut ?? a.buildBase ?? a.raiseZiggurat;
    return move !== undefined && hexAt(move) === hex;
  });
  hexes.forEach((h, hex) => {
    const at = centre(hex);
    const usable = (h.playerCounts ?? []).includes(players);
    const cell = svg("g", { class: "as-cell", "data-hex": hex, opacity: usable ? 1 : 0.28 });
    cell.append(svg("polygon", { points: corners(at, size - 1.5), fill: REGION_FILL[h.region ?? ""] ?? "#ddd", stroke: "#7a6a4f", "stroke-width": 1.5, class: "as-hex" }));
    if (h.river) cell.append(svg("path", { d: `M${at.x - size * 0.6},${at.y + size * 0.55} q${size * 0.3},-${size * 0.25} ${size * 0.6},0 t${size * 0.6},0`, fill: "none", stroke: "#3f7fb5", "stroke-width": 2, class: "as-river" }));
    const food = h.food ?? "";
    cell.append(svg("circle", { cx: at.x - size * 0.42, cy: at.y - size * 0.5, r: size * 0.09, fill: FOOD_COLOURS[food] ?? "#666" }));
    cell.append(text(at.x - size * 0.3, at.y - size * 0.44, foodName(food), { "font-size": Math.round(size * 0.24), fill: "#3b2f1e" }));
    cell.append(text(at.x + size * 0.62, at.y + size * 0.72, String(hex), { "font-size": Math.round(size * 0.17), fill: "#7a6a4f", "text-anchor": "end" }));
    const seat = huts[hex] ?? -1;
    if (seat >= 0) cell.append(hut(at.x - (ziggurats[hex] >= 0 ? size * 0.35 : 0), at.y + size * 0.12, seat, fed[hex] ?? false, size * 0.26));
    const owner = ziggurats[hex] ?? -1;
    if (owner >= 0) cell.append(ziggurat(at.x + size * 0.25, at.y + size * 0.1, owner, heights[hex] ?? 1, size * 0.5));
    const acts = hexActions(hex);
    map.append(acts.length ? actionable(cell, acts) : cell);
  });
  const siteCentre = (site: number): Point | null => {
    const points = (sites[site] ?? []).map(centre);
    if (!points.length) return null;
    return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
  };
  for (const site of wells) {
    const at = siteCentre(site);
    if (at) map.append(svg("circle", { cx: at.x, cy: at.y, r: size * 0.16, fill: "#1f4e99", stroke: "#fff", "stroke-width": 2, class: "as-well" }));
  }
  for (const l of legal.filter((l) => l.action?.buildWell !== undefined)) {
    const at = siteCentre(l.action.buildWell.site ?? 0);
    if (at) map.append(actionable(svg("circle", { cx: at.x, cy: at.y, r: size * 0.2, fill: "#fff", "fill-opacity": 0.6, stroke: "#1f4e99", "stroke-width": 2.5, "stroke-dasharray": "4 3", class: "as-well-site" }), [l]));
  }
  parts.push(map);

  // Below the map: the sowing rows and the draft, Assur, offerings, and the seats.
  let top = mapBottom + 10;
  const panel = svg("g", { class: "as-panel" });
  panel.append(text(MARGIN, top + 16, t("assyria.web.supplies", "Expansion card {card} ({deck} left), food deck {food}, wells in supply {wells}, plows {plows}", {
    card: table.expansionCard ?? 0, deck: table.expansionDeckSize ?? 0, food: table.foodDeckSize ?? 0, wells: table.wellsSupply ?? 0, plows: table.plowStack ?? 0,
  }), { "font-size": 14 }));
  const buyPlow = legal.filter((l) => l.action?.buyPlow !== undefined);
  if (buyPlow.length) {
    const stack = svg("g", { class: "as-plow-stack" });
    stack.append(svg("rect", { x: WIDTH - 150, y: top, width: 126, height: 24, rx: 4, fill: "#fff", stroke: "#6b4e2e" }),
      text(WIDTH - 87, top + 17, t("assyria.web.buy_plow", "buy a plow"), { "font-size": 12, "text-anchor": "middle" }));
    panel.append(actionable(stack, buyPlow));
  }
  top += 30;
  const row1: string[] = table.sowingRow1 ?? [], row2: string[] = table.sowingRow2 ?? [];
  const columnSeats: number[] = table.columnSeats ?? [];
  const draft: string[] = table.draftCards ?? [];
  if (row1.length || row2.length) {
    panel.append(text(MARGIN, top + 16, t("assyria.web.sowing", "Sowing rows"), { "font-size": 15, "font-weight": "bold" }));
    top += 24;
    const columns = Math.max(row1.length, row2.length);
    for (let column = 0; column < columns; column++) {
      const x = MARGIN + column * 90;
      const owner = columnSeats[column] ?? -1;
      const group = svg("g", { class: "as-column", "data-column": column });
      group.append(svg("rect", { x: x - 6, y: top - 4, width: 80, height: 126, rx: 6, fill: owner >= 0 ? COLOURS[owner % 4] : "#efe6cc", "fill-opacity": owner >= 0 ? 0.35 : 1, stroke: "#9a8b5e" }));
      [row1[column], row2[column]].forEach((card, row) => {
        if (!card || card === "CARD_UNSPECIFIED") return;
        const drawn = drawCard(x + 2, top + 2 + row * 52, card, names, "as-sown");
        const buy = owner < 0 ? legal.filter((l) => l.action?.buyFoodCard !== undefined && (l.action.buyFoodCard.row ?? 0) === row + 1) : [];
        group.append(buy.length ? actionable(drawn, buy) : drawn);
      });
      group.append(text(x + 34, top + 116, owner >= 0 ? t("assyria.web.taken_by", "seat {seat}", { seat: owner }) : t("assyria.web.column", "column {n}", { n: column + 1 }), { "font-size": 10, "text-anchor": "middle" }));
      const take = legal.filter((l) => l.action?.takeColumn !== undefined && (l.action.takeColumn.column ?? 0) === column);
      panel.append(take.length ? actionable(group, take) : group);
    }
    top += 132;
  }
  if (draft.length) {
    panel.append(text(MARGIN, top + 16, t("assyria.web.draft", "Initial draft"), { "font-size": 15, "font-weight": "bold" }));
    top += 24;
    draft.forEach((card, i) => {
      const drawn = drawCard(MARGIN + i * 74, top, card, names, "as-draft");
      const take = legal.filter((l) => l.action?.draftCard !== undefined && l.action.draftCard.card === card);
      panel.append(take.length ? actionable(drawn, take) : drawn);
    });
    top += 54;
  }

  // Assur: the three dignitaries' rows of spaces; offerings: the track 0-7.
  const assurTop = top;
  panel.append(text(MARGIN, top + 16, t("assyria.web.assur", "Assur"), { "font-size": 15, "font-weight": "bold" }));
  const rows: number[][] = [table.assurHigher ?? [], table.assurMiddle ?? [], table.assurLower ?? []];
  const enumNames = ["DIGNITARY_HIGHER", "DIGNITARY_MIDDLE", "DIGNITARY_LOWER"];
  rows.forEach((seats, i) => {
    const y = top + 26 + i * 36;
    const info = dignitaries[i] ?? { name: enumNames[i].slice(10).toLowerCase(), spaces: [3, 4, 6][i] };
    const group = svg("g", { class: "as-dignitary", "data-dignitary": info.name });
    group.append(svg("rect", { x: MARGIN, y, width: 430, height: 30, rx: 5, fill: "#f3e9cf", stroke: "#9a8b5e" }));
    group.append(text(MARGIN + 8, y + 20, term("assyria", "dignitary", info.name, info.name), { "font-size": 13 }));
    for (let space = 0; space < (info.spaces ?? 0); space++) {
      const x = MARGIN + 100 + space * 52;
      group.append(svg("rect", { x, y: y + 3, width: 46, height: 24, rx: 3, fill: "#fff", stroke: "#c9b98a" }));
      const seat = seats[space];
      if (seat !== undefined && seat >= 0) group.append(hut(x + 23, y + 16, seat, true, 9));
    }
    const send = legal.filter((l) => l.action?.intrigue !== undefined && l.action.intrigue.dignitary === enumNames[i]);
    panel.append(send.length ? actionable(group, send) : group);
  });
  const offerLeft = 500;
  panel.append(text(offerLeft, top + 16, t("assyria.web.offerings", "Offerings"), { "font-size": 15, "font-weight": "bold" }));
  const seatsData: Json[] = table.players ?? [];
  const track = svg("g", { class: "as-offerings" });
  track.append(svg("rect", { x: offerLeft - 3, y: top + 23, width: 8 * 58 + 2, height: 108, rx: 5, fill: "#fff", "fill-opacity": 0.01, stroke: "none" }));
  for (let stepIndex = 0; stepIndex <= 7; stepIndex++) {
    const x = offerLeft + stepIndex * 58;
    track.append(svg("rect", { x, y: top + 26, width: 54, height: 102, rx: 4, fill: stepIndex % 2 ? "#efe0b8" : "#f6ecd0", stroke: "#9a8b5e" }));
    track.append(text(x + 27, top + 42, String(stepIndex), { "font-size": 12, "text-anchor": "middle", "font-weight": "bold" }));
  }
  seatsData.forEach((player, seat) => {
    const x = offerLeft + (player.offerings ?? 0) * 58 + 14 + (seat % 2) * 24, y = top + 62 + Math.floor(seat / 2) * 32;
    track.append(svg("circle", { cx: x, cy: y, r: 10, fill: COLOURS[seat % 4], stroke: "#222", class: "as-offering-disc" }));
  });
  const offer = legal.filter((l) => l.action?.makeOffering !== undefined);
  panel.append(offer.length ? actionable(track, offer) : track);
  top = Math.max(assurTop + 26 + 3 * 36, top + 132) + 8;

  // The seats: camels, score, huts in stock, plow and hand.
  const order: number[] = table.turnOrder ?? [];
  seatsData.forEach((player, seat) => {
    const group = svg("g", { class: "as-seat", "data-seat": seat });
    const hand: string[] = player.hand ?? [];
    const height = 78;
    group.append(svg("rect", { x: MARGIN, y: top, width: WIDTH - 2 * MARGIN, height, rx: 6, fill: COLOURS[seat % 4], "fill-opacity": seat === (table.actor ?? -1) ? 0.25 : 0.1, stroke: COLOURS[seat % 4] }));
    group.append(hut(MARGIN + 18, top + 18, seat, true, 9));
    group.append(text(MARGIN + 34, top + 23, t("assyria.web.seat", "Seat {seat} ({place} in turn order): {score} VP, {camels, plural, one {# camel} other {# camels}}, {huts, plural, one {# hut} other {# huts}} in stock", {
      seat, place: order.indexOf(seat) + 1, score: player.score ?? 0, camels: player.camels ?? 0, huts: player.huts ?? 0,
    }), { "font-size": 14, "font-weight": "bold" }));
    hand.forEach((card, i) => {
      const drawn = drawCard(MARGIN + 10 + i * 70, top + 30, card, names, "as-hand", 64, 42);
      const play = seat === (table.actor ?? -1) ? legal.filter((l) => l.action?.playCard !== undefined && l.action.playCard.card === card) : [];
      group.append(play.length ? actionable(drawn, play) : drawn);
    });
    if (player.plow) {
      const x = MARGIN + 10 + hand.length * 70;
      const plow = svg("g", { class: "as-plow" });
      plow.append(svg("rect", { x, y: top + 30, width: 64, height: 42, rx: 5, fill: "#e9d7b6", stroke: "#6b4e2e", "stroke-width": 2 }),
        text(x + 32, top + 56, t("assyria.web.plow", "plow"), { "font-size": 12, "text-anchor": "middle" }));
      const play = seat === (table.actor ?? -1) ? legal.filter((l) => l.action?.playPlow !== undefined) : [];
      group.append(play.length ? actionable(plow, play) : plow);
    }
    panel.append(group);
    top += height + 6;
  });
  if (table.feedingSymbols) {
    const food = String(table.feedingFood ?? "").replace(/^FOOD_/, "").toLowerCase();
    panel.append(text(MARGIN, top + 16, t("assyria.web.feeding", "Feeding: {symbols} {food} left on the card in use", { symbols: table.feedingSymbols, food: foodName(food) }), { "font-size": 13 }));
    top += 22;
  }
  parts.push(panel);
  parts.push(text(MARGIN, top + 16, t("assyria.web.legend", "Sand: outside the rivers, blue: river hexes, green: between them; a filled hut is fed, a hollow one is not; pyramids: ziggurats; blue dots: wells"), { "font-size": 11, fill: "#555", class: "as-legend" }));
  const height = top + 28;
  const board = picture(t("assyria.web.title", "Assyria"), WIDTH, height);
  board.classList.add("as-board");
  board.append(svg("rect", { x: 0, y: 0, width: WIDTH, height, fill: "#fbf7ec" }), ...parts);
  return board;
}
