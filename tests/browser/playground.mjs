// Plays one move of every game listed by GET /v1/games in the playground, in
// headless Chromium, on the game's board and in the generic view: pick the game,
// check that an illegal typed move shows the API's error, click a legal move, see
// the bot answer (or, for one-player games, ask it for one), ask for a hint, and
// save a screenshot.
// Any console error, page error or error shown by the page fails the game.
//
// Usage: GAMEBOT_URL=http://127.0.0.1:PORT node playground.mjs [screenshot dir]
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BASE = process.env.GAMEBOT_URL || 'http://127.0.0.1:8080';
const SHOTS = resolve(process.argv[2] || 'target/screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const GAME_TIMEOUT_MS = 60_000;
// Without these, Chromium waits on connections this machine refuses.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

async function waitForServer() {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      const reply = await fetch(`${BASE}/readyz`);
      if (reply.ok) return;
    } catch (_) {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${BASE}/readyz did not answer 200 within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The page is idle: no request of its own running. */
const IDLE = () => document.body.dataset.busy === '' && document.body.dataset.turn;

/** Fails with the error the page shows, if any. */
async function noPageError(page) {
  const error = page.locator('#error');
  if (await error.isVisible()) throw new Error(`the page shows an error: ${await error.textContent()}`);
}

/** Clicks one legal move the way a person would; answers what was clicked. */
async function clickLegalMove(page) {
  const board = page.locator('#board');
  const clicked = [];
  if ((await board.locator('.cell.target').count()) === 0) {
    const movable = board.locator('.cell.movable').first();
    if ((await movable.count()) > 0) {
      clicked.push(await movable.getAttribute('data-key'));
      await movable.click();
    }
  }
  const target = board.locator('.cell.target').first();
  const pass = board.locator('.extra .move').first();
  if ((await target.count()) > 0) {
    clicked.push(await target.getAttribute('data-key'));
    await target.click();
  } else if ((await pass.count()) > 0) {
    clicked.push(await pass.textContent());
    await pass.click();
  } else {
    // The generic view: the legal moves are buttons.
    const move = board.locator('.moves .move').first();
    clicked.push(await move.textContent());
    await move.click();
  }
  const choice = page.locator('#choice:not([hidden]) .move').first();
  if ((await choice.count()) > 0) {
    clicked.push(await choice.textContent());
    await choice.click();
  }
  return clicked.join(' → ');
}

async function playOneGame(context, game, view) {
  const page = await context.newPage();
  const problems = [];
  let stop;
  // Rejects at the first console or page error, so that waits fail at once.
  const broken = new Promise((_, reject) => { stop = reject; });
  broken.catch(() => {});
  const problem = (text) => {
    problems.push(text);
    stop(new Error(text));
  };
  let expectRejection = false;
  page.on('console', (m) => {
    // Chromium logs every 4xx answer; only the one the test asks for is expected.
    const rejected = /Failed to load resource: the server responded with a status of 4\d\d/.test(m.text());
    if (m.type() === 'error' && !(expectRejection && rejected)) problem(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problem(`page error: ${e.message}`));
  const until = (fn, arg) => Promise.race([page.waitForFunction(fn, arg), broken]);
  page.setDefaultTimeout(GAME_TIMEOUT_MS);
  try {
    await page.goto(`${BASE}/${view === 'generic' ? '?view=generic' : ''}`);
    await page.locator(`#game option[value="${game.id}"]`).waitFor({ state: 'attached' });
    await until(IDLE);
    await page.fill('#time', '300');
    await page.selectOption('#game', game.id);
    await until((id) => document.body.dataset.game === id, game.id);
    await until(IDLE);
    await until(() => document.body.dataset.turn === 'human');
    await noPageError(page);

    // An illegal typed move: the API's problem detail must be shown.
    expectRejection = true;
    await page.fill('#notation', 'no-such-move');
    await page.click('#typed-play');
    await page.locator('#error').waitFor({ state: 'visible' });
    await until(IDLE);
    expectRejection = false;
    const shown = await page.locator('#error').textContent();
    if (!/\(4\d\d [a-z_]+\): ./.test(shown)) throw new Error(`the error shown lacks the problem's status, code or detail: ${shown}`);

    const before = await page.locator('#state-json').textContent();
    const clicked = await clickLegalMove(page);
    await until(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('you:')));
    if (game.players < 2) {
      await until(IDLE);
      await page.click('#bot');
    }
    await until(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('bot:')));
    await page.locator('#search table').waitFor();
    await until(IDLE);
    await noPageError(page);
    const after = await page.locator('#state-json').textContent();
    if (after === before) throw new Error('the state did not change after the moves');

    if (await page.locator('#hint').isEnabled()) {
      await page.click('#hint');
      await page.locator('#analysis ol li').first().waitFor();
      await until(IDLE);
      await noPageError(page);
    }
    const search = await page.locator('#search').innerText();
    await page.screenshot({ path: join(SHOTS, `${game.id}-${view}.png`), fullPage: true });
    if (problems.length) throw new Error(problems.join('; '));
    const nodes = /nodes\s+([\d,]+)/.exec(search);
    return `clicked ${clicked}; bot searched${nodes ? ` ${nodes[1]} nodes` : ''}`;
  } catch (error) {
    await page.screenshot({ path: join(SHOTS, `${game.id}-${view}-failed.png`), fullPage: true }).catch(() => {});
    throw new Error([error.message.split('\n')[0], ...problems].join('; '));
  } finally {
    await page.close();
  }
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  await waitForServer();
  const { games } = await (await fetch(`${BASE}/v1/games`)).json();
  const profile = mkdtempSync(join(tmpdir(), 'gamebot-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  let passed = 0;
  let failed = 0;
  try {
    // Each game on its own board, then in the generic view that any future game gets.
    for (const view of ['board', 'generic']) {
      for (const game of games) {
        const started = Date.now();
        const name = `${game.id} (${view})`;
        try {
          const what = await playOneGame(context, game, view);
          passed += 1;
          console.log(`ok   ${name} ${Date.now() - started} ms: ${what}`);
        } catch (error) {
          failed += 1;
          console.log(`FAIL ${name} ${Date.now() - started} ms: ${error.message}`);
        }
      }
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`screenshots in ${SHOTS}`);
  console.log(`browser: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

main().catch((error) => {
  console.log(`browser: ${error.message}`);
  console.log('browser: 0 passed, 1 failed');
  process.exitCode = 1;
});
