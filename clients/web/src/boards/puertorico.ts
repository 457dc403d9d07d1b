// Puerto Rico: each player's island (plantations and quarries, colonists on them) and city
// (buildings, colonists in them), the cargo ships and the role cards.
import { picture, short, svg, text, type Json } from "./svg";

// An element every drawing of this board has (the browser test looks for it).
export const MARK = ".pr-island";

const GOOD_COLOURS: Record<string, string> = {
  corn: "#f2d14b", indigo: "#3f5fbf", sugar: "#f4f4f4", tobacco: "#8a5a2b", coffee: "#3b2618",
  quarry: "#9a9a9a",
};
const SPACES = 12;
const CELL = 26;
const PLAYER_WIDTH = 4 * CELL * 2 + 40;

function colour(name: string): string {
  return GOOD_COLOURS[name.split(" ")[0]] ?? "#7fb069";
}

export function drawPuertoRico(view: Json): SVGElement {
  const table = view.table ?? {};
  const players: Json[] = table.players ?? [];
  const height = 150 + players.length * 130;
  const board = picture("Puerto Rico", Math.max(PLAYER_WIDTH, 520), height);
  const roles = svg("g", { class: "pr-roles" });
  (table.roles ?? []).forEach((card: Json, i: number) => {
    const x = 10 + i * 62;
    roles.append(
      svg("rect", { x, y: 10, width: 58, height: 34, rx: 4, fill: card.taken ? "#ccc" : "#ffe8b0", stroke: "#333" }),
      text(x + 4, 24, short(card.role)),
      text(x + 4, 38, `${card.doubloons ?? 0} db`),
    );
  });
  board.append(roles);
  const ships = svg("g", { class: "pr-ships" });
  (table.cargoShips ?? []).forEach((ship: Json, i: number) => {
    const y = 56 + i * 26;
    const good = short(ship.good);
    ships.append(svg("rect", { x: 10, y, width: 16 * ship.capacity + 8, height: 20, rx: 8, fill: "#b5835a", class: "pr-ship" }));
    for (let slot = 0; slot < ship.capacity; slot++) {
      ships.append(svg("rect", {
        x: 14 + slot * 16, y: y + 4, width: 12, height: 12,
        fill: slot < (ship.count ?? 0) ? colour(good) : "#e8d9c4", stroke: "#553",
      }));
    }
  });
  board.append(ships);
  players.forEach((player: Json, seat: number) => {
    const top = 150 + seat * 130;
    const group = svg("g", { class: "pr-player", "data-seat": seat });
    group.append(text(10, top - 6, `Seat ${seat}: ${player.doubloons ?? 0} doubloons, ${player.sanJuan ?? 0} in San Juan`));
    const island = svg("g", { class: "pr-island" });
    const tiles: Json[] = [];
    for (const entry of player.island ?? []) for (let n = 0; n < (entry.count ?? 0); n++) tiles.push({ tile: entry.tile, occupied: n < (entry.occupied ?? 0) });
    for (let space = 0; space < SPACES; space++) {
      const x = 10 + (space % 4) * CELL, y = top + Math.floor(space / 4) * CELL;
      const tile = tiles[space];
      island.append(svg("rect", {
        x, y, width: CELL - 2, height: CELL - 2, rx: 3, class: tile ? "pr-plantation" : "pr-space",
        fill: tile ? colour(short(tile.tile)) : "#cfe8c5", stroke: "#476",
      }));
      if (tile?.occupied) island.append(svg("circle", { cx: x + CELL / 2 - 1, cy: y + CELL / 2 - 1, r: 5, fill: "#5a3b1c", class: "pr-colonist" }));
    }
    const city = svg("g", { class: "pr-city" });
    const buildings: Json[] = player.city ?? [];
    for (let space = 0; space < SPACES; space++) {
      const x = 140 + (space % 4) * CELL * 2, y = top + Math.floor(space / 4) * CELL;
      const building = buildings[space];
      city.append(svg("rect", {
        x, y, width: CELL * 2 - 2, height: CELL - 2, class: building ? "pr-building" : "pr-space",
        fill: building ? "#f0e0c0" : "#eee", stroke: "#765",
      }));
      if (building) {
        city.append(text(x + 2, y + 15, short(building.building).slice(0, 9), { "font-size": 9 }));
        for (let c = 0; c < (building.colonists ?? 0); c++) {
          city.append(svg("circle", { cx: x + CELL * 2 - 7 - c * 7, cy: y + 5, r: 3, fill: "#5a3b1c", class: "pr-colonist" }));
        }
      }
    }
    group.append(island, city);
    board.append(group);
  });
  return board;
}
