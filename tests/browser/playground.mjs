// Plays one move of every game listed by GET /v1/games in the playground, in
// headless Chromium, on the game's board and in the generic view: pick the game,
// check that an illegal typed move shows the API's error, click a legal move, see
// the bot answer (or, for one-player games, ask it for one), ask for a hint, and
// save a screenshot. On the board, the row and column labels must be those of
// the game's notation (LABELS), and the labels of the cells clicked must spell the
// notation of the move the page then lists (SPELLS); every view links to the
// game's rules. On the board view of a game with numbered levels, the bot
// plays level 1, picked by its label in the level picker. The hint and the
// bot's search are said in words, their raw fields only behind "Details", and
// no count on the page reads "1 positions".
// First, on a phone (390×844) and a fresh profile: the page opens on Reversi
// at the newcomer's level, and neither it nor any game's board overflows the
// screen's width; a later visit opens on the game last played.
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

const digits = (n, from = 0) => Array.from({ length: n }, (_, i) => String(i + from));

/** Each board's labels as the game's notation names squares: top to bottom, left to right. */
const LABELS = {
  advance: { rows: digits(9, 1).reverse(), cols: 'abcdefghi'.split('') },
  reversi: { rows: digits(8, 1), cols: 'abcdefgh'.split('') },
  halma: { rows: digits(16), cols: digits(16) },
  naughts: { rows: digits(3, 1), cols: digits(3, 1) },
  crush: { rows: digits(10), cols: digits(10) },
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a move's notation names the cells clicked, each given by its labels
 * ({ row, col }): the from cell first where a move has one.
 */
const SPELLS = {
  advance: ([from, to], notation) => new RegExp(
    `^${escape(from.col + from.row)}[-x#~=*]${escape(to.col + to.row)}$`,
  ).test(notation),
  reversi: ([to], notation) => notation === `${to.col}${to.row}`,
  naughts: ([to], notation) => notation.startsWith(`${to.row} ${to.col} `),
  halma: ([from, to], notation) => /^[EJ] /.test(notation)
    && notation.startsWith(`${notation[0]} ${from.col},${from.row} `)
    && notation.endsWith(` ${to.col},${to.row}`),
  crush: (cells, notation) => {
    const named = cells.map((c) => `${c.row}${c.col}`).sort();
    return [notation.slice(0, 2), notation.slice(2)].sort().join() === named.join() && notation.length === 4;
  },
};

/** The board's row and column labels, by grid index. */
async function boardLabels(page) {
  const read = (axis) => page.$$eval(`#board .label.${axis}`, (spans, which) => spans
    .sort((a, b) => Number(a.dataset[which]) - Number(b.dataset[which]))
    .map((span) => span.textContent), axis);
  return { rows: await read('row'), cols: await read('col') };
}

/** Fails unless the page links to the game's rules, in a new tab. */
async function checkRulesLink(page, game) {
  const link = page.locator('#rules');
  const href = await link.getAttribute('href');
  const wanted = `/v1/games/${game.id}/rules`;
  if (href !== wanted) throw new Error(`the Rules link goes to ${href}, not ${wanted}`);
  if ((await link.getAttribute('target')) !== '_blank') throw new Error('the Rules link does not open a new tab');
  if (!(await link.isVisible())) throw new Error('the Rules link is not shown');
}

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

/**
 * Clicks one legal move the way a person would; answers what was clicked, and
 * the board cells clicked (their `row,col` keys).
 */
async function clickLegalMove(page) {
  const board = page.locator('#board');
  const clicked = [];
  const cells = [];
  if ((await board.locator('.cell.target').count()) === 0) {
    const movable = board.locator('.cell.movable').first();
    if ((await movable.count()) > 0) {
      cells.push(await movable.getAttribute('data-key'));
      clicked.push(cells[cells.length - 1]);
      await movable.click();
    }
  }
  const target = board.locator('.cell.target').first();
  const pass = board.locator('.extra .move').first();
  if ((await target.count()) > 0) {
    cells.push(await target.getAttribute('data-key'));
    clicked.push(cells[cells.length - 1]);
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
  return { clicked: clicked.join(' → '), cells };
}

const elo = (x) => Math.round(x).toLocaleString('en');

/** What a game's ratings count from: random moves, its ladder's zero. */
const zeroWords = (game) => (game.ladder_zero ? 'random moves' : 'level 1');

/**
 * What the picker must call a numbered level: "Level 5 · about 824 above
 * random moves" once rated, a one-player level by its mean scores.
 */
function levelLabel(l, game) {
  if (l.rating != null) {
    return l.rating === 0 ? `Level ${l.level} · the first rung` : `Level ${l.level} · about ${elo(l.rating)} above ${zeroWords(game)}`;
  }
  const means = Object.entries(l.mean_scores || {});
  if (means.length) return `Level ${l.level} · mean ${means.map(([k, m]) => `${elo(m)} at ${k}`).join(', ')}`;
  return `Level ${l.level}`;
}

const post = async (path, body) => (await fetch(`${BASE}${path}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})).json();

/**
 * Where a newcomer starts: the level the placement endpoint recommends for no
 * results (a rated game, or a one-player game placed by scores), else level 1;
 * null for a game without numbered levels.
 */
async function newcomerLevel(game) {
  const ladder = game.numbered_levels || [];
  if (ladder.length === 0) return null;
  const placed = ladder.some((l) => l.rating != null || l.mean_scores);
  return placed ? (await post(`/v1/games/${game.id}/placement`, {})).recommended.level : ladder[0].level;
}

/**
 * A game with a ladder lists its numbered levels in the picker, each with its
 * measured rating; a new visitor starts at the newcomer's level, never the
 * top one; the bot then plays level 1, with the time field closed (a
 * numbered level carries its own budget, and the API refuses another).
 */
async function pickFirstNumberedLevel(page, game) {
  const ladder = game.numbered_levels || [];
  if (ladder.length === 0) return;
  const placed = ladder.some((l) => l.rating != null || l.mean_scores);
  const start = await newcomerLevel(game);
  const picked = await page.locator('#level').inputValue();
  if (picked !== String(start)) throw new Error(`a new visitor starts at level ${picked}, not ${start}`);
  if (ladder.length > 1 && start === ladder[ladder.length - 1].level) throw new Error(`a new visitor starts at the top level, ${start}`);
  if (placed && !(await page.locator('#placement').innerText()).includes(`start at Level ${start}`)) {
    throw new Error(`the placement panel does not say where a newcomer starts: ${await page.locator('#placement').innerText()}`);
  }
  for (const level of [ladder[0], ladder[ladder.length - 1]]) {
    const shown = (await page.locator(`#level option[value="${level.level}"]`).textContent()).trim();
    if (shown !== levelLabel(level, game)) throw new Error(`the level picker shows ${shown}, not ${levelLabel(level, game)}`);
  }
  await page.selectOption('#level', '1');
  if (!(await page.locator('#time').isDisabled())) throw new Error('the time field stays open for a numbered level');
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
    // A numbered level (where a visitor starts) carries its own budget and
    // closes the time field; a named one thinks for the time given.
    if (await page.locator('#time').isEnabled()) await page.fill('#time', '300');
    await page.selectOption('#game', game.id);
    await until((id) => document.body.dataset.game === id, game.id);
    await until(IDLE);
    await until(() => document.body.dataset.turn === 'human');
    await noPageError(page);
    await checkRulesLink(page, game);
    if (view === 'board') await pickFirstNumberedLevel(page, game);

    // The board speaks the game's notation, and says what its pieces are.
    const labels = view === 'board' ? await boardLabels(page) : null;
    const wanted = LABELS[game.id];
    if (labels && wanted) {
      for (const axis of ['rows', 'cols']) {
        if (labels[axis].join(' ') !== wanted[axis].join(' ')) {
          throw new Error(`the board's ${axis} are labelled ${labels[axis].join(' ')}, not ${wanted[axis].join(' ')}`);
        }
      }
    }
    if (view === 'board' && (await page.locator('#legend .keys li').count()) === 0) {
      throw new Error('the board has no legend');
    }

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
    const { clicked, cells } = await clickLegalMove(page);
    await until(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('you:')));
    // The move list shows the move in the notation the board's labels spell.
    const listed = (await page.locator('#log li', { hasText: /^you: / }).first().textContent()).slice('you: '.length);
    const spells = SPELLS[game.id];
    if (labels && spells && cells.length) {
      const named = cells.map((where) => {
        const [row, col] = where.split(',').map(Number);
        return { row: labels.rows[row], col: labels.cols[col] };
      });
      if (!spells(named, listed)) {
        const said = named.map((c) => `${c.col}/${c.row}`).join(' then ');
        throw new Error(`the move list says ${listed}, but the labels of the cells clicked say ${said}`);
      }
    }
    if (game.players < 2) {
      await until(IDLE);
      await page.click('#bot');
    }
    await until(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('bot:')));
    // What the bot saw in words; the raw report behind a toggle.
    await page.locator('#search .said').waitFor();
    await page.locator('#search details table').waitFor({ state: 'attached' });
    await until(IDLE);
    await noPageError(page);
    const after = await page.locator('#state-json').textContent();
    if (after === before) throw new Error('the state did not change after the moves');

    const hinted = await page.locator('#hint').isEnabled();
    if (hinted) {
      await page.click('#hint');
      await page.locator('#analysis ol li').first().waitFor();
      await until(IDLE);
      await noPageError(page);
    }
    const search = await page.locator('#search').innerText();
    await page.screenshot({ path: join(SHOTS, `${game.id}-${view}.png`), fullPage: true });
    if (problems.length) throw new Error(problems.join('; '));
    if (!search.startsWith('The bot played ')) throw new Error(`the bot's search is not said in words: ${search}`);
    await saidInWords(page, '#search', 'The bot played ');
    if (hinted) await saidInWords(page, '#analysis', 'The bot suggests ');
    await pluralsAgree(page);
    return `clicked ${clicked}, listed as ${listed}; ${search.split('\n')[0]}`;
  } catch (error) {
    await page.screenshot({ path: join(SHOTS, `${game.id}-${view}-failed.png`), fullPage: true }).catch(() => {});
    throw new Error([error.message.split('\n')[0], ...problems].join('; '));
  } finally {
    await page.close();
  }
}

