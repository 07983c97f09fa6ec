//! Who plays: tournament participants as given on the command line
//! (`--engine name=X,...`), either an in-process Kurier configuration or
//! an external UCI engine (any spec with `cmd=`), each with its search
//! limit.

use std::path::Path;

use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::variant::definition::Variant;
use serde::{Deserialize, Serialize};

use crate::players::clock::TimeControl;
use crate::players::seat::{PlayerSettings, SearchLimit, DEFAULT_HASH_MB};
use crate::players::uci_engine::EngineSpec;
use crate::util::files::fingerprint;
use crate::util::key_values::{key_values, parse_value};

/// A participant, as the run's settings record it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSpec {
    /// Name in the PGN and the reports (unique within a run).
    pub name: String,
    /// Search limit per move, or clock.
    pub limit: SearchLimit,
    /// What plays.
    pub engine: EngineChoice,
}

/// In-process or external.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineChoice {
    /// Kurier's own search, in this process.
    Kurier(KurierSpec),
    /// A UCI engine process.
    External(ExternalSpec),
}

/// An in-process Kurier configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KurierSpec {
    /// A piece values file (`data/values/<variant>.toml` format).
    pub values: Option<String>,
    /// A full evaluation parameter file.
    pub params: Option<String>,
    /// Every evaluation term but material switched off.
    pub material_only: bool,
    /// Selective search (null move, reductions) on.
    pub selective: bool,
    /// Search threads.
    pub threads: usize,
    /// Hash table in MiB.
    pub hash_mb: usize,
    /// A fingerprint of the evaluation weights in force, so that a resumed
    /// run notices an edited values or parameter file; set by
    /// [`PlayerSpec::kurier_settings`].
    pub weights_fingerprint: Option<String>,
}

/// An external engine: the spec text the external engine module parses
/// (`name=X,cmd=PATH,option.Hash=64,...`, without the limit keys).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalSpec {
    /// The spec text.
    pub spec: String,
}

/// Keys that set a search limit, for every kind of player.
const LIMIT_KEYS: [&str; 3] = ["nodes", "depth", "tc"];

impl PlayerSpec {
    /// Parses a `--engine` value. A spec with `cmd=` is an external UCI
    /// engine (its other keys go to the engine), any other is in-process
    /// Kurier with the keys `name`, `values=PATH`, `params=PATH`,
    /// `eval=default|material-only`, `selective=on|off`, `threads=N`,
    /// `hash=MB`. Both kinds take one of `nodes=N`, `depth=D`, `tc=B+I`
    /// (seconds), or else `default_limit`.
    ///
    /// ```
    /// use kurier_tuner::players::player_spec::{EngineChoice, PlayerSpec};
    /// use kurier_tuner::players::seat::SearchLimit;
    /// let spec = PlayerSpec::parse("name=rook,values=rook.toml,depth=6", None).unwrap();
    /// assert_eq!(spec.limit, SearchLimit::Depth(6));
    /// let external = PlayerSpec::parse("name=sf,cmd=/bin/sf,option.Hash=64", Some(SearchLimit::Nodes(500))).unwrap();
    /// assert!(matches!(external.engine, EngineChoice::External(_)));
    /// assert!(PlayerSpec::parse("name=x", None).is_err());
    /// ```
    pub fn parse(text: &str, default_limit: Option<SearchLimit>) -> Result<PlayerSpec, String> {
        let entries = key_values(text)?;
        let mut limit = None;
        for &(key, value) in entries.iter().filter(|(key, _)| LIMIT_KEYS.contains(key)) {
            if limit.is_some() {
                return Err(format!(
                    "--engine '{text}': give one of nodes=, depth=, tc= only"
                ));
            }
            limit = Some(match key {
                "nodes" => SearchLimit::Nodes(positive(key, value)?),
                "depth" => SearchLimit::Depth(positive(key, value)?),
                _ => SearchLimit::Clock(TimeControl::parse(value)?),
            });
        }
        let name = entries
            .iter()
            .find(|(key, _)| *key == "name")
            .map(|(_, value)| value.to_string());
        let (engine, default_name) = if entries.iter().any(|(key, _)| *key == "cmd") {
            let rest: Vec<String> = entries
                .iter()
                .filter(|(key, _)| !LIMIT_KEYS.contains(key))
                .map(|(key, value)| format!("{key}={value}"))
                .collect();
            let spec = rest.join(",");
            let parsed = EngineSpec::parse(&spec).map_err(|e| format!("--engine '{text}': {e}"))?;
            (EngineChoice::External(ExternalSpec { spec }), parsed.name)
        } else {
            let kurier = KurierSpec::parse(text, &entries)?;
            let default_name = kurier.default_name();
            (EngineChoice::Kurier(kurier), default_name)
        };
        let name = name.filter(|name| !name.is_empty()).unwrap_or(default_name);
        let limit = limit.or(default_limit).ok_or_else(|| {
            format!("--engine '{text}': no search limit (nodes=, depth= or tc=, here or as --nodes, --depth, --tc)")
        })?;
        Ok(PlayerSpec {
            name,
            limit,
            engine,
        })
    }

