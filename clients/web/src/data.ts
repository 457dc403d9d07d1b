// Each title's static data (CatalogService.GetTitleData): what its views name by number or id and do
// not repeat (a map's hexes, a data set's places and roads, names and card texts), as protobuf JSON.
// A board is drawn from it and the view alone. It is fetched once per title and kept in the browser's
// storage under its digest: a later visit sends the digest and gets the data again only if it changed.
import { catalog } from "./api";
import type { Json } from "./boards/svg";
import { unpacked } from "./titles";

const loaded = new Map<string, Json | null>();
const STORE = "bg-title-data:";

type Kept = { digest: string; data: Json };

function kept(title: string): Kept | null {
  try {
    const text = localStorage.getItem(STORE + title);
    return text ? (JSON.parse(text) as Kept) : null;
  } catch {
    return null;
  }
}

/** The title's data once `loadTitleData` has fetched it; null when it has none (or it failed). */
export function titleData(title: string): Json | null {
  return loaded.get(title) ?? null;
}

/** The title's data, fetched (or the kept copy confirmed) the first time this page asks. */
export async function loadTitleData(title: string): Promise<Json | null> {
  if (loaded.has(title)) return titleData(title);
  const mine = kept(title);
  let data: Json | null;
  try {
    const reply = await catalog.getTitleData({ title, knownDigest: mine?.digest ?? "" });
    if (reply.unchanged && mine) data = mine.data;
    else {
      data = unpacked(reply.data?.data) as Json | null;
      if (data && reply.data) localStorage.setItem(STORE + title, JSON.stringify({ digest: reply.data.digest, data }));
    }
  } catch {
    return null; // drawn without a board this time (the view's tree is complete); asked again later
  }
  loaded.set(title, data);
  return data;
}
