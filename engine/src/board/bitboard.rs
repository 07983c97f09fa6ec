//! Bitboards: one bit per square, over a `u128` for boards of up to 128
//! squares and over [`U256`] for larger ones (ExCoCo's 18x10 = 180).
//!
//! The engine is generic over [`Bitboard`], so each width compiles to its
//! own code; the variant's size picks the type once, at the top.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use crate::types::Square;

/// How slider attacks are computed from the rays; each bitboard width
/// names the faster one for it in [`Bitboard::SLIDERS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderTechnique {
    /// Bit-scan each ray for its first blocker.
    RayScan,
    /// Obstruction difference: one subtraction per line.
    ObstructionDifference,
}

/// A set of squares, one bit per square index (`rank * files + file`).
///
/// Bits past the board's last square are always zero in any set the
/// engine builds: every shift is masked by the board mask.
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// How many squares the type can hold.
    const BITS: u32;
    /// The empty set.
    const EMPTY: Self;
    /// The slider-attack technique that measured fastest for this width
    /// (see `bench/README.md`).
    const SLIDERS: SliderTechnique;
    /// Iterator over the squares of a set, lowest first.
    type Squares: Iterator<Item = Square>;

    /// The set holding only `square`.
    fn square(square: Square) -> Self;
    /// Whether `square` is in the set.
    fn has(self, square: Square) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// How many squares are in the set.
    fn count(self) -> u32;
    /// The lowest square of a non-empty set (unspecified when empty).
    fn lsb(self) -> Square;
    /// The highest square of a non-empty set (unspecified when empty).
    fn msb(self) -> Square;
    /// The set holding only the lowest bit of `self` (empty when empty).
    fn lowest_bit(self) -> Self;
    /// Two's-complement sum, wrapping at `BITS`.
    fn wrapping_add(self, rhs: Self) -> Self;
    /// Every bit from `square` upwards.
    fn ones_from(square: Square) -> Self;
    /// The 64-bit words of the set XORed together: a cheap input for hashing.
    fn fold(self) -> u64;

    /// Whether the set has at least one square.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Whether the set has more than one square.
    #[inline(always)]
    fn several(self) -> bool {
        let without_lowest = self ^ self.lowest_bit();
        without_lowest.any()
    }

    /// Removes and returns the lowest square of a non-empty set.
    #[inline(always)]
    fn pop_lsb(&mut self) -> Square {
        let square = self.lsb();
        *self ^= self.lowest_bit();
        square
    }

    /// Iterates over the squares of the set, lowest first.
    fn squares(self) -> Self::Squares;
}

/// Iterator over the squares of a bitboard, lowest first, by
/// [`Bitboard::pop_lsb`] (the one-register `u128`'s).
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bitboard> Iterator for SquareIter<B> {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }
}

impl Bitboard for u128 {
    type Squares = SquareIter<u128>;
    const BITS: u32 = 128;
    const EMPTY: Self = 0;
    /// Ray scan, chosen by measurement (bench/README.md; 2-core AMD EPYC Zen 3,
    /// target-cpu=native, 2026-12-01). `cargo bench -p kurier-bench --bench
    /// sliders`, 12x8, median of 5 runs: 12,288 line attacks in 35.5 us vs
    /// 48.8 us by obstruction difference; 3,072 rook attacks 18.6 us vs
    /// 25.0 us. `kurier perft --variant courier --depth 5`, median of 15
    /// interleaved runs: 0.302 s either way (a tie); without
    /// target-cpu=native ray scan was 7% faster in one series (0.315 s vs
    /// 0.339 s, 15 runs each) and a tie in another.
    const SLIDERS: SliderTechnique = SliderTechnique::RayScan;

