//! The position: the top marker of every cell, both hands and the side to
//! move, with the rules (move generation, the pass rule, wins, stalemate) and
//! the validated conversion from the raw JSON form.

use crate::game::{GameError, Side};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The smallest and largest grid sizes.
pub const GRID_SIZES: std::ops::RangeInclusive<usize> = 2..=8;
/// The smallest and largest hand sizes.
pub const PIECE_COUNTS: std::ops::RangeInclusive<usize> = 5..=9;
/// The most cells a board can have.
pub const MAX_CELLS: usize = 64;

/// One move: put the mover's marker of `size` on (`row`, `col`), 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The row, 0-based from the top.
    pub row: u8,
    /// The column, 0-based from the left.
    pub col: u8,
    /// The marker's size, 1..=pieces.
    pub size: u8,
}

/// What the side to move does with its turn, as the service lists and plays
/// it: place a marker, or pass when it has no legal move but the opponent has
/// one (the rules' pass rule, spelled out the way Reversi spells its forced
/// pass). [`State::apply`] passes on the mover's behalf, so a pass only has to
/// be played in a state whose side to move is stuck, such as one a client
/// built by alternating turns itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// Put a marker on the board.
    Place(Move),
    /// Hand the turn to the opponent: legal only when the mover has no move and the opponent has.
    Pass,
}

impl Play {
    /// The marker placed, or `None` for a pass.
    pub fn placement(self) -> Option<Move> {
        match self {
            Play::Place(mv) => Some(mv),
            Play::Pass => None,
        }
    }
}

/// The visible top of a cell: empty, or a marker of one side and one size.
///
/// Packed in a byte: 0 is empty, otherwise the size (1..=9) plus 16 for crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cell(u8);

impl Cell {
    /// An empty cell.
    pub const EMPTY: Cell = Cell(0);

    /// A cell topped by `owner`'s marker of `size`.
    pub fn marker(owner: Side, size: u8) -> Cell {
        Cell(size | ((owner.index() as u8) << 4))
    }

    /// The size of the top marker, 0 for an empty cell.
    pub fn size(self) -> u8 {
        self.0 & 0x0f
    }

    /// The owner of the top marker, if any.
    pub fn owner(self) -> Option<Side> {
        match self.0 {
            0 => None,
            c if c & 0x10 == 0 => Some(Side::First),
            _ => Some(Side::Second),
        }
    }

    /// A small dense code, 0 (empty), 1..=9 (naughts) or 10..=18 (crosses), for packed keys.
    pub fn code(self) -> u8 {
        match self.owner() {
            None => 0,
            Some(Side::First) => self.size(),
            Some(Side::Second) => 9 + self.size(),
        }
    }

    /// The two-character text form: `O3`, `X1`, or two spaces.
    pub fn text(self) -> String {
        match self.owner() {
            None => "  ".to_string(),
            Some(p) => format!("{}{}", side_name(p), self.size()),
        }
    }
}

/// The name of a side in states and outcomes: `O` for naughts, `X` for crosses.
pub fn side_name(player: Side) -> &'static str {
    match player {
        Side::First => "O",
        Side::Second => "X",
    }
}

/// A validated position. Hands are bit sets: bit `s` set when the marker of size `s` is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) grid: u8,
    pub(crate) pieces: u8,
    pub(crate) cells: [Cell; MAX_CELLS],
    pub(crate) hands: [u16; 2],
    pub(crate) to_move: Side,
}

/// A hand holding every size 1..=pieces.
pub fn full_hand(pieces: u8) -> u16 {
    ((1u16 << (pieces + 1)) - 1) & !1
}

/// The largest size in a hand, 0 when it is empty.
pub fn largest(hand: u16) -> u8 {
    (16 - hand.leading_zeros()).saturating_sub(1) as u8
}

/// The sizes in `hand` that may go on a cell whose top has size `top`.
pub fn sizes_above(hand: u16, top: u8) -> u16 {
    hand & !((2u16 << top) - 1)
}

