// Assyria: the map's hexes (by index, in columns of eight: the view does not carry the map's
// coordinates), each hut by its seat's colour, the ziggurats with their pieces; the wells built
// (site numbers, which the view does not place) as a count.
import { picture, svg, text, type Json } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".as-hex";

const COLOURS = ["#d9534f", "#337ab7", "#5cb85c", "#f0ad4e"];
const COLUMN = 8;
const SIZE = 18;

export function drawAssyria(view: Json): SVGElement {
  const table = view.table ?? {};
  const huts: number[] = table.hutSeats ?? [];
  const ziggurats: number[] = table.zigguratSeats ?? [];
  const count = Math.max(huts.length, ziggurats.length, 64);
  const columns = Math.ceil(count / COLUMN);
  const board = picture("Assyria", 40 + columns * SIZE * 1.6, 60 + COLUMN * SIZE * 1.8);
  const wells = (table.wells ?? []).length;
  board.append(text(10, 16, `Reign ${table.reign ?? 0}, turn ${table.turn ?? 0}, ${wells} wells (open points of the rules at their defaults)`, { class: "reconstruction" }));
  const map = svg("g", { class: "as-map" });
  for (let hex = 0; hex < count; hex++) {
    const q = Math.floor(hex / COLUMN), r = hex % COLUMN;
    const cx = 24 + q * SIZE * 1.55, cy = 36 + r * SIZE * 1.75 + (q % 2) * SIZE * 0.87;
    const corners = Array.from({ length: 6 }, (_, k) => {
      const angle = (Math.PI / 3) * k;
      return `${(cx + SIZE * Math.cos(angle)).toFixed(1)},${(cy + SIZE * Math.sin(angle)).toFixed(1)}`;
    }).join(" ");
    map.append(svg("polygon", { points: corners, fill: "#e8d8a8", stroke: "#876", class: "as-hex" }));
    const hut = huts[hex] ?? -1;
    if (hut >= 0) map.append(svg("circle", { cx, cy, r: 6, fill: COLOURS[hut % COLOURS.length], class: "as-hut" }));
    const ziggurat = ziggurats[hex] ?? -1;
    if (ziggurat >= 0) {
      map.append(svg("rect", { x: cx - 7, y: cy - 7, width: 14, height: 14, fill: COLOURS[ziggurat % COLOURS.length], class: "as-ziggurat" }));
      map.append(text(cx - 3, cy + 4, String(table.zigguratHeights?.[hex] ?? ""), { fill: "#fff", "font-size": 10 }));
    }
  }
  board.append(map);
  return board;
}
