// Drives the lobby page in headless Chromium (puppeteer-core, pointed at Debian's chromium) as a player
// whose token the test made (E2E_TOKEN, kept in the page's storage as the page keeps its own): reads
// My games, the inbox and the leaderboard of E2E_TITLE; steps the replay of E2E_FINISHED from the game
// as set up to move E2E_STEP with the arrow keys and to its end; then finds a match of E2E_TITLE for E2E_SEATS with bots
// of strength E2E_STRENGTH (a label of the page's list) after one second, and follows it into the game.
//
// First it opens the lobbies and reads the new-lobby form as first drawn and 1.5 s later.
// Prints one JSON line: {form: {first, later: {labels, box}}, games: [{gameId, myTurn}], inbox: [{kind, eventId, gameId}], unread,
// leaderboard: [{playerId, rating, me}], replay: {position, version, seat, action, shown, boardAtStep,
// boardVersion, boardDrawn, lastPosition, check, positionAfterSlider}, match: {gameId, states}, problems, errors}.
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium, E2E_TOKEN: token, E2E_TITLE: title, E2E_FINISHED: finished } = process.env;
const step = Number(process.env.E2E_STEP ?? "3");
const seats = Number(process.env.E2E_SEATS ?? "2");
const games = Number(process.env.E2E_GAMES ?? "1");
const TIMEOUT_MS = 30_000;
const report = { form: {}, games: [], inbox: [], unread: "", leaderboard: [], replay: {}, match: { gameId: "", states: [] }, problems: [], errors: [] };

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let closing = false;

