//! The schedule: each stage's passes in their order ([`super::order`]),
//! when each can start (its stage is free and what it needs has arrived
//! from the neighbour), and the stages drawn, pass by pass at the ends of
//! the step and as one block per stream in between.

use super::order::{needs, order, period, warmup};
use super::pass::{self, Op, Recipe, Sink};
use super::{measure, Interval, Kind, Pass, StageTimeline, Stream, Timeline};
use crate::evaluate::Step;
use crate::phases;
use crate::scenario::Schedule;
use alloc::vec;
use alloc::vec::Vec;

/// Rounds of `pp` micro-batches simulated at most: the fill, the drain
/// and two rounds of the steady state between them (two more per extra
/// chunk of an interleaved schedule, whose warm-up is longer). Beyond, the steady
/// state is extended at the pace of its last two rounds (a schedule of
/// passes whose times do not change settles into a periodic state once
/// every stage has filled), or, for GPipe and the zero-bubble schedules,
/// at the pace between its end and a run two rounds longer ([`steady_period`]).
const SIMULATED_ROUNDS: u32 = 4;
/// But at least this many micro-batches, so that a short pipeline's
/// timeline has passes to draw between the ones it draws one by one.
const MIN_SIMULATED: u32 = 32;
/// Intervals a stage aims to stay under.
const INTERVAL_BUDGET: u32 = 1500;
/// Passes drawn one by one at each end of a stage at most: a pipeline of
/// hundreds of stages draws the rest of its fill and drain as blocks, so
/// that its timeline stays within a few thousand intervals.
const MOST_KEPT: u32 = 256;

/// The step laid out.
pub(super) struct Run {
    /// Per stage, per pass in its order: start, compute done, free.
    pub(super) times: Vec<Vec<(f64, f64, f64)>>,
    /// Per stage, its passes in order.
    pub(super) orders: Vec<Vec<Op>>,
    /// When each pass's compute is done, by [`Run::key`].
    done: Vec<f64>,
    /// Stages, chunks and micro-batches simulated.
    shape: (u32, u32, u32),
    /// Micro-batches after which the schedule repeats ([`period`]).
    period: u32,
    /// The schedule run.
    schedule: Schedule,
}

impl Run {
    fn key(&self, p: &Pass) -> usize {
        let (pp, v, m) = self.shape;
        ((usize::from(p.backward) * v as usize + p.chunk as usize) * m as usize
            + p.micro_batch as usize)
            * pp as usize
            + p.stage as usize
    }

    /// Model chunks per stage.
    pub(super) fn chunks(&self) -> u32 {
        self.shape.1
    }

    /// Whether each backward runs as two passes, B and W.
    pub(super) fn splits_backward(&self) -> bool {
        self.schedule.splits_backward()
    }

    /// Whether the stages hold their chunks in a V (ZB-V with a pipeline).
    pub(super) fn v_shape(&self) -> bool {
        self.schedule.v_shape() && self.shape.0 > 1
    }

    /// When the last stage to finish its passes is free.
    pub(super) fn end(&self) -> f64 {
        self.times
            .iter()
            .filter_map(|t| t.last())
            .map(|t| t.2)
            .fold(0.0, f64::max)
    }

    /// When pass `p`'s compute is done (what its neighbour waits for).
    pub(super) fn done_at(&self, p: &Pass) -> f64 {
        self.done.get(self.key(p)).copied().unwrap_or(f64::NAN)
    }
}

