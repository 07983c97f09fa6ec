//! Validation matches for a report: the SPRT summaries of matches that play
//! the measured values against the engine's, read from their `summary.json`.

use crate::tournament::summary::decision_text;
use serde_json::Value;

/// A validation match read from its `summary.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Validation {
    /// Its name in the report.
    pub name: String,
    /// The summary's text line for its encounter, and its SPRT line.
    pub lines: Vec<String>,
}

impl Validation {
    /// Reads `NAME=PATH` (a match's `summary.json`).
    pub fn read(text: &str) -> Result<Validation, String> {
        let (name, path) = text
            .split_once('=')
            .ok_or_else(|| format!("--validation '{text}': use NAME=PATH/summary.json"))?;
        let json = std::fs::read_to_string(path)
            .map_err(|e| format!("--validation {path}: cannot read it: {e}"))?;
        let summary: Value = serde_json::from_str(&json)
            .map_err(|e| format!("--validation {path}: not a match summary: {e}"))?;
        let encounter = summary["encounters"]
            .get(0)
            .ok_or_else(|| format!("--validation {path}: no encounter in the summary"))?;
        let players: Vec<String> = summary["settings"]["players"]
            .as_array()
            .map(|players| {
                players
                    .iter()
                    .map(|p| {
                        format!(
                            "{} ({})",
                            p["name"].as_str().unwrap_or("?"),
                            limit_text(&p["limit"])
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut lines = vec![format!("players: {}", players.join(" vs "))];
        let elo = &encounter["elo"];
        lines.push(format!(
            "{} vs {}: W/D/L {}/{}/{}, Elo {:+.1} [{:+.1}, {:+.1}], pairs {}",
            encounter["first"].as_str().unwrap_or("?"),
            encounter["second"].as_str().unwrap_or("?"),
            encounter["wins"],
            encounter["draws"],
            encounter["losses"],
            elo["elo"].as_f64().unwrap_or(f64::NAN),
            elo["low"].as_f64().unwrap_or(f64::NAN),
            elo["high"].as_f64().unwrap_or(f64::NAN),
            encounter["pentanomial"]
        ));
        if let Some(sprt) = summary["sprt"].as_object() {
            lines.push(format!(
                "SPRT [{}, {}]: LLR {:.2} (bounds {:.2}, {:.2}), {}",
                sprt["elo0"],
                sprt["elo1"],
                sprt["llr"].as_f64().unwrap_or(f64::NAN),
                sprt["lower"].as_f64().unwrap_or(f64::NAN),
                sprt["upper"].as_f64().unwrap_or(f64::NAN),
                decision_text(sprt["decision"].as_str().unwrap_or("?"))
            ));
            lines.push(format!(
                "{} of {} games played, status {}",
                summary["games"]["played"],
                summary["games"]["scheduled"],
                summary["status"].as_str().unwrap_or("?")
            ));
        }
        Ok(Validation {
            name: name.to_string(),
            lines,
        })
    }
}

/// A match's search limit as the report shows it.
fn limit_text(limit: &Value) -> String {
    if let Some(nodes) = limit.get("nodes") {
        format!("{nodes} nodes")
    } else if let Some(depth) = limit.get("depth") {
        format!("depth {depth}")
    } else if let Some(clock) = limit.get("clock") {
        format!(
            "{}+{} s",
            clock["base_ms"].as_f64().unwrap_or(0.0) / 1000.0,
            clock["increment_ms"].as_f64().unwrap_or(0.0) / 1000.0
        )
    } else {
        limit.to_string()
    }
}
