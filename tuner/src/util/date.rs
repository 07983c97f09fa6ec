//! Calendar dates for the records (PGN's `Date` tag, run headers).

use std::time::{SystemTime, UNIX_EPOCH};

/// The UTC calendar date of `time` as PGN writes it, `YYYY.MM.DD`.
pub fn utc_date(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map(|since| since.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_utc_calendar_days() {
        let at = |seconds: u64| utc_date(UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970.01.01");
        // 2000-02-29 is day 11016 (30 years of 365 days + 7 leap days,
        // then 31 + 28 days): 11016 * 86400 = 951782400.
        assert_eq!(at(951_782_400), "2000.02.29");
        assert_eq!(at(951_782_400 + 86_400), "2000.03.01");
        // 2024-12-31 23:59:59 is 1735689599 (date -u -d @1735689599).
        assert_eq!(at(1_735_689_599), "2024.12.31");
        assert_eq!(at(1_735_689_600), "2025.01.01");
    }
}
