//! The positions dataset: quiet positions from self-play games with the
//! result of their game, in a compact binary file that reads back in one
//! pass.
//!
//! File layout (all integers little-endian, every record a `bytemuck::Pod`
//! struct copied as its bytes):
//!
//! ```text
//! DatasetHeader                      64 bytes, once
//! then blocks, each:
//!   BlockHeader                      28 bytes
//!   PositionRecord x records         32 bytes each
//!   FeatureEntry   x features         4 bytes each
//! ```
//!
//! A block holds the positions of the next `games` games of the file (a
//! whole run's games in order, or a shard's: games `g` with `g % N == k -
//! 1` for shard `k/N`), and the CPU time they took; its `features` entries are the
//! sparse evaluation terms of its records, in record order, each record
//! owning `feature_count` of them. Generation appends one block per batch
//! of finished games, so a run that is killed keeps every finished block:
//! [`DatasetWriter::resume`] drops an unfinished last block and carries
//! on. Each block carries a checksum of its body; [`Dataset::read`]
//! refuses a file whose blocks do not add up (truncated or corrupt) and
//! says where.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bytemuck::{Pod, Zeroable};
use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::{Accumulator, Evaluator};
use kurier_engine::position::rules::GameResult;
use kurier_engine::position::state::Position;
use kurier_engine::types::Color;

use crate::positions::square_colours::has_pair;

/// The most piece types a variant may have (the engine's limit).
pub const MAX_TYPES: usize = kurier_engine::variant::definition::MAX_PIECE_TYPES;

const FILE_MAGIC: [u8; 8] = *b"KURIERDS";
const BLOCK_MAGIC: u32 = u32::from_le_bytes(*b"BLK1");
/// The format version this code writes and reads.
pub const FORMAT_VERSION: u32 = 2;

/// The file header: what the file holds and how it was made.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct DatasetHeader {
    magic: [u8; 8],
    /// Format version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// Piece types of the variant (at most [`MAX_TYPES`]).
    pub piece_types: u32,
    /// The variant's name, UTF-8, zero-padded.
    variant: [u8; 24],
    /// Seed of the games' openings.
    pub seed: u64,
    /// Nodes per move of both players.
    pub nodes: u32,
    /// Plies from the start skipped before positions are taken.
    pub skip_plies: u16,
    /// Positions taken at most from each game.
    pub per_game: u16,
    /// Evaluation weights of the variant (the length of the feature index
    /// space of [`FeatureEntry`]).
    pub eval_weights: u32,
    /// The shard of the run this file holds, from 1 (0: the whole run).
    pub shard_index: u16,
    /// How many shards the run has (0: the whole run).
    pub shard_count: u16,
}

/// Header of one block of games.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
struct BlockHeader {
    magic: u32,
    first_game: u32,
    games: u32,
    records: u32,
    features: u32,
    /// CPU time of the block's games, milliseconds.
    cpu_ms: u32,
    /// FNV-1a hash of the block's body (records and features).
    checksum: u32,
}

/// One quiet position and the result of its game.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct PositionRecord {
    /// Per piece type: White's count minus Black's.
    pub material: [i8; MAX_TYPES],
    /// The game's number within the dataset (for resampling by game).
    pub game: u32,
    /// The game phase, 0 (pawns and kings only) to 256 (all pieces), as
    /// the evaluation of the generating engine computed it.
    pub phase: u16,
    /// The game's result from White's point of view: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// 1 if White is to move, 0 if Black is.
    pub white_to_move: u8,
    /// How many [`FeatureEntry`] values belong to this position.
    pub feature_count: u16,
    /// Plies from the start of the game (opening included).
    pub ply: u16,
    /// Per colour (White, Black), bit `t` set when that side has men of
    /// type `t` on both square colours (see `features::has_pair`).
    pub pairs: [u16; 2],
}

impl PositionRecord {
    /// The game's score for White: 0, 0.5 or 1.
    pub fn white_score(&self) -> f64 {
        f64::from(self.result) / 2.0
    }
}

/// One evaluation term of a position: weight `index` (in the engine's
/// `EvalParams::weights` order) counted `count` times, White minus Black.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct FeatureEntry {
    /// The weight's index.
    pub index: u16,
    /// Its count, White minus Black.
    pub count: i16,
}

