//! The arguments of `kurier-tune texel` and what the command does with
//! them: the fit itself is [`crate::texel::tune`].

use std::path::PathBuf;

use clap::Args;

use crate::records::variant_source::VariantArgs;
use crate::texel::scored_positions::parse_scored;
use crate::texel::tune::{fit_games, fit_scored, read_games, starting_params, PositionChoice};

/// `kurier-tune texel`: fit every evaluation weight to recorded games.
#[derive(Args, Debug, Clone)]
pub struct TexelArgs {
    /// The game.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Tournament journals (`journal.jsonl`) or run folders holding one;
    /// games of other variants are skipped.
    #[arg(required_unless_present = "scored", conflicts_with = "scored")]
    pub games: Vec<PathBuf>,
    /// Scored positions (`kurier-tune label`'s files) to fit to instead
    /// of games (repeatable).
    #[arg(long)]
    pub scored: Vec<PathBuf>,
    /// With --scored: the weight of the game result in each target, 0
    /// (the score alone) to 1 (the result alone).
    #[arg(long, default_value_t = 0.0)]
    pub result_weight: f64,
    /// The starting weights, a parameter file (`EvalFile` format);
    /// default: the engine's default parameters of the variant.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Which positions of each game.
    #[command(flatten)]
    pub choice: PositionChoice,
    /// L2 pull toward the starting weights, per squared centipawn.
    #[arg(long, default_value_t = 0.0005)]
    pub l2: f64,
    /// Where to write the fitted parameters.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `kurier-tune texel`.
pub fn texel_command(args: &TexelArgs) -> Result<(), String> {
    let (variant, _) = args.variant.load()?;
    let start = starting_params(&variant, args.params.as_deref())?;
    let summary = if args.scored.is_empty() {
        let games = read_games(&variant, &args.games)?;
        fit_games(&variant, &start, &games, &args.choice, args.l2)?
    } else {
        if !(0.0..=1.0).contains(&args.result_weight) {
            return Err(format!(
                "--result-weight {}: must be between 0 and 1",
                args.result_weight
            ));
        }
        let mut scored = Vec::new();
        for path in &args.scored {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
            scored.extend(parse_scored(&text, &path.display().to_string())?);
        }
        fit_scored(
            &variant,
            &start,
            &scored,
            &args.choice,
            args.l2,
            args.result_weight,
        )?
    };
    std::fs::write(&args.out, summary.params.to_toml())
        .map_err(|e| format!("{}: cannot write it: {e}", args.out.display()))?;
    let scores = summary
        .score_scale
        .map(|k| {
            format!(
                ", the scores' {k:.5} per cp (result weight {})",
                args.result_weight
            )
        })
        .unwrap_or_default();
    println!(
        "{}: {} positions of {} {}, scale {:.5} per cp{scores}; mean loss {:.5} -> {:.5} \
         (the targets' own entropy {:.5}); parameters written to {}",
        variant.name,
        summary.positions,
        summary.games,
        if summary.score_scale.is_some() {
            "scored positions"
        } else {
            "games"
        },
        summary.scale,
        summary.loss_before,
        summary.loss_after,
        summary.target_entropy,
        args.out.display()
    );
    Ok(())
}
