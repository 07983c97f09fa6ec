//! The fields in which two values differ, as their JSON shows them: what a
//! resumed run or a merge reports when its settings are not the recorded ones.

use serde::Serialize;
use serde_json::Value;

/// The differences between two records of settings, one `key: this vs
/// other` line per differing top-level field; empty when they agree.
pub fn json_differences<T: Serialize>(this: &T, other: &T) -> Vec<String> {
    let as_object = |value: &T| match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => unreachable!("settings serialize as objects"),
    };
    let (mine, theirs) = (as_object(this), as_object(other));
    let mut keys: Vec<&String> = mine.keys().chain(theirs.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|key| mine.get(*key) != theirs.get(*key))
        .map(|key| {
            let show = |v: Option<&Value>| v.cloned().unwrap_or(Value::Null);
            format!(
                "{key}: {} vs {}",
                show(mine.get(key)),
                show(theirs.get(key))
            )
        })
        .collect()
}