/// Simulates every stage: a pass starts when its stage is free and what
/// it needs has arrived. `span(op)` is a pass's (compute done, free)
/// offsets; `start[s]` when stage `s` can begin.
fn simulate(
    (pp, v, m): (u32, u32, u32),
    period: u32,
    schedule: Schedule,
    send: f64,
    span: &dyn Fn(u32, Op) -> (f64, f64),
    start: &[f64],
) -> Run {
    let orders: Vec<Vec<Op>> = (0..pp)
        .map(|s| order(schedule, (pp, v, m), period, s))
        .collect();
    let key = |p: &Pass| {
        ((usize::from(p.backward) * v as usize + p.chunk as usize) * m as usize
            + p.micro_batch as usize)
            * pp as usize
            + p.stage as usize
    };
    let mut done = vec![f64::NAN; 2 * (v * m * pp) as usize];
    let mut times: Vec<Vec<(f64, f64, f64)>> =
        orders.iter().map(|o| Vec::with_capacity(o.len())).collect();
    let mut free: Vec<f64> = start.to_vec();
    // Stages to visit: a stage runs its passes until one waits for a pass
    // not yet simulated; a stage that ran some wakes the stages that wait
    // on it (its neighbours, and the ends, which interleaving joins), so
    // the simulation costs a few visits per pass, not one per stage per
    // round.
    let n = pp as usize;
    let mut queued = vec![true; n];
    let mut work: Vec<usize> = (0..n).rev().collect();
    let v_shape = schedule.v_shape() && pp > 1;
    while let Some(s) = work.pop() {
        queued[s] = false;
        let ran = times[s].len();
        while times[s].len() < orders[s].len() {
            let op = orders[s][times[s].len()];
            let ready = match needs(op, s as u32, pp, v, v_shape) {
                None => 0.0,
                Some((p, over_link)) => {
                    let t = done[key(&p)];
                    if t.is_nan() {
                        break;
                    }
                    t + if over_link { send } else { 0.0 }
                }
            };
            let at = free[s].max(ready);
            let (c, f) = span(s as u32, op);
            times[s].push((at, at + c, at + f));
            free[s] = at + f;
            // No other pass waits for a weight gradient.
            if op.weight {
                continue;
            }
            let me = Pass {
                stage: s as u32,
                micro_batch: op.mb,
                chunk: op.chunk,
                backward: op.backward,
            };
            done[key(&me)] = at + c;
        }
        if times[s].len() > ran {
            let ends = if v > 1 { [0, n - 1] } else { [n, n] };
            for w in [s.wrapping_sub(1), s + 1, ends[0], ends[1]] {
                if w < n && w != s && !queued[w] {
                    queued[w] = true;
                    work.push(w);
                }
            }
        }
    }
    Run {
        times,
        orders,
        done,
        shape: (pp, v, m),
        period,
        schedule,
    }
}

/// Whether a pass carries sharded traffic under recipe `r` (traffic
/// paid once per step runs before the first pass and after the last).
pub(super) fn carries(r: &Recipe) -> bool {
    r.sharded_every_pass
}

/// (compute done, free) offsets of `op` on a stage made by `r`.
pub(super) fn span_of(r: &Recipe, op: Op) -> (f64, f64) {
    let mut sink = Sink {
        out: None,
        group: r.layers,
    };
    pass::lay_out(r, op, 0.0, carries(r), &mut sink)
}

/// The work before a stage's first pass (ZeRO-1's gather of the updated
/// parameters): intervals from 0, and when the stage is free.
pub(super) fn before(r: &Recipe, out: Option<&mut Vec<Interval>>) -> f64 {
    let b = r.buckets_fwd;
    let exposed = b.exposed.0 + r.once_fwd.0;
    let stretch = b.stretch.0 + r.once_fwd.1;
    if let Some(out) = out {
        push(out, Stream::Data, Kind::AllGather, (0.0, exposed), None);
        push(
            out,
            Stream::Compute,
            Kind::Contention,
            (exposed, exposed + stretch),
            None,
        );
    }
    exposed + stretch
}

/// The work after a stage's last pass: the compute slowed by bucketed
/// traffic, what of the traffic shows, and the optimizer. Returns the end.
pub(super) fn after(r: &Recipe, t: f64, out: Option<&mut Vec<Interval>>) -> f64 {
    let b = r.buckets_bwd;
    let (stretch, exposed) = (b.stretch.0 + r.once_bwd.1, b.exposed.0 + r.once_bwd.0);
    let end = t + stretch + exposed + r.optimizer;
    if let Some(out) = out {
        let kind = if r.once_bwd.0 > 0.0 {
            Kind::ReduceScatter
        } else {
            r.bucket_kind
        };
        push(
            out,
            Stream::Compute,
            Kind::Contention,
            (t, t + stretch),
            None,
        );
        push(
            out,
            Stream::Data,
            kind,
            (t + stretch, t + stretch + exposed),
            None,
        );
        push(
            out,
            Stream::Compute,
            Kind::Optimizer,
            (t + stretch + exposed, end),
            None,
        );
    }
    end
}

fn push(
    out: &mut Vec<Interval>,
    stream: Stream,
    kind: Kind,
    (a, b): (f64, f64),
    mbs: Option<(u32, u32)>,
) {
    if b > a {
        out.push(Interval {
            stream,
            kind,
            start_s: a,
            end_s: b,
            micro_batches: mbs,
            chunk: 0,
            layers: None,
            waits_for: None,
        });
    }
}

