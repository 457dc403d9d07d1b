// Which locale the page speaks: the one the person picked in the header's menu (kept in this browser,
// and saved to the account with AccountService.SetLocale), else the account's (GetMe.locale), else the
// browser's (navigator.languages), each taken to the nearest locale the page has a catalog in
// ("zh-TW", "zh-HK" -> zh_Hant; "zh-CN", "zh" -> zh_Hans), else English.
import { OFFERED } from "./catalogs";
import { select } from "./dom";
import { ENGLISH, locale, t, tag } from "./i18n";

const KEPT = "bg-locale";
let picked: string | null = null; // picked on this page since it loaded

/** The offered locale nearest a BCP 47 tag or gettext name; null when none is near. */
export function nearest(wanted: string | null | undefined): string | null {
  if (!wanted) return null;
  try {
    const full = new Intl.Locale(wanted.replace(/_/g, "-")).maximize();
    return [`${full.language}_${full.script}`, full.language].find((name) => OFFERED.includes(name)) ?? null;
  } catch {
    return null; // no locale
  }
}

function browser(): string | null {
  for (const wanted of navigator.languages ?? [navigator.language]) {
    const found = nearest(wanted);
    if (found) return found;
  }
  return null;
}

/** The locale to speak, given the account's preferred one (empty when signed out or not set). */
export function wanted(account = ""): string {
  return picked ?? nearest(account) ?? nearest(localStorage.getItem(KEPT)) ?? browser() ?? ENGLISH;
}

/** The locale picked on this page, to save to the account that signs in (null: none picked). */
export function pickedHere(): string | null {
  return picked;
}

function pick(name: string): void {
  picked = name;
  localStorage.setItem(KEPT, name);
}

/** The header's language menu: each locale named in its own language; a pick calls `chosen`. */
export function localeMenu(chosen: (name: string) => unknown): HTMLSelectElement {
  const menu = select(
    { id: "locale", "aria-label": t("web.header.language", "Language"), title: t("web.header.language", "Language") },
    OFFERED.map((name) => ({ value: name, label: new Intl.DisplayNames([tag(name)], { type: "language" }).of(tag(name)) ?? name })),
    locale(),
  );
  menu.addEventListener("change", () => {
    pick(menu.value);
    void chosen(menu.value);
  });
  return menu;
}
