// Drives the web client in headless Chromium (puppeteer-core, pointed at Debian's chromium) with a
// browser set to E2E_BROWSER_LANG (--accept-lang: navigator.languages), as the players whose tokens the
// test made, each on a game of theirs: what the page shows in the language it chose.
//
// Usage: node test/locale.mjs   with E2E_URL, E2E_CHROMIUM, E2E_BROWSER_LANG and E2E_VISITS, a JSON list
//   of {name, token, gameId, picks}: each visit opens the game in a fresh browser context, reads the
//   page, then picks each locale of `picks` in turn in the header's language menu (waiting for the
//   game's first action label to change), reading the page after each. A visit without a token reads
//   the sign-in screen instead.
// With E2E_OUT (a directory), each reading's page is saved as <name>-<n>.png there, to look at.
// Prints one JSON line: {visits: {name: [{lang, locale, title, nav, current (the id of the entry
// marked the current page), signIn, actions, events, reloaded}]},
// missing: [console "missing message" notes], problems, errors}; `reloaded` says whether the page
// was loaded anew since the visit began (a mark set on its window is gone).
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium, E2E_BROWSER_LANG: lang, E2E_OUT: out } = process.env;
const visits = JSON.parse(process.env.E2E_VISITS ?? "[]");
const TIMEOUT_MS = 30_000;
const report = { visits: {}, missing: [], problems: [], errors: [] };

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", `--accept-lang=${lang}`],
});

/** What the page shows now (saved as `shot`.png in E2E_OUT if given). */
const read = async (page, shot) => {
  if (out) await page.screenshot({ path: `${out}/${shot}.png`, fullPage: true });
  return readPage(page);
};
const readPage = (page) => page.evaluate(() => ({
  lang: document.documentElement.lang,
  locale: document.querySelector("#locale")?.value ?? "",
  title: document.title,
  nav: [...document.querySelectorAll("#nav a")].map((a) => a.firstChild?.textContent ?? ""),
  current: document.querySelector("#nav a[aria-current]")?.id ?? "",
  signIn: [...document.querySelectorAll("#signin h2, #signin button")].map((e) => e.textContent),
  actions: [...document.querySelectorAll("#actions .action")].map((b) => b.textContent),
  events: [...document.querySelectorAll("#events li")].map((li) => li.textContent),
  reloaded: window.visitMark !== true,
}));

try {
  for (const { name, token, gameId, picks } of visits) {
    const page = await (await browser.createBrowserContext()).newPage();
    page.on("console", (m) => {
      if (m.type() === "warn" && m.text().startsWith("missing message")) report.missing.push(m.text());
      if (m.type() === "error") report.problems.push(`console error: ${m.text()} (${m.location()?.url ?? ""})`);
    });
    page.on("pageerror", (error) => report.problems.push(`uncaught: ${error}`));
    page.on("response", (r) => { if (r.status() >= 400) report.problems.push(`status ${r.status()}: ${r.url()}`); });
    await page.setViewport({ width: 1280, height: 900 });
    if (!token) {
      await page.goto(url, { waitUntil: "load" });
      await page.waitForSelector("#guest", { timeout: TIMEOUT_MS });
      report.visits[name] = [await read(page, `${name}-0`)];
      await page.close();
      continue;
    }
    await page.evaluateOnNewDocument((value) => localStorage.setItem("bg-token", value), token);
    await page.goto(`${url}#/game/${gameId}`, { waitUntil: "load" });
    await page.waitForSelector("#actions .action", { timeout: TIMEOUT_MS });
    await page.waitForFunction(() => document.querySelectorAll("#events li").length > 0, { timeout: TIMEOUT_MS });
    await page.evaluate(() => { window.visitMark = true; });
    const seen = [await read(page, `${name}-0`)];
    for (const locale of picks) {
      const before = seen[seen.length - 1].actions[0];
      await page.select("#locale", locale);
      await page.waitForFunction((label) => document.querySelector("#actions .action")?.textContent !== label, { timeout: TIMEOUT_MS }, before);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
      seen.push(await read(page, `${name}-${seen.length}`));
    }
    report.visits[name] = seen;
    await page.close();
  }
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