/// The pipeline of `step` simulated: each stage's passes (at most
/// [`SIMULATED_ROUNDS`] rounds of micro-batches), and what the micro-batches
/// not simulated add to every pass after the simulated steady state.
pub(super) struct Simulated {
    pub run: Run,
    /// Micro-batches simulated.
    pub m_sim: u32,
    /// What the missing micro-batches add.
    pub extra: f64,
    /// One send to the neighbouring stage.
    pub send: f64,
}

/// Micro-batches the schedule of `pp` stages of `v` chunks simulates out
/// of `m`: at most [`SIMULATED_ROUNDS`] rounds of its `period` (an
/// interleaved schedule's warm-up runs `v - 1` rounds further in), at
/// least [`MIN_SIMULATED`].
fn simulated_micro_batches(v: u32, m: u32, period: u32) -> u32 {
    let n = u64::from(period.max(1));
    let least = u64::from(MIN_SIMULATED).div_ceil(n) * n;
    let least = u32::try_from(least.min(u64::from(m))).unwrap_or(m);
    steady_micro_batches(v, m, period).max(least)
}

/// Micro-batches the step model simulates out of `m`: at most
/// [`SIMULATED_ROUNDS`] rounds (two more per extra chunk).
fn steady_micro_batches(v: u32, m: u32, period: u32) -> u32 {
    let n = u64::from(period.max(1));
    let rounds = u64::from(SIMULATED_ROUNDS) + 2 * (u64::from(v.max(1)) - 1);
    u32::try_from((rounds * n).min(u64::from(m))).unwrap_or(m)
}

/// Passes the schedule of `pp` stages of `v` chunks (1 without a
/// pipeline) over `m` micro-batches simulates: every simulated
/// micro-batch's forward and backward through every chunk of every stage.
/// [`crate::scenario::limits::SIMULATED_PASSES`] bounds it.
#[must_use]
pub fn simulated_passes(schedule: Schedule, pp: u32, v: u32, m: u32) -> u64 {
    let v = if pp > 1 { v.max(1) } else { 1 };
    let m = m.max(1);
    let n = period(schedule, pp, v, m);
    let m_sim = simulated_micro_batches(v, m, n);
    let passes = if schedule.splits_backward() { 3 } else { 2 };
    // The run two rounds longer that reads the pace ([`steady_period`]).
    let rerun = if m > m_sim && paced_by_rerun(schedule) {
        m_sim + 2 * n
    } else {
        0
    };
    passes * u64::from(v) * (u64::from(m_sim) + u64::from(rerun)) * u64::from(pp.max(1))
}

/// Simulates the pipeline of `step`, whose stages are made by `recipe`:
/// for a timeline to draw, at least [`MIN_SIMULATED`] micro-batches; for
/// the step time alone, only the rounds the steady pace needs (the same
/// makespan, the rest at that pace).
pub(super) fn simulated<'r>(
    step: &Step,
    recipe: &dyn Fn(u32) -> &'r Recipe,
    drawn: bool,
) -> Simulated {
    let cfg = &step.cfg;
    let p = cfg.layout.parallel;
    let pp = p.pp.max(1);
    let v = if pp > 1 { step.v as u32 } else { 1 };
    let m = cfg.micro_batches().max(1);
    let period = period(p.schedule, pp, v, m);
    let m_sim = if drawn {
        simulated_micro_batches(v, m, period)
    } else {
        steady_micro_batches(v, m, period)
    };
    // A pass's span depends on its stage's kind (earlier or last), its
    // direction and its chunk: a table of them, looked up per pass.
    let head = head_stage(pp, p.schedule);
    let other = if head == 0 { pp - 1 } else { 0 };
    // Forward and backward, and the weight gradient where the schedule
    // splits it off.
    let directions: &[(bool, bool)] = if p.schedule.splits_backward() {
        &[(false, false), (true, false), (true, true)]
    } else {
        &[(false, false), (true, false)]
    };
    let table: Vec<(f64, f64)> = [other, head]
        .iter()
        .flat_map(|&s| {
            directions.iter().flat_map(move |&(backward, weight)| {
                (0..v).map(move |chunk| {
                    span_of(
                        recipe(s),
                        Op {
                            backward,
                            weight,
                            mb: 0,
                            chunk,
                        },
                    )
                })
            })
        })
        .collect();
    let span = |s: u32, op: Op| {
        let kind = usize::from(s == head);
        let direction = usize::from(op.backward) + usize::from(op.weight);
        table[(kind * directions.len() + direction) * v as usize + op.chunk as usize]
    };
    let send = if pp > 1 {
        phases::pipeline_send(cfg, &step.shape, &step.links).0
    } else {
        0.0
    };
    let starts: Vec<f64> = (0..pp).map(|s| before(recipe(s), None)).collect();
    let run = simulate((pp, v, m_sim), period, p.schedule, send, &span, &starts);
    // A long run of micro-batches: the steady state grows by what the
    // missing ones take, at the pace the schedule settles into.
    let extra = if m > m_sim {
        f64::from(m - m_sim)
            * steady_period(&run, p.schedule, &|m| {
                simulate((pp, v, m), period, p.schedule, send, &span, &starts)
            })
    } else {
        0.0
    };
    Simulated {
        run,
        m_sim,
        extra,
        send,
    }
}

