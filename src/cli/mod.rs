pub mod halma;