/// What is wrong with a dataset file.
#[derive(Debug)]
pub struct DatasetError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, and where.
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for DatasetError {}

/// How a dataset was made; stored in its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetInfo {
    /// The variant's name (at most 24 bytes).
    pub variant: String,
    /// Piece types of the variant.
    pub piece_types: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Nodes per move.
    pub nodes: u32,
    /// Plies skipped at the start of each game.
    pub skip_plies: u16,
    /// Positions taken at most per game.
    pub per_game: u16,
    /// Evaluation weights of the variant.
    pub eval_weights: u32,
    /// The shard the file holds (`None`: the whole run).
    pub shard: Option<crate::util::shard::Shard>,
}

impl DatasetInfo {
    fn header(&self) -> Result<DatasetHeader, String> {
        let name = self.variant.as_bytes();
        let mut variant = [0u8; 24];
        if name.len() > variant.len() || self.piece_types > MAX_TYPES {
            return Err(format!(
                "variant '{}' with {} piece types does not fit the header (24 bytes, {MAX_TYPES} types)",
                self.variant, self.piece_types
            ));
        }
        variant[..name.len()].copy_from_slice(name);
        Ok(DatasetHeader {
            magic: FILE_MAGIC,
            version: FORMAT_VERSION,
            piece_types: self.piece_types as u32,
            variant,
            seed: self.seed,
            nodes: self.nodes,
            skip_plies: self.skip_plies,
            per_game: self.per_game,
            eval_weights: self.eval_weights,
            shard_index: self.shard.map_or(0, |s| s.index as u16),
            shard_count: self.shard.map_or(0, |s| s.count as u16),
        })
    }

    fn from_header(header: &DatasetHeader) -> Result<DatasetInfo, String> {
        if header.magic != FILE_MAGIC {
            return Err("not a Kurier positions dataset (bad magic bytes)".to_string());
        }
        if header.version != FORMAT_VERSION {
            return Err(format!(
                "format version {} (this program reads version {FORMAT_VERSION})",
                header.version
            ));
        }
        let length = header.variant.iter().position(|&b| b == 0).unwrap_or(24);
        let variant = std::str::from_utf8(&header.variant[..length])
            .map_err(|_| "the header's variant name is not UTF-8".to_string())?;
        if header.piece_types as usize > MAX_TYPES {
            return Err(format!(
                "the header claims {} piece types (at most {MAX_TYPES})",
                header.piece_types
            ));
        }
        Ok(DatasetInfo {
            variant: variant.to_string(),
            piece_types: header.piece_types as usize,
            seed: header.seed,
            nodes: header.nodes,
            skip_plies: header.skip_plies,
            per_game: header.per_game,
            eval_weights: header.eval_weights,
            shard: (header.shard_count > 0).then_some(crate::util::shard::Shard {
                index: usize::from(header.shard_index),
                count: usize::from(header.shard_count),
            }),
        })
    }
}

/// The positions of one game, ready to be written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamePositions {
    /// The positions.
    pub records: Vec<PositionRecord>,
    /// Their features, in record order.
    pub features: Vec<FeatureEntry>,
}

/// A dataset read into memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dataset {
    /// How it was made.
    pub info: DatasetInfo,
    /// The positions.
    pub records: Vec<PositionRecord>,
    /// All features, record after record.
    pub features: Vec<FeatureEntry>,
    /// Games covered (including games that gave no position).
    pub games: u32,
    /// CPU time of those games, milliseconds.
    pub cpu_ms: u64,
    /// `offsets[i]..offsets[i + 1]` are record `i`'s features.
    offsets: Vec<usize>,
}

impl Dataset {
    /// A dataset from records in memory (for synthetic data); every
    /// record's `feature_count` must match `features`.
    pub fn from_parts(
        info: DatasetInfo,
        records: Vec<PositionRecord>,
        features: Vec<FeatureEntry>,
        games: u32,
    ) -> Result<Dataset, String> {
        let offsets = feature_offsets(&records);
        let total = offsets.last().copied().unwrap_or(0);
        if total != features.len() {
            return Err(format!(
                "the records own {total} features, {} given",
                features.len()
            ));
        }
        Ok(Dataset {
            info,
            records,
            features,
            games,
            cpu_ms: 0,
            offsets,
        })
    }

