//! Everything the charts and readouts show ([`Views`]), computed from the
//! controls: the sweep over node counts and the GPU generations here, the
//! grid, collectives and memory in their own files.

use super::collectives::collectives;
use super::grid::grid;
use super::memory::memory_points;
use super::{
    evaluate_at, gpu_of, plan_of, BusBandwidth, Controls, Grid, MemoryPoint, Outcome, PlanView,
};
use scalescope_core::hardware::{Gpu, GPUS};
use scalescope_core::timeline::Timeline;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// One point of the scaling sweep.
#[derive(Clone, Debug)]
pub struct Point {
    /// Nodes.
    pub nodes: u32,
    /// GPUs.
    pub gpus: u32,
    /// Global batch in sequences.
    pub global_batch: u32,
    /// What was evaluated.
    pub outcome: Outcome,
}

/// One bar of the generations chart.
#[derive(Clone, Debug)]
pub struct Generation {
    /// The GPU.
    pub gpu: Gpu,
    /// Its evaluation on the same workload and node count.
    pub outcome: Outcome,
}

/// Everything the charts and readouts show, computed from [`Controls`]:
/// the grid and the generations (which search a layout at each of their
/// points) the first time something reads them, so a slider move costs
/// only what the charts on screen show; a chart scrolling into view, an
/// export or a text alternative computes its own.
#[derive(Clone, Debug)]
pub struct Views {
    /// The controls these views were computed from.
    pub controls: Controls,
    /// Scaling sweep across node counts.
    pub points: Vec<Point>,
    /// The current node count's point.
    pub current: Outcome,
    /// Collective bus bandwidth against nodes.
    pub collectives: Vec<BusBandwidth>,
    /// Memory per GPU against FSDP group size, with the HBM capacity.
    pub memory: Vec<MemoryPoint>,
    /// HBM capacity per GPU, GiB.
    pub hbm_gib: f64,
    /// The current setting's step as a timeline, or why there is none.
    pub timeline: Result<Timeline, String>,
    /// The part of the step the timeline chart shows (seconds), if zoomed.
    pub timeline_zoom: Option<(f64, f64)>,
    /// What training on the budget costs at each size of the sweep, or why
    /// the budget cannot be used.
    pub plan: Result<PlanView, String>,
    /// The pinned settings' views, drawn beside these.
    pub pins: Vec<Pinned>,
    /// The grid and the generations, once read.
    later: Later,
}

/// The views [`Views`] computes when first read.
#[derive(Clone, Debug, Default)]
struct Later {
    grid: OnceLock<Grid>,
    generations: OnceLock<Vec<Generation>>,
}

impl Views {
    /// TP x PP grid at the current node count.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        self.later.grid.get_or_init(|| grid(&self.controls))
    }

    /// Each GPU generation on the same workload.
    #[must_use]
    pub fn generations(&self) -> &[Generation] {
        self.later.generations.get_or_init(|| {
            let c = &self.controls;
            GPUS.iter()
                .map(|g| Generation {
                    gpu: *g,
                    outcome: if g.id == c.gpu {
                        self.current.clone()
                    } else {
                        evaluate_at(c, c.nodes, g.id)
                    },
                })
                .collect()
        })
    }
}

/// A pinned setting's name and views.
#[derive(Clone, Debug)]
pub struct Pinned {
    /// What the user calls it.
    pub name: String,
    /// Its views (computed once: a pin does not change as the controls move).
    pub views: Arc<Views>,
}

thread_local! {
    /// The views of the settings pinned lately: a repaint reuses them.
    static PINNED: RefCell<Vec<(Controls, Arc<Views>)>> = const { RefCell::new(Vec::new()) };
}

/// The views of a pinned setting, computed once and reused.
#[must_use]
pub fn pinned_views(c: &Controls) -> Arc<Views> {
    if let Some(v) = PINNED.with_borrow(|cache| {
        cache
            .iter()
            .find(|(k, _)| k == c)
            .map(|(_, v)| Arc::clone(v))
    }) {
        return v;
    }
    let v = Arc::new(compute(c));
    PINNED.with_borrow_mut(|cache| {
        if cache.len() >= 2 * super::MAX_PINS {
            cache.remove(0);
        }
        cache.push((c.clone(), Arc::clone(&v)));
    });
    v
}

