//! The walk of every layout of a search space: its degrees grouped and
//! walked best floor first, each layout with the least recomputation
//! that fits, and pipelines simulated last, best bound first.

use super::{powers_of_two, SearchSpace};
use crate::evaluate::{Report, Step};
use crate::memory::{self, Memory};
use crate::scenario::{Config, DataParallel, Layout, Parallel, Recompute, Schedule};
use crate::stack::Stack;
use alloc::vec::Vec;

/// The walk of [`for_each_layout_pruned`]: one copy (with its sort) for
/// every visitor, where a generic walk is compiled once per visitor.
pub(super) fn walk_layouts(
    base: &Config,
    space: &SearchSpace,
    cutoff: &dyn Fn(&Config) -> f64,
    visit: &mut dyn FnMut(&Config, Report),
) -> (u32, u32) {
    if base.check_setting().is_err() {
        return (0, 0);
    }
    let gpus = base.cluster.gpus();
    let model = base.model;
    let mut walk = Walk::new(base, space, cutoff);
    walk.deferred = Some(Vec::new());
    let in_node = if space.model_parallel_in_node {
        base.cluster.domain()
    } else {
        u32::MAX
    };
    // Degrees (with their replicas and split), those without a pipeline
    // first (pipelines wait to be simulated until the others have set
    // the cutoff), best floor first: a group whose floor is over the
    // cutoff is not walked.
    let mut groups = Vec::new();
    for tp in powers_of_two(space.max_tp.min(model.heads).min(gpus)) {
        if model.heads % tp != 0 {
            continue;
        }
        for pp in 1..=space.max_pp.min(model.layers).min(gpus / tp) {
            if gpus % (tp * pp) != 0 || tp * pp > in_node {
                continue;
            }
            // The split of the schedules without chunks; an interleaved
            // layout's below.
            let split = split_of(base, pp, Schedule::OneFOneB, 1);
            for cp in powers_of_two(space.max_cp.min(gpus / (tp * pp))) {
                if gpus % (tp * pp * cp) != 0
                    || (cp > 1 && base.seq_len % (2 * cp) != 0)
                    || tp * pp * cp > in_node
                {
                    continue;
                }
                let dp = gpus / (tp * pp * cp);
                if base.global_batch % dp != 0 {
                    continue;
                }
                for experts in expert_degrees(&model, tp * cp * dp) {
                    groups.push(walk.group((tp, pp, cp), experts, dp, split));
                }
            }
        }
    }
    // Sorted by index: a group holds its probe's whole setting.
    let mut by_floor: Vec<(bool, f64, usize)> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.degrees.1 > 1, g.floor, i))
        .collect();
    by_floor.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    for g in by_floor.iter().map(|&(_, _, i)| &groups[i]) {
        let under = cutoff(&g.probe);
        if g.floor > under {
            continue;
        }
        let flavours = walk.flavours(g);
        if flavours.iter().any(|&f| f <= under) {
            let before = walk.deferred.as_ref().map_or(0, Vec::len);
            walk.replicas(g, &flavours, under, visit);
            walk.settle(before, cutoff, visit);
        }
    }
    // Pipelines, best bound first, until the bound loses.
    // Sorted by index: a deferred layout is a few hundred bytes, and
    // moving them in the sort cost more than the sort's comparisons.
    let deferred = walk.deferred.take().unwrap_or_default();
    let mut order: Vec<(f64, usize)> = deferred
        .iter()
        .enumerate()
        .map(|(i, d)| (d.bound, i))
        .collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (bound, i) in order {
        let d = &deferred[i];
        if bound > cutoff(&d.cfg) {
            continue;
        }
        visit(&d.cfg, Step::new(&d.cfg).finish(d.memory, d.split));
    }
    (walk.evaluated, walk.out_of_memory)
}

/// One choice of tensor, pipeline and context degrees: its replicas, its
/// pipeline split, and a floor under the step of every layout in it.
pub(super) struct Group {
    degrees: (u32, u32, u32),
    /// Expert parallelism: (EP, ETP).
    experts: (u32, u32),
    dp: u32,
    split: (u32, u32),
    /// Its layout with the largest micro-batch (what the cutoff is asked of).
    probe: Config,
    pub(super) floor: f64,
    /// What a sequence more per micro-batch adds to the floor (the
    /// pipeline's fill and drain of one sequence; nothing without one).
    fill: f64,
}

