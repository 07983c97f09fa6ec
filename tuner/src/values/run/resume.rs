//! Resuming a run and building on a merged one: the journal's header must be
//! the run's own, or a run's that this one may go on from (the same run
//! with budgets added after its own).

use std::path::Path;

use crate::records::line_journal::{read_lines, LineJournal};
use crate::util::json_diff::json_differences;
use crate::values::design::{DESIGN_VERSION, PLANNED_DESIGNS};
use crate::values::design_game::DesignGame;
use crate::values::run::settings::journal_path;
use crate::values::run::settings::RunHeader;
use crate::values::run::settings::VALUES_MARK;
use crate::values::SIGNATURE_DEPTH;

/// The version of the design the run in `path` (or, for a shard that
/// has not started, in the merged `base` it builds on) plans by: the
/// recorded one when this build plans that version
/// ([`PLANNED_DESIGNS`]), so that a run goes on as it started; for a new
/// run, or one of a version this build does not plan (which
/// [`check_same_run`] then refuses), [`DESIGN_VERSION`].
pub(super) fn design_version(path: &Path, base: Option<&Path>) -> Result<u32, String> {
    let recorded = if path.exists() {
        Some(path.to_path_buf())
    } else {
        base.map(journal_path).filter(|p| p.exists())
    };
    let Some(recorded) = recorded else {
        return Ok(DESIGN_VERSION);
    };
    let version = read_lines::<RunHeader, DesignGame>(&recorded, VALUES_MARK)?
        .settings
        .design;
    Ok(if PLANNED_DESIGNS.contains(&version) {
        version
    } else {
        DESIGN_VERSION
    })
}

/// Opens the run's journal: a new one headed by `header`, or the
/// existing one, whose header must agree.
pub(super) fn open_journal(
    path: &Path,
    header: &RunHeader,
) -> Result<(LineJournal, Vec<DesignGame>), String> {
    if !path.exists() {
        return Ok((LineJournal::create(path, VALUES_MARK, header)?, Vec::new()));
    }
    let contents = read_lines::<RunHeader, DesignGame>(path, VALUES_MARK)?;
    if let Some(grown) = with_added_budgets(&contents.settings, header, false) {
        let added = &header.settings.budgets[contents.settings.settings.budgets.len()..];
        eprintln!(
            "adding {} nodes per move to the run in {}: its {} games stay",
            added
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            path.display(),
            contents.entries.len()
        );
        let journal = LineJournal::rehead(path, VALUES_MARK, &grown, contents.complete_bytes)?;
        return Ok((journal, contents.entries));
    }
    check_same_run(&contents.settings, header, path, false)?;
    eprintln!("resuming the run in {}", path.display());
    let journal = LineJournal::reopen(path, contents.complete_bytes)?;
    Ok((journal, contents.entries))
}

/// The recorded run with the budgets of `header` when these only add
/// budgets after the recorded ones (`--nodes 4000` then `--nodes
/// 4000,16000`) and nothing else differs: a run grows by a budget, and
/// the games played keep theirs. `None` otherwise.
fn with_added_budgets(
    recorded: &RunHeader,
    header: &RunHeader,
    any_shard: bool,
) -> Option<RunHeader> {
    let (played, wanted) = (&recorded.settings.budgets, &header.settings.budgets);
    if wanted.len() <= played.len() || !wanted.starts_with(played) {
        return None;
    }
    let mut grown = recorded.clone();
    grown.settings.budgets.clone_from(wanted);
    check_same_run(&grown, header, Path::new(""), any_shard).ok()?;
    Some(grown)
}

/// Checks that the run recorded at `source` (`recorded`) is the run of
/// `header`: the same variant, the same settings (but the shard, when
/// `any_shard`), the same search.
pub(super) fn check_same_run(
    recorded: &RunHeader,
    header: &RunHeader,
    source: &Path,
    any_shard: bool,
) -> Result<(), String> {
    let (mine, theirs) = if any_shard {
        (header.settings.unsharded(), recorded.settings.unsharded())
    } else {
        (header.settings.clone(), recorded.settings.clone())
    };
    if recorded.settings.variant != header.settings.variant {
        return Err(format!(
            "{} holds a run of {}, not of {}: use another --out folder",
            source.display(),
            recorded.settings.variant,
            header.settings.variant
        ));
    }
    let differences = json_differences(&theirs, &mine);
    if !differences.is_empty() {
        return Err(format!(
            "{} holds a run with other settings (recorded vs given: {}); use another --out folder \
             or the same settings",
            source.display(),
            differences.join("; ")
        ));
    }
    if recorded.search_signature != header.search_signature {
        return Err(format!(
            "{} holds a run played by an engine that searches differently (engine {}, bench \
             signature {} at depth {SIGNATURE_DEPTH}; this build: {}): its games would mix with \
             this build's; use the build that started it, or another --out folder",
            source.display(),
            recorded.engine_version,
            recorded.search_signature,
            header.search_signature
        ));
    }
    if recorded.weights_fingerprint != header.weights_fingerprint {
        return Err(format!(
            "{} holds a run played with other evaluation weights (engine {}, weights {}; this \
             build: {}): its games would mix with this build's; use the build that started it, \
             or another --out folder",
            source.display(),
            recorded.engine_version,
            recorded
                .weights_fingerprint
                .as_deref()
                .unwrap_or("not recorded"),
            header
                .weights_fingerprint
                .as_deref()
                .unwrap_or("not recorded")
        ));
    }
    if recorded.design != 0 && recorded.design != header.design {
        return Err(format!(
            "{} holds a run whose batches another version of the design planned (design {}; \
             this build: {}): its next batches would not follow from its games as planned; use \
             the build that started it, or another --out folder",
            source.display(),
            recorded.design,
            header.design
        ));
    }
    Ok(())
}

/// The games of a merged base folder of the same run.
pub(super) fn read_base(base: &Path, header: &RunHeader) -> Result<Vec<DesignGame>, String> {
    let path = journal_path(base);
    let contents = read_lines::<RunHeader, DesignGame>(&path, VALUES_MARK)?;
    if contents.settings.settings.shard.is_some() {
        return Err(format!(
            "--base {}: a shard's folder; give the folder that `kurier-tune merge` wrote",
            base.display()
        ));
    }
    // A base of the run before it grew by a budget holds the games of
    // the budgets it had.
    if with_added_budgets(&contents.settings, header, true).is_none() {
        check_same_run(&contents.settings, header, &path, true)?;
    }
    Ok(contents.entries)
}