    #[inline(always)]
    fn square(square: Square) -> Self {
        1u128 << square.index()
    }
    #[inline(always)]
    fn has(self, square: Square) -> bool {
        (self >> square.index()) & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lsb(self) -> Square {
        Square::new(self.trailing_zeros() as u8)
    }
    #[inline(always)]
    fn msb(self) -> Square {
        Square::new((127 - self.leading_zeros()) as u8)
    }
    #[inline(always)]
    fn lowest_bit(self) -> Self {
        self & self.wrapping_neg()
    }
    #[inline(always)]
    fn wrapping_add(self, rhs: Self) -> Self {
        u128::wrapping_add(self, rhs)
    }
    #[inline(always)]
    fn ones_from(square: Square) -> Self {
        u128::MAX << square.index()
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        (self as u64) ^ ((self >> 64) as u64)
    }
    #[inline(always)]
    fn squares(self) -> SquareIter<u128> {
        SquareIter(self)
    }
}

/// A 256-bit set of squares for boards of 129 to 256 squares, as four
/// 64-bit words, lowest squares first, aligned as one AVX register: the
/// bitwise operations are written word by word so that the compiler can
/// do each in one vector instruction where the machine has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct U256 {
    /// Squares `64 * i` to `64 * i + 63` in word `i`.
    words: [u64; 4],
}

/// How many 64-bit words a [`U256`] has.
const WORDS: usize = 4;

impl U256 {
    /// The set from its two halves: squares 0 to 127 and 128 to 255.
    pub const fn new(low: u128, high: u128) -> Self {
        U256 {
            words: [
                low as u64,
                (low >> 64) as u64,
                high as u64,
                (high >> 64) as u64,
            ],
        }
    }

    /// The word holding `square`, and the square's bit in it.
    #[inline(always)]
    fn word_and_bit(square: Square) -> (usize, u32) {
        let index = square.index();
        (index >> 6, (index & 63) as u32)
    }
}

macro_rules! wordwise {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for U256 {
            type Output = U256;
            #[inline(always)]
            fn $method(self, rhs: U256) -> U256 {
                let (a, b) = (self.words, rhs.words);
                U256 {
                    words: [a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]],
                }
            }
        }
        impl $assign_trait for U256 {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: U256) {
                *self = *self $op rhs;
            }
        }
    };
}

wordwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wordwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wordwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        let a = self.words;
        U256 {
            words: [!a[0], !a[1], !a[2], !a[3]],
        }
    }
}

impl Shl<u32> for U256 {
    type Output = U256;
    #[inline(always)]
    fn shl(self, shift: u32) -> U256 {
        let mut words = [0u64; WORDS];
        let (whole, bits) = ((shift / 64) as usize, shift % 64);
        for (i, word) in words.iter_mut().enumerate().skip(whole) {
            let from = i - whole;
            *word = self.words[from] << bits;
            if bits != 0 && from > 0 {
                *word |= self.words[from - 1] >> (64 - bits);
            }
        }
        U256 { words }
    }
}

impl Shr<u32> for U256 {
    type Output = U256;
    #[inline(always)]
    fn shr(self, shift: u32) -> U256 {
        let mut words = [0u64; WORDS];
        let (whole, bits) = ((shift / 64) as usize, shift % 64);
        for (i, word) in words
            .iter_mut()
            .enumerate()
            .take(WORDS.saturating_sub(whole))
        {
            let from = i + whole;
            *word = self.words[from] >> bits;
            if bits != 0 && from + 1 < WORDS {
                *word |= self.words[from + 1] << (64 - bits);
            }
        }
        U256 { words }
    }
}

impl Bitboard for U256 {
    type Squares = U256Squares;
    const BITS: u32 = 256;
    const EMPTY: Self = U256 { words: [0; WORDS] };
    /// Ray scan, chosen by measurement (bench/README.md; same machine and flags
    /// as `u128`). `cargo bench -p kurier-bench --bench sliders`, 18x10,
    /// median of 5 runs: 23,040 line attacks in 161.5 us vs 192.0 us by
    /// obstruction difference; 5,760 rook attacks 73.1 us vs 97.9 us.
    /// `kurier perft --variant excoco --depth 4`, median of 9 interleaved
    /// runs: 2.115 s vs 2.110 s (a tie within noise; best runs 2.010 s vs
    /// 2.058 s); without target-cpu=native ray scan was 2% faster (2.50 s
    /// vs 2.56 s, median of 7).
    const SLIDERS: SliderTechnique = SliderTechnique::RayScan;