    /// The features of record `index`.
    pub fn features_of(&self, index: usize) -> &[FeatureEntry] {
        &self.features[self.offsets[index]..self.offsets[index + 1]]
    }

    /// Reads a whole file; any truncated or corrupt part is an error.
    pub fn read(path: &Path) -> Result<Dataset, DatasetError> {
        let (dataset, complete_length, file_length) = read_blocks(path)?;
        if complete_length != file_length {
            return Err(DatasetError {
                path: path.to_path_buf(),
                message: format!(
                    "truncated or corrupt after byte {complete_length} of {file_length} \
                     (an unfinished block; `kurier-tune values` with the same settings resumes it)"
                ),
            });
        }
        Ok(dataset)
    }
}

fn feature_offsets(records: &[PositionRecord]) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(records.len() + 1);
    let mut total = 0;
    offsets.push(0);
    for record in records {
        total += usize::from(record.feature_count);
        offsets.push(total);
    }
    offsets
}

/// 32-bit FNV-1a.
fn fnv1a(chunks: &[&[u8]]) -> u32 {
    let mut hash = 0x811C_9DC5u32;
    for chunk in chunks {
        for &byte in *chunk {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    }
    hash
}

/// Reads the header and every complete, intact block; returns the data,
/// the length of the intact prefix and the file's length.
fn read_blocks(path: &Path) -> Result<(Dataset, u64, u64), DatasetError> {
    let error = |message: String| DatasetError {
        path: path.to_path_buf(),
        message,
    };
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .map_err(|e| error(format!("cannot read it: {e}")))?;
    let header_size = std::mem::size_of::<DatasetHeader>();
    if bytes.len() < header_size {
        return Err(error(format!(
            "only {} bytes: too short for the {header_size}-byte header",
            bytes.len()
        )));
    }
    let header: DatasetHeader = bytemuck::pod_read_unaligned(&bytes[..header_size]);
    let info = DatasetInfo::from_header(&header).map_err(error)?;
    let mut records = Vec::new();
    let mut features = Vec::new();
    let mut games = 0u32;
    let mut cpu_ms = 0u64;
    let mut at = header_size;
    let block_size = std::mem::size_of::<BlockHeader>();
    let record_size = std::mem::size_of::<PositionRecord>();
    let feature_size = std::mem::size_of::<FeatureEntry>();
    while at + block_size <= bytes.len() {
        let block: BlockHeader = bytemuck::pod_read_unaligned(&bytes[at..at + block_size]);
        if block.magic != BLOCK_MAGIC {
            break;
        }
        let records_end = at + block_size + block.records as usize * record_size;
        let end = records_end + block.features as usize * feature_size;
        if end > bytes.len() {
            break;
        }
        let record_bytes = &bytes[at + block_size..records_end];
        let feature_bytes = &bytes[records_end..end];
        if fnv1a(&[record_bytes, feature_bytes]) != block.checksum {
            break;
        }
        let block_records: Vec<PositionRecord> = record_bytes
            .chunks_exact(record_size)
            .map(bytemuck::pod_read_unaligned)
            .collect();
        let owned: usize = block_records
            .iter()
            .map(|r| usize::from(r.feature_count))
            .sum();
        if owned != block.features as usize || block.first_game != games {
            return Err(error(format!(
                "block at byte {at} is inconsistent (games from {} where {games} was expected, \
                 {owned} features owned of {})",
                block.first_game, block.features
            )));
        }
        records.extend(block_records);
        features.extend(
            feature_bytes
                .chunks_exact(feature_size)
                .map(bytemuck::pod_read_unaligned::<FeatureEntry>),
        );
        games += block.games;
        cpu_ms += u64::from(block.cpu_ms);
        at = end;
    }
    let offsets = feature_offsets(&records);
    let dataset = Dataset {
        info,
        records,
        features,
        games,
        cpu_ms,
        offsets,
    };
    Ok((dataset, at as u64, bytes.len() as u64))
}

/// Writes a dataset block by block.
pub struct DatasetWriter {
    file: File,
    path: PathBuf,
    games: u32,
}

impl DatasetWriter {
    /// Starts a new file (replacing any old one).
    pub fn create(path: &Path, info: &DatasetInfo) -> Result<DatasetWriter, DatasetError> {
        let error = |message: String| DatasetError {
            path: path.to_path_buf(),
            message,
        };
        let header = info.header().map_err(error)?;
        let mut file = File::create(path).map_err(|e| error(format!("cannot create it: {e}")))?;
        file.write_all(bytemuck::bytes_of(&header))
            .map_err(|e| error(format!("cannot write: {e}")))?;
        Ok(DatasetWriter {
            file,
            path: path.to_path_buf(),
            games: 0,
        })
    }

    /// Opens an existing file made with the same `info` to add games:
    /// drops an unfinished last block and returns what the file holds.
    /// A missing file is started afresh.
    pub fn resume(
        path: &Path,
        info: &DatasetInfo,
    ) -> Result<(DatasetWriter, Dataset), DatasetError> {
        if !path.exists() {
            let writer = DatasetWriter::create(path, info)?;
            let empty = Dataset::from_parts(info.clone(), Vec::new(), Vec::new(), 0)
                .unwrap_or_else(|e| unreachable!("an empty dataset is consistent: {e}"));
            return Ok((writer, empty));
        }
        let error = |message: String| DatasetError {
            path: path.to_path_buf(),
            message,
        };
        let (dataset, complete_length, _) = read_blocks(path)?;
        if dataset.info != *info {
            return Err(error(format!(
                "made with other settings ({:?}); use another output folder or the same settings",
                dataset.info
            )));
        }
        let mut file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| error(format!("cannot open it for writing: {e}")))?;
        file.set_len(complete_length)
            .and_then(|()| file.seek(SeekFrom::End(0)).map(|_| ()))
            .map_err(|e| error(format!("cannot drop the unfinished block: {e}")))?;
        let writer = DatasetWriter {
            file,
            path: path.to_path_buf(),
            games: dataset.games,
        };
        Ok((writer, dataset))
    }

    /// Games written so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Appends the next games of the file (numbered on from
    /// [`DatasetWriter::games`]), which took `cpu_ms` milliseconds of CPU
    /// time, as one block and flushes it to disk.
    pub fn append(&mut self, games: &[GamePositions], cpu_ms: u64) -> Result<(), DatasetError> {
        let records: Vec<PositionRecord> = games
            .iter()
            .flat_map(|g| g.records.iter().copied())
            .collect();
        let features: Vec<FeatureEntry> = games
            .iter()
            .flat_map(|g| g.features.iter().copied())
            .collect();
        let record_bytes: &[u8] = bytemuck::cast_slice(&records);
        let feature_bytes: &[u8] = bytemuck::cast_slice(&features);
        let block = BlockHeader {
            magic: BLOCK_MAGIC,
            first_game: self.games,
            games: games.len() as u32,
            records: records.len() as u32,
            features: features.len() as u32,
            cpu_ms: cpu_ms.min(u64::from(u32::MAX)) as u32,
            checksum: fnv1a(&[record_bytes, feature_bytes]),
        };
        let mut bytes = Vec::with_capacity(
            std::mem::size_of::<BlockHeader>() + record_bytes.len() + feature_bytes.len(),
        );
        bytes.extend_from_slice(bytemuck::bytes_of(&block));
        bytes.extend_from_slice(record_bytes);
        bytes.extend_from_slice(feature_bytes);
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| DatasetError {
                path: self.path.clone(),
                message: format!("cannot write: {e}"),
            })?;
        self.games += games.len() as u32;
        Ok(())
    }
}

