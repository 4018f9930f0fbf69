// The gamebot playground: plays any game of GET /v1/games against the bot,
// through the public API only. One small renderer per game id draws the board;
// games without one get a generic view (state JSON and the legal moves as buttons).
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const key = (row, col) => `${row},${col}`;

  /** An API error: the message carries the problem+json title, status, code and detail. */
  class ApiError extends Error {}

  /** Sends a request; answers the parsed JSON or throws an ApiError. */
  async function api(method, path, body) {
    const init = { method, headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(`${method} ${path}: the server could not be reached (${error.message})`);
    }
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (_) {
      data = null;
    }
    if (!response.ok) {
      const problem = data || {};
      const code = problem.code ? ` ${problem.code}` : '';
      const detail = problem.detail || text || response.statusText;
      throw new ApiError(`${problem.title || 'Error'} (${response.status}${code}): ${detail}`);
    }
    // Keep the text: JSON numbers over 2^53 (seeds) lose digits in JSON.parse.
    if (data && typeof data === 'object') Object.defineProperty(data, 'raw', { value: text });
    return data;
  }

  /** The exact `seed` of an answer, read from its text. */
  const exactSeed = (reply) => {
    const match = /"seed"\s*:\s*(\d+)/.exec(reply.raw || '');
    return match ? match[1] : undefined;
  };

  // ---- Renderers: grid(state) draws cells; pairs(move) says which cells a move
  // goes from/to (moves without a `from` are played by clicking their target).

  const range = (n, from = 0) => Array.from({ length: n }, (_, i) => i + from);

  // Every board is labelled the way the game's notation names its squares, and
  // every renderer has a legend: what the board's letters and colours are (its
  // `keys`, drawn as small cells) and how squares and moves are written (`notes`,
  // where `backquoted` text is notation).

  const ADVANCE_NAMES = {
    z: 'Zombie', b: 'Builder', j: 'Jester', m: 'Miner',
    s: 'Sentinel', c: 'Catapult', d: 'Dragon', g: 'General',
  };
  const ADVANCE_FILES = 'abcdefghi';
  /** Advance's square name of a text-board cell: file a–i left to right, rank 1 at the bottom (row 8). */
  const advanceSquare = (r, c) => `${ADVANCE_FILES[c]}${9 - r}`;

  function inHalmaBlackCamp(x, y) {
    const widths = [5, 5, 4, 3, 2];
    return y < widths.length && x < widths[y];
  }

  // Reversi's rank 1 is the top row (a1 top-left), as in its rules and engine.
  const reversiSquare = (square) => ({ row: Number(square.slice(1)) - 1, col: square.charCodeAt(0) - 97 });

  const renderers = {
    reversi: {
      grid(state) {
        return {
          rows: 8, cols: 8,
          rowLabels: range(8, 1), colLabels: 'abcdefgh'.split(''), axes: ['row', 'column'],
          cell(r, c) {
            const ch = state.board[r][c];
            const name = `${'abcdefgh'[c]}${r + 1}`;
            if (ch === 'B') return { cls: 'disc black', title: `${name}: black` };
            if (ch === 'W') return { cls: 'disc white', title: `${name}: white` };
            return { cls: 'empty green', title: name };
          },
        };
      },
      pairs(move) {
        if (!move.square) return [];
        const { row, col } = reversiSquare(move.square);
        return [{ to: key(row, col) }];
      },
      info(state) {
        const all = state.board.join('');
        const count = (ch) => all.split(ch).length - 1;
        return `black ${count('B')} · white ${count('W')}`;
      },
      legend: () => ({
        keys: [
          { cls: 'disc black', what: '`B` black disc (moves first)' },
          { cls: 'disc white', what: '`W` white disc' },
        ],
        notes: [
          'Squares: column `a`–`h` left to right, then row `1`–`8` top to bottom (`a1` is the top-left corner).',
          'A move is the square a disc goes on, e.g. `d3`; `pass` when there is none.',
        ],
      }),
    },

    advance: {
      grid(state) {
        return {
          rows: 9, cols: 9,
          rowLabels: range(9).map((r) => 9 - r), colLabels: ADVANCE_FILES.split(''), axes: ['rank', 'file'],
          cell(r, c) {
            const ch = state.board[r][c];
            const square = advanceSquare(r, c);
            if (ch === '.') return { cls: 'empty', title: square };
            if (ch === '#') return { cls: 'wall', title: `${square}: wall` };
            const white = ch === ch.toUpperCase();
            const name = ADVANCE_NAMES[ch.toLowerCase()] || ch;
            return {
              cls: `piece ${white ? 'white' : 'black'}`,
              text: ch,
              title: `${square}: ${white ? 'white' : 'black'} ${name}`,
            };
          },
        };
      },
      pairs(move) {
        return move.from && move.to ? [{ from: key(...move.from), to: key(...move.to) }] : [];
      },
      label: (move) => `${move.kind} ${notationOf(move)}`,
      info: (state) => (state.ply === undefined ? '' : `ply ${state.ply}`),
      legend: () => ({
        keys: [
          ...Object.entries(ADVANCE_NAMES).map(([ch, name]) => ({
            pair: [{ cls: 'piece white', text: ch.toUpperCase() }, { cls: 'piece black', text: ch }],
            what: name,
          })),
          { cls: 'wall', what: '`#` wall' },
        ],
        notes: [
          'Uppercase is white (moves up, first), lowercase is black.',
          'Squares: file `a`–`i` left to right, then rank `1`–`9` from white\'s side (the bottom).',
          'A move is two squares with a sign: `-` move, `x` capture or leap, `#` build, `~` swap, `=` convert, `*` shoot, e.g. `e2-e3`.',
        ],
      }),
    },

    halma: {
      grid(state) {
        return {
          rows: 16, cols: 16, rowLabels: range(16), colLabels: range(16), axes: ['y', 'x'],
          cell(y, x) {
            const ch = state.board[y][x];
            let camp = '';
            if (inHalmaBlackCamp(x, y)) camp = ' camp-black';
            if (inHalmaBlackCamp(15 - x, 15 - y)) camp = ' camp-white';
            const where = `${x},${y}`;
            if (ch === 'B') return { cls: `disc black${camp}`, title: `${where}: black` };
            if (ch === 'W') return { cls: `disc white${camp}`, title: `${where}: white` };
            return { cls: `empty${camp}`, title: where };
          },
        };
      },
      pairs(move) {
        const path = move.path || [];
        if (path.length < 2) return [];
        const [fx, fy] = path[0];
        const [tx, ty] = path[path.length - 1];
        return [{ from: key(fy, fx), to: key(ty, tx) }];
      },
      cells: (move) => (move.path || []).map(([x, y]) => key(y, x)),
      legend: () => ({
        keys: [
          { cls: 'disc black', what: '`B` black piece (moves first, from the top-left)' },
          { cls: 'disc white', what: '`W` white piece (from the bottom-right)' },
          { cls: 'empty camp-black', what: 'black\'s camp' },
          { cls: 'empty camp-white', what: 'white\'s camp' },
        ],
        notes: [
          'Cells are `x,y`: `x` the column 0–15 left to right (numbers along the top), `y` the row 0–15 top to bottom (`0,0` is the top-left corner).',
          'A step is `E x,y x,y`; each jump is a `J x,y x,y` line, typed here with `;` between them, e.g. `J 4,1 6,3; J 6,3 6,5`.',
        ],
      }),
    },

    naughts: {
      grid(state) {
        const n = state.grid_size;
        return {
          rows: n, cols: n, rowLabels: range(n, 1), colLabels: range(n, 1), axes: ['row', 'column'],
          cell(r, c) {
            const top = state.board[r][c];
            if (!top) return { cls: 'empty', title: `${r + 1} ${c + 1}` };
            const size = Number(top.slice(1));
            return {
              cls: `marker ${top[0]}`,
              text: top,
              title: `${r + 1} ${c + 1}: ${top[0]} size ${size}`,
              scale: 0.45 + 0.55 * (size / state.pieces),
            };
          },
        };
      },
      pairs: (move) => [{ to: key(move.row, move.col) }],
      accepts: (move, ui) => move.size === ui.pick,
      picker(state, moves) {
        const sizes = [...new Set(moves.map((m) => m.size))].sort((a, b) => a - b);
        return { label: `Marker size for ${state.to_move}`, sizes };
      },
      info(state) {
        const hand = (side) => `${side}: ${(state.hands[side] || []).join(' ') || '—'}`;
        return `hands · ${hand('O')} · ${hand('X')}`;
      },
      legend: (state) => ({
        keys: [
          { cls: 'marker O', text: `O${state.pieces}`, what: '`O` naughts (move first)' },
          { cls: 'marker X', text: 'X1', what: '`X` crosses' },
        ],
        notes: [
          `The number is the top marker's size, 1–${state.pieces}: a bigger marker may cover a smaller one.`,
          `A move is \`row column size\`, rows 1–${state.grid_size} top to bottom and columns 1–${state.grid_size} left to right, e.g. \`2 2 ${state.pieces}\`.`,
        ],
      }),
    },

    crush: {
      grid(state) {
        return {
          rows: 10, cols: 10, rowLabels: range(10), colLabels: range(10), axes: ['row digit', 'column digit'],
          cell(r, c) {
            const digit = state.board[r][c];
            return { cls: `gem d${digit}`, text: digit, title: `${r}${c}: ${digit}` };
          },
        };
      },
      pairs(move) {
        const cell = (rc) => String(rc).padStart(2, '0');
        const a = key(cell(move.a)[0], cell(move.a)[1]);
        const b = key(cell(move.b)[0], cell(move.b)[1]);
        return [{ from: a, to: b }, { from: b, to: a }];
      },
      info: (state) => `score ${state.score} · swaps left ${state.swaps_left} · k ${state.k}`,
      legend: (state) => ({
        keys: [{
          pair: range(state.k, 1).map((d) => ({ cls: `gem d${d}`, text: String(d) })),
          what: `the digits 1–${state.k}: three or more equal in a row or column are crushed`,
        }],
        notes: [
          'A cell is a two-digit number: its row digit (at the left) then its column digit (along the top); `00` is the top-left cell, `09` the top-right, `99` the bottom-right.',
          'A swap is its two adjacent cells, e.g. `2122`.',
        ],
      }),
    },
  };

  /** A move as its notation, on one line (Halma's jump lines joined by `; `, which typing accepts). */
  function notationOf(move) {
    const text = typeof move === 'string' ? move : move && move.notation;
    if (typeof text !== 'string') return JSON.stringify(move);
    return text.split('\n').map((line) => line.trim()).filter(Boolean).join('; ');
  }

  // ---- Words: counts, times and chances as the page says them.

  /** `n` and a word, plural unless `n` is one: "1 position", "120,000 positions". */
  const counted = (n, one, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

  /** A duration in seconds, two significant digits: "0.3 s", "0.034 s", "12 s". */
  const seconds = (ms) => `${(ms / 1000).toLocaleString('en', { maximumSignificantDigits: 2 })} s`;

  /** A chance of winning (0–1) as a whole percentage. */
  const percent = (p) => `${Math.round(p * 100)}%`;

  // ---- What the page knows.

  const ui = {
    games: [],
    info: null, // the GameInfo of the game being played
    renderer: null,
    state: null,
    moves: [],
    outcome: { status: 'ongoing' },
    from: null, // the selected cell
    pick: null, // a size, for games with a picker
    last: [], // cells of the last move
    hint: [], // cells of the best move of the last analysis
    busy: false,
    recorded: false, // whether the finished game's result went to the placement
    start: null, // the state the game started from, for its review
    played: [], // the notations of the moves played since, for its review
    version: 0,
  };

  function showError(error) {
    const box = $('error');
    box.textContent = error instanceof Error ? error.message : String(error);
    box.hidden = false;
  }

  function clearError() {
    $('error').hidden = true;
    $('error').textContent = '';
  }

  /** Runs an action with the controls disabled; shows whatever error it raises. */
  async function busy(action) {
    if (ui.busy) return;
    ui.busy = true;
    document.body.dataset.busy = '1';
    render();
    try {
      clearError();
      await action();
    } catch (error) {
      showError(error);
    } finally {
      ui.busy = false;
      document.body.dataset.busy = '';
      render();
    }
  }

  const isOver = () => ui.outcome && ui.outcome.status !== 'ongoing';

  /** Whether the person is to move (one-player games: always, until the end). */
  function humansTurn() {
    if (!ui.state || isOver()) return false;
    if (ui.info.players < 2 || ui.state.to_move === undefined) return true;
    return ui.state.to_move === $('side').value;
  }

  function cellsOf(move) {
    const r = ui.renderer;
    if (!r) return [];
    if (r.cells) return r.cells(move);
    return [...new Set(r.pairs(move).flatMap((p) => (p.from ? [p.from, p.to] : [p.to])))];
  }

  function accepted(move) {
    return !ui.renderer.accepts || ui.renderer.accepts(move, ui);
  }

  /** Cells that start a legal move (pieces to pick up). */
  function movableCells() {
    const cells = new Set();
    for (const move of ui.moves.filter(accepted)) {
      for (const pair of ui.renderer.pairs(move)) if (pair.from) cells.add(pair.from);
    }
    return cells;
  }

  /** Target cell -> the legal moves that end there, given the selection. */
  function targetCells() {
    const targets = new Map();
    for (const move of ui.moves.filter(accepted)) {
      for (const pair of ui.renderer.pairs(move)) {
        if ((pair.from || null) !== ui.from) continue;
        const list = targets.get(pair.to) || [];
        if (!list.includes(move)) list.push(move);
        targets.set(pair.to, list);
      }
    }
    return targets;
  }

  // ---- Talking to the API.

  // A first visit opens on Reversi, the game most people know the rules of;
  // a later one on the game last played in this browser.
  const FIRST_GAME = 'reversi';
  const LAST_GAME_KEY = 'gamebot.game';

  function lastGame() {
    try {
      return localStorage.getItem(LAST_GAME_KEY);
    } catch (error) {
      return null;
    }
  }

  function rememberGame(id) {
    try {
      localStorage.setItem(LAST_GAME_KEY, id);
    } catch (error) {
      // Private browsing: the next visit opens on Reversi again.
    }
  }

  async function loadGames() {
    const reply = await api('GET', '/v1/games');
    ui.games = reply.games;
    const select = $('game');
    select.replaceChildren(...ui.games.map((g) => new Option(`${g.name} (${g.id})`, g.id)));
    const wanted = [new URLSearchParams(location.search).get('game'), lastGame(), FIRST_GAME]
      .find((id) => ui.games.some((g) => g.id === id));
    if (wanted) select.value = wanted;
    await chooseGame();
  }

  async function chooseGame() {
    ui.info = ui.games.find((g) => g.id === $('game').value) || null;
    if (!ui.info) return;
    // `?view=generic` shows any game the way a game without a renderer is shown.
    const generic = new URLSearchParams(location.search).get('view') === 'generic';
    ui.renderer = generic ? null : renderers[ui.info.id] || null;
    Object.assign(ui, { state: null, moves: [], outcome: { status: 'ongoing' }, from: null, pick: null });
    $('level').replaceChildren(...levelGroups(ui.info));
    $('level').value = ui.info.default_level;
    await placeVisitor();
    levelChosen();
    $('side').replaceChildren(...(ui.info.sides || []).map((s) => new Option(s, s)));
    $('side-label').hidden = ui.info.players < 2;
    $('bot').textContent = ui.info.players < 2 ? 'Bot plays one swap' : 'Bot plays one move';
    document.body.dataset.game = ui.info.id;
    rememberGame(ui.info.id);
    // The service serves every game's rules; the link is made from the id alone.
    $('rules').setAttribute('href', `/v1/games/${encodeURIComponent(ui.info.id)}/rules`);
    $('rules').textContent = `Rules of ${ui.info.name}`;
    const options = ui.info.new_options || [];
    $('options').value = '';
    $('options').placeholder = options.length ? `{"${options[0].name}": …}` : '{} (no options)';
    $('options').title = options.map((o) => `${o.name}: ${o.description}`).join('\n') || 'This game takes no options.';
    $('options-label').hidden = options.length === 0;
  }

  /** The options typed for a new game (an empty box means none). */
  function newGameOptions() {
    const text = $('options').value.trim();
    if (!text) return {};
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`the new game options are not JSON: ${error.message}`);
    }
  }

  async function newGame() {
    const reply = await api('POST', `/v1/games/${ui.info.id}/new`, { options: newGameOptions() });
    ui.state = reply.state;
    ui.start = reply.state;
    ui.played = [];
    ui.last = [];
    ui.hint = [];
    ui.recorded = false;
    $('review-box').innerHTML = '<p class="muted">Finish a game to review it.</p>';
    $('log').replaceChildren();
    $('search').innerHTML = '<p class="muted">The bot has not moved yet.</p>';
    $('analysis').innerHTML = '<p class="muted">Ask for a hint to see the best moves.</p>';
    await refresh();
    await letBotPlay();
  }

  /** Fetches the legal moves and outcome of the current state. */
  async function refresh() {
    const reply = await api('POST', `/v1/games/${ui.info.id}/legal-moves`, { state: ui.state });
    ui.moves = reply.moves;
    ui.outcome = reply.outcome;
    ui.from = null;
    if (ui.renderer && ui.renderer.picker) {
      const { sizes } = ui.renderer.picker(ui.state, ui.moves);
      if (!sizes.includes(ui.pick)) ui.pick = sizes.length ? sizes[sizes.length - 1] : null;
    }
    await recordResult();
  }

  function logMove(who, move) {
    const item = document.createElement('li');
    item.textContent = `${who}: ${notationOf(move)}`;
    $('log').append(item);
    $('log').scrollTop = $('log').scrollHeight;
  }

  async function play(move) {
    const reply = await api('POST', `/v1/games/${ui.info.id}/play`, { state: ui.state, move });
    ui.state = reply.state;
    ui.last = cellsOf(reply.move);
    ui.hint = [];
    ui.played.push(reply.move.notation);
    logMove('you', reply.move);
    await refresh();
    await letBotPlay();
  }

  /** The bot plays while it is its turn (a side may have to pass more than once). */
  async function letBotPlay() {
    for (let i = 0; i < 20 && ui.info.players > 1 && ui.state && !isOver() && !humansTurn(); i += 1) {
      render();
      await botMove();
    }
  }

  // ---- Placement: a visitor starts at a beginner level; each finished game
  // against a numbered level is kept in this browser and sent to the
  // placement endpoint, which rates the player and recommends the next level.

  /** Whether the game's numbered levels carry ratings (a ladder to be placed on). */
  const rated = (info) => (info.numbered_levels || []).some((l) => l.rating != null);

  const resultsKey = (info) => `gamebot.results.${info.id}`;

  /** This browser's results against the game's numbered levels. */
  function storedResults(info) {
    try {
      const results = JSON.parse(localStorage.getItem(resultsKey(info)) || '[]');
      return Array.isArray(results) ? results : [];
    } catch (error) {
      return [];
    }
  }

  function storeResults(info, results) {
    try {
      localStorage.setItem(resultsKey(info), JSON.stringify(results));
    } catch (error) {
      // Private browsing: the placement lasts this page only.
    }
  }

  /** Whether a one-player game's numbered levels carry scores to be placed among. */
  const scored = (info) => info.players < 2 && (info.numbered_levels || []).some((l) => l.mean_scores);

  const placementPath = (info) => `/v1/games/${info.id}/placement`;

  /**
   * Places the visitor: a rated game asks the placement endpoint (no results
   * place a newcomer at its newcomer level, never the top) and starts at the
   * level it recommends. A one-player game with scored levels (Number Crush)
   * asks it by scores, and starts at level 1 should it not answer; any other
   * game with numbered levels starts at level 1.
   */
  async function placeVisitor() {
    const info = ui.info;
    const ladder = info.numbered_levels || [];
    if (rated(info)) return placeAt(info, await api('POST', placementPath(info), { results: storedResults(info) }));
    if (ladder.length) $('level').value = String(ladder[0].level);
    if (!scored(info)) return showPlacement(null);
    const placement = await api('POST', placementPath(info), { results: storedResults(info) }).catch(() => null);
    return placeAt(info, placement);
  }

  /** Starts at the level a placement recommends, and says so, if the game is still the one shown. */
  function placeAt(info, placement) {
    if (ui.info !== info) return;
    if (placement) $('level').value = String(placement.recommended.level);
    showPlacement(placement);
  }

  /** The result of the finished game as the placement endpoint takes it, or null. */
  function finishedResult(info) {
    const o = ui.outcome || {};
    if (info.players < 2) {
      // A one-player game is placed by its score at its k (no level: the
      // endpoint compares the score with every level's), a k its levels were
      // measured at only.
      const measured = (info.numbered_levels || []).some((l) => `k=${ui.state.k}` in (l.mean_scores || {}));
      return measured ? { k: ui.state.k, score: ui.state.score } : null;
    }
    if (!rated(info) || !numberedLevel()) return null;
    const mine = o.status === 'win' ? (o.winner === $('side').value ? 'win' : 'loss') : 'draw';
    return { level: Number($('level').value), result: mine, date: new Date().toISOString().slice(0, 10) };
  }

  /** After a game ends: keeps its result and places the player again. */
  async function recordResult() {
    const info = ui.info;
    if (ui.recorded || !isOver()) return;
    const result = finishedResult(info);
    if (!result) return;
    ui.recorded = true;
    const results = [...storedResults(info), result];
    storeResults(info, results);
    const placement = await api('POST', placementPath(info), { results });
    if (ui.info === info) showPlacement(placement);
  }

  const elo = (x) => Math.round(x).toLocaleString('en');

  /** The placement panel: where the player stands in words, and the level to play next. */
  function showPlacement(placement) {
    const box = $('placement');
    const text = document.createElement('p');
    if (!placement) {
      text.className = 'muted';
      text.textContent = rated(ui.info) || scored(ui.info) ? '' : `${ui.info.name}'s levels are not rated, so there is no placement: try them in turn.`;
      return box.replaceChildren(text);
    }
    const next = placement.recommended;
    text.className = 'rating';
    text.textContent = 'rating' in placement ? ratingInWords(placement) : scoresInWords(placement);
    const parts = [text];
    if (placement.games > 0) {
      const button = document.createElement('button');
      button.type = 'button';
      button.id = 'play-recommended';
      button.textContent = `Play level ${next.level}`;
      button.addEventListener('click', () => busy(async () => {
        $('level').value = String(next.level);
        levelChosen();
        await newGame();
      }));
      parts.push(button);
    }
    return box.replaceChildren(...parts);
  }

  /** A two-player placement: the rating with its interval, and the level that suits next. */
  function ratingInWords(placement) {
    const next = placement.recommended;
    const zero = zeroWords(ui.info);
    if (placement.games === 0) {
      return `New here: you start at Level ${next.level} (about ${elo(next.rating)} above ${zero}). Finish a game against a numbered level to be placed.`;
    }
    return `Your rating: about ${elo(placement.rating)} above ${zero} (95%: ${elo(placement.interval[0])} to ${elo(placement.interval[1])}), from ${counted(placement.games, 'game')}. Level ${next.level} suits you next: you should score about ${percent(next.expected_score)} against it.`;
  }

  /** A one-player placement: the levels the player's scores beat, and the level to race next. */
  function scoresInWords(placement) {
    const next = placement.recommended;
    if (placement.games === 0) {
      return `New here: you start at Level ${next.level}, where newcomers start. Finish a game to be placed by your score.`;
    }
    const levels = placement.beaten;
    const beaten = levels.length ? `beat Level${levels.length === 1 ? '' : 's'} ${levels.join(', ')}` : 'beat no level yet';
    const share = typeof next.percentile === 'number' ? `: your scores beat about ${Math.round(next.percentile)}% of its games` : '';
    return `Your scores ${beaten} (from ${counted(placement.games, 'game')}). Level ${next.level} suits you next${share}.`;
  }

  /**
   * What a game's ratings count from: random moves (the ladder's zero,
   * `ladder_zero`), or level 1 in a ladder measured before it had one.
   */
  const zeroWords = (info) => (info.ladder_zero ? 'random moves' : 'level 1');

  /**
   * How the picker names a numbered level: its rating above the ladder's
   * zero ("Level 5 · about 824 above random moves"), or a one-player
   * level's mean score at each k ("Level 2 · mean 16,247 at k=4").
   */
  function levelLabel(l, info) {
    if (l.rating != null) {
      return l.rating === 0 ? `Level ${l.level} · the first rung` : `Level ${l.level} · about ${elo(l.rating)} above ${zeroWords(info)}`;
    }
    const means = Object.entries(l.mean_scores || {});
    if (means.length) return `Level ${l.level} · mean ${means.map(([k, m]) => `${elo(m)} at ${k}`).join(', ')}`;
    return `Level ${l.level}`;
  }

  /**
   * The level picker's entries: the numbered levels (a ladder, each with its
   * measured rating or mean scores), then the named ones.
   */
  function levelGroups(info) {
    const named = document.createElement('optgroup');
    named.label = 'Named levels';
    named.append(...info.levels.map((l) => {
      const option = new Option(l.id, l.id);
      option.title = l.description;
      return option;
    }));
    const ladder = info.numbered_levels || [];
    if (ladder.length === 0) return [named];
    const numbered = document.createElement('optgroup');
    numbered.label = 'Numbered levels';
    numbered.append(...ladder.map((l) => {
      const option = new Option(levelLabel(l, info), String(l.level));
      const interval = l.interval ? `; rating ${l.interval.map((r) => Math.round(r).toLocaleString('en')).join(' to ')} (95%)` : '';
      option.title = `${l.description}${interval}`;
      return option;
    }));
    return [numbered, named];
  }

  /** Whether the picked level is a numbered one, which carries its own budget. */
  const numberedLevel = () => /^\d+$/.test($('level').value);

  /** A numbered level thinks as long as its rung says: the time field does not apply. */
  function levelChosen() {
    $('time').disabled = numberedLevel();
    $('time').title = numberedLevel() ? 'A numbered level carries its own budget.' : '';
  }

  async function botMove() {
    const request = { state: ui.state, level: $('level').value };
    if (!numberedLevel()) request.time_ms = Number($('time').value) || 500;
    const reply = await api('POST', `/v1/games/${ui.info.id}/bot-move`, request);
    ui.state = reply.state;
    ui.last = cellsOf(reply.move);
    ui.hint = [];
    ui.played.push(reply.move.notation);
    logMove('bot', reply.move);
    showSearch(reply.move, reply.search, exactSeed(reply));
    await refresh();
  }

  /**
   * The hint: analyze as Server-Sent Events, each completed depth shown as
   * it comes, the best move marked once the search ends.
   */
  async function analyze() {
    const request = { state: ui.state, top: 3, time_ms: Number($('time').value) || 500 };
    const path = `/v1/games/${ui.info.id}/analyze`;
    const response = await fetch(path, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    if (!response.ok || !response.body) {
      const reply = await api('POST', path, request);
      return hintFrom(reply);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let final = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (!event) continue;
        if (event.name === 'error') throw new ApiError(`${event.data.title} (${event.data.status}): ${event.data.detail}`);
        if (event.name === 'depth') showAnalysis(event.data, `${counted(event.data.search.depth, 'move')} deep so far`);
        if (event.name === 'result') final = event.data;
      }
    }
    if (!final) throw new ApiError(`${path}: the stream ended without a result`);
    hintFrom(final);
  }

  function hintFrom(reply) {
    showAnalysis(reply);
    ui.hint = reply.moves && reply.moves.length ? cellsOf(reply.moves[0].move) : [];
  }

  /** One Server-Sent Event block: its name and its JSON data. */
  function parseEvent(block) {
    let name = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    try {
      return data ? { name, data: JSON.parse(data) } : null;
    } catch (_) {
      return null;
    }
  }

  // ---- Review: after a game, every move judged by the engine, the
  // evaluation over the game for the player's side, each side's accuracy.

  async function reviewGame() {
    const request = { state: ui.start, moves: ui.played, max_nodes_per_ply: 20000 };
    const reply = await api('POST', `/v1/games/${ui.info.id}/review`, request);
    showReview(reply);
  }

  /** Each review label in words, one and many. */
  const LABEL_WORDS = {
    book: ['book move', 'book moves'],
    best: ['best move', 'best moves'],
    excellent: ['excellent move', 'excellent moves'],
    good: ['good move', 'good moves'],
    inaccuracy: ['inaccuracy', 'inaccuracies'],
    mistake: ['mistake', 'mistakes'],
    blunder: ['blunder', 'blunders'],
  };

  const labelWord = (label) => (LABEL_WORDS[label] || [label])[0];

  /**
   * What accuracy means, as the review computes it (src/game/review.rs,
   * docs/REVIEW.md): each move's score on Lichess's curve, then Lichess's
   * mix of the volatility-weighted mean and the harmonic mean.
   */
  function accuracyMeaning(info) {
    if (info.players < 2) {
      return 'Accuracy runs from 0 to 100: 100 means every swap scored as many points as the engine\'s best swap. Each swap is scored with Lichess\'s accuracy formula on the share of the best swap\'s points it missed; the game\'s accuracy mixes the mean with the harmonic mean, so one poor swap costs more than many good ones make up.';
    }
    return 'Accuracy runs from 0 to 100: 100 means every move kept the engine\'s chances of winning. Each move is scored with Lichess\'s accuracy formula on the winning chance it gave away, or on what it gave away would cost in an even game where that is more, so moves thrown away in a lost game still count; moves where the game swung count more, and one thrown-away game weighs more than many safe moves, so a random mover cannot look accurate.';
  }

  /** One side's figures in words: "You (black): accuracy 87.2 over 12 moves — 1 mistake, …". */
  function sideInWords(side, you) {
    const who = ui.info.players < 2 ? 'You' : side.side === you ? 'You' : 'The bot';
    const moves = counted(side.moves, ui.info.players < 2 ? 'swap' : 'move');
    const labels = Object.entries(side.labels || {})
      .filter(([, n]) => n > 0)
      .map(([label, n]) => {
        const [one, many] = LABEL_WORDS[label] || [label, label];
        return counted(n, one, many);
      });
    const accuracy = side.accuracy == null ? 'no accuracy (no move could be judged)' : `accuracy ${side.accuracy.toFixed(1)}`;
    return `${who} (${side.side}): ${accuracy} over ${moves}${labels.length ? ` — ${labels.join(', ')}` : ''}.`;
  }

  function showReview(reply) {
    const you = $('side').value;
    const parts = reply.summary.sides.map((side) => {
      const said = document.createElement('p');
      said.className = 'said';
      said.textContent = sideInWords(side, you);
      return said;
    });
    const meaning = document.createElement('p');
    meaning.className = 'muted meaning';
    meaning.textContent = accuracyMeaning(ui.info);
    parts.push(meaning);
    const points = reply.plies
      .filter((p) => typeof p.win_probability_after === 'number')
      .map((p) => [p.ply, p.side === you ? p.win_probability_after : 1 - p.win_probability_after]);
    if (points.length) parts.push(evaluationGraph(points, reply.plies.length));
    const list = document.createElement('ol');
    list.className = 'review-list';
    for (const ply of reply.plies) list.append(reviewedMove(ply, you));
    parts.push(list);
    $('review-box').replaceChildren(...parts);
  }

  /** One move of the review: who played it, its label in words, the engine's choice where it differs. */
  function reviewedMove(ply, you) {
    const item = document.createElement('li');
    const label = ply.label || 'not judged';
    item.dataset.label = label;
    const who = ply.side === you || ui.info.players < 2 ? 'you' : 'bot';
    const best = ply.best && ply.best.notation;
    // A book or best move is the engine's own choice; say the engine's only where it differs.
    const better = ['best', 'book'].includes(ply.label) || !best || best === ply.notation ? '' : ` (the engine's choice: ${best})`;
    item.textContent = `${who}: ${ply.notation} — ${labelWord(label)}${better}`;
    return item;
  }

  /** The player's chance of winning after each move, as a line over the game. */
  function evaluationGraph(points, plies) {
    const ns = 'http://www.w3.org/2000/svg';
    const [width, height] = [300, 90];
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('class', 'evaluation');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'Your chance of winning after each move');
    const x = (ply) => (ply / Math.max(plies, 1)) * width;
    const y = (p) => height - p * height;
    const middle = document.createElementNS(ns, 'line');
    Object.entries({ x1: 0, x2: width, y1: height / 2, y2: height / 2, class: 'even' })
      .forEach(([k, v]) => middle.setAttribute(k, v));
    const line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', [[0, 0.5], ...points].map(([ply, p]) => `${x(ply).toFixed(1)},${y(p).toFixed(1)}`).join(' '));
    svg.append(middle, line);
    return svg;
  }

  // ---- Drawing.

  function format(value) {
    if (typeof value === 'number') {
      return Number.isInteger(value) ? value.toLocaleString('en') : value.toFixed(1);
    }
    if (value === null || value === undefined) return '—';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  function figures(entries) {
    const table = document.createElement('table');
    for (const [name, value] of entries) {
      const row = table.insertRow();
      row.insertCell().textContent = name;
      row.insertCell().textContent = format(value);
    }
    return table;
  }

  /** A panel's words, then its raw figures behind a "Details" toggle. */
  function saidWithDetails(words, ...tables) {
    const said = document.createElement('p');
    said.className = 'said';
    said.textContent = words;
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'Details';
    details.append(summary, ...tables);
    return [said, details];
  }

  function showSearch(move, search, seed) {
    const entries = [['move', notationOf(move)], ...Object.entries(search || {})]
      .map(([name, value]) => (name === 'seed' && seed ? [name, seed] : [name, value]));
    if (search && search.nodes && search.elapsed_ms) {
      entries.push(['nodes/s', Math.round(search.nodes / (search.elapsed_ms / 1000))]);
    }
    $('search').replaceChildren(...saidWithDetails(searchInWords(move, search || {}), figures(entries)));
  }

  /** What the bot saw, in words: its move, how far it looked, a forced result it proved. */
  function searchInWords(move, search) {
    let words = `The bot played ${notationOf(move)}`;
    if (search.stopped_by === 'book') words += ' from its opening book';
    else if (search.stopped_by === 'forced') words += ', the only legal move';
    if (search.depth) words += ` after looking ${counted(search.depth, 'move')} ahead`;
    if (search.nodes) words += ` over ${counted(search.nodes, 'position')}`;
    words += '.';
    if (typeof search.win_probability === 'number' && search.stopped_by !== 'proven') {
      words += ` It gives itself a ${percent(search.win_probability)} chance of winning.`;
    }
    if (search.stopped_by === 'proven' && typeof search.score === 'number') {
      if (search.score > 0) words += ' It found a forced win.';
      else if (search.score < 0) words += ' It sees that it cannot avoid losing.';
      else words += ' It sees a forced draw.';
    }
    return words;
  }

  /** Whom the hint speaks to: "you" on the player's turn, else the side to move. */
  const hintFor = () => (humansTurn() || !ui.state.to_move ? 'you' : ui.state.to_move);

  /**
   * One suggested move's prospects in words: a proven result, a chance of
   * winning, or (Number Crush, which has no win model) the points expected.
   */
  function prospects(entry, unit) {
    const who = hintFor();
    if (entry.exact) return provenWords(entry.exact, who, unit);
    if (typeof entry.win_probability === 'number') return `about a ${percent(entry.win_probability)} chance to win for ${who}`;
    if (typeof entry.score === 'number' && /point/.test(unit || '')) return `expected to gain about ${counted(entry.score, 'point')}`;
    return '';
  }

  /**
   * A proven result in words: `exact` is "win in 5" (plies of both sides),
   * "draw", or a final margin such as "+12" (Reversi: discs).
   */
  function provenWords(exact, who, unit) {
    if (exact === 'draw') return 'a proven draw';
    const inPlies = /^(win|loss) in (\d+)/.exec(exact);
    if (inPlies) return `a proven ${inPlies[1]} for ${who} in ${counted(Number(inPlies[2]), 'move')}, both sides' together`;
    const margin = /^([+-])(\d+)$/.exec(exact);
    if (margin) {
      const by = counted(Number(margin[2]), /disc/.test(unit || '') ? 'disc' : 'point');
      return `a proven ${margin[1] === '+' ? 'win' : 'loss'} by ${by} for ${who}`;
    }
    return `proven: ${exact} for ${who}`;
  }

  /** How the hint was found: the book, or the search's depth, positions and time. */
  function howFound(search) {
    if (search.stopped_by === 'book') return 'It comes from the opening book.';
    if (search.stopped_by === 'forced') return 'It is the only legal move.';
    const parts = [];
    if (search.depth) parts.push(`${counted(search.depth, 'move')} deep`);
    if (search.nodes) parts.push(counted(search.nodes, 'position'));
    let words = parts.length ? `Searched ${parts.join(', ')}` : 'Searched';
    if (typeof search.elapsed_ms === 'number') words += ` in ${seconds(search.elapsed_ms)}`;
    if (search.stopped_by === 'proven') words += ', where the result is proven';
    return `${words}.`;
  }

  /** The hint in words: the best move and its prospects, then how it was found. */
  function hintInWords(reply) {
    const [best] = reply.moves || [];
    if (!best) return 'There is no move to suggest.';
    const search = reply.search || {};
    const chance = prospects(best, search.score_unit);
    return `The bot suggests ${notationOf(best.move)}${chance ? ` — ${chance}` : ''}. ${howFound(search)}`;
  }

  /** A suggested move in words, with the line the engine expects after it. */
  function suggestion(entry, unit) {
    const chance = prospects(entry, unit);
    const line = Array.isArray(entry.pv) ? entry.pv.slice(1).map(notationOf) : [];
    const then = line.length ? `; then ${line.join(', ')}` : '';
    return `${notationOf(entry.move)}${chance ? ` — ${chance}` : ''}${then}`;
  }

  /** Each suggested move's raw fields, one row a move. */
  function movesTable(moves) {
    const table = document.createElement('table');
    for (const entry of moves) {
      const { move, ...rest } = entry;
      const row = table.insertRow();
      row.insertCell().textContent = notationOf(move);
      row.insertCell().textContent = Object.entries(rest)
        .map(([name, value]) => `${name} ${Array.isArray(value) ? value.map(notationOf).join(', ') : format(value)}`)
        .join(' · ');
    }
    return table;
  }

  /** The hint panel: words, the moves in words, the raw fields behind "Details". */
  function showAnalysis(reply, note) {
    const moves = reply.moves || [];
    const unit = (reply.search || {}).score_unit;
    const list = document.createElement('ol');
    for (const entry of moves) {
      const item = document.createElement('li');
      item.textContent = suggestion(entry, unit);
      list.append(item);
    }
    const [said, details] = saidWithDetails(hintInWords(reply), movesTable(moves));
    if (reply.search) details.append(figures(Object.entries(reply.search)));
    const parts = [said, list, details];
    if (note) {
      const deepening = document.createElement('p');
      deepening.className = 'muted';
      deepening.textContent = `Thinking… ${note}`;
      parts.unshift(deepening);
    }
    $('analysis').replaceChildren(...parts);
  }

  function statusText() {
    if (!ui.state) return 'Pick a game.';
    const o = ui.outcome || {};
    if (o.status === 'win') {
      const you = ui.info.players > 1 && o.winner === $('side').value;
      return `${o.winner} wins${o.reason ? ` (${o.reason})` : ''} — ${you ? 'you win!' : 'the bot wins.'}`;
    }
    if (o.status === 'draw') return `Draw${o.reason ? ` (${o.reason})` : ''}.`;
    if (o.status === 'finished') return `Finished: ${Object.values(o.score || {})[0]} points.`;
    if (o.status !== 'ongoing') return `Game over: ${JSON.stringify(o)}`;
    if (ui.busy && !humansTurn()) return 'The bot is thinking…';
    const side = ui.state.to_move ? `${ui.state.to_move} to move — ` : '';
    return humansTurn() ? `${side}your turn.` : `${side}the bot's turn.`;
  }

  function render() {
    ui.version += 1;
    $('status').textContent = statusText();
    $('info').textContent = ui.renderer && ui.renderer.info && ui.state ? ui.renderer.info(ui.state) : '';
    $('state-json').textContent = ui.state ? JSON.stringify(ui.state, null, 1) : '';
    document.body.dataset.turn = isOver() ? 'over' : humansTurn() ? 'human' : 'bot';
    const idle = !ui.busy && ui.state;
    $('bot').disabled = !idle || isOver();
    $('hint').disabled = !idle || isOver();
    $('review').disabled = !idle || !isOver() || !ui.played.length;
    $('new').disabled = ui.busy;
    $('typed-play').disabled = !idle || !humansTurn();
    try {
      renderPicker();
      renderBoard();
    } catch (error) {
      // A state this page cannot draw: say so, and fall back to the generic view.
      showError(new Error(`cannot draw this state (${error.message}); showing it as JSON`));
      ui.renderer = null;
      renderBoard();
    }
    renderLegend();
    renderMoveList();
    renderChoice([]);
    const example = humansTurn() && ui.moves.length ? `, e.g. ${notationOf(ui.moves[0])}` : '';
    $('notation').placeholder = `or type a move${example}`;
  }

  function renderPicker() {
    const box = $('hand');
    const r = ui.renderer;
    if (!r || !r.picker || !ui.state || isOver()) {
      box.hidden = true;
      return;
    }
    const { label, sizes } = r.picker(ui.state, ui.moves);
    const title = document.createElement('span');
    title.textContent = `${label}: `;
    const buttons = sizes.map((size) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = String(size);
      button.className = size === ui.pick ? 'size picked' : 'size';
      button.disabled = ui.busy || !humansTurn();
      button.dataset.size = String(size);
      button.addEventListener('click', () => {
        ui.pick = size;
        render();
      });
      return button;
    });
    box.replaceChildren(title, ...buttons);
    box.hidden = false;
  }

  function renderBoard() {
    const board = $('board');
    board.dataset.version = String(ui.version);
    board.dataset.game = ui.info ? ui.info.id : '';
    if (!ui.state) return board.replaceChildren();
    board.classList.toggle('generic', !ui.renderer);
    if (!ui.renderer) {
      const note = document.createElement('p');
      note.className = 'muted';
      note.textContent = 'No board drawing for this game here: pick one of its legal moves, and read the state below.';
      const moves = document.createElement('div');
      moves.className = 'moves';
      moves.replaceChildren(...ui.moves.map(moveButton));
      const pre = document.createElement('pre');
      pre.textContent = JSON.stringify(ui.state, null, 1);
      return board.replaceChildren(note, moves, pre);
    }
    const grid = ui.renderer.grid(ui.state);
    const mine = humansTurn() && !ui.busy;
    const movable = mine ? movableCells() : new Set();
    const targets = mine ? targetCells() : new Map();
    const cells = [];
    board.style.setProperty('--cols', String(grid.cols));
    const [rowAxis, colAxis] = grid.axes || ['row', 'column'];
    cells.push(label('', 'corner'));
    grid.colLabels.forEach((text, c) => cells.push(label(text, 'col', c, colAxis)));
    for (let r = 0; r < grid.rows; r += 1) {
      cells.push(label(grid.rowLabels[r], 'row', r, rowAxis));
      for (let c = 0; c < grid.cols; c += 1) {
        cells.push(cellButton(grid.cell(r, c), key(r, c), movable, targets));
      }
    }
    board.replaceChildren(...cells);
    renderUnmapped(mine);
  }

  /** A board label; `data-col` / `data-row` say which grid column or row it names. */
  function label(text, kind, index, axis) {
    const span = document.createElement('span');
    span.className = `label ${kind}`;
    span.textContent = String(text);
    if (kind === 'col' || kind === 'row') {
      span.dataset[kind] = String(index);
      span.title = `${axis} ${text}`;
    }
    return span;
  }

  /** `backquoted` parts of a legend text become code (the game's notation). */
  function rich(text) {
    const p = document.createElement('p');
    text.split('`').forEach((part, i) => {
      if (i % 2 === 0) return p.append(part);
      const code = document.createElement('code');
      code.textContent = part;
      return p.append(code);
    });
    return p;
  }

  /** A small cell as the board draws it, for the legend. */
  function swatch(look) {
    const span = document.createElement('span');
    span.className = `cell swatch ${look.cls}`;
    if (look.text) {
      const face = document.createElement('span');
      face.className = 'face';
      face.textContent = look.text;
      span.append(face);
    }
    return span;
  }

  /** The legend of the board: its keys and how its squares and moves are written. */
  function renderLegend() {
    const box = $('legend');
    const r = ui.renderer;
    if (!ui.state || !r || !r.legend) {
      const note = rich('Moves are written in the game\'s notation: see the legal moves, and the rules.');
      return box.replaceChildren(note);
    }
    const { keys, notes } = r.legend(ui.state);
    const list = document.createElement('ul');
    list.className = 'keys';
    for (const entry of keys) {
      const item = document.createElement('li');
      const looks = entry.pair || [entry];
      if (looks.length > 2) item.className = 'wide';
      const swatches = document.createElement('span');
      swatches.className = 'swatches';
      swatches.append(...looks.map(swatch));
      const what = rich(entry.what);
      item.append(swatches, ...what.childNodes);
      list.append(item);
    }
    box.replaceChildren(list, ...notes.map(rich));
  }

  function cellButton(look, where, movable, targets) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.key = where;
    button.title = look.title || where;
    const classes = ['cell', ...look.cls.split(' ')];
    if (movable.has(where)) classes.push('movable');
    if (where === ui.from) classes.push('selected');
    if (targets.has(where)) classes.push('target');
    if (ui.last.includes(where)) classes.push('last');
    if (ui.hint.includes(where)) classes.push('hint');
    button.className = classes.join(' ');
    if (look.text) {
      const face = document.createElement('span');
      face.className = 'face';
      face.textContent = look.text;
      if (look.scale) face.style.fontSize = `${look.scale * 1.6}em`;
      button.append(face);
    }
    button.addEventListener('click', () => clickCell(where));
    return button;
  }

  /** Legal moves the board cannot show (a pass): buttons under the board. */
  function renderUnmapped(mine) {
    const extra = ui.moves.filter((m) => ui.renderer.pairs(m).length === 0);
    if (!mine || extra.length === 0) return;
    const row = document.createElement('div');
    row.className = 'extra';
    for (const move of extra) row.append(moveButton(move));
    $('board').append(row);
  }

  function moveButton(move) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.textContent = ui.renderer && ui.renderer.label ? ui.renderer.label(move) : notationOf(move);
    button.disabled = ui.busy || !humansTurn();
    button.addEventListener('click', () => busy(() => play(move)));
    return button;
  }

  function renderMoveList() {
    $('move-count').textContent = String(ui.moves.length);
    $('moves').replaceChildren(...ui.moves.map(moveButton));
  }

  /** Several moves share the clicked cells (e.g. move or build): let the person choose. */
  function renderChoice(moves) {
    const box = $('choice');
    if (moves.length === 0) {
      box.hidden = true;
      return box.replaceChildren();
    }
    const title = document.createElement('span');
    title.textContent = 'Which move? ';
    box.replaceChildren(title, ...moves.map(moveButton));
    box.hidden = false;
  }

  function clickCell(where) {
    if (ui.busy || !humansTurn()) return;
    const targets = targetCells();
    if (targets.has(where)) {
      const moves = targets.get(where);
      if (moves.length === 1) return busy(() => play(moves[0]));
      return renderChoice(moves);
    }
    ui.from = movableCells().has(where) && ui.from !== where ? where : null;
    render();
  }

  // ---- Wiring.

  function start() {
    $('setup').addEventListener('submit', (event) => {
      event.preventDefault();
      busy(newGame);
    });
    $('game').addEventListener('change', () => busy(async () => {
      await chooseGame();
      await newGame();
    }));
    $('side').addEventListener('change', () => busy(letBotPlay));
    $('level').addEventListener('change', levelChosen);
    $('bot').addEventListener('click', () => busy(async () => {
      await botMove();
      await letBotPlay();
    }));
    $('hint').addEventListener('click', () => busy(analyze));
    $('review').addEventListener('click', () => busy(reviewGame));
    // A typed move goes to the API as the game's notation string, as typed.
    $('typed').addEventListener('submit', (event) => {
      event.preventDefault();
      const notation = $('notation').value.trim();
      if (!notation || !humansTurn()) return;
      busy(async () => {
        await play(notation);
        $('notation').value = '';
      });
    });
    $('clear').addEventListener('click', () => {
      ui.from = null;
      render();
    });
    busy(async () => {
      await loadGames();
      if (ui.info) await newGame();
    });
  }

  window.playground = { renderers, ui };
  start();
})();
