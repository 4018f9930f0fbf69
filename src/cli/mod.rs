pub mod naughts;
