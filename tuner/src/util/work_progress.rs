//! A progress bar with the time left for long jobs (a `values` run's
//! games, the positions `label` scores): redrawn on a terminal, a line
//! every five percent in a log.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

/// Progress of `total` units of work, safe to advance from many threads.
pub struct WorkProgress {
    bar: indicatif::ProgressBar,
    unit: &'static str,
    terminal: bool,
    started: Instant,
    printed: Mutex<u64>,
}

impl WorkProgress {
    /// Progress of `total` units named `unit` ("games", "positions").
    pub fn new(total: u64, unit: &'static str) -> WorkProgress {
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            indicatif::ProgressBar::new(total)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_length(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{eta}} left"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        WorkProgress {
            bar,
            unit,
            terminal,
            started: Instant::now(),
            printed: Mutex::new(0),
        }
    }

    /// Records `done` more units.
    pub fn add(&self, done: u64) {
        self.bar.inc(done);
        if self.terminal {
            return;
        }
        let done = self.bar.position();
        let total = self.bar.length().unwrap_or(done).max(1);
        let mut printed = self.printed.lock().unwrap_or_else(|p| p.into_inner());
        if done * 20 / total > *printed * 20 / total || done == total {
            *printed = done;
            let elapsed = self.started.elapsed().as_secs_f64();
            let left = elapsed / done.max(1) as f64 * (total - done) as f64;
            eprintln!(
                "{} {done}/{total}, {:.0} s so far, about {:.0} s left",
                self.unit, elapsed, left
            );
        }
    }

    /// Clears the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