impl State {
    /// The empty board of `grid` × `grid` cells, each side holding sizes 1..=`pieces`, naughts to move.
    pub fn new(grid: u8, pieces: u8) -> State {
        State {
            grid,
            pieces,
            cells: [Cell::EMPTY; MAX_CELLS],
            hands: [full_hand(pieces); 2],
            to_move: Side::First,
        }
    }

    /// The number of rows (and columns).
    pub fn grid(&self) -> usize {
        self.grid as usize
    }

    /// The number of markers each side started with.
    pub fn pieces(&self) -> u8 {
        self.pieces
    }

    /// The side to move (the winner's opponent once the game is won).
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The top of the cell at (`row`, `col`).
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        self.cells[row * self.grid() + col]
    }

    /// The sizes `player` still holds, smallest first.
    pub fn hand(&self, player: Side) -> Vec<u8> {
        let hand = self.hands[player.index()];
        (1..=self.pieces).filter(|s| hand & (1 << s) != 0).collect()
    }

    /// How many markers `player` has placed (covered ones included).
    pub fn played(&self, player: Side) -> u32 {
        self.pieces as u32 - self.hands[player.index()].count_ones()
    }

    fn used_cells(&self) -> &[Cell] {
        &self.cells[..self.grid() * self.grid()]
    }

    /// Whether `player` has a legal move: a marker bigger than some cell's top.
    pub fn can_move(&self, player: Side) -> bool {
        let smallest_top = self
            .used_cells()
            .iter()
            .map(|c| c.size())
            .min()
            .unwrap_or(0);
        largest(self.hands[player.index()]) > smallest_top
    }

    /// Whether `mv` is legal for the side to move (ignoring whether the game is over).
    pub fn allows(&self, mv: &Move) -> bool {
        let n = self.grid();
        (mv.row as usize) < n
            && (mv.col as usize) < n
            && self.hands[self.to_move.index()] & (1 << mv.size) != 0
            && self.cell(mv.row as usize, mv.col as usize).size() < mv.size
    }

    /// Appends every legal move, row by row, smallest size first; nothing when the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.winner().is_some() {
            return;
        }
        self.placements(out);
    }

    /// Every placement the side to move has, without asking whether the
    /// game is already won: for a caller that knows it is not (the
    /// solver), which saves the check on every node.
    pub(crate) fn placements(&self, out: &mut Vec<Move>) {
        let hand = self.hands[self.to_move.index()];
        let n = self.grid();
        for (i, cell) in self.used_cells().iter().enumerate() {
            let mut sizes = sizes_above(hand, cell.size());
            while sizes != 0 {
                let size = sizes.trailing_zeros() as u8;
                sizes &= sizes - 1;
                out.push(Move {
                    row: (i / n) as u8,
                    col: (i % n) as u8,
                    size,
                });
            }
        }
    }

    /// The state after a legal move, with the pass rule applied: the turn goes
    /// to the opponent if it can move, else stays with the mover if it can
    /// move; once the game is over (a win or a stalemate) it goes to the opponent.
    pub fn apply(&self, mv: &Move) -> State {
        let mut next = *self;
        let mover = self.to_move;
        let at = mv.row as usize * self.grid() + mv.col as usize;
        next.cells[at] = Cell::marker(mover, mv.size);
        next.hands[mover.index()] &= !(1 << mv.size);
        next.to_move = mover.other();
        if !next.completes_line(at, mover) && !next.can_move(mover.other()) && next.can_move(mover)
        {
            next.to_move = mover;
        }
        next
    }

    /// Whether the side to move must pass: nobody has won, it has no legal
    /// move and the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.winner().is_none()
            && !self.can_move(self.to_move)
            && self.can_move(self.to_move.other())
    }

    /// The state after the side to move passes: the same board, the opponent to move.
    pub fn pass(&self) -> State {
        State {
            to_move: self.to_move.other(),
            ..*self
        }
    }

    /// The state after a legal turn: a placement as [`State::apply`] plays it, or a pass.
    pub fn play(&self, turn: &Play) -> State {
        match turn {
            Play::Place(mv) => self.apply(mv),
            Play::Pass => self.pass(),
        }
    }

    /// Whether some line through cell `at` shows only `player`'s markers on top.
    pub fn completes_line(&self, at: usize, player: Side) -> bool {
        let n = self.grid();
        let (row, col) = (at / n, at % n);
        let owns = |r: usize, c: usize| self.cell(r, c).owner() == Some(player);
        (0..n).all(|c| owns(row, c))
            || (0..n).all(|r| owns(r, col))
            || (row == col && (0..n).all(|i| owns(i, i)))
            || (row + col == n - 1 && (0..n).all(|i| owns(i, n - 1 - i)))
    }

    /// Every full line (row, column, diagonal) as its first cell and the step
    /// between its cells; a line has `grid` cells.
    pub fn lines(&self) -> impl Iterator<Item = (usize, usize)> {
        let n = self.grid();
        let rows = (0..n).map(move |r| (r * n, 1));
        let cols = (0..n).map(move |c| (c, n));
        rows.chain(cols).chain([(0, n + 1), (n - 1, n - 1)])
    }

    /// The sides that show a full line of their own markers (at most one in a valid state).
    fn sides_with_line(&self) -> [bool; 2] {
        let n = self.grid();
        let mut found = [false; 2];
        for (start, step) in self.lines() {
            let first = self.cells[start].owner();
            if let Some(p) = first {
                if (1..n).all(|i| self.cells[start + i * step].owner() == first) {
                    found[p.index()] = true;
                }
            }
        }
        found
    }

    /// The side that has won, if any.
    pub fn winner(&self) -> Option<Side> {
        match self.sides_with_line() {
            [true, _] => Some(Side::First),
            [_, true] => Some(Side::Second),
            _ => None,
        }
    }

    /// Whether nobody has won and neither side can move.
    pub fn is_stalemate(&self) -> bool {
        self.winner().is_none() && !self.can_move(Side::First) && !self.can_move(Side::Second)
    }
}

