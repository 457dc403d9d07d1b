// The catalogs the page renders with. Its own, one per locale, built from clients/web/locale/<locale>.po
// into dist/locale/ (build.mjs) and fetched when the locale is chosen (English is in the code). Each
// title's (CatalogService.GetCatalog), fetched the first time a page shows that title in a locale
// and kept in the browser's storage under its digest, as src/data.ts keeps a title's data: a later
// visit sends the digest and gets the catalog again only if it changed. A title without a catalog
// (NOT_FOUND) keeps its English.
import { Code, ConnectError } from "@connectrpc/connect";
import { catalog } from "./api";
import { ENGLISH, locale, useLocale, useTitleCatalog, type Messages } from "./i18n";

// Each locale the page has a catalog in -> its file under dist/ (build.mjs defines it; the name
// holds the file's digest, so a browser never keeps an old one).
declare const WEB_CATALOGS: Record<string, string>;

export const OFFERED: string[] = Object.keys(WEB_CATALOGS);

const STORE = "bg-catalog:";
const asked = new Map<string, Promise<void>>(); // by `${locale}/${title}`

/** Make `name` the page's locale once its catalog is fetched; English if that fails (thrown). */
export async function loadLocale(name: string): Promise<void> {
  if (name === ENGLISH || !(name in WEB_CATALOGS)) return useLocale(ENGLISH, {});
  try {
    const reply = await fetch(WEB_CATALOGS[name]);
    if (!reply.ok) throw new Error(`${WEB_CATALOGS[name]}: HTTP ${reply.status}`);
    useLocale(name, ((await reply.json()) as { messages: Messages }).messages);
  } catch (error) {
    useLocale(ENGLISH, {});
    throw error;
  }
}

type Kept = { digest: string; messages: Messages };

function kept(key: string): Kept | null {
  try {
    const text = localStorage.getItem(STORE + key);
    return text ? (JSON.parse(text) as Kept) : null;
  } catch {
    return null;
  }
}

/** The title's catalog in the page's locale, fetched (or the kept copy confirmed) the first time. In
 * English the API's strings need none, but what only the catalog holds does (a lobby option's label). */
export function loadCatalog(title: string): Promise<void> {
  const name = locale();
  const key = `${name}/${title}`;
  let loading = asked.get(key);
  if (!loading) {
    loading = fetchCatalog(title, name, key);
    asked.set(key, loading);
  }
  return loading;
}

async function fetchCatalog(title: string, name: string, key: string): Promise<void> {
  const mine = kept(key);
  try {
    const reply = await catalog.getCatalog({ title, locale: name, knownDigest: mine?.digest ?? "" });
    let messages: Messages;
    if (reply.unchanged && mine) messages = mine.messages;
    else {
      messages = { ...(reply.catalog?.messages ?? {}) };
      try {
        localStorage.setItem(STORE + key, JSON.stringify({ digest: reply.catalog?.digest ?? "", messages }));
      } catch {
        // storage full: fetched again on the next visit
      }
    }
    useTitleCatalog(name, title, messages);
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.NotFound) return useTitleCatalog(name, title, null);
    asked.delete(key); // shown in English this time; asked again later
  }
}