/** A raw field name of the API (`win_probability`, `stopped_by`, `elapsed_ms`…). */
const RAW_FIELD = /\b[a-z]+(_[a-z]+)+\b/;

/**
 * Fails unless a panel speaks in words: it starts with `opening`, and outside
 * its "Details" toggle it names no raw field.
 */
async function saidInWords(page, panel, opening) {
  const words = await page.locator(panel).evaluate((box) => {
    const copy = box.cloneNode(true);
    copy.querySelectorAll('details').forEach((d) => d.remove());
    return copy.textContent;
  });
  const said = words.replace(/^Thinking…[^\n]*/, '').trim();
  if (!said.startsWith(opening)) throw new Error(`${panel} does not open with "${opening}": ${said}`);
  const raw = RAW_FIELD.exec(said);
  if (raw) throw new Error(`${panel} names the raw field ${raw[0]} outside its Details: ${said}`);
  if ((await page.locator(`${panel} details summary`).textContent()) !== 'Details') throw new Error(`${panel} has no Details toggle`);
}

/** Fails where the page counts one thing in the plural ("1 positions"). */
async function pluralsAgree(page) {
  const text = await page.locator('body').innerText();
  const wrong = /(?<![\d.,])1 (positions|moves|games|points|discs|swaps|plies)\b/.exec(text);
  if (wrong) throw new Error(`the page says "${wrong[0]}"`);
}