/// The views of the controls (the grid and the generations as they are
/// read, [`Views`]).
#[must_use]
pub fn compute(c: &Controls) -> Views {
    let points: Vec<Point> = sweep_nodes(c.nodes)
        .into_iter()
        .map(|n| Point {
            nodes: n,
            gpus: n.saturating_mul(c.gpus_per_node()),
            global_batch: c.global_batch_at(n),
            outcome: evaluate_at(c, n, c.gpu),
        })
        .collect();
    let current = points
        .iter()
        .find(|p| p.nodes == c.nodes)
        .map_or_else(|| evaluate_at(c, c.nodes, c.gpu), |p| p.outcome.clone());
    let collectives = collectives(c);
    let memory = memory_points(c, &current);
    let timeline = timeline_of(c, &current);
    let plan = plan_of(c, &points);
    let pins = c
        .pins
        .iter()
        .map(|p| Pinned {
            name: p.name.clone(),
            views: pinned_views(&p.controls),
        })
        .collect();
    Views {
        controls: c.clone(),
        points,
        current,
        collectives,
        memory,
        hbm_gib: gpu_of(c).hbm.as_gib(),
        timeline,
        timeline_zoom: None,
        plan,
        pins,
        later: Later::default(),
    }
}

/// The timeline of the current setting, with the layout it ran (the one
/// found, with the best-layout switch on).
fn timeline_of(c: &Controls, current: &Outcome) -> Result<Timeline, String> {
    let (layout, _) = current.as_ref().map_err(Clone::clone)?;
    let mut cfg = c
        .scenario_at(c.nodes, c.gpu)
        .resolve()
        .map_err(|e| e.to_string())?;
    cfg.layout = *layout;
    scalescope_core::timeline::timeline(&cfg).map_err(|e| e.to_string())
}

/// The node counts every sweep visits: powers of two up to the slider's
/// end, plus the current count wherever it falls.
#[must_use]
pub fn sweep_nodes(current: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..=8).map(|k| 1_u32 << k).collect();
    // Inserted in place: the list is sorted already, and a sort would
    // compile a sorting routine into the site for ten numbers.
    if let Err(at) = v.binary_search(&current) {
        v.insert(at, current);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Cell, Scaling};

    #[test]
    fn default_point_is_valid_and_every_view_is_filled() {
        let v = compute(&Controls::default());
        let (_, r) = v.current.as_ref().expect("the default setting evaluates");
        assert!(r.mfu > 0.2 && r.mfu < 0.7);
        assert_eq!(v.points.len(), 9);
        assert!(v.points.iter().all(|p| p.outcome.is_ok()));
        assert_eq!(v.generations().len(), GPUS.len());
        assert_eq!(v.grid().cells.len(), 25);
        assert!(matches!(v.grid().cells[0], Cell::Ok(..)));
        assert_eq!(v.collectives.len(), 9);
        assert!(v.memory.len() >= 7);
    }

    #[test]
    fn an_impossible_layout_names_what_to_change() {
        let c = Controls {
            tp: 64,
            ..Controls::default()
        };
        let v = compute(&c);
        let msg = v
            .current
            .clone()
            .expect_err("TP 64 does not divide 32 heads");
        assert!(msg.contains("tensor parallel 64"), "{msg}");
        // The rest of the page still has something to draw.
        assert!(v.collectives.len() == 9 && !v.memory.is_empty());
        assert!(v.grid().cells.iter().any(|c| matches!(c, Cell::Ok(..))));
    }

    #[test]
    fn strong_scaling_beyond_the_batch_is_invalid_with_a_reason() {
        let c = Controls {
            scaling: Scaling::Strong,
            global_batch: 32,
            micro_batch: 1,
            ..Controls::default()
        };
        let v = compute(&c);
        let at_256 = v.points.iter().find(|p| p.nodes == 256).expect("swept");
        let msg = at_256
            .outcome
            .as_ref()
            .expect_err("32 sequences on 2048 GPUs");
        assert!(msg.contains("global batch 32"), "{msg}");
        let at_4 = v.points.iter().find(|p| p.nodes == 4).expect("swept");
        assert!(at_4.outcome.is_ok());
    }

    #[test]
    fn best_layout_is_at_least_as_fast_as_the_chosen_one() {
        let chosen = Controls::default();
        let best = Controls {
            best: true,
            ..Controls::default()
        };
        let (_, a) = compute(&chosen).current.expect("valid");
        let v = compute(&best);
        let (layout, b) = v.current.clone().expect("a layout fits");
        assert!(b.tokens_per_s >= a.tokens_per_s * 0.999);
        assert!(layout.parallel.tp * layout.parallel.pp * layout.parallel.cp >= 1);
        // The grid's best cell is the point's layout.
        let top = v
            .grid()
            .cells
            .iter()
            .filter_map(|c| match c {
                Cell::Ok(_, r) => Some(r.tokens_per_s),
                _ => None,
            })
            .fold(0.0, f64::max);
        assert!((top - b.tokens_per_s).abs() <= b.tokens_per_s * 1e-9);
    }

    #[test]
    fn typed_node_counts_join_the_sweep() {
        assert_eq!(sweep_nodes(24), vec![1, 2, 4, 8, 16, 24, 32, 64, 128, 256]);
        assert_eq!(sweep_nodes(1024).last(), Some(&1024));
        assert_eq!(sweep_nodes(32).len(), 9);
    }
}