/// Joins the files of a run's shards into the file of the whole run at
/// `path`: the same records, in game order, as one machine writes them.
/// The shards must hold the same run (every setting but the shard) and
/// no game twice.
pub fn merge_datasets(shards: &[(PathBuf, Dataset)], path: &Path) -> Result<Dataset, String> {
    let Some((first_path, first)) = shards.first() else {
        return Err("no datasets to merge".to_string());
    };
    let whole = DatasetInfo {
        shard: None,
        ..first.info.clone()
    };
    let mut seen = Vec::new();
    for (shard_path, dataset) in shards {
        let shard = dataset.info.shard;
        if shard.is_none() || seen.contains(&shard) {
            return Err(format!(
                "{}: {} (shards to merge must be distinct shards of one run)",
                shard_path.display(),
                match shard {
                    Some(s) => format!("shard {s} twice"),
                    None => "not a shard's dataset".to_string(),
                }
            ));
        }
        seen.push(shard);
    }
    let total: u32 = shards.iter().map(|(_, d)| d.games).sum();
    let mut games = vec![GamePositions::default(); total as usize];
    let mut owner: Vec<Option<&Path>> = vec![None; total as usize];
    let mut cpu_ms = 0u64;
    for (shard_path, dataset) in shards {
        let info = DatasetInfo {
            shard: None,
            ..dataset.info.clone()
        };
        if info != whole {
            return Err(format!(
                "{} and {} are not shards of one run ({:?} vs {:?})",
                first_path.display(),
                shard_path.display(),
                first.info,
                dataset.info
            ));
        }
        cpu_ms += dataset.cpu_ms;
        for (index, record) in dataset.records.iter().enumerate() {
            let game = record.game as usize;
            let Some(slot) = games.get_mut(game) else {
                return Err(format!(
                    "{}: game {game} lies beyond the {total} games of the shards",
                    shard_path.display()
                ));
            };
            match owner[game] {
                Some(other) if other != shard_path.as_path() => {
                    return Err(format!(
                        "game {game} is in both {} and {}",
                        other.display(),
                        shard_path.display()
                    ))
                }
                _ => owner[game] = Some(shard_path.as_path()),
            }
            slot.records.push(*record);
            slot.features.extend_from_slice(dataset.features_of(index));
        }
    }
    let mut writer = DatasetWriter::create(path, &whole).map_err(|e| e.to_string())?;
    writer.append(&games, cpu_ms).map_err(|e| e.to_string())?;
    drop(writer);
    Dataset::read(path).map_err(|e| e.to_string())
}

