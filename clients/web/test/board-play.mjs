// Plays a title's board in headless Chromium (puppeteer-core, pointed at Debian's chromium), clicking
// the drawn board, and screenshots its table at given games in each of given languages.
//
// Usage: node test/board-play.mjs   with E2E_URL, E2E_CHROMIUM, E2E_TITLE, E2E_OUT (a directory) and
//   E2E_PLAY=1        a whole game: a lobby of E2E_SEATS (default 2) of the page's player and random
//                     bots; at each decision a marked place of the board ([data-actions], then the
//                     #board-choice item) is clicked, chosen at random (seed E2E_SEED), and the labelled
//                     list only when the board marks none of the legal actions; in a browser set to
//                     the locale E2E_PLAY_LOCALE (default "en");
//   E2E_SHOTS=[{name, gameId}]   each game's board as a spectator sees it, in a browser set to each
//                     locale of E2E_LOCALES (default ["en"]; gettext names, "zh_Hant"), to
//                     E2E_OUT/<name>.<locale>.png.
// Prints one JSON line: {decisions, boardClicks, listClicks, listLabels, finalStatus, finalVersion,
// drawMs: [{click, arrival}: ms from the click and from the move's arrival to the next version's board
// painted], shots: ["<name>.<locale>"], missing: [the page's "missing message" notes], errors}.
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium, E2E_TITLE: title, E2E_OUT: out } = process.env;
const seats = Number(process.env.E2E_SEATS ?? "2");
const shots = JSON.parse(process.env.E2E_SHOTS ?? "[]");
const locales = JSON.parse(process.env.E2E_LOCALES ?? '["en"]');
const MOVE_TIMEOUT_MS = 30_000;
const MAX_DECISIONS = 3000;
const SNAPSHOT_AT = Number(process.env.E2E_SNAPSHOT_AT ?? "12"); // the board as the player sees it, to look at
const RANDOM_BOT = "1"; // BotStrength.BOT_STRENGTH_RANDOM
const report = { decisions: 0, boardClicks: 0, listClicks: 0, listLabels: [], finalStatus: "", finalVersion: -1, drawMs: [], shots: [], missing: [], errors: [] };

// A small seeded generator (mulberry32), so a run's choices can be repeated.
let seed = Number(process.env.E2E_SEED ?? "29") >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let x = seed;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];

// In the page: when the game's version passes the one a click was made at, the time to the frame after
// the new board is in the document, from the click and from the arrival of the response's last chunk
// before it (the watch stream's or SubmitAction's, whichever brought the move).
function drawTimer() {
  window.boardTimes = [];
  window.startTimer = (version) => { window.timing = { version, at: performance.now(), arrival: null }; };
  // Each chunk of a game's response (the watch stream's, SubmitAction's) marks when it arrived.
  const original = window.fetch;
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const address = String(input instanceof Request ? input.url : input);
    if (!response.body || !/WatchGame|SubmitAction/.test(address)) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (window.timing) window.timing.arrival = performance.now();
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  new MutationObserver(() => {
    const timing = window.timing;
    const game = document.querySelector("#game");
    if (!timing || !game || Number(game.dataset.version ?? -1) <= timing.version || !document.querySelector("#board svg")) return;
    window.timing = null;
    requestAnimationFrame(() => setTimeout(() => {
      const now = performance.now();
      window.boardTimes.push({ click: now - timing.at, arrival: timing.arrival === null ? null : now - timing.arrival });
    }, 0));
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-version"] });
}

/** A headless Chromium whose languages are `lang` (navigator.languages). */
const launch = (lang = "en-US") => puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--font-render-hinting=none", `--accept-lang=${lang}`],
});
let browser = await launch((process.env.E2E_PLAY_LOCALE ?? "en").replace(/_/g, "-"));