/// The JSON form of a state, before validation: what the game writes, and
/// the schema the API's contract publishes as `NaughtsState`.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "NaughtsState",
    description = "A Fancy Naughts & Crosses position: the grid, the markers each side still holds and the side to move."
)]
pub struct RawState {
    /// Rows (and columns), 2–8.
    #[schemars(range(min = 2, max = 8))]
    pub grid_size: usize,
    /// Markers per side at the start, sized 1 to `pieces`; 5–9.
    #[schemars(range(min = 5, max = 9))]
    pub pieces: usize,
    /// `grid_size` rows of `grid_size` cells, row 0 first; a cell is its top
    /// marker, side and size (`"O3"`, `"X1"`), or `""` when empty.
    #[schemars(inner(inner(regex(pattern = r"^([OX][1-9])?$"))))]
    pub board: Vec<Vec<String>>,
    /// The marker sizes each side still holds, keyed `O` and `X`.
    #[schemars(extend("required" = ["O", "X"], "propertyNames" = {"enum": ["O", "X"]}))]
    pub hands: BTreeMap<String, Vec<usize>>,
    /// The side to move: `O` (who moves first) or `X`.
    #[schemars(extend("enum" = ["O", "X"]))]
    pub to_move: String,
}

const FIELDS: [&str; 5] = ["grid_size", "pieces", "board", "hands", "to_move"];

fn shape_error(pointer: String, detail: String) -> GameError {
    GameError::invalid_state_at(pointer, detail)
}

fn whole_number(value: &Value, pointer: &str, what: &str) -> Result<usize, GameError> {
    value
        .as_u64()
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| {
            shape_error(
                pointer.to_string(),
                format!("{what} is {value}: expected a whole number"),
            )
        })
}

fn array<'v>(value: &'v Value, pointer: &str, what: &str) -> Result<&'v Vec<Value>, GameError> {
    value.as_array().ok_or_else(|| {
        shape_error(
            pointer.to_string(),
            format!("{what} is {value}: expected an array"),
        )
    })
}