/// A pipeline whose simulation waits until the layouts without one have
/// set the cutoff: the layout, its memory and split, and its step's bound.
struct Deferred {
    cfg: Config,
    memory: Memory,
    split: (u32, u32),
    bound: f64,
}

/// One walk of [`for_each_layout`] over a search space: what it walks, the
/// per-layer costs it shares between flavours, and what it has counted.
pub(super) struct Walk<'a> {
    /// The setting every layout runs.
    base: &'a Config,
    /// The layouts allowed.
    space: &'a SearchSpace,
    /// Recomputation modes to try, least first.
    recomputes: &'static [Recompute],
    /// The last layout evaluated, without its flavour and schedule, and its
    /// step.
    shared: Option<(Layout, Step)>,
    /// Layouts evaluated.
    evaluated: u32,
    /// Layouts that fit with no recomputation mode.
    out_of_memory: u32,
    /// Steps slower than this are not wanted, by layout.
    cutoff: &'a dyn Fn(&Config) -> f64,
    /// Pipelines to simulate after the walk, best bound first (when a
    /// cutoff is in play).
    deferred: Option<Vec<Deferred>>,
}

impl<'a> Walk<'a> {
    /// A walk that has visited nothing yet.
    pub(super) fn new(
        base: &'a Config,
        space: &'a SearchSpace,
        cutoff: &'a dyn Fn(&Config) -> f64,
    ) -> Self {
        Self {
            base,
            space,
            recomputes: if space.recompute {
                &[Recompute::None, Recompute::Selective, Recompute::Full]
            } else {
                &[Recompute::None]
            },
            shared: None,
            evaluated: 0,
            out_of_memory: 0,
            cutoff,
            deferred: None,
        }
    }

    /// The group of degrees `(tp, pp, cp)` with `dp` replicas, its floor
    /// taken at its largest micro-batch.
    pub(super) fn group(
        &self,
        (tp, pp, cp): (u32, u32, u32),
        (ep, etp): (u32, u32),
        dp: u32,
        split: (u32, u32),
    ) -> Group {
        let (base, space) = (self.base, self.space);
        let per_replica = base.global_batch / dp;
        let largest = micro_batch_choices(per_replica, pp, space)
            .filter(|mb| per_replica % mb == 0)
            .max()
            .unwrap_or(1);
        let chunks = schedules(pp, space, &base.stack)
            .iter()
            .map(|&(_, v)| v)
            .max()
            .unwrap_or(1);
        let mut probe = *base;
        probe.layout = Layout {
            parallel: Parallel {
                dp: space.first_flavour().unwrap_or(DataParallel::Fsdp),
                tp,
                pp,
                cp,
                sp: space.sequence_parallel && base.stack.sequence_parallel && tp > 1,
                schedule: Schedule::OneFOneB,
                virtual_stages: 1,
                ep,
                etp,
                // A setting of the run, as the stack is, kept as given.
                ep_overlap: base.layout.parallel.ep_overlap,
            },
            micro_batch: largest,
            offload_layers: 0,
            recompute_modules: crate::scenario::Modules::NONE,
            recompute: Recompute::None,
        };
        let (floor, fill) = Step::new(&probe).floor(split, chunks);
        Group {
            degrees: (tp, pp, cp),
            experts: (ep, etp),
            dp,
            split,
            floor,
            fill,
            probe,
        }
    }

    /// Each flavour's floor in group `g` (by its index in the space): the
    /// group's, or the longest of the flavour's data-parallel streams at
    /// the largest micro-batch (a stream's collectives run one after
    /// another within the step, and fewer micro-batches move no more);
    /// [`OUT_OF_MEMORY`] where no layout of the flavour fits.
    pub(super) fn flavours(&self, g: &Group) -> [f64; 5] {
        let mut floors = [f64::INFINITY; 5];
        let mut step = Step::new(&g.probe);
        let least = self.least_memory(g);
        for (i, flavour) in self.space.dp.iter().enumerate() {
            let Some(flavour) = flavour else { continue };
            let mut cfg = g.probe;
            cfg.layout.parallel.dp = *flavour;
            if least.of(*flavour) > cfg.cluster.gpu.hbm.0 {
                floors[i] = OUT_OF_MEMORY;
                continue;
            }
            step.for_layout(&cfg);
            let b = step.stage(g.split.1, true).breakdown;
            let stream = b
                .dp_allgather
                .total
                .0
                .max(b.dp_reduce_scatter.total.0)
                .max(b.dp_allreduce.total.0);
            floors[i] = g.floor.max(stream);
        }
        floors
    }

