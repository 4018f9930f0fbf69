use super::*;
use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: CrushArgs,
}

fn args(line: &[&str]) -> CrushArgs {
    let mut argv = vec!["crush"];
    argv.extend_from_slice(line);
    Cli::try_parse_from(argv).expect("valid arguments").args
}

fn play(line: &[&str], input: &str) -> String {
    let mut out = Vec::new();
    interactive(&args(line), input.as_bytes(), &mut out).expect("the game runs");
    String::from_utf8(out).expect("utf-8 output")
}

/// The benchmark's output for one game of k = 7 per level, on one thread,
/// with the options in `line`.
fn bench(line: &[&str]) -> String {
    let mut argv = vec!["--benchmark", "--seeds", "1", "--ks", "7", "--threads", "1"];
    argv.extend_from_slice(line);
    let mut out = Vec::new();
    benchmark(&args(&argv), &mut out).expect("the benchmark runs");
    String::from_utf8(out).expect("utf-8 output")
}

/// The swap `notation` names, for comparisons.
fn swap(notation: &str) -> Swap {
    Swap::parse_notation(notation).expect("a valid swap")
}

/// Every word `input` holds, read to its end.
fn words(input: &[u8]) -> Vec<String> {
    let mut reader = SwapReader::new(input);
    std::iter::from_fn(|| reader.next_word().expect("reading memory never fails")).collect()
}

#[test]
fn reads_swaps_warns_about_invalid_ones_and_stops_at_end_of_input() {
    let out = play(&[], "3040\n3041\nhello\n0001\n");
    assert!(out.starts_with("Number Crush, k = 4, 100 swaps\n1234323234\n"));
    assert!(out.contains("swap 3040:\n  step 1: eliminated 40 50 60 (3 in a column, 9 points)"));
    assert!(out.contains("score +158 = 158, swaps left 99"));
    assert!(out.contains("invalid swap: cells 30 and 41 are not adjacent"));
    assert!(out.contains("invalid swap: 'hello' is not a swap"));
    assert!(out.contains("swaps left 98"));
    assert!(out.contains("end of input"));
    assert!(out.contains("Total score: "));
    let course = Crush::new_course();
    let last = Crush::apply(&Crush::apply(&course, &swap("3040")), &swap("0001"));
    assert!(out.ends_with(&format!("Final board:\n{}", board_text(last.board()))));
}

#[test]
fn the_default_game_is_the_course_game_and_k_or_seed_pick_a_random_board() {
    let course = Crush::new_course();
    assert_eq!(starting_state(&args(&[])), course);
    assert_eq!(starting_state(&args(&["--preset", "course"])), course);
    assert_eq!(
        starting_state(&args(&["--seed", "0"])),
        Crush::new_seeded(4, 0)
    );
    assert_eq!(
        starting_state(&args(&["--k", "6"])),
        Crush::new_seeded(6, 0)
    );
    assert_eq!(
        starting_state(&args(&["--k", "5", "--seed", "9"])),
        Crush::new_seeded(5, 9)
    );
    assert_ne!(Crush::new_seeded(4, 0), course);
}

#[test]
fn the_reader_splits_the_input_at_any_whitespace() {
    assert_eq!(
        words(b"  3040 6061\n\t4849\r\n\n 102 +0001\x0b12ab"),
        ["3040", "6061", "4849", "102", "+0001", "12ab"]
    );
    assert_eq!(words(b""), Vec::<String>::new());
    assert_eq!(words(b" \n\t \n"), Vec::<String>::new());
    assert_eq!(words(b"ab\xffcd 1"), ["ab\u{fffd}cd", "1"]);
}

#[test]
fn the_reader_keeps_only_the_start_of_a_huge_word() {
    let mut input = vec![b'x'; 100_000];
    input.extend_from_slice(b" 3040");
    let read = words(&input);
    assert_eq!(read.len(), 2);
    assert_eq!(read[0], format!("{}…", "x".repeat(KEPT_WORD_BYTES)));
    assert_eq!(read[1], "3040");
}

/// Input that holds `text` and then fails, like a pipe whose writer has
/// not sent more yet: reading past `text` is an error.
struct StallsAfter<'a>(&'a [u8]);

impl io::Read for StallsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        io::BufRead::fill_buf(self)?;
        let n = self.0.len().min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

impl io::BufRead for StallsAfter<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.0.is_empty() {
            Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                "no more input yet",
            ))
        } else {
            Ok(self.0)
        }
    }

    fn consume(&mut self, amount: usize) {
        self.0 = &self.0[amount..];
    }
}

#[test]
fn a_word_is_handed_over_once_the_whitespace_after_it_arrives() {
    let mut reader = SwapReader::new(StallsAfter(b"3040 6061 "));
    assert_eq!(reader.next_word().unwrap().as_deref(), Some("3040"));
    assert_eq!(reader.next_word().unwrap().as_deref(), Some("6061"));
    assert!(reader.next_word().is_err());
}

#[test]
fn a_swap_is_an_integer_of_at_most_four_digits_with_leading_zeros_optional() {
    assert_eq!(swap_from_word("2122").unwrap(), swap("2122"));
    assert_eq!(swap_from_word("0102").unwrap(), swap("0102"));
    assert_eq!(swap_from_word("102").unwrap(), swap("0102"));
    assert_eq!(swap_from_word("+102").unwrap(), swap("0102"));
    assert_eq!(swap_from_word("1").unwrap(), swap("0001"));
    assert_eq!(swap_from_word("10").unwrap(), swap("0010"));
    assert_eq!(swap_from_word("2221").unwrap(), swap("2122"));
}