/**
 * What runs past the right edge of a page `width` wide: the document itself,
 * or any element whose box ends more than 1 px beyond it.
 */
async function overflows(page, width) {
  return page.evaluate((edge) => {
    const out = [];
    const whole = document.documentElement.scrollWidth;
    if (whole > edge) out.push(`the page is ${whole} px wide`);
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > edge + 1) {
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.classList.length ? `.${[...element.classList].join('.')}` : ''}`;
        out.push(`${name} ends at ${Math.round(box.right)} px`);
      }
    }
    return out;
  }, width);
}

const PHONE = { width: 390, height: 844 };

/**
 * On a phone's screen and a fresh profile: the page opens on Reversi at the
 * newcomer's level; the page, Reversi's hint with every Details toggle open,
 * then every game's board fit its width; a visit after them opens on the game
 * last played.
 */
async function fitsAPhone(context, games) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.setDefaultTimeout(GAME_TIMEOUT_MS);
  const idle = () => page.waitForFunction(() => document.body.dataset.busy === '' && document.body.dataset.turn);
  const fits = async (what, shot) => {
    await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
    const out = await overflows(page, PHONE.width);
    if (out.length) throw new Error(`${what} overflows a ${PHONE.width} px screen: ${out.slice(0, 5).join('; ')}`);
    await noPageError(page);
    if (errors.length) throw new Error(errors.join('; '));
  };
  try {
    await page.setViewportSize(PHONE);
    await page.goto(`${BASE}/`);
    await idle();
    const opened = await page.evaluate(() => document.body.dataset.game);
    if (opened !== 'reversi') throw new Error(`a first visit opens on ${opened}, not reversi`);
    const reversi = games.find((g) => g.id === 'reversi');
    const start = await newcomerLevel(reversi);
    const level = await page.locator('#level').inputValue();
    if (level !== String(start)) throw new Error(`a first visit plays Reversi at level ${level}, not the newcomer's ${start}`);
    await fits('the page', 'phone-390.png');
    await page.click('#hint');
    await page.locator('#analysis ol li').first().waitFor();
    await idle();
    await saidInWords(page, '#analysis', 'The bot suggests ');
    await fits('Reversi\'s hint', 'phone-390-reversi-hint.png');
    // Every Details toggle open: the raw figures, the legal moves and the state wrap too.
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    await fits('Reversi\'s details', 'phone-390-reversi-details.png');
    for (const game of games) {
      await page.selectOption('#game', game.id);
      await page.waitForFunction((id) => document.body.dataset.game === id, game.id);
      await idle();
      await fits(`${game.name}'s board`, `phone-390-${game.id}.png`);
    }
    const last = games[games.length - 1].id;
    await page.reload();
    await idle();
    const again = await page.evaluate(() => document.body.dataset.game);
    if (again !== last) throw new Error(`a later visit opens on ${again}, not ${last}, the game last played`);
    return `opens on reversi at level ${start}; the page and ${games.length} boards fit ${PHONE.width} px; reopens on ${last}`;
  } finally {
    await page.close();
  }
}

