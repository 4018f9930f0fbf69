pub mod advance;
