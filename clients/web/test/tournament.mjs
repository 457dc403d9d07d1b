// Drives the tournaments page in headless Chromium (puppeteer-core, pointed at Debian's chromium) as the
// player whose token the test made (E2E_TOKEN): creates a Swiss of E2E_TITLE named E2E_NAME, E2E_SEATS
// a table, E2E_ROUNDS rounds, at most E2E_CAPACITY entrants; joins, leaves and joins again; adds
// E2E_BOTS bots of the strength labelled E2E_STRENGTH; starts it; finds its round-1 notice in the inbox
// (in a second tab) and follows it to the tournament; withdraws; follows the rounds to the end and reads
// them and the standings; opens a table's game; finds the tournament among the finished ones of the list;
// creates another and calls it off; reads the finished one in each of E2E_LOCALES.
//
// Prints one JSON line: {created: {id, facts}, entrantsAfterJoin, entrantsAfterLeave, entrants,
// notice: {kind, gameId, buttons, hash}, rounds: [{number, finished, tables: [{gameId, finished, seats:
// [{playerId, text}]}], byes}], standings: [{playerId, cells}], withdrawn, game: {gameId, status},
// listed, cancelled: {id, asked, status, controls}, chinese: {locale: {headings, standings, status, format, nav}} (the finished tournament again in
// each of E2E_LOCALES), missing (messages the page lacked), problems, errors}; with E2E_OUT, pictures.
import puppeteer from "puppeteer-core";

const env = process.env;
const url = env.E2E_URL;
const TIMEOUT_MS = 30_000;
const FINISH_MS = Number(env.E2E_FINISH_SECONDS ?? "150") * 1000;
const WAIT = { timeout: TIMEOUT_MS, polling: 100 }; // a timer: a page behind another gets no animation frames
const report = { created: {}, notice: {}, rounds: [], standings: [], entrants: [], game: {}, listed: false, chinese: {}, missing: [], problems: [], errors: [], seen: {} };
let shown = null; // the page: what it showed when something failed goes into the report

