// Drives Puerto Rico's drawn board in headless Chromium (puppeteer-core, pointed at Debian's chromium).
// Play: a guest opens a lobby for three, seats two bots of E2E_STRENGTH and plays the whole game by
// clicking the board's marked places ([data-actions], and #board-choice's items where several apply
// there), taking an action from the labelled list only when the board marks none; it measures, in the
// page, the time from a move's bytes arriving (a SubmitAction reply or a WatchGame message) to the
// next frame after the board showing it. Shots: each game of E2E_SHOTS opened as a spectator and its
// board's picture saved as E2E_OUT/<name>.png.
//
// Usage: node test/board-puertorico.mjs   with E2E_URL, E2E_CHROMIUM, E2E_OUT (a directory),
// E2E_PLAY ("1" to play a game), E2E_STRENGTH (the bots' strength, as the page lists it) and E2E_SHOTS
// (JSON: [{name, gameId}]); prints one JSON line of what it saw.
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium, E2E_OUT: out, E2E_PLAY: play, E2E_STRENGTH: strength } = process.env;
const shots = JSON.parse(process.env.E2E_SHOTS ?? "[]");
const MOVE_TIMEOUT_MS = 30_000;
const MAX_DECISIONS = 2_000;
const VIEWPORT = { width: 1180, height: 1400 };
const report = { decisions: 0, onBoard: 0, fromMenu: 0, fromList: 0, listOnly: [], finalStatus: "", paints: [], shots: [], errors: [] };

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--font-render-hinting=none"],
});

// In the page: stamp the arrival of each chunk of a SubmitAction reply or a WatchGame stream, and on
// each new version of the game on screen, the time from the last arrival to the next frame.
function timeMoves() {
  const original = window.fetch;
  let arrived = 0;
  window.movePaints = [];
  const tapped = (response) => {
    if (!response.body) return response;
    const tap = new TransformStream({ transform(chunk, controller) { arrived = performance.now(); controller.enqueue(chunk); } });
    return new Response(response.body.pipeThrough(tap), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  window.fetch = async (input, init) => {
    const address = String(input instanceof Request ? input.url : input);
    const response = await original(input, init);
    return /SubmitAction|WatchGame/.test(address) ? tapped(response) : response;
  };
  let version = -1;
  new MutationObserver(() => {
    const game = document.getElementById("game");
    const now = Number(game?.dataset.version ?? -1);
    if (now === version || !arrived || !document.querySelector("#board svg")) return;
    version = now;
    const from = arrived;
    requestAnimationFrame(() => window.movePaints.push(performance.now() - from));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-version"] });
}

async function guestPage(name) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.on("pageerror", (error) => report.errors.push(String(error)));
  await page.evaluateOnNewDocument(timeMoves);
  await page.setViewport(VIEWPORT);
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#guest");
  await page.$eval("#guest-name", (input, value) => { input.value = value; }, name);
  await page.click("#guest");
  await page.waitForSelector("#create-lobby");
  return page;
}

const state = (page) => page.$eval("#game", (game) => [game.dataset.status ?? "", Number(game.dataset.version ?? -1)]);
const pick = (list) => list[Math.floor(Math.random() * list.length)];

async function playGame() {
  const page = await guestPage("Board player");
  await page.select("#title", "puertorico");
  await page.$eval("#seats", (input) => { input.value = "3"; });
  await page.click("#create-lobby");
  await page.waitForSelector("#add-bot");
  await page.$eval("#bot-strength", (select, wanted) => {
    const option = [...select.options].find((o) => o.textContent === wanted);
    if (!option) throw new Error(`no bot strength ${wanted}`);
    select.value = option.value;
    select.dispatchEvent(new Event("change"));
  }, strength ?? "random");
  for (let bot = 1; bot <= 2; bot++) {
    await page.click("#add-bot");
    await page.waitForFunction((n) => document.querySelectorAll("#lobby-seats li.taken").length === n, {}, bot + 1);
  }
  await page.click("#start");
  await page.waitForSelector("#game[data-version]");
  while (report.decisions < MAX_DECISIONS) {
    await page.waitForFunction(
      () => document.querySelector("#game")?.dataset.status === "finished" || document.querySelectorAll("#actions .action").length > 0,
      { timeout: MOVE_TIMEOUT_MS },
    );
    const [status, version] = await state(page);
    if (status === "finished") break;
    const places = await page.$$("#board [data-actions]");
    if (places.length) {
      await pick(places).click();
      report.onBoard += 1;
      const menu = await page.waitForFunction(
        (v) => document.querySelector("#board-choice") || Number(document.querySelector("#game")?.dataset.version ?? -1) > v,
        { timeout: MOVE_TIMEOUT_MS }, version,
      );
      if (await menu.evaluate((found) => found instanceof Element)) {
        await pick(await page.$$("#board-choice .choice")).click();
        report.fromMenu += 1;
      }
    } else {
      report.listOnly.push(...(await page.$$eval("#actions .action", (buttons) => buttons.map((b) => b.textContent))));
      await pick(await page.$$("#actions .action")).click();
      report.fromList += 1;
    }
    report.decisions += 1;
    await page.waitForFunction(
      (v) => Number(document.querySelector("#game")?.dataset.version ?? -1) > v || document.querySelector("#game")?.dataset.status === "finished",
      { timeout: MOVE_TIMEOUT_MS }, version,
    );
  }
  await page.waitForFunction(() => document.querySelector("#game")?.dataset.status === "finished", { timeout: MOVE_TIMEOUT_MS });
  report.finalStatus = (await state(page))[0];
  report.finalBoard = (await page.$$("#board .pr-island")).length;
  report.paints = await page.evaluate(() => window.movePaints);
}

async function takeShots() {
  const page = await guestPage("Board spectator");
  for (const { name, gameId } of shots) {
    await page.goto(`${url}?watch=${gameId}`, { waitUntil: "load" });
    await page.waitForSelector("#board svg .pr-island");
    const board = await page.$("#board svg");
    const path = `${out}/${name}.png`;
    await board.screenshot({ path });
    report.shots.push({ name, path });
  }
}

try {
  if (play === "1") await playGame();
  if (shots.length) await takeShots();
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