impl RawState {
    /// Reads the JSON shape of a state (types and fields, not the rules),
    /// naming the place of the first problem.
    pub fn from_value(value: &Value) -> Result<RawState, GameError> {
        let object = value.as_object().ok_or_else(|| {
            GameError::invalid_state(format!(
                "the state is {value}: expected an object with {}",
                FIELDS.join(", ")
            ))
        })?;
        if let Some(key) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(shape_error(
                format!("/{key}"),
                format!("unknown field \"{key}\": a state has {}", FIELDS.join(", ")),
            ));
        }
        let field = |name: &str| {
            object.get(name).ok_or_else(|| {
                shape_error(format!("/{name}"), format!("the state has no \"{name}\""))
            })
        };
        let grid_size = whole_number(field("grid_size")?, "/grid_size", "grid_size")?;
        let pieces = whole_number(field("pieces")?, "/pieces", "pieces")?;
        let mut board = Vec::new();
        for (r, row) in array(field("board")?, "/board", "board")?
            .iter()
            .enumerate()
        {
            let pointer = format!("/board/{r}");
            let cells = array(row, &pointer, &format!("row {r}"))?;
            let texts = cells.iter().enumerate().map(|(c, cell)| {
                cell.as_str().map(str::to_string).ok_or_else(|| {
                    shape_error(
                        format!("/board/{r}/{c}"),
                        format!("cell {cell} is not a string: expected \"\", \"O3\", \"X1\"..."),
                    )
                })
            });
            board.push(texts.collect::<Result<_, _>>()?);
        }
        let hands_value = field("hands")?;
        let hands_object = hands_value.as_object().ok_or_else(|| {
            shape_error(
                "/hands".to_string(),
                format!("hands is {hands_value}: expected {{\"O\": [sizes], \"X\": [sizes]}}"),
            )
        })?;
        let mut hands = BTreeMap::new();
        for (side, sizes) in hands_object {
            let pointer = format!("/hands/{side}");
            let sizes = array(sizes, &pointer, &format!("{side}'s hand"))?
                .iter()
                .enumerate()
                .map(|(i, size)| whole_number(size, &format!("{pointer}/{i}"), "a size"))
                .collect::<Result<_, _>>()?;
            hands.insert(side.clone(), sizes);
        }
        let to_move_value = field("to_move")?;
        let to_move = to_move_value.as_str().map(str::to_string).ok_or_else(|| {
            shape_error(
                "/to_move".to_string(),
                format!("to_move is {to_move_value}: expected \"O\" or \"X\""),
            )
        })?;
        Ok(RawState {
            grid_size,
            pieces,
            board,
            hands,
            to_move,
        })
    }
}

impl From<&State> for RawState {
    fn from(state: &State) -> RawState {
        let n = state.grid();
        let board = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| state.cell(r, c).text().trim().to_string())
                    .collect()
            })
            .collect();
        let hands = [Side::First, Side::Second]
            .into_iter()
            .map(|p| {
                let sizes = state.hand(p).into_iter().map(usize::from).collect();
                (side_name(p).to_string(), sizes)
            })
            .collect();
        RawState {
            grid_size: n,
            pieces: state.pieces as usize,
            board,
            hands,
            to_move: side_name(state.to_move).to_string(),
        }
    }
}

fn parse_side(text: &str) -> Option<Side> {
    match text {
        "O" => Some(Side::First),
        "X" => Some(Side::Second),
        _ => None,
    }
}

/// Reads a cell's JSON text: `""`, or `O`/`X` followed by one digit 1..=pieces.
fn parse_cell(text: &str, pieces: u8, pointer: &str) -> Result<Cell, GameError> {
    if text.is_empty() || text.trim().is_empty() {
        return Ok(Cell::EMPTY);
    }
    let bad = || {
        GameError::invalid_state_at(
            pointer,
            format!(
                "cell {text:?} is not a marker: expected \"\" for empty or O/X followed by a size 1-{pieces} (like \"O3\")"
            ),
        )
    };
    let mut chars = text.chars();
    let owner = chars
        .next()
        .and_then(|c| parse_side(&c.to_string()))
        .ok_or_else(bad)?;
    let digits: String = chars.collect();
    let size: u8 = digits.parse().map_err(|_| bad())?;
    if !(1..=pieces).contains(&size) || digits.len() != 1 {
        return Err(bad());
    }
    Ok(Cell::marker(owner, size))
}

