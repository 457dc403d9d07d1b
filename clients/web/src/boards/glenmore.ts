// Glen More: the rondel (the track of tiles, clan figures and the die around its spaces) and each
// player's territory of placed tiles on its grid.
import { picture, svg, text, type Json } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".gm-rondel";

const RONDEL_SPACES = 14;
const CELL = 30;

export function drawGlenMore(view: Json): SVGElement {
  const table = view.table ?? {};
  const players: Json[] = table.players ?? [];
  const board = picture("Glen More", 620, 260 + players.length * 200);
  const rondel = svg("g", { class: "gm-rondel" });
  const cx = 130, cy = 130, radius = 100;
  rondel.append(svg("circle", { cx, cy, r: radius + 18, fill: "#e9e2c8", stroke: "#664" }));
  const track: Json[] = table.track ?? [];
  for (let space = 0; space < RONDEL_SPACES; space++) {
    const angle = (2 * Math.PI * space) / RONDEL_SPACES - Math.PI / 2;
    const x = cx + radius * Math.cos(angle), y = cy + radius * Math.sin(angle);
    const entry = track[space];
    const kind = entry === undefined ? "empty" : "tile" in entry ? "tile" : "figure" in entry ? "figure" : "die";
    rondel.append(svg("circle", {
      cx: x, cy: y, r: 14, class: `gm-space gm-${kind}`,
      fill: { tile: "#9bc48a", figure: "#d9534f", die: "#333", empty: "#fff" }[kind] ?? "#fff", stroke: "#553",
    }));
    if (entry !== undefined && kind !== "die") rondel.append(text(x - 6, y + 4, String(entry.tile ?? `P${entry.figure}`), { "font-size": 9 }));
  }
  rondel.append(text(cx - 30, cy + 4, `space ${table.trackSpace ?? 0}`));
  board.append(rondel);
  const market = svg("g", { class: "gm-market" });
  (table.market ?? []).forEach((row: Json, i: number) => {
    market.append(text(280, 30 + i * 18, `${String(row.resource ?? "").toLowerCase().replace("resource_", "")}: ${row.filled ?? 0}`));
  });
  board.append(market);
  players.forEach((player: Json, seat: number) => {
    const top = 270 + seat * 200;
    const group = svg("g", { class: "gm-territory", "data-seat": seat });
    group.append(text(10, top - 6, `Seat ${seat}: ${player.coins ?? 0} coins, ${player.whisky ?? 0} whisky, ${player.vp ?? 0} VP`));
    const tiles: Json[] = player.territory ?? [];
    const xs = tiles.map((t) => t.cell?.x ?? 0), ys = tiles.map((t) => t.cell?.y ?? 0);
    const minX = Math.min(0, ...xs), minY = Math.min(0, ...ys);
    for (const tile of tiles) {
      const x = 10 + ((tile.cell?.x ?? 0) - minX) * CELL, y = top + ((tile.cell?.y ?? 0) - minY) * CELL;
      group.append(
        svg("rect", { x, y, width: CELL - 2, height: CELL - 2, fill: "#b8d8a0", stroke: "#464", class: "gm-tile" }),
        text(x + 3, y + 12, String(tile.tile ?? ""), { "font-size": 9 }),
      );
      if (tile.clanMembers) group.append(svg("circle", { cx: x + CELL - 9, cy: y + CELL - 9, r: 4, fill: "#d9534f" }));
    }
    board.append(group);
  });
  return board;
}