/**
 * A whole game against a numbered level places the player: Halma with a
 * two-ply limit ends after one move each; the panel then gives the rating
 * the placement endpoint gives for that result, and its button starts a new
 * game at the recommended level.
 */
async function placedAfterAGame(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(GAME_TIMEOUT_MS);
  try {
    await page.goto(`${BASE}/?game=halma`);
    await page.waitForFunction(() => document.body.dataset.game === 'halma' && !document.body.dataset.busy);
    await page.selectOption('#level', '1');
    await page.fill('#options', '{"ply_limit": 2}');
    await page.click('#new');
    await page.waitForFunction(() => document.body.dataset.turn === 'human' && !document.body.dataset.busy);
    await clickLegalMove(page);
    await page.waitForFunction(() => document.body.dataset.turn === 'over' && !document.body.dataset.busy);
    // Halma has no opening book, so its review never labels a move `book`:
    // the answer's first move is relabelled, to see the page say it.
    await page.route('**/v1/games/halma/review', async (route) => {
      const reply = await (await route.fetch()).json();
      reply.plies[0].label = 'book';
      await route.fulfill({ json: reply });
    });
    await page.click('#review');
    await page.waitForFunction(() => document.querySelectorAll('#review-box li').length === 2 && !document.body.dataset.busy);
    const review = await page.locator('#review-box').innerText();
    const book = await page.locator('#review-box li[data-label="book"]').innerText();
    if (!/ — book move$/.test(book)) throw new Error(`a book move is shown as ${book}`);
    if (!/accuracy \d/i.test(review) || !/(book|best|excellent|good|inaccuracy|mistake|blunder)/.test(review)) {
      throw new Error(`the review panel says ${review}`);
    }
    if (!review.includes('100 means every move kept')) throw new Error(`the review does not say what accuracy means: ${review}`);
    if (RAW_FIELD.test(review)) throw new Error(`the review names a raw field: ${review}`);
    if (!(await page.locator('#review-box svg.evaluation polyline').count())) throw new Error('the review has no evaluation graph');
    await page.screenshot({ path: join(SHOTS, 'halma-reviewed.png'), fullPage: true });
    const button = page.locator('#play-recommended');
    await button.waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('gamebot.results.halma')));
    if (stored.length !== 1 || stored[0].level !== 1) throw new Error(`the result kept is ${JSON.stringify(stored)}`);
    const placement = await post('/v1/games/halma/placement', { results: stored });
    const said = await page.locator('#placement').innerText();
    if (!said.includes(`about ${elo(placement.rating)} above random moves`)) throw new Error(`the panel says ${said}, not rating ${placement.rating}`);
    await button.click();
    await page.waitForFunction(() => document.body.dataset.turn === 'human' && !document.body.dataset.busy);
    const level = await page.locator('#level').inputValue();
    if (level !== String(placement.recommended.level)) throw new Error(`the new game is at level ${level}, not ${placement.recommended.level}`);
    if (errors.length) throw new Error(errors.join('; '));
    await page.screenshot({ path: join(SHOTS, 'halma-placed.png'), fullPage: true });
    return `${stored[0].result} at level 1: rating ${placement.rating}, next level ${level}; reviewed`;
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
    // First, while the profile is fresh: a first visit, on a phone.
    const phoneStarted = Date.now();
    try {
      const what = await fitsAPhone(context, games);
      passed += 1;
      console.log(`ok   phone ${Date.now() - phoneStarted} ms: ${what}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL phone ${Date.now() - phoneStarted} ms: ${error.message.split('\n')[0]}`);
    }
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
    const started = Date.now();
    try {
      const what = await placedAfterAGame(context);
      passed += 1;
      console.log(`ok   placement after a game ${Date.now() - started} ms: ${what}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL placement after a game ${Date.now() - started} ms: ${error.message}`);
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
