//! How error messages name a place in the input, worded the same in every
//! game. JSON input is named by its 0-based indices, so `board row 3` is
//! the pointer `/board/3`, with the square in the game's own notation beside
//! it; text input is named by 1-based line and column, as an editor shows them.

/// A reference token of a JSON pointer (RFC 6901): `~` is written `~0` and
/// `/` `~1`.
pub fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The RFC 6901 pointer to the deepest place of a deserializer's `path`
/// that is known: serde cannot always say where it was (a trailing comma
/// after the last field), and then the pointer stops at the last known
/// ancestor. `None` for the whole document.
pub fn pointer_of(path: &serde_path_to_error::Path) -> Option<String> {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        let token = match segment {
            Segment::Seq { index } => index.to_string(),
            Segment::Map { key } => pointer_token(key),
            Segment::Enum { variant } => pointer_token(variant),
            Segment::Unknown => break,
        };
        pointer.push('/');
        pointer.push_str(&token);
    }
    (!pointer.is_empty()).then_some(pointer)
}

/// `board row 3`: the row at index 3 of the JSON state's `board`.
pub fn json_row(row: usize) -> String {
    format!("board row {row}")
}

/// `board row 3, column 4 (square e5)`: a cell of the JSON state's `board`
/// by its 0-based indices, with its name in the game's notation
/// (`notation` carries its own noun: `"square e5"`, `"cell 4,3"`).
pub fn json_cell(row: usize, col: usize, notation: &str) -> String {
    format!("board row {row}, column {col} ({notation})")
}

/// `line 4`: the line at 0-based index `line` of a text form.
pub fn text_line(line: usize) -> String {
    format!("line {}", line + 1)
}

/// `line 4, column 5`: a character of a text form by 0-based indices.
pub fn text_cell(line: usize, col: usize) -> String {
    format!("line {}, column {}", line + 1, col + 1)
}

/// `1 row`, `3 rows`: a count with its noun (regular plurals only).
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_counts_read_naturally() {
        assert_eq!(
            json_cell(3, 4, "square e5"),
            "board row 3, column 4 (square e5)"
        );
        assert_eq!(text_cell(0, 0), "line 1, column 1");
        assert_eq!(plural(1, "row"), "1 row");
        assert_eq!(plural(0, "row"), "0 rows");
        assert_eq!(plural(16, "row"), "16 rows");
    }
}