    #[inline(always)]
    fn square(square: Square) -> Self {
        let (word, bit) = U256::word_and_bit(square);
        // Without a store to an indexed word: each word's bit is computed.
        let one = |i: usize| u64::from(word == i) << bit;
        U256 {
            words: [one(0), one(1), one(2), one(3)],
        }
    }
    #[inline(always)]
    fn has(self, square: Square) -> bool {
        let (word, bit) = U256::word_and_bit(square);
        (self.words[word] >> bit) & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        let a = self.words;
        (a[0] | a[1] | a[2] | a[3]) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        let a = self.words;
        a[0].count_ones() + a[1].count_ones() + a[2].count_ones() + a[3].count_ones()
    }
    #[inline(always)]
    fn lsb(self) -> Square {
        let a = self.words;
        let index = if a[0] != 0 {
            a[0].trailing_zeros()
        } else if a[1] != 0 {
            64 + a[1].trailing_zeros()
        } else if a[2] != 0 {
            128 + a[2].trailing_zeros()
        } else {
            192 + a[3].trailing_zeros()
        };
        Square::new(index as u8)
    }
    #[inline(always)]
    fn msb(self) -> Square {
        let a = self.words;
        let index = if a[3] != 0 {
            255 - a[3].leading_zeros()
        } else if a[2] != 0 {
            191 - a[2].leading_zeros()
        } else if a[1] != 0 {
            127 - a[1].leading_zeros()
        } else {
            63 - a[0].leading_zeros()
        };
        Square::new(index as u8)
    }
    #[inline(always)]
    fn lowest_bit(self) -> Self {
        let mut words = [0u64; WORDS];
        if let Some(word) = self.words.iter().position(|&w| w != 0) {
            words[word] = self.words[word] & self.words[word].wrapping_neg();
        }
        U256 { words }
    }
    #[inline(always)]
    fn wrapping_add(self, rhs: Self) -> Self {
        let mut words = [0u64; WORDS];
        let mut carry = false;
        for (i, word) in words.iter_mut().enumerate() {
            let (sum, first) = self.words[i].overflowing_add(rhs.words[i]);
            let (sum, second) = sum.overflowing_add(u64::from(carry));
            *word = sum;
            carry = first || second;
        }
        U256 { words }
    }
    #[inline(always)]
    fn ones_from(square: Square) -> Self {
        let index = square.index();
        let mut words = [0u64; WORDS];
        for (i, word) in words.iter_mut().enumerate() {
            let start = 64 * i;
            *word = if index <= start {
                u64::MAX
            } else if index < start + 64 {
                u64::MAX << (index - start)
            } else {
                0
            };
        }
        U256 { words }
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        let a = self.words;
        a[0] ^ a[1] ^ a[2] ^ a[3]
    }
    #[inline(always)]
    fn squares(self) -> U256Squares {
        U256Squares {
            words: self.words,
            word: 0,
            bits: self.words[0],
        }
    }
}

/// Iterator over the squares of a [`U256`], lowest first, a word at a
/// time: each step clears a bit of one scalar word, where popping the
/// lowest square of the set would write a word of it to memory and read
/// the whole set back into a vector register (a stalled load, square
/// after square: ExCoCo's games took 1.14x to 1.16x the CPU time a ply
/// that way on an AMD EPYC, bench/README.md).
#[derive(Clone, Copy, Debug)]
pub struct U256Squares {
    /// The set's words.
    words: [u64; WORDS],
    /// The word being iterated.
    word: usize,
    /// The squares of that word not yet returned.
    bits: u64,
}