/// Whether [`steady_period`] reads `schedule`'s pace off a second run
/// (GPipe, and the zero-bubble schedules), which [`simulated_passes`]
/// counts too.
fn paced_by_rerun(schedule: Schedule) -> bool {
    schedule == Schedule::Gpipe || schedule.splits_backward()
}

/// Time per micro-batch of the steady state of `run` (of at least four
/// rounds of `pp` micro-batches, two more per extra chunk). Under 1F1B
/// and interleaving, the first stage's steady state pairs a forward with
/// a backward, and a schedule whose passes keep their times repeats
/// itself every round: the pace is read off the first stage's last two
/// rounds of pairs, without a second run. GPipe has no such pairs, and
/// the zero-bubble schedules' first stage settles later than the rest
/// (ZB-V's deferred weight gradients still reach it three rounds in): a
/// run of two rounds more (`rerun`) gives the pace from the two ends,
/// past where `run` has settled.
pub(super) fn steady_period(run: &Run, schedule: Schedule, rerun: &dyn Fn(u32) -> Run) -> f64 {
    let (pp, v, m) = run.shape;
    let n = run.period;
    // The zero-bubble schedules' stages differ in how many weight
    // gradients they defer, so the first stage settles into the slowest
    // stage's pace later than its last rounds: like GPipe, their pace is
    // read off two runs, the longer one two rounds past this one.
    if paced_by_rerun(schedule) {
        return (rerun(m + 2 * n).end() - run.end()) / f64::from(2 * n);
    }
    let total = (m * v) as usize;
    let warmup = warmup(pp, v, 0, total, n);
    let pairs = total - warmup;
    let span = (2 * n * v) as usize;
    let times = &run.times[0];
    // The backward of the last steady pair and of the pair two rounds back.
    let at = |pair: usize| times[warmup + 2 * pair + 1].0;
    (at(pairs - 1) - at(pairs - 1 - span)) / f64::from(2 * n)
}

/// The step's makespan under a pipeline split as `split` (earlier stages'
/// layers, the last stage's): every stage's passes simulated in its
/// schedule's order, each stage's end its last pass, the traffic after it
/// and its optimizer step. The step model ([`Step`]) takes its pipeline's
/// bubble from it, so that the step and its timeline agree.
pub(crate) fn makespan(step: &Step, split: (u32, u32)) -> f64 {
    let pp = step.cfg.layout.parallel.pp.max(1);
    let (first, last) = recipes(step, split);
    let head = head_stage(pp, step.cfg.layout.parallel.schedule);
    let recipe = |s: u32| if s == head { &last } else { &first };
    let sim = simulated(step, &recipe, false);
    (0..pp)
        .map(|s| {
            let free = sim.run.times[s as usize].last().map_or(0.0, |t| t.2);
            after(recipe(s), free + sim.extra, None)
        })
        .fold(0.0, f64::max)
}

