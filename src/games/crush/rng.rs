//! TinyMT32, the small Mersenne-Twister variant the course's harness used to
//! refill the board. The three parameters are inputs: the game runs with all
//! three at zero (as the course's code did), the published defaults are
//! tested too so that the algorithm itself is known to be right.

const MASK: u32 = 0x7fff_ffff;
const SH0: u32 = 1;
const SH1: u32 = 10;
const SH8: u32 = 8;
const MIN_LOOP: u32 = 8;
const PRE_LOOP: usize = 8;

/// The three tempering/feedback parameters of a TinyMT32 generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TinyMtParams {
    /// Fed into word 1 when the state's low bit is set.
    pub mat1: u32,
    /// Fed into word 2 when the state's low bit is set.
    pub mat2: u32,
    /// Mixed into the output when the tempered sum is odd.
    pub tmat: u32,
}

impl TinyMtParams {
    /// The parameters the game uses: all zero, as the course's harness left them.
    pub const GAME: TinyMtParams = TinyMtParams {
        mat1: 0,
        mat2: 0,
        tmat: 0,
    };

    /// TinyMT32's published default parameters.
    pub const PUBLISHED: TinyMtParams = TinyMtParams {
        mat1: 0x8f70_11ee,
        mat2: 0xfc78_ff1f,
        tmat: 0x3793_fdff,
    };
}

/// A TinyMT32 generator: four words of state plus its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TinyMt32 {
    status: [u32; 4],
    params: TinyMtParams,
}

impl TinyMt32 {
    /// `tinymt32_init(seed)` with the given parameters.
    pub fn new(seed: u32, params: TinyMtParams) -> Self {
        let mut status = [seed, params.mat1, params.mat2, params.tmat];
        for i in 1..MIN_LOOP {
            let prev = status[((i - 1) & 3) as usize];
            status[(i & 3) as usize] ^=
                i.wrapping_add(1_812_433_253u32.wrapping_mul(prev ^ (prev >> 30)));
        }
        let mut rng = TinyMt32 { status, params };
        rng.certify_period();
        for _ in 0..PRE_LOOP {
            rng.next_state();
        }
        rng
    }

    /// The game's generator (zero parameters) seeded with `seed`.
    pub fn for_game(seed: u32) -> Self {
        Self::new(seed, TinyMtParams::GAME)
    }

    /// A generator resumed from four state words (the game's zero parameters).
    /// The caller checks [`TinyMt32::is_degenerate`] first where it matters.
    pub fn from_status(status: [u32; 4]) -> Self {
        TinyMt32 {
            status,
            params: TinyMtParams::GAME,
        }
    }

    /// The four state words, as they travel in the JSON state.
    pub fn status(&self) -> [u32; 4] {
        self.status
    }

    /// Whether these state words are the all-zero state (up to the unused top
    /// bit of word 0): from there the recurrence stays at zero forever, which
    /// `tinymt32_init` never produces.
    pub fn is_degenerate(status: [u32; 4]) -> bool {
        status[0] & MASK == 0 && status[1] == 0 && status[2] == 0 && status[3] == 0
    }

    /// `tinymt32_generate_uint32`: the next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        self.next_state();
        self.temper()
    }

    /// A digit `1..=k` as the game draws it: `next_u32() % k + 1`.
    pub fn next_digit(&mut self, k: u8) -> u8 {
        (self.next_u32() % u32::from(k)) as u8 + 1
    }

    fn certify_period(&mut self) {
        if Self::is_degenerate(self.status) {
            self.status = [
                u32::from(b'T'),
                u32::from(b'I'),
                u32::from(b'N'),
                u32::from(b'Y'),
            ];
        }
    }

    fn next_state(&mut self) {
        let s = &mut self.status;
        let mut y = s[3];
        let mut x = (s[0] & MASK) ^ s[1] ^ s[2];
        x ^= x << SH0;
        y ^= (y >> SH0) ^ x;
        s[0] = s[1];
        s[1] = s[2];
        s[2] = x ^ (y << SH1);
        s[3] = y;
        let feedback = (y & 1).wrapping_neg();
        s[1] ^= feedback & self.params.mat1;
        s[2] ^= feedback & self.params.mat2;
    }

    fn temper(&self) -> u32 {
        let s = &self.status;
        let mut t0 = s[3];
        let t1 = s[0].wrapping_add(s[2] >> SH8);
        t0 ^= t1;
        t0 ^= (t1 & 1).wrapping_neg() & self.params.tmat;
        t0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn fixture() -> Value {
        crate::test_data::json("crush/tinymt32.json")
    }

    fn words(value: &Value) -> Vec<u32> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect()
    }

    #[test]
    fn matches_every_reference_vector() {
        let data = fixture();
        let vectors = data["vectors"].as_array().unwrap();
        assert_eq!(vectors.len(), 8);
        let mut seen_published = false;
        for v in vectors {
            let params = TinyMtParams {
                mat1: v["mat1"].as_u64().unwrap() as u32,
                mat2: v["mat2"].as_u64().unwrap() as u32,
                tmat: v["tmat"].as_u64().unwrap() as u32,
            };
            seen_published |= params == TinyMtParams::PUBLISHED;
            let seed = v["seed"].as_u64().unwrap() as u32;
            let mut rng = TinyMt32::new(seed, params);
            assert_eq!(
                rng.status().to_vec(),
                words(&v["status_after_init"]),
                "seed {seed}"
            );
            let outputs: Vec<u32> = (0..20).map(|_| rng.next_u32()).collect();
            assert_eq!(
                outputs,
                words(&v["first_outputs"]),
                "seed {seed} {params:?}"
            );
            assert_eq!(rng.status().to_vec(), words(&v["status_after_20"]));
        }
        assert!(seen_published);
    }

    #[test]
    fn resumes_from_its_status_words() {
        let mut a = TinyMt32::for_game(7);
        a.next_u32();
        let mut b = TinyMt32::from_status(a.status());
        assert_eq!(a.next_u32(), b.next_u32());
    }

    #[test]
    fn zero_state_is_degenerate() {
        assert!(TinyMt32::is_degenerate([0, 0, 0, 0]));
        assert!(TinyMt32::is_degenerate([0x8000_0000, 0, 0, 0]));
        assert!(!TinyMt32::is_degenerate([1, 0, 0, 0]));
        let mut stuck = TinyMt32::from_status([0, 0, 0, 0]);
        assert_eq!(stuck.next_u32(), 0);
        assert_eq!(stuck.status(), [0, 0, 0, 0]);
    }
}