try {
  const page = await (await browser.createBrowserContext()).newPage();
  page.on("console", (m) => { if (m.type() === "error" && !closing) report.problems.push(`console error: ${m.text()} (${m.location()?.url ?? ""})`); });
  page.on("pageerror", (error) => report.problems.push(`uncaught: ${error}`));
  page.on("response", (r) => { if (r.status() >= 400) report.problems.push(`status ${r.status()}: ${r.url()}`); });
  await page.evaluateOnNewDocument((value) => localStorage.setItem("bg-token", value), token);
  // The new-lobby form as first drawn: its option labels and where its button is, the moment it is in.
  await page.evaluateOnNewDocument(() => {
    new MutationObserver((_, observer) => {
      const button = document.querySelector("#create-lobby");
      if (!button?.isConnected) return;
      const box = button.getBoundingClientRect();
      window.firstForm = { labels: [...document.querySelectorAll("#options label > span")].map((s) => s.textContent), box: [box.x, box.y] };
      observer.disconnect();
    }).observe(document, { subtree: true, childList: true });
  });
  await page.setViewport({ width: 1280, height: 900 });

  // The new-lobby form stands still: as first drawn, and a second and a half later.
  await page.goto(`${url}#/lobbies`, { waitUntil: "load" });
  await page.waitForSelector("#create-lobby", { timeout: TIMEOUT_MS });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  report.form = {
    first: await page.evaluate(() => window.firstForm),
    later: await page.evaluate(() => {
      const box = document.querySelector("#create-lobby").getBoundingClientRect();
      return { labels: [...document.querySelectorAll("#options label > span")].map((s) => s.textContent), box: [box.x, box.y] };
    }),
  };

  // My games: every game listed, in the page's order.
  await page.goto(`${url}#/games`, { waitUntil: "load" });
  await page.waitForFunction((n) => document.querySelectorAll("#my-games tr.my-game").length >= n, { timeout: TIMEOUT_MS }, games);
  report.games = await page.$$eval("#my-games tr.my-game", (rows) => rows.map((r) => ({ gameId: r.dataset.gameId, myTurn: r.dataset.myTurn === "true", status: r.dataset.status })));

  // The inbox: the finished game's end, as the gateway posted it.
  await page.click("#nav-inbox");
  await page.waitForSelector(`#inbox-events li[data-kind="GAME_ENDED"][data-game-id="${finished}"]`, { timeout: TIMEOUT_MS });
  report.inbox = await page.$$eval("#inbox-events li.inbox-event", (items) => items.map((i) => ({ kind: i.dataset.kind, eventId: i.dataset.eventId, gameId: i.dataset.gameId })));
  report.unread = await page.$eval("#inbox-unread", (badge) => badge.textContent);

  // The title's leaderboard.
  await page.click("#nav-leaderboards");
  await page.waitForSelector("#leaderboard[data-loaded]");
  await page.select("#leaderboard-title", title);
  await page.waitForSelector(`#leaderboard[data-title="${title}"][data-loaded]`);
  report.leaderboard = await page.$$eval("#leaderboard tr.entry", (rows) => rows.map((r) => ({
    playerId: r.dataset.playerId, rating: r.children[2].textContent, me: r.classList.contains("me"),
  })));

  // The replay: to the move wanted with the arrow keys, then to the end, then the slider.
  await page.evaluate((id) => { window.location.hash = `#/replay/${id}`; }, finished);
  await page.waitForSelector("#replay-position");
  for (let at = 0; at < step; at++) await page.keyboard.press("ArrowRight");
  await page.waitForFunction((n) => document.querySelector("#replay")?.dataset.at === String(n), {}, step);
  report.replay = await page.$eval("#replay-step", (s) => ({
    position: document.querySelector("#replay-position").textContent,
    version: s.dataset.version, seat: s.dataset.seat, action: JSON.parse(s.dataset.action ?? "null"),
    shown: document.querySelector("#replay-move").textContent,
    boardAtStep: document.querySelector("#replay-board-drawn")?.dataset.version ?? "",
  }));
  await page.keyboard.press("End");
  await page.waitForFunction(() => document.querySelector("#replay-board-drawn")?.dataset.step === document.querySelector("#replay-slider")?.max);
  report.replay.boardVersion = await page.$eval("#replay-board-drawn", (b) => b.dataset.version);
  report.replay.boardDrawn = (await page.$$("#replay-board svg")).length > 0;
  report.replay.lastPosition = await page.$eval("#replay-position", (p) => p.textContent);
  await page.$eval("#replay-slider", (slider) => { slider.value = "2"; slider.dispatchEvent(new Event("input")); });
  report.replay.positionAfterSlider = await page.$eval("#replay-position", (p) => p.textContent);
  await page.screenshot({ path: `${process.env.E2E_OUT}/replay.png`, fullPage: true });
  await page.click("#replay-verify");
  await page.waitForFunction(() => (document.querySelector("#replay-check")?.textContent ?? "") !== "", { timeout: TIMEOUT_MS });
  report.replay.check = await page.$eval("#replay-check", (c) => c.textContent);

  // A match: bots of the chosen strength after a second.
  await page.click("#nav-match");
  await page.waitForSelector("#find-match");
  await page.select("#match-title", title);
  await page.$eval("#match-seats", (input, n) => { input.value = String(n); }, seats);
  const value = await page.$$eval("#match-strength option", (options, label) => options.find((o) => o.dataset.level === label)?.value ?? "", process.env.E2E_STRENGTH);
  if (!value) throw new Error(`the page offers no strength "${process.env.E2E_STRENGTH}"`);
  await page.select("#match-strength", value);
  await page.$eval("#match-bots-after", (input) => { input.value = "1"; });
  await page.$eval("#find-match", (button) => button.click());
  report.match.states.push(await page.$eval("#match-state", (s) => s.dataset.status));
  await page.waitForFunction(() => !document.querySelector("#game")?.hidden && document.querySelector("#game")?.dataset.version, { timeout: TIMEOUT_MS });
  report.match.gameId = await page.$eval("#game", (g) => g.dataset.gameId);
  report.match.hash = await page.evaluate(() => window.location.hash);
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
} finally {
  closing = true;
  await browser.close();
}
console.log(JSON.stringify(report));
