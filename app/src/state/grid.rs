//! The TP x PP grid at the current GPU count.

use super::Controls;
use scalescope_core::evaluate::Report;
use scalescope_core::scenario::{Layout, Recompute};
use scalescope_core::search::for_each_layout_pruned;

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
        // The best step time of each cell so far: a pipeline whose bound
        // is over it cannot be its cell's best and is not simulated.
        let fastest: Vec<std::cell::Cell<f64>> = (0..best.len())
            .map(|_| std::cell::Cell::new(f64::INFINITY))
            .collect();
        let cell_of = |cfg: &scalescope_core::scenario::Config| {
            let p = cfg.layout.parallel;
            let i = tps.iter().position(|&t| t == p.tp)?;
            let j = pps.iter().position(|&q| q == p.pp)?;
            Some(j * tps.len() + i)
        };
        if let Ok(base) = &base {
            for_each_layout_pruned(
                base,
                &c.space(),
                |cfg| cell_of(cfg).map_or(-1.0, |k| fastest[k].get()),
                |cfg, r| {
                    let Some(k) = cell_of(cfg) else {
                        return;
                    };
                    let slot = &mut best[k];
                    if slot.is_none_or(|(_, b)| r.tokens_per_s > b.tokens_per_s) {
                        *slot = Some((cfg.layout, r));
                        fastest[k].set(r.step_time_s);
                    }
                },
            );
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

#[cfg(test)]
mod tests {
    use super::*;
    use scalescope_core::search::for_each_layout;

    /// The grid's best cells with the best-layout switch on, found with
    /// every pipeline simulated (no cutoff).
    fn exhaustive(c: &Controls, tps: &[u32], pps: &[u32]) -> Vec<Option<(Layout, Report)>> {
        let mut best = vec![None; tps.len() * pps.len()];
        let base = c.scenario_at(c.nodes, c.gpu).resolve().unwrap();
        for_each_layout(&base, &c.space(), |cfg, r| {
            let p = cfg.layout.parallel;
            let (Some(i), Some(j)) = (
                tps.iter().position(|&t| t == p.tp),
                pps.iter().position(|&q| q == p.pp),
            ) else {
                return;
            };
            let slot: &mut Option<(Layout, Report)> = &mut best[j * tps.len() + i];
            if slot.is_none_or(|(_, b)| r.tokens_per_s > b.tokens_per_s) {
                *slot = Some((cfg.layout, r));
            }
        });
        best
    }

    #[test]
    fn pruned_cells_are_the_cells_every_pipeline_simulated_gives() {
        for (model, nodes, seq) in [
            ("llama2-7b", 32, 4096),
            ("llama2-70b", 16, 4096),
            ("llama2-13b", 4, 8192),
            ("llama2-1b", 1, 2048),
        ] {
            let c = Controls {
                best: true,
                model,
                nodes,
                seq_len: seq,
                ..Controls::default()
            };
            let g = grid(&c);
            let want = exhaustive(&c, &g.tps, &g.pps);
            for (k, (cell, w)) in g.cells.iter().zip(&want).enumerate() {
                match (cell, w) {
                    (Cell::Ok(l, r), Some((wl, wr))) => {
                        assert_eq!((l, r), (wl, wr), "{model} on {nodes} nodes, cell {k}");
                    }
                    (Cell::Ok(..), None) | (_, Some(_)) => {
                        panic!("{model} on {nodes} nodes, cell {k}: {cell:?} against {w:?}")
                    }
                    _ => {}
                }
            }
        }
    }
}