fn check_range(
    value: usize,
    range: std::ops::RangeInclusive<usize>,
    pointer: &str,
    what: &str,
) -> Result<u8, GameError> {
    if range.contains(&value) {
        Ok(value as u8)
    } else {
        Err(GameError::invalid_state_at(
            pointer,
            format!(
                "{what} is {value}: expected {} to {}",
                range.start(),
                range.end()
            ),
        ))
    }
}

fn parse_board(raw: &RawState, grid: u8, pieces: u8) -> Result<[Cell; MAX_CELLS], GameError> {
    let n = grid as usize;
    if raw.board.len() != n {
        return Err(GameError::invalid_state_at(
            "/board",
            format!(
                "the board has {} rows: expected {n} (grid_size)",
                raw.board.len()
            ),
        ));
    }
    let mut cells = [Cell::EMPTY; MAX_CELLS];
    for (r, row) in raw.board.iter().enumerate() {
        if row.len() != n {
            return Err(GameError::invalid_state_at(
                format!("/board/{r}"),
                format!("row {r} has {} cells: expected {n} (grid_size)", row.len()),
            ));
        }
        for (c, text) in row.iter().enumerate() {
            cells[r * n + c] = parse_cell(text, pieces, &format!("/board/{r}/{c}"))?;
        }
    }
    Ok(cells)
}

fn parse_hands(raw: &RawState, pieces: u8) -> Result<[u16; 2], GameError> {
    if let Some(key) = raw.hands.keys().find(|k| parse_side(k).is_none()) {
        return Err(GameError::invalid_state_at(
            "/hands",
            format!("hands has a key {key:?}: expected only \"O\" and \"X\""),
        ));
    }
    let mut hands = [0u16; 2];
    for player in [Side::First, Side::Second] {
        let name = side_name(player);
        let Some(sizes) = raw.hands.get(name) else {
            return Err(GameError::invalid_state_at(
                "/hands",
                format!("hands has no entry for {name}"),
            ));
        };
        for (i, &size) in sizes.iter().enumerate() {
            let pointer = format!("/hands/{name}/{i}");
            if !(1..=pieces as usize).contains(&size) {
                return Err(GameError::invalid_state_at(
                    pointer,
                    format!("{name} holds a marker of size {size}: sizes run from 1 to {pieces}"),
                ));
            }
            let bit = 1u16 << size;
            if hands[player.index()] & bit != 0 {
                return Err(GameError::invalid_state_at(
                    pointer,
                    format!("{name} holds size {size} twice: each size is held at most once"),
                ));
            }
            hands[player.index()] |= bit;
        }
    }
    Ok(hands)
}

/// Checks that the visible markers agree with the hands: a visible marker is
/// not in its owner's hand, no side shows the same size twice, and every
/// played marker that is not visible fits under some bigger top.
fn check_markers(state: &State) -> Result<(), GameError> {
    let n = state.grid();
    let mut seen = [0u16; 2];
    for (i, cell) in state.used_cells().iter().enumerate() {
        let Some(owner) = cell.owner() else { continue };
        let (name, size, bit) = (side_name(owner), cell.size(), 1u16 << cell.size());
        let pointer = format!("/board/{}/{}", i / n, i % n);
        if state.hands[owner.index()] & bit != 0 {
            return Err(GameError::invalid_state_at(
                pointer,
                format!(
                    "{name}{size} is on the board, so size {size} cannot still be in {name}'s hand"
                ),
            ));
        }
        if seen[owner.index()] & bit != 0 {
            return Err(GameError::invalid_state_at(
                pointer,
                format!("{name}{size} appears twice on the board: each side has one marker of each size"),
            ));
        }
        seen[owner.index()] |= bit;
    }
    for size in 1..=state.pieces {
        let bit = 1u16 << size;
        let hidden = (0..2)
            .filter(|&p| state.hands[p] & bit == 0 && seen[p] & bit == 0)
            .count();
        let covers = state
            .used_cells()
            .iter()
            .filter(|c| c.size() > size)
            .count();
        if hidden > covers {
            return Err(GameError::invalid_state_at(
                "/hands",
                format!(
                    "{hidden} marker(s) of size {size} are neither in hand nor visible, but only {covers} cell(s) have a bigger top to hide them"
                ),
            ));
        }
    }
    Ok(())
}