    /// The in-process settings of a Kurier player for `variant`, reading
    /// its values or parameter file, and its spec with the weights'
    /// fingerprint filled in; `None` for an external engine.
    pub fn kurier_settings(
        &self,
        variant: &Variant,
    ) -> Result<Option<(PlayerSettings, PlayerSpec)>, String> {
        let EngineChoice::Kurier(kurier) = &self.engine else {
            return Ok(None);
        };
        let mut params = match (&kurier.values, &kurier.params) {
            (Some(path), None) => {
                EvalParams::from_values_file(variant, Path::new(path)).map_err(|e| e.to_string())?
            }
            (None, Some(path)) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{path}: cannot read it: {e}"))?;
                EvalParams::from_toml(variant, &text, path).map_err(|e| e.to_string())?
            }
            _ => EvalParams::for_variant(variant).map_err(|e| e.to_string())?,
        };
        if kurier.material_only {
            params = params.material_only();
        }
        let mut spec = self.clone();
        if let EngineChoice::Kurier(recorded) = &mut spec.engine {
            recorded.weights_fingerprint = Some(fingerprint(&params.to_toml()));
        }
        let settings = PlayerSettings {
            selective: kurier.selective,
            threads: kurier.threads,
            hash_mb: kurier.hash_mb,
            ..PlayerSettings::new(&self.name, params, self.limit)
        };
        Ok(Some((settings, spec)))
    }
}

impl KurierSpec {
    fn parse(text: &str, entries: &[(&str, &str)]) -> Result<KurierSpec, String> {
        let mut spec = KurierSpec {
            values: None,
            params: None,
            material_only: false,
            selective: true,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            weights_fingerprint: None,
        };
        for &(key, value) in entries {
            match key {
                "name" | "nodes" | "depth" | "tc" => {}
                "values" => spec.values = Some(value.to_string()),
                "params" => spec.params = Some(value.to_string()),
                "eval" => {
                    spec.material_only = match value {
                        "default" => false,
                        "material-only" => true,
                        _ => {
                            return Err(format!(
                                "--engine '{text}': eval={value}: use default or material-only"
                            ))
                        }
                    }
                }
                "selective" => {
                    spec.selective = match value {
                        "on" => true,
                        "off" => false,
                        _ => {
                            return Err(format!(
                                "--engine '{text}': selective={value}: use on or off"
                            ))
                        }
                    }
                }
                "threads" => spec.threads = positive(key, value)?,
                "hash" => spec.hash_mb = positive(key, value)?,
                _ => {
                    return Err(format!(
                        "--engine '{text}': unknown key '{key}' for an in-process player \
                         (name, values, params, eval, selective, threads, hash, nodes, depth, tc; \
                         an external engine needs cmd=)"
                    ))
                }
            }
        }
        if spec.values.is_some() && spec.params.is_some() {
            return Err(format!(
                "--engine '{text}': give values= or params=, not both"
            ));
        }
        Ok(spec)
    }

