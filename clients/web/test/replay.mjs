// Drives a finished game's replay in headless Chromium (puppeteer-core, pointed at Debian's chromium) as
// a spectator whose token the test made (E2E_TOKEN), in one of two runs:
//
// - E2E_MODE=live: opens the game E2E_GAME on the play screen before its first move, writes the file
//   E2E_OUT/ready once the board is drawn, and keeps each board it draws, by the game's version, until
//   the game is over (the test plays it meanwhile through the API).
// - E2E_MODE=replay: opens the finished game, follows its Replay button, then visits each step of
//   E2E_STEPS (a JSON list, ascending) in turn: the next with the → key, the last with End, any other
//   with the slider; then the one before with the Previous button and the first with Home. At each it
//   keeps the board drawn, the move and the events shown. Then it picks Traditional Chinese in the
//   header's menu and keeps what the step at E2E_LOCALE_STEP shows in it.
//
// Prints one JSON line: {live: [{version, board}], steps: [{step, version, board, kind, move, events,
// position}], chinese: {step, move, events}, problems, errors}.
import { writeFileSync } from "node:fs";
import puppeteer from "puppeteer-core";

const env = process.env;
const { E2E_URL: url, E2E_TOKEN: token, E2E_GAME: gameId, E2E_MODE: mode, E2E_OUT: out } = env;
const TIMEOUT_MS = 30_000;
const GAME_MS = 300_000; // the test plays the whole game meanwhile
const WAIT = { timeout: TIMEOUT_MS, polling: 50 };
const BETWEEN_JUMPS_MS = 100; // a jump asks for up to three steps: kept well under the read rate limit
const report = { live: [], steps: [], chinese: {}, problems: [], errors: [] };

const browser = await puppeteer.launch({
  executablePath: env.E2E_CHROMIUM,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let closing = false;

/** What the replay shows once step `step` is drawn. */
async function shown(page, step) {
  await page.waitForFunction((n) => document.querySelector("#replay")?.dataset.at === String(n)
    && !document.querySelector("#replay-board")?.hasAttribute("data-loading"), WAIT, step);
  return page.evaluate(() => {
    const drawn = document.querySelector("#replay-board-drawn");
    return {
      step: Number(drawn.dataset.step),
      version: drawn.dataset.version,
      board: drawn.innerHTML,
      kind: document.querySelector("#replay-step").dataset.kind,
      move: document.querySelector("#replay-move").textContent,
      events: [...document.querySelectorAll("#replay-events li:not(.muted)")].map((li) => li.textContent),
      position: document.querySelector("#replay-position").textContent,
      slider: document.querySelector("#replay-slider").value,
    };
  });
}

try {
  const page = await (await browser.createBrowserContext()).newPage();
  page.on("console", (m) => { if (m.type() === "error" && !closing) report.problems.push(`console error: ${m.text()} (${m.location()?.url ?? ""})`); });
  page.on("pageerror", (error) => report.problems.push(`uncaught: ${error}`));
  page.on("response", (r) => { if (r.status() >= 400) report.problems.push(`status ${r.status()}: ${r.url()}`); });
  await page.evaluateOnNewDocument((value) => localStorage.setItem("bg-token", value), token);
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${url}#/game/${gameId}`, { waitUntil: "load" });
  await page.waitForSelector("#game[data-version] #board", WAIT);

  if (mode === "live") {
    await page.evaluate(() => {
      const game = document.querySelector("#game");
      window.drawnBoards = [];
      const keep = () => {
        const board = game.querySelector("#board");
        if (board && game.dataset.version) window.drawnBoards.push({ version: game.dataset.version, board: board.innerHTML });
      };
      keep();
      new MutationObserver(keep).observe(game, { childList: true });
    });
    writeFileSync(`${out}/ready`, "");
    await page.waitForSelector("#game[data-status=finished]", { timeout: GAME_MS, polling: 100 });
    report.live = await page.evaluate(() => window.drawnBoards);
  } else {
    const steps = JSON.parse(env.E2E_STEPS);
    await page.waitForSelector("#open-replay", WAIT);
    await page.click("#open-replay");
    report.steps.push(await shown(page, 0));
    const last = Number(await page.$eval("#replay-slider", (s) => s.max));
    let at = 0;
    for (const step of steps) {
      if (step === at) continue;
      if (step === at + 1) await page.keyboard.press("ArrowRight");
      else if (step === last) await page.keyboard.press("End");
      else {
        await page.$eval("#replay-slider", (slider, n) => { slider.value = String(n); slider.dispatchEvent(new Event("input")); }, step);
        await new Promise((resolve) => setTimeout(resolve, BETWEEN_JUMPS_MS));
      }
      report.steps.push(await shown(page, step));
      at = step;
    }
    if (at > 0) {
      await page.click("#replay-prev");
      report.steps.push(await shown(page, at - 1));
    }
    await page.keyboard.press("Home");
    report.steps.push(await shown(page, 0));
    await page.screenshot({ path: `${out}/replay.png`, fullPage: true });

    const step = Number(env.E2E_LOCALE_STEP);
    await page.$eval("#replay-slider", (slider, n) => { slider.value = String(n); slider.dispatchEvent(new Event("input")); }, step);
    const english = (await shown(page, step)).position;
    await page.select("#locale", "zh_Hant"); // the screen is opened again, in that language
    await page.waitForFunction((text) => document.documentElement.lang === "zh-Hant"
      && document.querySelector("#replay-position")?.textContent !== text, WAIT, english);
    const chinese = await shown(page, step);
    report.chinese = { step: chinese.step, move: chinese.move, events: chinese.events };
    await page.screenshot({ path: `${out}/replay-zh.png`, fullPage: true });
  }
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
} finally {
  closing = true;
  await browser.close();
}
console.log(JSON.stringify(report));