/// Checks that the side to move agrees with the markers played and the pass rule.
fn check_turn(state: &State) -> Result<(), GameError> {
    let (o, x) = (Side::First, Side::Second);
    let lead = state.played(o) as i64 - state.played(x) as i64;
    let fail = |detail: String| Err(GameError::invalid_state_at("/to_move", detail));
    let turn = side_name(state.to_move);
    match state.sides_with_line() {
        [true, true] => {
            return Err(GameError::invalid_state_at(
                "/board",
                "both sides show a full line, but the game ends at the first one",
            ))
        }
        [true, false] | [false, true] => {
            let winner = state.winner().unwrap_or(o);
            if state.to_move == winner {
                return fail(format!(
                    "{} has won, so it made the last move and {} must be to move",
                    side_name(winner),
                    side_name(winner.other())
                ));
            }
            let plausible = if winner == o { lead >= 1 } else { lead <= 0 };
            if !plausible {
                return fail(format!(
                    "{} shows a line but has not made the last move ({} markers played by O, {} by X)",
                    side_name(winner),
                    state.played(o),
                    state.played(x)
                ));
            }
            return Ok(());
        }
        _ => {}
    }
    match (state.can_move(o), state.can_move(x)) {
        (true, true) => {
            let expected = match lead {
                0 => o,
                1 => x,
                _ => {
                    return fail(format!(
                        "O has played {} markers and X {}: with both sides able to move, O plays as many as X or one more",
                        state.played(o),
                        state.played(x)
                    ))
                }
            };
            if state.to_move != expected {
                return fail(format!(
                    "O has played {} markers and X {}, so {} is to move, not {turn}",
                    state.played(o),
                    state.played(x),
                    side_name(expected)
                ));
            }
        }
        (true, false) | (false, true) => {
            let able = if state.can_move(o) { o } else { x };
            check_one_side_stuck(state, able, lead)?;
        }
        (false, false) => {}
    }
    Ok(())
}

/// Checks the turn when only `able` can move. A side that is stuck stays
/// stuck (tops only grow and hands only shrink), and until then the sides
/// alternated, O playing as many markers as X or one more; from then on
/// `able` plays alone. So `able` may be to move, or the stuck side, right
/// after `able`'s move, when it must pass (the pass rule) — `lead` is how many
/// more markers O has played than X.
fn check_one_side_stuck(state: &State, able: Side, lead: i64) -> Result<(), GameError> {
    let stuck = able.other();
    let able_to_move = state.to_move == able;
    let plausible = match (able, able_to_move) {
        (Side::First, true) => lead >= 0,
        (Side::Second, true) => lead <= 1,
        (Side::First, false) => lead >= 1,
        (Side::Second, false) => lead <= 0,
    };
    if plausible {
        return Ok(());
    }
    let played = format!(
        "O has played {} markers and X {}",
        state.played(Side::First),
        state.played(Side::Second)
    );
    let detail = if able_to_move {
        format!(
            "{played}: that cannot happen with {} stuck",
            side_name(stuck)
        )
    } else {
        format!(
            "{0} has no legal move, so it can be to move only right after a move of {1}, and must then pass; but {played}",
            side_name(stuck),
            side_name(able)
        )
    };
    Err(GameError::invalid_state_at("/to_move", detail))
}

impl TryFrom<RawState> for State {
    type Error = GameError;

    fn try_from(raw: RawState) -> Result<State, GameError> {
        let grid = check_range(raw.grid_size, GRID_SIZES, "/grid_size", "grid_size")?;
        let pieces = check_range(raw.pieces, PIECE_COUNTS, "/pieces", "pieces")?;
        let to_move = parse_side(&raw.to_move).ok_or_else(|| {
            GameError::invalid_state_at(
                "/to_move",
                format!("to_move is {:?}: expected \"O\" or \"X\"", raw.to_move),
            )
        })?;
        let state = State {
            grid,
            pieces,
            cells: parse_board(&raw, grid, pieces)?,
            hands: parse_hands(&raw, pieces)?,
            to_move,
        };
        check_markers(&state)?;
        check_turn(&state)?;
        Ok(state)
    }
}
