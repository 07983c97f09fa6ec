//! Fairy-Stockfish's square lists (`[Bitboard]` options of its
//! `variants.ini`: `*8` a whole rank, `d4 e4` squares, `-` none), and the
//! board sizes it writes as a number or a file letter (`maxFile = k`).

use std::collections::BTreeSet;

/// A set of squares as (file, rank), both from 0.
pub type Region = BTreeSet<(u8, u8)>;

/// Reads a square list on a `files` x `ranks` board.
pub fn parse_region(text: &str, files: u8, ranks: u8) -> Result<Region, String> {
    let mut region = Region::new();
    for word in text.split_whitespace() {
        if word == "-" {
            continue;
        }
        let mut chars = word.chars();
        let file_char = chars.next().unwrap_or('-');
        let rank: u8 = chars
            .as_str()
            .parse()
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| format!("'{word}' is not a square or a rank"))?;
        // Squares off the board are in no region, as on Fairy-Stockfish's
        // board (its default `*7` on a board of six ranks).
        if rank > ranks {
            continue;
        }
        match file_char {
            '*' => region.extend((0..files).map(|f| (f, rank - 1))),
            'a'..='z' => {
                if file_char as u8 - b'a' < files {
                    region.insert((file_char as u8 - b'a', rank - 1));
                }
            }
            _ => return Err(format!("'{word}' is not a square or a rank")),
        }
    }
    Ok(region)
}

/// The ranks (from 0) a region covers whole, if it is exactly whole ranks.
pub fn whole_ranks(region: &Region, files: u8) -> Option<BTreeSet<u8>> {
    let ranks: BTreeSet<u8> = region.iter().map(|&(_, r)| r).collect();
    let whole = ranks
        .iter()
        .all(|&r| (0..files).all(|f| region.contains(&(f, r))));
    whole.then_some(ranks)
}

/// Reads `maxFile`/`maxRank`: a number, or a file letter (`k` = 11).
pub fn parse_extent(text: &str) -> Option<u8> {
    let text = text.trim();
    if let Ok(number) = text.parse::<u8>() {
        return Some(number);
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(letter @ 'a'..='z'), None) => Some(letter as u8 - b'a' + 1),
        _ => None,
    }
}

/// Reads a file given as a letter or a number from 1.
pub fn parse_file(text: &str) -> Option<u8> {
    parse_extent(text).and_then(|f| f.checked_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_squares_read_as_fairy_stockfish_writes_them() {
        let region = parse_region("*2 *3", 11, 10).unwrap();
        assert_eq!(region.len(), 22);
        assert_eq!(whole_ranks(&region, 11), Some(BTreeSet::from([1, 2])));
        let squares = parse_region("d4 e4", 8, 8).unwrap();
        assert_eq!(squares, Region::from([(3, 3), (4, 3)]));
        assert_eq!(whole_ranks(&squares, 8), None);
        assert!(parse_region("*11", 8, 10).unwrap().is_empty());
        assert!(parse_region("x", 8, 10).is_err());
        assert_eq!(parse_extent("k"), Some(11));
        assert_eq!(parse_extent("10"), Some(10));
        assert_eq!(parse_file("g"), Some(6));
    }
}