impl Iterator for U256Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        while self.bits == 0 {
            if self.word + 1 == WORDS {
                return None;
            }
            self.word += 1;
            self.bits = self.words[self.word];
        }
        let bit = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(Square::new((64 * self.word as u32 + bit) as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(index: u8) -> Square {
        Square::new(index)
    }

    /// Checks the 256-bit type against a plain bit-array model.
    #[test]
    fn u256_matches_a_bit_array_model() {
        let squares = [0u8, 1, 63, 64, 65, 127, 128, 129, 191, 192, 200, 255];
        for &a in &squares {
            let bb = U256::square(sq(a));
            assert_eq!(bb.count(), 1);
            assert_eq!(bb.lsb(), sq(a));
            assert_eq!(bb.msb(), sq(a));
            assert!(bb.has(sq(a)));
            for shift in [0u32, 1, 5, 64, 127, 128, 130, 255] {
                let left = bb << shift;
                if u32::from(a) + shift < 256 {
                    assert_eq!(
                        left,
                        U256::square(sq((u32::from(a) + shift) as u8)),
                        "{a} << {shift}"
                    );
                } else {
                    assert!(left.is_empty());
                }
                let right = bb >> shift;
                if u32::from(a) >= shift {
                    assert_eq!(
                        right,
                        U256::square(sq((u32::from(a) - shift) as u8)),
                        "{a} >> {shift}"
                    );
                } else {
                    assert!(right.is_empty());
                }
            }
            let from = U256::ones_from(sq(a));
            assert_eq!(from.count(), 256 - u32::from(a));
            assert_eq!(from.lsb(), sq(a));
        }
        let two = U256::square(sq(127)) | U256::square(sq(200));
        assert_eq!(two.lsb(), sq(127));
        assert_eq!(two.msb(), sq(200));
        assert!(two.several());
        // 2^127 + 2^127 carries into bit 128.
        let carry = U256::square(sq(127)).wrapping_add(U256::square(sq(127)));
        assert_eq!(carry, U256::square(sq(128)));
        // A carry that runs through three words: squares 0 to 191 plus one.
        let below_192 = !U256::ones_from(sq(192));
        assert_eq!(below_192.count(), 192);
        assert_eq!(below_192.msb(), sq(191));
        assert_eq!(
            below_192.wrapping_add(U256::square(sq(0))),
            U256::square(sq(192))
        );
        assert_eq!(
            (U256::square(sq(64)) | U256::square(sq(200))).lowest_bit(),
            U256::square(sq(64))
        );
        assert_eq!(U256::EMPTY.lowest_bit(), U256::EMPTY);
        assert_eq!(
            U256::new(5, 9),
            U256::square(sq(0))
                | U256::square(sq(2))
                | U256::square(sq(128))
                | U256::square(sq(131))
        );
        let mut iter_set = two;
        assert_eq!(iter_set.pop_lsb(), sq(127));
        assert_eq!(iter_set, U256::square(sq(200)));
        assert_eq!(two.squares().collect::<Vec<_>>(), vec![sq(127), sq(200)]);
    }

    /// The word-at-a-time iterator against the plain bit array: sets of
    /// every density, with empty words at either end and between.
    #[test]
    fn u256_squares_match_a_bit_array_model() {
        let mut next_random = crate::board::test_random(0x9e37_79b9_7f4a_7c15);
        for round in 0..2000 {
            let mut model = [false; 256];
            let mut set = U256::EMPTY;
            let density = round % 9;
            // Each of the four words left empty by a bit of this mask.
            let empty_words = (round / 9) % 16;
            for (index, bit) in model.iter_mut().enumerate() {
                let word_empty = empty_words & (1 << (index / 64)) != 0;
                if !word_empty && next_random() % 8 < density {
                    *bit = true;
                    set |= U256::square(sq(index as u8));
                }
            }
            let expected: Vec<Square> = (0..=255u8)
                .filter(|&i| model[usize::from(i)])
                .map(sq)
                .collect();
            assert_eq!(set.squares().collect::<Vec<_>>(), expected, "round {round}");
            assert_eq!(set.count() as usize, expected.len());
            assert_eq!(set.several(), expected.len() > 1);
        }
    }

    #[test]
    fn u128_basics() {
        let set = <u128 as Bitboard>::square(sq(3)) | <u128 as Bitboard>::square(sq(100));
        assert_eq!(set.lsb(), sq(3));
        assert_eq!(set.msb(), sq(100));
        assert_eq!(Bitboard::count(set), 2);
        assert_eq!(set.lowest_bit(), 8);
        assert_eq!(<u128 as Bitboard>::ones_from(sq(120)).count_ones(), 8);
    }
}