    /// A floor under the memory of every layout of group `g`, flavour by
    /// flavour ([`LeastMemory::of`]): its smallest micro-batch, one
    /// micro-batch per step (the fewest in flight, and no gradients
    /// accumulated unsharded), 1F1B (no more in flight than interleaving
    /// or GPipe), the least of the recomputation modes and of the splits
    /// the walk uses. The activations do not depend on the flavour, so
    /// their least is taken once per split.
    fn least_memory(&self, g: &Group) -> LeastMemory {
        let (_, pp, _) = g.degrees;
        let per_replica = self.base.global_batch / g.dp;
        let smallest = micro_batch_choices(per_replica, pp, self.space)
            .filter(|mb| per_replica % mb == 0)
            .min()
            .unwrap_or(1);
        let mut c = g.probe;
        c.layout.micro_batch = smallest;
        c.global_batch = g.dp.saturating_mul(smallest);
        c.layout.parallel.schedule = Schedule::OneFOneB;
        c.layout.parallel.virtual_stages = 1;
        let layers = c.model.layers;
        let even = (layers / pp.max(1), layers / pp.max(1));
        // The even split only where it is another one.
        let other = (layers % pp.max(1) == 0 && even != g.split).then_some(even);
        let mut splits = [(g.split, f64::INFINITY), (even, f64::INFINITY)];
        let used = 1 + usize::from(other.is_some());
        for (split, least) in &mut splits[..used] {
            for &r in self.recomputes {
                c.layout.recompute = r;
                *least = least.min(memory::split_activations(&c, *split));
            }
        }
        LeastMemory {
            config: c,
            splits,
            used,
        }
    }

    /// Every micro-batch, schedule and data-parallel flavour of group `g`
    /// whose flavour's floor (in `floors`) is not over `cutoff`.
    fn replicas(
        &mut self,
        g: &Group,
        floors: &[f64; 5],
        cutoff: f64,
        visit: &mut dyn FnMut(&Config, Report),
    ) {
        let ((tp, pp, cp), (ep, etp), dp, split) = (g.degrees, g.experts, g.dp, g.split);
        let (base, space) = (self.base, self.space);
        let stack = &base.stack;
        let per_replica = base.global_batch / dp;
        let first = space.first_flavour();
        for mb in micro_batch_choices(per_replica, pp, space) {
            // A pipeline fills and drains a whole micro-batch: past some
            // size, none of the group's layouts can beat the cutoff.
            if per_replica % mb != 0 || g.floor + g.fill * f64::from(mb - 1) > cutoff {
                continue;
            }
            let micro_batches = per_replica / mb;
            for &(schedule, v) in schedules(pp, space, stack) {
                // An interleaved pipeline holds the same layers on every
                // stage where its chunks all can, and otherwise as its stack
                // splits them over its chunks ([`Config::pipeline_split`]).
                let layers = base.model.layers;
                let split = if schedule == Schedule::Interleaved {
                    split_of(base, pp, schedule, v)
                } else {
                    split
                };
                // The search interleaves only stages whose layers split
                // evenly into the chunks (Megatron-LM's default; uneven
                // ones need the embedding and loss counted as layers), and
                // at least PP micro-batches.
                if schedule == Schedule::Interleaved
                    && (layers < pp * v
                        || micro_batches < pp
                        || split.0 % v != 0
                        || split.1 % v != 0)
                {
                    continue;
                }
                let wanted = space.dp.iter().zip(floors);
                for flavour in wanted
                    .filter(|(_, &floor)| floor <= cutoff)
                    .filter_map(|(f, _)| *f)
                {
                    // Sharding flavours are all the same layout with one replica.
                    if dp * cp == 1 && Some(flavour) != first {
                        continue;
                    }
                    let layout = Layout {
                        parallel: Parallel {
                            dp: flavour,
                            tp,
                            pp,
                            cp,
                            sp: space.sequence_parallel && stack.sequence_parallel && tp > 1,
                            schedule,
                            virtual_stages: v,
                            ep,
                            etp,
                            ep_overlap: base.layout.parallel.ep_overlap,
                        },
                        micro_batch: mb,
                        offload_layers: 0,
                        recompute_modules: crate::scenario::Modules::NONE,
                        recompute: Recompute::None,
                    };
                    self.layout(layout, split, visit);
                }
            }
        }
    }