const browser = await puppeteer.launch({
  executablePath: env.E2E_CHROMIUM,
  headless: true,
  protocolTimeout: FINISH_MS + 20_000, // a wait in the page is one protocol call: the longest, the tournament's end
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let closing = false;

function listen(page, who) {
  const note = (problem) => { if (!closing) report.problems.push(`${who}: ${problem}`); };
  page.on("console", (m) => { if (m.type() === "error") note(`console error: ${m.text()} (${m.location()?.url ?? ""})`); });
  page.on("console", (m) => { if (m.type() === "warn" && m.text().startsWith("missing message")) report.missing.push(m.text()); });
  page.on("pageerror", (error) => note(`uncaught: ${error}`));
  page.on("response", (r) => { if (r.status() >= 400) note(`status ${r.status()}: ${r.url()}`); });
}

const entrantIds = (page) => page.$$eval("#tournament-entrants tr.entrant", (rows) => rows.map((r) => r.dataset.playerId));
const entrantCount = (page, n) => page.waitForFunction((count) => document.querySelectorAll("#tournament-entrants tr.entrant").length === count, WAIT, n);
const statusIs = (page, status, timeout = TIMEOUT_MS) =>
  page.waitForFunction((s) => document.querySelector("#tournament")?.dataset.status === s, { ...WAIT, timeout }, status);

try {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  shown = page;
  listen(page, "page");
  await page.evaluateOnNewDocument((value) => localStorage.setItem("bg-token", value), env.E2E_TOKEN);
  await page.setViewport({ width: 1280, height: 900 });

  // A new tournament from the form.
  await page.goto(`${url}#/tournaments`, { waitUntil: "load" });
  await page.waitForSelector("#create-tournament");
  await page.click("#nav-tournaments"); // the navigation's entry leads here too
  await page.waitForSelector("#tournaments[data-loaded]");
  await page.type("#tournament-name", env.E2E_NAME);
  await page.select("#tournament-title", env.E2E_TITLE);
  const set = (selector, value) => page.$eval(selector, (input, v) => { input.value = v; }, value);
  await set("#tournament-seats", env.E2E_SEATS);
  await page.select("#tournament-format", env.E2E_FORMAT);
  await set("#tournament-rounds", env.E2E_ROUNDS);
  await set("#tournament-capacity", env.E2E_CAPACITY);
  await page.$eval("#create-tournament", (button) => button.click());
  await statusIs(page, "registration");
  report.created.id = await page.$eval("#tournament", (s) => s.dataset.tournamentId);
  report.created.hash = await page.evaluate(() => location.hash);
  report.created.facts = await page.$$eval("dl.facts dd", (dds) => Object.fromEntries(dds.map((dd) => [dd.id, dd.textContent])));
  const id = report.created.id;

  // Join, leave, join again; bots of the chosen strength.
  const me = env.E2E_PLAYER;
  await page.$eval("#tournament-join", (button) => button.click());
  await entrantCount(page, 1);
  report.entrantsAfterJoin = await entrantIds(page);
  await page.$eval("#tournament-leave", (button) => button.click());
  await entrantCount(page, 0);
  report.entrantsAfterLeave = await entrantIds(page);
  await page.$eval("#tournament-join", (button) => button.click());
  await entrantCount(page, 1);
  const strength = await page.$$eval("#tournament-bot-strength option", (options, label) => options.find((o) => o.dataset.level === label)?.value ?? "", env.E2E_STRENGTH);
  if (!strength) throw new Error(`the page offers no strength "${env.E2E_STRENGTH}"`);
  await page.select("#tournament-bot-strength", strength);
  const bots = Number(env.E2E_BOTS);
  for (let added = 1; added <= bots; added++) {
    await page.$eval("#tournament-add-bot", (button) => button.click());
    await entrantCount(page, 1 + added);
  }
  await page.$eval("#tournament-start", (button) => button.click());
  await statusIs(page, "running");
  await page.waitForSelector('#tournament-rounds .round[data-round="1"]', WAIT);

  // The round's notice in the inbox (a second tab), leading to the tournament.
  const inbox = await context.newPage();
  listen(inbox, "inbox");
  await inbox.goto(`${url}#/inbox`, { waitUntil: "load" });
  const notice = `#inbox-events li[data-tournament-id="${id}"]`;
  await inbox.waitForSelector(notice, WAIT);
  report.notice = await inbox.$eval(notice, (li) => ({
    kind: li.dataset.kind, gameId: li.dataset.gameId, text: li.querySelector(".inbox-text span")?.textContent ?? "",
    buttons: [...li.querySelectorAll("button")].map((b) => b.className),
  }));
  await inbox.click(`${notice} .open-tournament`);
  await inbox.waitForFunction((tid) => document.querySelector("#tournament")?.dataset.tournamentId === tid, WAIT, id);
  report.notice.hash = await inbox.evaluate(() => location.hash);
  await inbox.close();

  // Withdrawn: the bots play on to the end.
  await page.bringToFront();
  await page.$eval("#tournament-leave", (button) => button.click());
  await page.waitForSelector(`#tournament-entrants tr.entrant.withdrawn[data-player-id="${me}"]`, WAIT);
  await statusIs(page, "finished", FINISH_MS);
  report.entrants = await page.$$eval("#tournament-entrants tr.entrant", (rows) => rows.map((r) => ({
    playerId: r.dataset.playerId, seed: r.children[0].textContent, withdrawn: r.classList.contains("withdrawn"), text: r.children[1].textContent,
  })));
  report.rounds = await page.$$eval("#tournament-rounds .round", (rounds) => rounds.map((r) => ({
    number: Number(r.dataset.round), finished: r.dataset.finished === "true",
    tables: [...r.querySelectorAll("tr.table")].map((t) => ({
      gameId: t.dataset.gameId, finished: t.dataset.finished === "true",
      seats: [...t.querySelectorAll(".table-seats li")].map((li) => ({ playerId: li.dataset.playerId, text: li.textContent })),
      link: t.querySelector("a.table-game")?.getAttribute("href") ?? "",
    })),
    byes: (r.querySelector(".byes")?.dataset.byes ?? "").split(" ").filter(Boolean),
  })));
  report.standings = await page.$$eval("#tournament-standings tr.standing", (rows) => rows.map((r) => ({
    playerId: r.dataset.playerId, cells: [...r.children].map((c) => c.textContent),
  })));
  report.facts = await page.$$eval("dl.facts dd", (dds) => Object.fromEntries(dds.map((dd) => [dd.id, dd.textContent])));
  report.controls = await page.$$eval("#tournament-controls > *", (items) => items.map((i) => i.id));
  if (env.E2E_OUT) await page.screenshot({ path: `${env.E2E_OUT}/tournament.png`, fullPage: true });

  // A table's game, to its end.
  await page.click("#tournament-rounds a.table-game");
  await page.waitForFunction(() => document.querySelector("#game")?.dataset.status === "finished", WAIT);
  report.game = await page.$eval("#game", (g) => ({ gameId: g.dataset.gameId, status: g.dataset.status }));

  // The list, finished ones of the title.
  await page.click("#nav-tournaments");
  await page.waitForSelector("#tournaments[data-loaded]");
  await page.select("#tournaments-title", env.E2E_TITLE);
  await page.select("#tournaments-status", env.E2E_FINISHED_STATUS);
  await page.waitForSelector(`#tournaments[data-loaded="${env.E2E_TITLE}/${env.E2E_FINISHED_STATUS}"]`, WAIT);
  report.listed = await page.$$eval("#tournaments tr.tournament", (rows, tid) => rows.filter((r) => r.dataset.tournamentId === tid).map((r) => ({
    status: r.dataset.status, cells: [...r.children].map((c) => c.textContent),
  })), id);

  // Another tournament, called off by its organiser (the page asks to confirm).
  await page.evaluate(() => { location.hash = "#/tournaments"; });
  await page.waitForSelector("#create-tournament");
  await page.type("#tournament-name", `${env.E2E_NAME} called off`);
  await page.select("#tournament-title", env.E2E_TITLE);
  await set("#tournament-seats", env.E2E_SEATS);
  await page.$eval("#create-tournament", (button) => button.click());
  await statusIs(page, "registration");
  report.cancelled = { id: await page.$eval("#tournament", (s) => s.dataset.tournamentId) };
  page.once("dialog", (dialog) => { report.cancelled.asked = dialog.message(); void dialog.accept(); });
  await page.click("#tournament-cancel");
  await statusIs(page, "cancelled");
  report.cancelled.status = await page.$eval("#tournament-status", (dd) => dd.textContent);
  report.cancelled.controls = await page.$$eval("#tournament-controls > *", (items) => items.map((i) => i.id));

  // The finished tournament in each Chinese.
  await page.evaluate((tid) => { location.hash = `#/tournament/${tid}`; }, id);
  await statusIs(page, "finished");
  for (const locale of (env.E2E_LOCALES ?? "").split(" ").filter(Boolean)) {
    await page.$eval("#tournament", (section) => section.append(Object.assign(document.createElement("i"), { id: "drawn-before" })));
    await page.select("#locale", locale);
    await page.waitForFunction((lang) => document.documentElement.lang === lang && document.querySelector("#tournament-standings") && !document.querySelector("#drawn-before"), WAIT, locale.replace("_", "-"));
    report.chinese[locale] = await page.evaluate(() => ({
      headings: [...document.querySelectorAll("#tournament h2")].map((h) => h.textContent),
      standings: [...document.querySelectorAll("#tournament-standings th")].map((th) => th.textContent),
      status: document.querySelector("#tournament-status")?.textContent ?? "",
      format: document.querySelector("#tournament-format")?.textContent ?? "",
      nav: document.querySelector("#nav-tournaments")?.textContent ?? "",
    }));
    if (env.E2E_OUT) await page.screenshot({ path: `${env.E2E_OUT}/tournament.${locale}.png`, fullPage: true });
  }
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
  report.seen = await shown?.evaluate(() => ({
    hash: location.hash, status: document.querySelector("#tournament")?.dataset.status ?? "",
    rounds: document.querySelector("#tournament-rounds")?.textContent ?? "", message: document.querySelector("#message")?.textContent ?? "",
  })).catch((failed) => String(failed));
} finally {
  closing = true;
  await browser.close();
}
console.log(JSON.stringify(report));
