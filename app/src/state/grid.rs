//! The TP x PP grid at the current GPU count.

use super::Controls;
use scalescope_core::evaluate::Report;
use scalescope_core::scenario::{Layout, Recompute};
use scalescope_core::search::for_each_layout;

/// A cell of the TP x PP grid.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // 25 cells, built once per repaint
pub enum Cell {
    /// Fits: the best evaluation of this (TP, PP) pair.
    Ok(Layout, Report),
    /// Every layout of the pair is out of memory.
    OutOfMemory,
    /// The pair is not a valid layout here, and why.
    Invalid(String),
}

/// The TP x PP grid at the current GPU count.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Column degrees (TP).
    pub tps: Vec<u32>,
    /// Row degrees (PP).
    pub pps: Vec<u32>,
    /// Row-major cells, `pps.len()` rows of `tps.len()`.
    pub cells: Vec<Cell>,
}

/// The TP x PP grid. With the best-layout switch on, each cell holds the
/// best micro-batch, context degree and recomputation for its pair (one
/// pass over the search space); otherwise the chosen layout with the cell's
/// degrees.
pub(super) fn grid(c: &Controls) -> Grid {
    let tps = vec![1, 2, 4, 8, 16];
    let pps = vec![1, 2, 4, 8, 16];
    let mut cells = Vec::with_capacity(tps.len() * pps.len());
    if c.best {
        let base = c.scenario_at(c.nodes, c.gpu).resolve();
        let mut best: Vec<Option<(Layout, Report)>> = vec![None; tps.len() * pps.len()];
        if let Ok(base) = &base {
            for_each_layout(base, &c.space(), |cfg, r| {
                let p = cfg.layout.parallel;
                let (Some(i), Some(j)) = (
                    tps.iter().position(|&t| t == p.tp),
                    pps.iter().position(|&q| q == p.pp),
                ) else {
                    return;
                };
                let slot = &mut best[j * tps.len() + i];
                if slot.is_none_or(|(_, b)| r.tokens_per_s > b.tokens_per_s) {
                    *slot = Some((cfg.layout, r));
                }
            });
        }
        for &pp in &pps {
            for &tp in &tps {
                let k = cells.len();
                cells.push(match (&base, best[k]) {
                    (_, Some((l, r))) => Cell::Ok(l, r),
                    (Err(e), None) => Cell::Invalid(e.to_string()),
                    (Ok(_), None) => {
                        let mut probe = c.clone();
                        probe.best = false;
                        probe.tp = tp;
                        probe.pp = pp;
                        probe.recompute = Recompute::Full;
                        probe.micro_batch = 1;
                        probe.cp = 1;
                        match probe.scenario_at(c.nodes, c.gpu).to_config() {
                            Ok(_) => Cell::OutOfMemory,
                            Err(e) => Cell::Invalid(e.to_string()),
                        }
                    }
                });
            }
        }
    } else {
        for &pp in &pps {
            for &tp in &tps {
                let mut probe = c.clone();
                probe.tp = tp;
                probe.pp = pp;
                cells.push(match probe.scenario_at(c.nodes, c.gpu).to_config() {
                    Err(e) => Cell::Invalid(e.to_string()),
                    Ok(cfg) => {
                        let r = scalescope_core::evaluate::evaluate_checked(&cfg);
                        if r.fits {
                            Cell::Ok(cfg.layout, r)
                        } else {
                            Cell::OutOfMemory
                        }
                    }
                });
            }
        }
    }
    Grid { tps, pps, cells }
}