/// Collects evaluation terms into one count per weight.
struct TermCounts(Vec<i32>);

impl Accumulator for TermCounts {
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// The record and sparse features of one position.
pub fn describe_position<B: Bitboard>(
    position: &Position<B>,
    evaluator: &Evaluator<B>,
    game: u32,
    ply: usize,
    result: GameResult,
) -> (PositionRecord, Vec<FeatureEntry>) {
    let types = position.game().pieces.len();
    let mut material = [0i8; MAX_TYPES];
    for (t, slot) in material.iter_mut().enumerate().take(types) {
        let difference = position.pieces(Color::White, t).count() as i32
            - position.pieces(Color::Black, t).count() as i32;
        // A board of at most 256 squares holds at most 256 men, but one
        // type never exceeds 127 on either side in any playable variant.
        *slot = difference.clamp(-127, 127) as i8;
    }
    let mut pairs = [0u16; 2];
    for (side, color) in Color::BOTH.into_iter().enumerate() {
        for t in 0..types.min(16) {
            if has_pair(position, color, t) {
                pairs[side] |= 1 << t;
            }
        }
    }
    let mut counts = TermCounts(vec![0; evaluator.params().weights.len()]);
    evaluator.terms(position, &mut counts);
    let features: Vec<FeatureEntry> = counts
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count != 0)
        .map(|(index, &count)| FeatureEntry {
            index: index as u16,
            count: count.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
        })
        .collect();
    let record = PositionRecord {
        material,
        game,
        phase: evaluator.phase(position) as u16,
        result: match result {
            GameResult::BlackWins => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWins => 2,
        },
        white_to_move: u8::from(position.side_to_move() == Color::White),
        feature_count: features.len() as u16,
        ply: ply.min(usize::from(u16::MAX)) as u16,
        pairs,
    };
    (record, features)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_sizes_are_as_documented() {
        assert_eq!(std::mem::size_of::<DatasetHeader>(), 64);
        assert_eq!(std::mem::size_of::<BlockHeader>(), 28);
        assert_eq!(std::mem::size_of::<PositionRecord>(), 32);
        assert_eq!(std::mem::size_of::<FeatureEntry>(), 4);
    }

    #[test]
    fn fnv1a_of_known_strings() {
        // Reference values of 32-bit FNV-1a (from the algorithm's authors' test vectors).
        assert_eq!(fnv1a(&[b""]), 0x811C_9DC5);
        assert_eq!(fnv1a(&[b"a"]), 0xE40C_292C);
        assert_eq!(fnv1a(&[b"foo", b"bar"]), 0xBF9C_F968);
    }
}