    /// A name from the files or switches: the file's stem, else
    /// `default`, `material-only` or `no-selective`.
    fn default_name(&self) -> String {
        let stem = |path: &String| {
            Path::new(path)
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.clone())
        };
        match (&self.values, &self.params) {
            (Some(path), _) | (_, Some(path)) => stem(path),
            _ if self.material_only => "material-only".to_string(),
            _ if !self.selective => "no-selective".to_string(),
            _ => "default".to_string(),
        }
    }
}

/// A positive integer setting.
fn positive<T: std::str::FromStr + PartialOrd + Default>(
    key: &str,
    value: &str,
) -> Result<T, String> {
    let number: T = parse_value(key, value)?;
    if number > T::default() {
        Ok(number)
    } else {
        Err(format!("{key}={value}: must be positive"))
    }
}

/// Checks that no two players share a name (the PGN and reports name them).
pub fn check_unique_names(players: &[PlayerSpec]) -> Result<(), String> {
    for (index, player) in players.iter().enumerate() {
        if players[..index].iter().any(|p| p.name == player.name) {
            return Err(format!(
                "two players are named '{}': give each --engine its own name=",
                player.name
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_process_specs_take_their_keys() {
        let spec = PlayerSpec::parse(
            "name=fast,eval=material-only,selective=off,threads=2,hash=8,tc=5+0.05",
            None,
        )
        .unwrap();
        assert_eq!(spec.name, "fast");
        assert_eq!(
            spec.limit,
            SearchLimit::Clock(TimeControl {
                base_ms: 5000,
                increment_ms: 50
            })
        );
        let EngineChoice::Kurier(kurier) = spec.engine else {
            panic!("an in-process spec")
        };
        assert!(kurier.material_only && !kurier.selective);
        assert_eq!((kurier.threads, kurier.hash_mb), (2, 8));
        let named = PlayerSpec::parse(
            "values=data/x/strong-rook.toml",
            Some(SearchLimit::Nodes(9)),
        )
        .unwrap();
        assert_eq!(named.name, "strong-rook");
        assert_eq!(named.limit, SearchLimit::Nodes(9));
    }

    #[test]
    fn external_specs_keep_their_own_keys() {
        let spec = PlayerSpec::parse("name=sf,cmd=./sf,nodes=100,option.Hash=64", None).unwrap();
        assert_eq!(spec.limit, SearchLimit::Nodes(100));
        assert_eq!(
            spec.engine,
            EngineChoice::External(ExternalSpec {
                spec: "name=sf,cmd=./sf,option.Hash=64".to_string()
            })
        );
        // Without name= the command's file name names the engine.
        assert_eq!(
            PlayerSpec::parse("cmd=/opt/sf,nodes=5", None).unwrap().name,
            "sf"
        );
        assert!(PlayerSpec::parse("name=sf,cmd=./sf,nodes=5,colour=red", None).is_err());
    }

    #[test]
    fn bad_specs_are_refused_with_the_reason() {
        for (text, part) in [
            ("name=a,nodes=0", "positive"),
            ("name=a,nodes=5,depth=3", "one of"),
            ("name=a,colour=red,nodes=5", "unknown key 'colour'"),
            ("name=a,values=x,params=y,nodes=5", "not both"),
            ("name=a,eval=fancy,nodes=5", "eval=fancy"),
            ("name=a,tc=soon", "not a number"),
        ] {
            let error = PlayerSpec::parse(text, None).unwrap_err();
            assert!(error.contains(part), "{text}: {error}");
        }
        let twins = [
            PlayerSpec::parse("name=a,nodes=5", None).unwrap(),
            PlayerSpec::parse("name=a,depth=2", None).unwrap(),
        ];
        assert!(check_unique_names(&twins).is_err());
    }
}
