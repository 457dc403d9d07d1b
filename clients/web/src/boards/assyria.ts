// Assyria: the hex map at its axial coordinates (flat-topped hexes), coloured by region, with each
// hex's food; the hexes the player count leaves out are faded; huts by seat colour (a ring when
// fed), ziggurats with their pieces, and the built wells where their three hexes meet. The map is the
// title's data (boardgame.assyria.v1.TitleData, from CatalogService.GetTitleData): hexes by number,
// as the view's per-hex lists are, and the well sites' hexes by site number.
import { picture, svg, text, type Attrs, type Json } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".as-hex";

const COLOURS = ["#d9534f", "#337ab7", "#5cb85c", "#f0ad4e"];
const REGION_FILL: Record<string, string> = { outside: "#e8d8a8", river_1: "#9cc9e8", river_2: "#9cc9e8", inside: "#b9d98c" };
const SIZE = 22;
const MARGIN = 30;
const TOP = 40;

type Point = { x: number; y: number };
type Hex = { q: number; r: number; region: string; food: string; playerCounts: number[] };

function corners({ x, y }: Point, size: number): string {
  return Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 3) * k;
    return `${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

export function drawAssyria(view: Json, data: Json): SVGElement {
  const hexes: Hex[] = data.hexes ?? [];
  const sites: number[][] = (data.wellSites ?? []).map((site: Json) => site.hexes ?? []);
  const ys = hexes.map((h) => h.r + h.q / 2);
  const minY = Math.min(...ys);
  const centre = (hex: number): Point => {
    const h = hexes[hex];
    return { x: MARGIN + SIZE * 1.5 * h.q, y: TOP + MARGIN + SIZE * Math.sqrt(3) * (h.r + h.q / 2 - minY) };
  };
  const table = view.table ?? {};
  const players: number = table.playerCount ?? 4;
  const huts: number[] = table.hutSeats ?? [];
  const fed: boolean[] = table.fed ?? [];
  const ziggurats: number[] = table.zigguratSeats ?? [];
  const heights: number[] = table.zigguratHeights ?? [];
  const wells: number[] = table.wells ?? [];
  const width = 2 * MARGIN + SIZE * 1.5 * Math.max(...hexes.map((h) => h.q));
  const height = TOP + 2 * MARGIN + SIZE * Math.sqrt(3) * (Math.max(...ys) - minY) + 30;
  const board = picture("Assyria", width, height);
  board.append(text(8, 16, `Reign ${table.reign ?? 0}, turn ${table.turn ?? 0}, ${players} players`, { "font-size": 13 }));
  board.append(text(8, 32, `${wells.length} wells built, ${table.wellsSupply ?? 0} in supply`, { "font-size": 11 }));
  const map = svg("g", { class: "as-map" });
  hexes.forEach((h, hex) => {
    const at = centre(hex);
    const usable = h.playerCounts.includes(players);
    map.append(svg("polygon", { points: corners(at, SIZE - 1), fill: REGION_FILL[h.region] ?? "#ddd", stroke: "#876", opacity: usable ? 1 : 0.3, class: "as-hex" }));
    map.append(text(at.x - 12, at.y - 9, h.food.slice(0, 2), { "font-size": 8, fill: "#654", opacity: usable ? 1 : 0.4 }));
    const hut = huts[hex] ?? -1;
    if (hut >= 0) {
      const ring: Attrs = fed[hex] ? { stroke: "#222", "stroke-width": 2 } : {};
      map.append(svg("circle", { cx: at.x, cy: at.y + 3, r: 7, fill: COLOURS[hut % COLOURS.length], class: "as-hut", ...ring }));
    }
    const ziggurat = ziggurats[hex] ?? -1;
    if (ziggurat >= 0) {
      map.append(svg("rect", { x: at.x - 8, y: at.y - 6, width: 16, height: 16, fill: COLOURS[ziggurat % COLOURS.length], stroke: "#222", class: "as-ziggurat" }));
      map.append(text(at.x - 3, at.y + 6, String(heights[hex] ?? ""), { fill: "#fff", "font-size": 11, "font-weight": "bold" }));
    }
  });
  for (const site of wells) {
    const corner = sites[site] ?? [];
    if (corner.length === 0) continue;
    const points = corner.map(centre);
    const x = points.reduce((sum, p) => sum + p.x, 0) / points.length;
    const y = points.reduce((sum, p) => sum + p.y, 0) / points.length;
    map.append(svg("circle", { cx: x, cy: y, r: 5, fill: "#1f4e99", stroke: "#fff", class: "as-well" }));
  }
  board.append(map);
  board.append(text(8, height - 20, "sand: outside the rivers, blue: rivers, green: between them;", { "font-size": 10 }));
  board.append(text(8, height - 7, "circle: hut (ringed: fed), square: ziggurat (pieces), dot: well", { "font-size": 10 }));
  return board;
}