    /// Simulates the pipeline of least bound among those deferred since
    /// the `from`-th, so that the groups walked after it meet a cutoff
    /// some layout reaches (with no layout but pipelines, the cutoff
    /// would stay infinite until every pipeline is deferred).
    fn settle(
        &mut self,
        from: usize,
        cutoff: &dyn Fn(&Config) -> f64,
        visit: &mut dyn FnMut(&Config, Report),
    ) {
        let Some(deferred) = self.deferred.as_mut() else {
            return;
        };
        let least = deferred
            .iter()
            .enumerate()
            .skip(from)
            .min_by(|a, b| a.1.bound.total_cmp(&b.1.bound))
            .map(|(i, _)| i);
        if let Some(d) = least.map(|i| deferred.swap_remove(i)) {
            if d.bound <= cutoff(&d.cfg) {
                visit(&d.cfg, Step::new(&d.cfg).finish(d.memory, d.split));
            }
        }
    }

    /// One layout: with the least recomputation that fits, checked,
    /// evaluated and visited. A pipeline is bounded first, at no
    /// recomputation (which only adds work, so the bound holds for every
    /// mode), and deferred only when its bound and its memory allow.
    fn layout(
        &mut self,
        layout: Layout,
        split: (u32, u32),
        visit: &mut dyn FnMut(&Config, Report),
    ) {
        let mut cfg = *self.base;
        cfg.layout = layout;
        if self.deferred.is_some() && cfg.layout.parallel.pp > 1 {
            self.pipeline(&mut cfg, split);
            return;
        }
        let Some(memory) = self.fitting(&mut cfg, split) else {
            return;
        };
        if cfg.check_layout().is_err() {
            return;
        }
        self.evaluated += 1;
        let step = self.step(&cfg);
        visit(&cfg, step.finish(memory, split));
    }

    /// A pipeline's layout, deferred with its bound where the bound is
    /// under the cutoff and some recomputation fits. It is bounded first at
    /// no recomputation by its compute alone ([`Step::quick_bound`]):
    /// recomputation only adds compute, and communication only adds to it,
    /// so that bound holds for every mode, before its memory is costed.
    fn pipeline(&mut self, cfg: &mut Config, split: (u32, u32)) {
        let cutoff = (self.cutoff)(cfg);
        // Under no cutoff yet (a cell of the explorer's grid not visited)
        // nothing can be ruled out, and the step at no recomputation
        // would be costed for nothing. A layout the bound rules out is
        // counted without its check: the walk builds layouts that pass it
        // (the check is the net under what is visited), and most
        // pipelines end here, where the check cost as much as the bound.
        if cutoff.is_finite() && self.step(cfg).quick_bound(split) > cutoff {
            self.evaluated += 1;
            return;
        }
        if cfg.check_layout().is_err() {
            return;
        }
        self.evaluated += 1;
        let Some(memory) = self.fitting(cfg, split) else {
            return;
        };
        // The bound that costs the stages, then the critical path (two
        // stages' passes laid out) only for the pipelines it lets through.
        let step = self.step(cfg);
        let mut bound = step.bound(split);
        if bound <= cutoff {
            bound = bound.max(crate::timeline::critical_path(step, split));
        }
        if bound > cutoff {
            return;
        }
        if let Some(deferred) = self.deferred.as_mut() {
            deferred.push(Deferred {
                cfg: *cfg,
                memory,
                split,
                bound,
            });
        }
    }

    /// The memory of `cfg` with the least recomputation that fits, which it
    /// sets; `None`, counted, where none fits.
    fn fitting(&mut self, cfg: &mut Config, split: (u32, u32)) -> Option<Memory> {
        let fits = self.recomputes.iter().find_map(|&r| {
            cfg.layout.recompute = r;
            let m = memory::per_gpu_split(cfg, split);
            (m.total().0 <= cfg.cluster.gpu.hbm.0).then_some(m)
        });
        if fits.is_none() {
            self.out_of_memory += 1;
        }
        fits
    }

