//! An independent, slow and plain implementation of the rules on a grid of
//! characters, to check the fast generator against.

use super::super::board::Color;
use super::super::movegen::Kind;
use super::super::state::State;

pub type Grid = [[char; 9]; 9];
/// (kind, from, to) with (row, col) squares.
pub type SlowMove = (Kind, (i32, i32), (i32, i32));

pub fn grid(state: &State) -> Grid {
    let mut g = [['.'; 9]; 9];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = state.char_at(r, c);
        }
    }
    g
}

fn side_of(ch: char) -> Option<Color> {
    match ch {
        'A'..='Z' => Some(Color::White),
        'a'..='z' => Some(Color::Black),
        _ => None,
    }
}

fn get(g: &Grid, r: i32, c: i32) -> Option<char> {
    if (0..9).contains(&r) && (0..9).contains(&c) {
        Some(g[r as usize][c as usize])
    } else {
        None
    }
}

fn is_protected(g: &Grid, r: i32, c: i32) -> bool {
    let Some(side) = get(g, r, c).and_then(side_of) else {
        return false;
    };
    let sentinel = if side == Color::White { 'S' } else { 's' };
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .iter()
        .any(|(dr, dc)| get(g, r + dr, c + dc) == Some(sentinel))
}

/// Whether `side` could capture on (r, c); `general_too` treats a General as capturable.
fn takeable(g: &Grid, r: i32, c: i32, side: Color, general_too: bool) -> bool {
    match get(g, r, c) {
        Some(ch) if side_of(ch) == Some(side.other()) => {
            (general_too || !ch.eq_ignore_ascii_case(&'g')) && !is_protected(g, r, c)
        }
        _ => false,
    }
}

pub fn pseudo(g: &Grid, side: Color, general_too: bool) -> Vec<SlowMove> {
    let mut out = Vec::new();
    let king = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let ortho = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    for r in 0..9 {
        for c in 0..9 {
            let ch = g[r as usize][c as usize];
            if side_of(ch) != Some(side) {
                continue;
            }
            let empty = |dr: i32, dc: i32| get(g, r + dr, c + dc) == Some('.');
            let take = |dr: i32, dc: i32| takeable(g, r + dr, c + dc, side, general_too);
            let mut add = |kind, dr: i32, dc: i32| out.push((kind, (r, c), (r + dr, c + dc)));
            match ch.to_ascii_lowercase() {
                'z' => {
                    let f = if side == Color::White { -1 } else { 1 };
                    for dc in [-1, 0, 1] {
                        if empty(f, dc) {
                            add(Kind::Move, f, dc);
                            if take(2 * f, 2 * dc) {
                                add(Kind::Leap, 2 * f, 2 * dc);
                            }
                        } else if take(f, dc) {
                            add(Kind::Capture, f, dc);
                        }
                    }
                }
                'b' => {
                    for (dr, dc) in king {
                        if empty(dr, dc) {
                            add(Kind::Move, dr, dc);
                            add(Kind::Build, dr, dc);
                        } else if take(dr, dc) {
                            add(Kind::Capture, dr, dc);
                        }
                    }
                }
                'j' => {
                    for (dr, dc) in king {
                        let target = get(g, r + dr, c + dc);
                        match target {
                            Some('.') => add(Kind::Move, dr, dc),
                            Some(t)
                                if side_of(t) == Some(side) && !t.eq_ignore_ascii_case(&'j') =>
                            {
                                add(Kind::Swap, dr, dc)
                            }
                            Some(t)
                                if side_of(t) == Some(side.other())
                                    && !t.eq_ignore_ascii_case(&'g') =>
                            {
                                add(Kind::Convert, dr, dc)
                            }
                            _ => {}
                        }
                    }
                }
                'm' | 'd' => {
                    let (dirs, min, walls): (&[(i32, i32)], i32, bool) =
                        if ch.eq_ignore_ascii_case(&'m') {
                            (&ortho, 1, true)
                        } else {
                            (&king, 2, false)
                        };
                    for &(dr, dc) in dirs {
                        let mut k = 1;
                        while empty(k * dr, k * dc) {
                            add(Kind::Move, k * dr, k * dc);
                            k += 1;
                        }
                        let wall = walls && get(g, r + k * dr, c + k * dc) == Some('#');
                        if k >= min && (take(k * dr, k * dc) || wall) {
                            add(Kind::Capture, k * dr, k * dc);
                        }
                    }
                }
                's' => {
                    for (dr, dc) in [
                        (-2, -1),
                        (-2, 1),
                        (-1, -2),
                        (-1, 2),
                        (1, -2),
                        (1, 2),
                        (2, -1),
                        (2, 1),
                    ] {
                        if empty(dr, dc) {
                            add(Kind::Move, dr, dc);
                        } else if take(dr, dc) {
                            add(Kind::Capture, dr, dc);
                        }
                    }
                }
                'c' => {
                    for (dr, dc) in ortho {
                        if empty(dr, dc) {
                            add(Kind::Move, dr, dc);
                        }
                    }
                    for (dr, dc) in [
                        (-3, 0),
                        (3, 0),
                        (0, -3),
                        (0, 3),
                        (-2, -2),
                        (-2, 2),
                        (2, -2),
                        (2, 2),
                    ] {
                        if take(dr, dc) {
                            add(Kind::Shoot, dr, dc);
                        }
                    }
                }
                _ => {
                    for (dr, dc) in king {
                        if empty(dr, dc) {
                            add(Kind::Move, dr, dc);
                        } else if take(dr, dc) {
                            add(Kind::Capture, dr, dc);
                        }
                    }
                }
            }
        }
    }
    out
}

pub fn play(g: &Grid, (kind, (fr, fc), (tr, tc)): SlowMove) -> Grid {
    let mut n = *g;
    let (f, t) = ((fr as usize, fc as usize), (tr as usize, tc as usize));
    match kind {
        Kind::Move | Kind::Capture | Kind::Leap => {
            n[t.0][t.1] = g[f.0][f.1];
            n[f.0][f.1] = '.';
        }
        Kind::Build => n[t.0][t.1] = '#',
        Kind::Swap => {
            n[t.0][t.1] = g[f.0][f.1];
            n[f.0][f.1] = g[t.0][t.1];
        }
        Kind::Convert => {
            let ch = g[t.0][t.1];
            n[t.0][t.1] = if ch.is_ascii_uppercase() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            };
        }
        Kind::Shoot => n[t.0][t.1] = '.',
    }
    n
}

pub fn danger(g: &Grid, side: Color) -> bool {
    let general = if side == Color::White { 'G' } else { 'g' };
    let Some(at) = (0..9)
        .flat_map(|r| (0..9).map(move |c| (r, c)))
        .find(|&(r, c)| g[r as usize][c as usize] == general)
    else {
        return false;
    };
    if is_protected(g, at.0, at.1) {
        return false;
    }
    pseudo(g, side.other(), true)
        .iter()
        .any(|&(kind, _, to)| to == at && kind.is_capture())
}

pub fn legal(g: &Grid, side: Color) -> Vec<SlowMove> {
    let mut moves: Vec<SlowMove> = pseudo(g, side, false)
        .into_iter()
        .filter(|&m| !danger(&play(g, m), side))
        .collect();
    moves.sort_by_key(|&(k, f, t)| (k as u8, f, t));
    moves
}
