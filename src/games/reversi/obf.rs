//! Edax's Othello Board Format (`.obf`), the format the FFO endgame suites
//! ship in: one position a line, 64 squares row by row from a1 (`X` black,
//! `O` white, `-` empty), a space, the side to move, then `move:score;`
//! pairs with the best first. The tests and the research solver runner
//! read the suites through it.

use super::board::{parse_square, Board};
use std::fmt;

/// One position of an `.obf` file with its published scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    /// The position from the side to move's point of view.
    pub board: Board,
    /// The exact score of the best move, in discs for the side to move.
    pub best_score: i32,
    /// The squares whose move reaches `best_score` (several when tied).
    pub best_moves: Vec<u32>,
}

/// Why a line is not an `.obf` position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfError(String);

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ObfError {}

impl ObfPosition {
    /// Reads one line of an `.obf` file.
    pub fn parse(line: &str) -> Result<Self, ObfError> {
        let bytes = line.as_bytes();
        if bytes.len() < 66 {
            return Err(ObfError(format!(
                "expected 64 squares, a space and the side to move, got {} characters",
                line.len()
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (sq, cell) in bytes[..64].iter().enumerate() {
            match cell {
                b'X' => black |= 1 << sq,
                b'O' => white |= 1 << sq,
                b'-' => {}
                other => {
                    return Err(ObfError(format!(
                        "square {sq}: expected X, O or -, got {:?}",
                        char::from(*other)
                    )))
                }
            }
        }
        let board = match bytes[65] {
            b'X' => Board::new(black, white),
            b'O' => Board::new(white, black),
            other => {
                return Err(ObfError(format!(
                    "side to move: expected X or O, got {:?}",
                    char::from(other)
                )))
            }
        };
        let scores = parse_scores(line.get(66..).unwrap_or(""))?;
        let best_score = scores
            .first()
            .map(|&(_, score)| score)
            .ok_or_else(|| ObfError("no move:score pairs after the side to move".into()))?;
        let best_moves = scores
            .iter()
            .filter(|&&(_, score)| score == best_score)
            .map(|&(sq, _)| sq)
            .collect();
        Ok(ObfPosition {
            board,
            best_score,
            best_moves,
        })
    }

    /// Every position of an `.obf` file's text, skipping blank and `%` comment lines.
    pub fn parse_all(text: &str) -> Result<Vec<Self>, ObfError> {
        text.lines()
            .map(str::trim_end)
            .filter(|line| !line.is_empty() && !line.starts_with('%'))
            .enumerate()
            .map(|(i, line)| {
                Self::parse(line).map_err(|e| ObfError(format!("position {}: {e}", i + 1)))
            })
            .collect()
    }
}

/// The `move:score;` pairs, best first.
fn parse_scores(text: &str) -> Result<Vec<(u32, i32)>, ObfError> {
    text.split(';')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (mv, score) = pair
                .split_once(':')
                .ok_or_else(|| ObfError(format!("{pair:?}: expected move:score")))?;
            let sq =
                parse_square(mv.trim()).ok_or_else(|| ObfError(format!("{mv:?}: not a square")))?;
            let score = score
                .trim()
                .parse()
                .map_err(|_| ObfError(format!("{score:?}: not a score")))?;
            Ok((sq, score))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34;";

    #[test]
    fn reads_the_board_from_the_movers_side_and_the_best_moves() {
        let position = ObfPosition::parse(FFO_40).unwrap();
        assert_eq!(position.board.empties(), 20);
        assert_eq!(position.best_score, 38);
        assert_eq!(position.best_moves, vec![parse_square("a2").unwrap()]);
        // X (black) moves: `me` holds the X discs, a1 is white's.
        assert_eq!(position.board.opp & 1, 1);
        assert_eq!(position.board.me & (1 << 7), 1 << 7);
    }

    #[test]
    fn ties_for_best_are_all_kept() {
        let line = format!("{} O; C1:+2; B1:+2; A1:-4;", "-".repeat(64));
        let position = ObfPosition::parse(&line).unwrap();
        assert_eq!(position.best_moves.len(), 2);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let short = ObfPosition::parse("XO").unwrap_err();
        assert!(short.to_string().contains("64 squares"), "{short}");
        let cell = ObfPosition::parse(&format!("{}Z X; A1:+0;", "-".repeat(63))).unwrap_err();
        assert!(cell.to_string().contains("square 63"), "{cell}");
        let side = ObfPosition::parse(&format!("{} Y; A1:+0;", "-".repeat(64))).unwrap_err();
        assert!(side.to_string().contains("side to move"), "{side}");
        let none = ObfPosition::parse(&format!("{} X;", "-".repeat(64))).unwrap_err();
        assert!(none.to_string().contains("no move:score"), "{none}");
        let all = ObfPosition::parse_all(&format!("% comment\n{FFO_40}\nshort\n")).unwrap_err();
        assert!(all.to_string().starts_with("position 2"), "{all}");
    }
}