    /// The per-layer costs of `cfg`, shared with the last layout's when the
    /// two differ only in their data-parallel flavour, schedule or chunks.
    fn step(&mut self, cfg: &Config) -> &Step {
        let key = unscheduled(&cfg.layout);
        if matches!(&self.shared, Some((layout, _)) if *layout != key) {
            self.shared = None;
        }
        let (_, step) = self.shared.get_or_insert_with(|| (key, Step::new(cfg)));
        step.for_layout(cfg);
        step
    }
}

/// The least activations of a group's layouts under each split the walk
/// uses, for [`Walk::least_memory`]'s floor of each flavour.
struct LeastMemory {
    /// The group's layout with the least memory but for its flavour.
    config: Config,
    /// Each split, with the least activations of its recomputation modes.
    splits: [((u32, u32), f64); 2],
    /// The splits in use (one, or two where the even split is another).
    used: usize,
}

impl LeastMemory {
    /// The least memory of the group's layouts of data-parallel `flavour`.
    fn of(&self, flavour: DataParallel) -> f64 {
        let mut c = self.config;
        c.layout.parallel.dp = flavour;
        self.splits[..self.used]
            .iter()
            .map(|&(split, activations)| memory::split_state(&c, split) + activations)
            .fold(f64::INFINITY, f64::min)
    }
}

/// A flavour's floor where none of its layouts fits in memory: no
/// comparison with a cutoff holds for it, so the flavour is never walked.
const OUT_OF_MEMORY: f64 = f64::NAN;

/// A layout without its data-parallel flavour, schedule and chunks
/// ([`Step::for_layout`] recosts what they change).
fn unscheduled(l: &Layout) -> Layout {
    let mut l = *l;
    l.parallel.dp = DataParallel::Ddp;
    l.parallel.schedule = Schedule::OneFOneB;
    l.parallel.virtual_stages = 1;
    l
}

/// Expert degrees to try for a stage of `stage` GPUs: for an MoE model,
/// every power-of-two EP dividing the routed experts and the stage, with
/// ETP 1 (Megatron-Core's default and every published MoE recipe here;
/// searching ETP = TP as well doubled the groups of a search, so a layout
/// with ETP is evaluated only when asked for); for a dense model, none.
fn expert_degrees(model: &crate::model::Model, stage: u32) -> Vec<(u32, u32)> {
    let Some(e) = model.moe else {
        return alloc::vec![(1, 1)];
    };
    powers_of_two(e.experts.min(stage))
        .filter(|&ep| e.experts % ep == 0 && stage % ep == 0)
        .map(|ep| (ep, 1))
        .collect()
}

/// Micro-batches to try for a replica of `per_replica` sequences: powers
/// of two up to the space's largest or, without accumulation or a
/// pipeline, the whole batch at once, whatever its size.
fn micro_batch_choices(
    per_replica: u32,
    pp: u32,
    space: &SearchSpace,
) -> impl Iterator<Item = u32> {
    let whole = pp == 1 && !space.accumulation;
    let cap = if whole {
        0
    } else {
        space.max_micro_batch.min(per_replica)
    };
    let whole_batch = whole.then_some(per_replica).filter(|&b| b > 0);
    powers_of_two(cap).chain(whole_batch)
}

/// The pipeline split of `base` at `pp` stages of `schedule` with `v`
/// chunks ([`Config::pipeline_split`]).
fn split_of(base: &Config, pp: u32, schedule: Schedule, v: u32) -> (u32, u32) {
    let mut c = *base;
    let p = &mut c.layout.parallel;
    (p.pp, p.schedule, p.virtual_stages) = (pp, schedule, v);
    c.pipeline_split()
}

/// Pipeline schedules to try, with their virtual stages: the interleaved
/// one only for a pipeline, where both the space and the stack allow it.
fn schedules(pp: u32, space: &SearchSpace, stack: &Stack) -> &'static [(Schedule, u32)] {
    if pp == 1 || !(space.interleaving && stack.interleaving) {
        &[(Schedule::OneFOneB, 1)]
    } else {
        &[(Schedule::OneFOneB, 1), (Schedule::Interleaved, 2)]
    }
}