#[test]
fn an_integer_that_names_no_swap_says_why() {
    let why = |word: &str| swap_from_word(word).unwrap_err().to_string();
    assert!(why("0").contains("two different cells; both are 00"));
    assert!(why("12").contains("cells 00 and 12 are not adjacent"));
    assert!(why("3041").contains("cells 30 and 41 are not adjacent"));
    assert_eq!(swap_from_word("0919").unwrap(), swap("0919"));
    assert!(why("0910").contains("cells 09 and 10 are not adjacent"));
}

#[test]
fn anything_but_an_integer_of_at_most_four_digits_is_not_a_swap() {
    for word in [
        "12345",
        "00102",
        "-102",
        "-0",
        "hello",
        "12ab",
        "ab12",
        "1.5",
        "+",
        "++102",
        "+-1",
        "0x12",
        "２１２２",
        "2122,",
    ] {
        let error = swap_from_word(word).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("'{word}' is not a swap: ")),
            "{word}: {error}"
        );
    }
}

#[test]
fn several_swaps_and_bad_words_on_one_line_are_taken_in_order() {
    let out = play(&[], "3040 hello 102 12345 -102 6061");
    let warned: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split("invalid swap: '").nth(1))
        .collect();
    assert_eq!(warned.len(), 3, "{out}");
    assert!(warned[0].starts_with("hello'"));
    assert!(warned[1].starts_with("12345'"));
    assert!(warned[2].starts_with("-102'"));
    let played: Vec<&str> = out
        .lines()
        .map(|l| l.trim_start_matches(PROMPT))
        .filter(|l| l.starts_with("swap "))
        .collect();
    assert_eq!(played, ["swap 3040:", "swap 0102:", "swap 6061:"]);
    let mut state = Crush::new_course();
    for notation in ["3040", "0102", "6061"] {
        state = Crush::apply(&state, &swap(notation));
    }
    assert!(out.contains(&format!("Total score: {}\n", state.score())));
}

#[test]
fn a_bot_plays_the_hundred_swaps() {
    let out = play(&["--k", "6", "--seed", "3", "--bot", "greedy"], "");
    assert_eq!(out.matches("bot swaps ").count(), 100);
    assert!(out.contains("swaps left 0"));
    let total = out
        .lines()
        .find_map(|l| l.strip_prefix("Total score: "))
        .unwrap();
    let allowed = SwapBudget {
        time_ms: 50,
        max_nodes: None,
    };
    let greedy = [contestant("greedy").unwrap()];
    let games = play_contestants(6, 3..4, &greedy, allowed, 1).unwrap();
    assert_eq!(games[0][0].forfeit, None);
    assert_eq!(total, games[0][0].points.to_string());
}

#[test]
fn refuses_an_unknown_level_and_conflicting_options() {
    let mut out = Vec::new();
    let result = interactive(&args(&["--bot", "clever"]), "".as_bytes(), &mut out);
    assert!(matches!(result, Err(CliError::Usage(m)) if m.contains("clever")));
    let cli = Cli::try_parse_from(["crush", "--preset", "course", "--seed", "3"]);
    assert!(cli.is_err());
}

#[test]
fn level_options_survive_the_comma_list() {
    let parts: Vec<String> = ["greedy", "strong:depth=2", "leaf=50", "random"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        join_level_options(&parts),
        ["greedy", "strong:depth=2,leaf=50", "random"]
    );
}

#[test]
fn the_gain_and_its_margin_come_from_per_seed_differences() {
    let gain = PairedGain::over(&[100, 200, 300], &[110, 220, 330]);
    assert_eq!(gain.percent, 10.0);
    // Differences 10, 20, 30: sd 10, so 1.96 * 10 / sqrt(3) / 200 = 5.7%.
    assert_eq!(gain.percent_margin, 5.7);
    assert_eq!(PairedGain::over(&[100], &[100]).percent, 0.0);
}

#[test]
fn the_benchmark_plays_the_seeds_from_first_seed_on() {
    let text = bench(&["--first-seed", "5", "--levels", "greedy"]);
    assert!(text.starts_with("1 games per level and k (seeds 5..6)"));
    let greedy = [contestant("greedy").unwrap()];
    let games = play_contestants(7, 5..6, &greedy, SwapBudget::of(&args(&[])), 1).unwrap();
    let total = games[0][0].points;
    let row = text.lines().find(|l| l.starts_with("greedy")).unwrap();
    assert!(row.contains(&format!(" {total}.0 ")), "{row} vs {total}");
}

#[test]
fn the_benchmark_prints_a_line_per_level_and_k() {
    let text = bench(&["--levels", "random,greedy"]);
    assert!(text
        .lines()
        .any(|l| l.starts_with("random") && l.contains(" 7 ")));
    assert!(text
        .lines()
        .any(|l| l.starts_with("greedy") && l.contains(" 7 ")));
}

#[test]
fn the_ladder_flag_says_where_the_ladder_went() {
    let result = benchmark(&args(&["--benchmark", "--ladder"]), &mut Vec::new());
    assert!(
        matches!(&result, Err(CliError::Usage(m)) if m.contains("gamebot ladder crush")),
        "{result:?}"
    );
}

#[test]
fn numbered_levels_play_in_the_benchmark() {
    let text = bench(&["--levels", "1,greedy"]);
    assert!(
        text.lines()
            .any(|l| l.starts_with("1 ") && l.contains(" 7 ")),
        "{text}"
    );
    assert!(contestant("99").is_err());
    assert!(contestant("gtp:gnugo").is_err());
}
