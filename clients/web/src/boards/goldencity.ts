// The Golden City: the island's four regions around the city, each place with its bonus, the roads,
// the city's outer and inner parts, each house by its seat's colour (black houses black), and the
// data set the table plays with, with RECONSTRUCTION shown while its contents are placeholders. The
// board is that data set's, from the title's data (boardgame.goldencity.v1.TitleData, from
// CatalogService.GetTitleData: every set installed where the rules service runs); a set it lacks at
// that data version is named and not drawn, never drawn on another set's board. A place lies towards
// its compass point, as many roads from the city as it takes to get there.
import { picture, svg, text, type Json } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".gc-place";

const COLOURS = ["#d9534f", "#337ab7", "#5cb85c", "#f0ad4e"];
const REGION_FILL: Record<string, string> = { meadow: "#b9e08c", forest: "#5e9e5a", desert: "#ecd78f", mountains: "#b3a89b", coast: "#9cc9e8" };
const COMPASS_ANGLE: Record<string, number> = { N: -90, NE: -45, E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: -135 };
const BONUS_LABEL: Record<string, string> = { coins: "$", landscape_card: "L", key: "K", bonus_card: "B", goods_card: "G", letters: "✉", none: "" };
const SPREAD = 70; // degrees a region's places spread over at one distance from the city
const CITY = 40, STEP = 60, SIZE = 720, TOP = 48;

type Spot = { x: number; y: number };
type Place = { id: number; name: string; kind: string; region: string; compass: string; onRiver: boolean; bonusType: string; bonusAmount: number };
type SetBoard = { name: string; dataVersion: string; places: Place[]; roads: { ends: number[] }[] };

/** The board of the data set a view names, if the title's data has that set at that data version. */
function setBoard(sets: SetBoard[], name: string, dataVersion: string): SetBoard | undefined {
  return sets.find((set) => set.name === name && set.dataVersion === dataVersion);
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
    const key = `${place.compass}:${depth.get(place.id) ?? 5}`;
    groups.set(key, [...(groups.get(key) ?? []), place.id]);
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

export function drawGoldenCity(view: Json, data: Json): SVGElement {
  const sets: SetBoard[] = data.dataSets ?? [];
  const table = view.table ?? {};
  const dataSet = table.dataSet ?? {};
  const board = picture("The Golden City", SIZE, SIZE + TOP + 30);
  const flag = dataSet.reconstruction ? " — RECONSTRUCTION (placeholders, not the printed game)" : "";
  board.append(text(8, 16, `Data set ${dataSet.name ?? "?"} (${dataSet.dataVersion ?? "?"})${flag}`, { class: "gc-data-set reconstruction", "font-size": 13, "font-weight": dataSet.reconstruction ? "bold" : "normal", fill: dataSet.reconstruction ? "#b00" : "#000" }));
  board.append(text(8, 34, `Round ${table.round ?? 0}, step ${String(table.step ?? "").replace("STEP_", "").toLowerCase()}`, { "font-size": 12 }));
  const owner = new Map<number, string>();
  (table.players ?? []).forEach((player: Json, seat: number) => {
    for (const place of player.houses ?? []) owner.set(place, COLOURS[seat % COLOURS.length]);
    for (const place of player.blackHouses ?? []) owner.set(place, "#111");
  });
  const drawn = setBoard(sets, String(dataSet.name ?? ""), String(dataSet.dataVersion ?? ""));
  if (!drawn) {
    board.append(text(8, 60, `The rules service has no data set ${dataSet.name ?? "?"} (${dataSet.dataVersion ?? "?"}) installed, so this board is not drawn; the view below is complete.`, { class: "gc-no-board", fill: "#b00" }));
    board.append(text(8, 78, `It has: ${drawable(sets)}.`, { class: "gc-no-board", fill: "#b00" }));
    return board;
  }
  const at = spots(drawn);
  const roads = svg("g", { class: "gc-roads", stroke: "#8a6d3b", "stroke-width": 2 });
  for (const { ends: [a, b] } of drawn.roads) {
    const from = at.get(a), to = at.get(b);
    if (from && to) roads.append(svg("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "gc-road" }));
  }
  board.append(svg("circle", { cx: SIZE / 2, cy: TOP + SIZE / 2, r: CITY + 0.6 * STEP + 14, fill: "#f5e6a3", stroke: "#c9a227", "stroke-width": 3, class: "gc-city" }));
  board.append(roads);
  for (const place of drawn.places) {
    const spot = at.get(place.id);
    if (!spot) continue;
    const city = place.kind.startsWith("city");
    const fill = city ? "#e8c547" : REGION_FILL[place.kind === "coast" ? "coast" : place.region] ?? "#ddd";
    const group = svg("g", { class: "gc-place" }, svg("title", {}, `${place.name}: ${place.bonusType} ${place.bonusAmount || ""}`.trim()));
    group.append(svg("circle", { cx: spot.x, cy: spot.y, r: 14, fill, stroke: place.kind === "coast" ? "#2b6ca3" : "#555", "stroke-width": place.onRiver ? 3 : 1 }));
    const bonus = BONUS_LABEL[place.bonusType] ?? "?";
    if (bonus) group.append(text(spot.x - 7, spot.y + 4, `${bonus}${place.bonusAmount > 1 ? place.bonusAmount : ""}`, { "font-size": 10 }));
    const house = owner.get(place.id);
    if (house) group.append(svg("rect", { x: spot.x + 2, y: spot.y - 16, width: 14, height: 14, fill: house, stroke: "#222", class: "gc-house" }));
    board.append(group);
  }
  board.append(text(8, SIZE + TOP + 20, "Bonus: $ coins, L landscape card, K key, B bonus card, G goods card, ✉ letters; square: a house (seat colour, black: black house)", { "font-size": 10 }));
  return board;
}
