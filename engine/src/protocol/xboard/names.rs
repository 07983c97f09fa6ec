//! Variant names as XBoard 4.9 reads them, and the names Kurier offers
//! XBoard so that every variant can be had as Kurier plays it.
//!
//! XBoard takes a variant name for one of its own games when the name
//! (case-insensitive) contains one of its older names (`wildcastle` ...
//! `shatranj`, `wild29` ... `wild36`) anywhere, begins with one of its
//! newer names (`shogi` ... `elven`) not followed by a letter, names
//! Fischer random chess (`frc`, `960`, `fischer` with `random`), or has
//! an ICC wild number (`wild` or `w`, then a number) of a game other
//! than plain chess. Such a game is
//! XBoard's: its board, pieces and start position are XBoard's, and with
//! legality testing on it ignores the engine's `setup` and `piece`
//! commands. So `courier` and `courier-moderno` both become XBoard's
//! courier (its own start array, without the four forced moves of
//! Kurier's courier). Any other name is an engine-defined variant, which
//! XBoard sets up from the engine's `setup` and `piece` commands and
//! offers in its New Variant dialog.
//!
//! Kurier therefore offers each variant whose name XBoard takes for its
//! own under a second name as well, `kurier-NAME` (`kurier-courier`,
//! `kurier-courier-moderno`), and keeps the first name for the other
//! clients of the protocol (cutechess-cli's `courier` is Kurier's).

/// XBoard's variant names matched anywhere in a name.
const MATCHED_ANYWHERE: [&str; 21] = [
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "wild29",
    "wild30",
    "wild31",
    "wild32",
    "wild33",
    "wild34",
    "wild35",
    "wild36",
];

/// XBoard's variant names matched at the start of a name, when no letter
/// follows.
const MATCHED_AT_START: [&str; 24] = [
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
    "unknown",
];

/// The prefix of the second name of a variant XBoard takes for its own.
const ALIAS_PREFIX: &str = "kurier-";

/// Whether XBoard 4.9 reads `name` as one of its own variants rather than
/// as an engine-defined one (`normal`, FIDE chess, is XBoard's too, but
/// is not asked about here).
pub fn xboard_takes_as_its_own(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    if MATCHED_ANYWHERE.iter().any(|own| name.contains(own)) {
        return true;
    }
    let at_start = |own: &str| {
        name.strip_prefix(own)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphabetic()))
    };
    if MATCHED_AT_START.iter().any(|own| at_start(own)) {
        return true;
    }
    let fischer_random = name.contains("fischer") && name.contains("random");
    if fischer_random || name.contains("wild/fr") || name.contains("frc") || name.contains("960") {
        return true;
    }
    // An ICC wild number: the first `wild`, else the first `w`, then
    // spaces, `(` or `/`, then a digit.
    let after_w = match name.find("wild") {
        Some(at) => &name[at + 4..],
        None => match name.find('w') {
            Some(at) => &name[at + 1..],
            None => return false,
        },
    };
    let digits: String = after_w
        .trim_start_matches([' ', '(', '/'])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    // No number, or one of the wild numbers that are plain chess to
    // XBoard: the name is engine-defined after all.
    match digits.parse::<u64>() {
        Ok(number) => !matches!(number, 5 | 7 | 8 | 10..=15 | 18 | 19),
        Err(_) => false,
    }
}

/// The second name under which XBoard can have the variant `name`, if
/// XBoard takes `name` for one of its own games.
pub fn xboard_alias(name: &str) -> Option<String> {
    let alias = format!("{ALIAS_PREFIX}{name}");
    (xboard_takes_as_its_own(name) && !xboard_takes_as_its_own(&alias)).then_some(alias)
}

/// The variant `name` stands for among `known` (Kurier's variant names):
/// the name itself, or the variant whose XBoard alias it is.
pub fn resolve<'a>(name: &'a str, known: &'a [String]) -> &'a str {
    known
        .iter()
        .find(|variant| xboard_alias(variant).as_deref() == Some(name))
        .map_or(name, String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each expectation follows XBoard 4.9.1's StringToVariant by hand.
    #[test]
    fn names_xboard_takes_for_its_own() {
        for own in [
            "courier",
            "Courier",
            "courier-moderno",
            "courier_moderno",
            "courier2",
            "shatranj",
            "my-shatranj",
            "super-chess",
            "chess960",
            "frc-courier",
            "fischer-random",
            "w3",
            "wild (3)",
            "wild/22",
            "lion",
        ] {
            assert!(xboard_takes_as_its_own(own), "{own}");
        }
        for engine_defined in [
            "enhanced-courier",
            "excoco",
            "couriermoderno",
            "kurier-courier",
            "kurier-courier-moderno",
            "superchess",
            "lions",
            "wazir-chess",
            "wild",
            "w5",
            "wild 19",
            "normal-ish",
        ] {
            assert!(!xboard_takes_as_its_own(engine_defined), "{engine_defined}");
        }
    }

    #[test]
    fn aliases_and_their_resolution() {
        assert_eq!(xboard_alias("courier").as_deref(), Some("kurier-courier"));
        assert_eq!(
            xboard_alias("courier-moderno").as_deref(),
            Some("kurier-courier-moderno")
        );
        assert_eq!(xboard_alias("enhanced-courier"), None);
        assert_eq!(xboard_alias("excoco"), None);
        // An alias that XBoard would take for its own too is no help.
        assert_eq!(xboard_alias("shatranj"), None);
        let known: Vec<String> = ["courier", "courier-moderno", "excoco"]
            .map(String::from)
            .to_vec();
        assert_eq!(resolve("kurier-courier", &known), "courier");
        assert_eq!(resolve("kurier-courier-moderno", &known), "courier-moderno");
        assert_eq!(resolve("courier", &known), "courier");
        assert_eq!(resolve("excoco", &known), "excoco");
        assert_eq!(resolve("kurier-excoco", &known), "kurier-excoco");
    }
}