async function guestPage(name) {
  const page = await (await browser.createBrowserContext()).newPage();
  page.on("pageerror", (error) => report.errors.push(String(error)));
  page.on("console", (m) => { if (m.type() === "warn" && m.text().startsWith("missing message")) report.missing.push(m.text()); });
  await page.evaluateOnNewDocument(drawTimer);
  await page.setViewport({ width: 1100, height: 1400, deviceScaleFactor: 1 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#guest");
  await page.$eval("#guest-name", (input, value) => { input.value = value; }, name);
  await page.click("#guest");
  await page.waitForSelector("#create-lobby");
  return page;
}

const state = (page) => page.$eval("#game", (game) => [game.dataset.status ?? "", Number(game.dataset.version ?? -1)]);

let playing = null; // the page playing, whose message a failure reports

async function play() {
  const page = await guestPage("Board player");
  playing = page;
  await page.select("#title", title);
  await page.$eval("#seats", (input, n) => { input.value = String(n); }, seats);
  // The form's buttons are pressed, not clicked at coordinates: the form grows when the title's labels
  // arrive, and a click at a place read a moment before could land beside the button.
  await page.$eval("#create-lobby", (button) => button.click());
  await page.waitForSelector("#add-bot");
  await page.select("#bot-strength", RANDOM_BOT);
  for (let bot = 1; bot < seats; bot++) {
    await page.$eval("#add-bot", (button) => button.click());
    await page.waitForFunction((n) => document.querySelectorAll("#lobby-seats li.taken").length === n, {}, bot + 1);
  }
  await page.$eval("#start", (button) => button.click());
  await page.waitForSelector("#game[data-version]");
  while (report.decisions < MAX_DECISIONS) {
    await page.waitForFunction(
      () => document.querySelector("#game")?.dataset.status === "finished" || document.querySelectorAll("#actions .action").length > 0,
      { timeout: MOVE_TIMEOUT_MS },
    );
    const [status, version] = await state(page);
    if (status === "finished") break;
    const places = await page.$$("#board [data-actions]");
    if (report.decisions === SNAPSHOT_AT) await (await page.$("#board svg")).screenshot({ path: `${out}/${title}-playing.png` });
    await page.evaluate((v) => window.startTimer(v), version);
    if (places.length) {
      const place = pick(places);
      report.lastClick = await place.evaluate((p) => p.getAttribute("aria-label"));
      await place.click();
      const menu = await page.$$("#board-choice .choice");
      if (menu.length) await pick(menu).click();
      report.boardClicks += 1;
    } else {
      const buttons = await page.$$("#actions .action");
      const button = pick(buttons);
      report.listLabels.push(await button.evaluate((b) => b.textContent));
      await button.click();
      report.listClicks += 1;
    }
    report.decisions += 1;
    await page.waitForFunction(
      (v) => Number(document.querySelector("#game")?.dataset.version ?? -1) > v || document.querySelector("#game")?.dataset.status === "finished",
      { timeout: MOVE_TIMEOUT_MS },
      version,
    );
  }
  await page.waitForFunction(() => document.querySelector("#game")?.dataset.status === "finished", { timeout: MOVE_TIMEOUT_MS });
  [report.finalStatus, report.finalVersion] = await state(page);
  report.drawMs = await page.evaluate(() => window.boardTimes);
  await page.screenshot({ path: `${out}/${title}-finished.png`, fullPage: true });
}

async function screenshots(locale) {
  await browser.close();
  browser = await launch(locale.replace(/_/g, "-"));
  const page = await guestPage("Board spectator");
  for (const { name, gameId } of shots) {
    await page.goto(`${url}?watch=${gameId}`, { waitUntil: "load" });
    await page.waitForSelector("#board svg");
    const lang = await page.evaluate(() => document.documentElement.lang);
    if (lang !== locale.replace(/_/g, "-")) throw new Error(`the page speaks ${lang}, not ${locale}`);
    await page.evaluate(() => document.fonts.ready);
    await page.mouse.move(0, 0); // no hover outline
    const board = await page.$("#board svg");
    await board.screenshot({ path: `${out}/${name}.${locale}.png` });
    report.shots.push(`${name}.${locale}`);
  }
}

try {
  if (process.env.E2E_PLAY) await play();
  if (shots.length) for (const locale of locales) await screenshots(locale);
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
  report.errors.push(`last click: ${report.lastClick}`);
  if (playing) report.errors.push(`page message: ${await playing.$eval("#message", (m) => m.textContent).catch(() => "(none)")}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