/// A lower bound of [`makespan`] without simulating, for a pipeline of
/// one chunk per stage (0 otherwise): the first micro-batch's forward
/// climbs to a stage, that stage runs every one of its passes in turn,
/// and its last backward comes back down to the first stage, each stage
/// on the way waiting at least the pass's compute and the send: through
/// the last stage and through the last earlier one. A layout search skips
/// a pipeline this bound already rules out.
pub(crate) fn critical_path(step: &Step, split: (u32, u32)) -> f64 {
    let pp = step.cfg.layout.parallel.pp;
    if pp <= 1 || step.v > 1.0 {
        return 0.0;
    }
    let m = f64::from(step.cfg.micro_batches().max(1));
    let (first, last) = recipes(step, split);
    let op = |backward| Op {
        backward,
        weight: false,
        mb: 0,
        chunk: 0,
    };
    let (fwd_first, fwd_first_free) = span_of(&first, op(false));
    let (bwd_first, bwd_first_free) = span_of(&first, op(true));
    let (_, fwd_last_free) = span_of(&last, op(false));
    let (bwd_last, bwd_last_free) = span_of(&last, op(true));
    let send = phases::pipeline_send(&step.cfg, &step.shape, &step.links).0;
    let start = before(&first, None);
    // Through the last stage.
    let others = f64::from(pp - 1);
    let last_starts = (start + others * (fwd_first + send)).max(before(&last, None));
    let final_pass = last_starts + m * fwd_last_free + (m - 1.0) * bwd_last_free;
    let back = final_pass + bwd_last + others * send + (others - 1.0) * bwd_first + bwd_first_free;
    let through_last =
        after(&last, final_pass + bwd_last_free, None).max(after(&first, back, None));
    // Through the earlier stage next to the last.
    let below = f64::from(pp - 2);
    let final_pass =
        start + below * (fwd_first + send) + m * fwd_first_free + (m - 1.0) * bwd_first_free;
    let back = final_pass + below * (send + bwd_first) + bwd_first_free;
    through_last.max(after(&first, back, None))
}

/// The stage of `pp` that runs the output head: the last, or under ZB-V
/// the first, where the V turns into its way back.
pub(crate) fn head_stage(pp: u32, schedule: Schedule) -> u32 {
    if schedule.v_shape() || pp <= 1 {
        0
    } else {
        pp.max(1) - 1
    }
}

/// The recipes of a stage without the output head and of the one with
/// it (the same stage without a pipeline).
fn recipes(step: &Step, split: (u32, u32)) -> (Recipe, Recipe) {
    let last = Recipe::of(step, split.1, true);
    if step.cfg.layout.parallel.pp > 1 {
        (Recipe::of(step, split.0, false), last)
    } else {
        (last, last)
    }
}

/// Lays out the step of `step`, whose pipeline holds `split` layers
/// (earlier stages, last stage).
pub(super) fn lay_out(step: &Step, split: (u32, u32)) -> Timeline {
    let cfg = &step.cfg;
    let p = cfg.layout.parallel;
    let pp = p.pp.max(1);
    let m = cfg.micro_batches().max(1);
    let schedule = p.schedule;
    let (first, last) = recipes(step, split);
    let slowest_is_first = step.slowest_is_first(split);
    let head = head_stage(pp, schedule);
    let recipe = |s: u32| if s == head { &last } else { &first };
    let Simulated {
        run,
        m_sim,
        extra,
        send,
    } = simulated(step, &recipe, true);
    let v = run.chunks();
    let ops = run.orders.first().map_or(0, Vec::len) as u32;
    let keep = (2 * pp * v + 8).min(MOST_KEPT).min(ops.div_ceil(2));
    let detailed_ops = (2 * keep).min(ops).max(1);
    let per_pass = INTERVAL_BUDGET / detailed_ops;
    let max_layers = split.0.max(split.1).max(1);
    let groups = (per_pass / 6).clamp(1, max_layers);
    let group = max_layers.div_ceil(groups);
    let ctx = super::draw::Draw {
        run: &run,
        m,
        m_sim,
        keep,
        group,
        extra,
        send,
    };
    let mut stages = Vec::new();
    let mut step_s: f64 = 0.0;
    for s in 0..pp {
        let r = recipe(s);
        let drawn = s == 0 || s + 1 == pp;
        let mut intervals = Vec::new();
        let end = ctx.stage(r, s, if drawn { Some(&mut intervals) } else { None });
        step_s = step_s.max(end);
        if drawn {
            stages.push(StageTimeline {
                stage: s,
                layers: r.layers,
                slowest: (s == head) != slowest_is_first || pp == 1,
                intervals,
                compute_s: 0.0,
                host_s: 0.0,
                exposed_comm_s: 0.0,
                waiting_s: 0.0,
                exposed: Vec::new(),
            });
        }
    }
    for st in &mut stages {
        st.intervals.sort_by(|a, b| {
            (a.stream as u8)
                .cmp(&(b.stream as u8))
                .then(a.start_s.total_cmp(&b.start_s))
        });
        measure(st, step_s);
    }
    Timeline {
        step_s,
        pp,
        micro_batches: m,
        chunks: v,
        schedule,
        layers_per_group: group,
        detailed_passes: keep,
        stages,
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
