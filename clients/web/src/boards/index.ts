// The drawn board of each title that has one (by the title's name), from the view and the title's
// static data (CatalogService.GetTitleData, src/data.ts); the generic tree covers all.
import { drawAssyria } from "./assyria";
import { drawGlenMore } from "./glenmore";
import { drawGoldenCity } from "./goldencity";
import { drawPuertoRico } from "./puertorico";
import type { Json, Legal } from "./svg";

// A board draws the view and marks where each of the seat's legal actions applies (svg.actionable);
// `legal` is empty for a spectator or a seat not to act.
export type Board = (view: Json, data: Json, legal: Legal[]) => SVGElement;

export const BOARDS: Partial<Record<string, Board>> = {
  puertorico: drawPuertoRico,
  glenmore: drawGlenMore,
  assyria: drawAssyria,
  goldencity: drawGoldenCity,
};
