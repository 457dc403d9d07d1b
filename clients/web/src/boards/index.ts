// The drawn board of each title that has one (by the title's name), from the view and the title's
// static data (CatalogService.GetTitleData, src/data.ts); the generic tree covers all.
import { drawAssyria } from "./assyria";
import { drawGlenMore } from "./glenmore";
import { drawGoldenCity } from "./goldencity";
import { drawPuertoRico } from "./puertorico";
import type { Json } from "./svg";

export type Board = (view: Json, data: Json) => SVGElement;

export const BOARDS: Partial<Record<string, Board>> = {
  puertorico: drawPuertoRico,
  glenmore: drawGlenMore,
  assyria: drawAssyria,
  goldencity: drawGoldenCity,
};
