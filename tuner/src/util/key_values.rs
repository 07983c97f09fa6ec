//! Comma-separated `key=value` lists, the form of command-line settings
//! such as `--engine name=x,nodes=2000` and `--draw movenumber=40,...`.

/// The `key=value` entries of `text`, in order; an entry without `=` or
/// with an empty key is an error naming it.
///
/// ```
/// use kurier_tuner::util::key_values::key_values;
/// assert_eq!(key_values("a=1,b=x=y").unwrap(), vec![("a", "1"), ("b", "x=y")]);
/// assert!(key_values("a=1,oops").is_err());
/// ```
pub fn key_values(text: &str) -> Result<Vec<(&str, &str)>, String> {
    text.split(',')
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| match entry.split_once('=') {
            Some((key, value)) if !key.trim().is_empty() => Ok((key.trim(), value.trim())),
            _ => Err(format!("'{entry}' in '{text}' is not key=value")),
        })
        .collect()
}

/// Parses `value`, the value of `key`, or says which key was wrong.
pub fn parse_value<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{key}={value}: '{value}' is not a valid {key}"))
}
