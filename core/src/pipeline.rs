//! The pipeline: which stage sets the step, its bubble and exposed sends
//! from the schedule simulated pass by pass ([`crate::timeline::makespan`],
//! so that the step and its timeline agree), and a lower bound of the step
//! that a layout search checks before it simulates.

use crate::collective::{self, Links};
use crate::evaluate::{Comm, StageCost, Step};
use crate::phases::{self, Shape};
use crate::scenario::{Config, Schedule};
use crate::stack::Placement;
use crate::units::{Bytes, Seconds};

impl Step {
    /// A lower bound of the step time, without simulating a pipeline
    /// (the step time itself without one).
    pub(crate) fn bound(&self, split: (u32, u32)) -> f64 {
        let (first_layers, last_layers) = split;
        let last = self.stage(last_layers, true);
        if self.cfg.layout.parallel.pp <= 1 {
            return last.breakdown.step().0;
        }
        let first_layers = first_layers.max(1);
        let first_mb = if first_layers > last_layers {
            self.stage(first_layers, false).per_mb
        } else {
            last.per_mb_with(self, first_layers, false)
        };
        self.pipeline_bound((first_layers, first_mb), &last)
    }

    /// A lower bound of the step of every layout with this one's degrees
    /// and at most its micro-batch, whatever its data-parallel flavour,
    /// schedule (of at most `chunks` per stage) or recomputation: the last
    /// stage's compute and what of its tensor-parallel collectives shows
    /// under the schedule that hides most of them, and under a pipeline the fill and drain through the
    /// earlier stages of one sequence (the smallest micro-batch). A
    /// layer's time per sequence only falls as the micro-batch grows
    /// (larger GEMMs, fewer collectives), so the floor at the largest
    /// micro-batch holds for all. With it, the fill and drain of one
    /// sequence: a micro-batch of `b` sequences fills and drains `b` times
    /// that, so `floor + fill × (b - 1)` bounds the layouts of `b`.
    pub(crate) fn floor(&self, (first_layers, last_layers): (u32, u32), chunks: u32) -> (f64, f64) {
        let layer = &self.layer;
        let per_layer = layer.forward()
            + layer.backward()
            + self.tensor.fwd
            + self.unscheduled_tensor().bwd.exposed
            + self.a2a.floor();
        let last = (per_layer * f64::from(last_layers.max(1)) + self.head_fwd * 3.0) * self.m;
        let p = self.cfg.layout.parallel;
        let per_sequence = per_layer / f64::from(self.cfg.layout.micro_batch.max(1));
        let fill = per_sequence * f64::from(first_layers) * f64::from(p.pp.max(1) - 1)
            / f64::from(chunks.max(1));
        ((last + fill).0, fill.0)
    }

    /// A looser lower bound than [`Step::bound`] that costs no stage: the
    /// same terms with no data-parallel traffic and no optimizer step
    /// (both only add to a stage), from the per-layer costs alone. A search
    /// skips what it already rules out before costing the stages.
    pub(crate) fn quick_bound(&self, (first_layers, last_layers): (u32, u32)) -> f64 {
        let p = self.cfg.layout.parallel;
        let none = crate::phases::PerMicroBatch {
            edges: Seconds(0.0),
            per_layer: Seconds(0.0),
        };
        let last_mb = self.per_mb(last_layers, true, &none).0;
        if p.pp <= 1 {
            return self.m * last_mb;
        }
        let first_mb = self.per_mb(first_layers.max(1), false, &none).0;
        self.pipeline_terms(first_layers.max(1), (first_mb, last_mb), 0.0)
            .1
    }

    /// The slowest stage, which sets the step, and whether it is one of the
    /// earlier stages (not the last, which runs the head).
    pub(crate) fn slowest(&self, split: (u32, u32)) -> (StageCost, bool) {
        let (first_layers, last_layers) = split;
        let mut last = self.stage(last_layers, true);
        if self.cfg.layout.parallel.pp <= 1 {
            return (last, false);
        }
        let first_layers = first_layers.max(1);
        // An earlier stage can only be the slower one when it holds more
        // layers than the last (which also runs the head); otherwise only
        // its time for one micro-batch is needed.
        if first_layers <= last_layers {
            let first_mb = last.per_mb_with(self, first_layers, false);
            self.pipeline(split, (first_mb, last.per_mb), &mut [&mut last]);
            return (last, false);
        }
        let mut first = self.stage(first_layers, false);
        // Both end with the step; the one with more work of its own sets it.
        let first_sets = own_work(&first) > own_work(&last);
        let per_mb = (first.per_mb, last.per_mb);
        self.pipeline(split, per_mb, &mut [&mut first, &mut last]);
        if first_sets {
            (first, true)
        } else {
            (last, false)
        }
    }

    /// Whether an earlier stage, not the last, sets the step (as
    /// [`Step::slowest`] decides it, without simulating the pipeline).
    pub(crate) fn slowest_is_first(&self, (first_layers, last_layers): (u32, u32)) -> bool {
        let first_layers = first_layers.max(1);
        self.cfg.layout.parallel.pp > 1
            && first_layers > last_layers
            && own_work(&self.stage(first_layers, false)) > own_work(&self.stage(last_layers, true))
    }

    /// A lower bound of the pipeline's makespan, from what a stage costs:
    /// the last stage cannot start before the first micro-batch's forward
    /// has crossed the earlier stages (each at least its first chunk's
    /// busy layers) nor end before it has run every micro-batch; the first
    /// stage cannot end before the last micro-batch's backward has come
    /// back down from the last stage's last pass (less the scatter that
    /// pass may end with); and no stage ends before its own work is done.
    fn pipeline_bound(&self, (first_layers, first_mb): (u32, Seconds), last: &StageCost) -> f64 {
        let (last_passes, terms) = self.pipeline_terms(
            first_layers,
            (first_mb.0, last.per_mb.0),
            last.mb_dp.edges.0,
        );
        (last_passes + last.breakdown.optimizer.0)
            .max(own_work(last).0)
            .max(terms)
    }

    /// The terms of [`Step::pipeline_bound`] that follow from each stage's
    /// time for one micro-batch (`first_mb`, `last_mb`) and the last
    /// scatter a pass may end with (`edges`): the last stage's passes after
    /// the first forward's climb, and the most of that with the last
    /// backward's way down, the first stage's own passes and, under plain
    /// 1F1B, the micro-batches' round trips.
    fn pipeline_terms(
        &self,
        first_layers: u32,
        (first_mb, last_mb): (f64, f64),
        edges: f64,
    ) -> (f64, f64) {
        let p = self.cfg.layout.parallel;
        // A zero-bubble stage ends on weight gradients nothing waits for,
        // and ZB-V's head stage starts the step and its V turns back
        // through it: each stage's own passes are what is sure.
        if p.schedule.splits_backward() {
            return (self.m * last_mb, self.m * first_mb);
        }
        let others = f64::from(p.pp - 1);
        let chunk = f64::from(first_layers / (self.v as u32).max(1));
        let send = phases::pipeline_send(&self.cfg, &self.shape, &self.links).0;
        let (fwd, bwd) = (self.busy_fwd.0 * chunk, self.busy_bwd.0 * chunk);
        let last_passes = others * (fwd + send) + self.m * last_mb;
        let first_back = last_passes - edges + others * (bwd + send);
        let own_first = self.m * first_mb;
        // Plain 1F1B: the first stage starts micro-batch j + pp only after
        // micro-batch j's backward is back, a round trip through every stage
        // and link; the last micro-batch's round trip ends the step.
        // A stage's part of the trip is its time for one micro-batch less
        // the last scatter, which the next stage down does not wait for.
        let round_trips = if p.schedule == Schedule::OneFOneB {
            let trip = (first_mb - edges).max(0.0) * others
                + (last_mb - edges).max(0.0)
                + 2.0 * others * send;
            let rounds = crate::math::floor((self.m - 1.0) / f64::from(p.pp)) + 1.0;
            rounds * trip
        } else {
            0.0
        };
        (last_passes, first_back.max(own_first).max(round_trips))
    }

    /// The pipeline's bubble and exposed sends of each stage in `stages`
    /// (the `pp - 1` earlier stages are alike; the last runs the head; each
    /// stage's time for one micro-batch in `per_mb`, earlier and last).
    /// The step is the pipeline's makespan, simulated pass by pass in the
    /// schedule's order ([`crate::timeline::makespan`]): a stage idles for
    /// what of the step is not its own work. Of that idle time, the sends
    /// of the fill and drain show (each link crossed once each way) and,
    /// under plain 1F1B, the steady state's wait for a micro-batch's round
    /// trip through the stages, where it is longer than the slowest stage's
    /// share of it; the rest is the bubble.
    fn pipeline(
        &self,
        split: (u32, u32),
        (first_mb, last_mb): (Seconds, Seconds),
        stages: &mut [&mut StageCost],
    ) {
        let p = self.cfg.layout.parallel;
        let others = f64::from(p.pp - 1);
        let send = phases::pipeline_send(&self.cfg, &self.shape, &self.links);
        // ZB-V's fill runs down and back up, and so does its drain.
        let ways = if p.schedule.v_shape() { 4.0 } else { 2.0 };
        let hops = send * (ways * others);
        let stall = if p.schedule == Schedule::OneFOneB {
            let round_trip =
                first_mb * others + last_mb + hops - first_mb.max(last_mb) * f64::from(p.pp);
            round_trip.max(Seconds(0.0)) * ((self.m - 1.0) / f64::from(p.pp))
        } else {
            Seconds(0.0)
        };
        let makespan = Seconds(crate::timeline::makespan(self, split));
        for stage in stages.iter_mut() {
            let idle = (makespan - own_work(stage)).max(Seconds(0.0));
            let b = &mut stage.breakdown;
            b.pp.exposed = (hops + stall).min(idle);
            b.bubble = idle - b.pp.exposed;
            // The sends a stage waits on are other stages' too: with fewer
            // micro-batches than stages, more than its own.
            b.pp.total = b.pp.total.max(b.pp.exposed);
        }
    }
}

/// A stage's own work in a step: everything but the bubble and the waits
/// on pipeline sends.
fn own_work(s: &StageCost) -> Seconds {
    let b = &s.breakdown;
    b.step() - b.bubble - b.pp.exposed
}

/// Whether a pipeline's neighbouring stages sit on different nodes under
/// the stack's placement.
pub(crate) fn pipeline_crosses_nodes(cfg: &Config) -> bool {
    let p = cfg.layout.parallel;
    let gpn = u64::from(cfg.cluster.domain());
    let (tp, cp, pp) = (u64::from(p.tp), u64::from(p.cp), u64::from(p.pp));
    match cfg.stack.placement {
        Placement::ModelParallelInNode => tp * cp * pp > gpn,
        Placement::PipelineOutermost => tp * cp * u64::from(cfg.dp()) >= gpn,
    }
}

/// One send of a micro-batch's activations (or their gradients) to the
/// neighbouring stage.
pub(crate) fn pipeline_send(cfg: &Config, s: &Shape, links: &Links) -> Seconds {
    let bytes = Bytes(2.0 * s.tokens * f64::from(cfg.model.hidden) / s.sp_div);
    collective::send_recv(bytes, !pipeline_crosses_nodes(cfg), links)
}

/// The pipeline's sends over one step of `m` micro-batches and `v`
/// chunks per stage: hidden in the steady state, exposed in the fill and
/// drain.
pub(crate) fn pipeline(cfg: &Config, s: &Shape, links: &Links, m: f64) -> Comm {
    let p = cfg.layout.parallel;
    if p.pp <= 1 {
        return Comm::default();
    }
    let v = f64::from(p.chunks().max(1));
    let send = pipeline_send(cfg, s, links);
    let pp = f64::from(p.pp);
    // The fill and drain cross every link once each way; with chunks the
    // hop back to the first stage hides behind the other chunks' passes.
    Comm::new(send * (2.0 * m * v), send * (2.0 * (pp - 1.0)))
}

/// How a stack holds a pipeline's layers where they do not divide evenly
/// over an interleaved schedule's chunks ([`crate::scenario::Config::pipeline_split`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PipelineSplit {
    /// Megatron-LM's: `num_layers // pp` a stage where the layers divide
    /// over the stages; where the layers with the embedding and the loss
    /// counted as a layer each fill the chunks, so
    /// (`account_for_embedding_in_pipeline_split` and
    /// `account_for_loss_in_pipeline_split`, which NVIDIA's recipes set for
    /// Llama 3.1 405B's 126 layers and the Megatron-MoE model zoo's for
    /// Qwen3 235B's 94), the first and the
    /// last stage one layer short; otherwise the balanced split
    /// ([`split_layers`]), as a recipe's first- and last-stage layer
    /// counts would set it.
    Megatron,
    /// torchtitan's: the embedding and the output weigh a layer each, and
    /// the layers and the two are spread over the model's parts (the
    /// stages' chunks; an interleaved schedule's chunks that divide the
    /// layers are even under every stack), the first parts holding one
    /// more where they do not divide (`generate_llm_fqn_per_model_part`, `input_weight` and
    /// `output_weight` 1; earlier, `pipeline_parallel_first_stage_less_layers`
    /// and `..._last_stage_less_layers`, 1 each).
    Weighted,
    /// The split that balances the head by its share of the FLOPs
    /// ([`split_layers`]).
    Balanced,
}

/// torchtitan's split ([`PipelineSplit::Weighted`]) of `layers` over `pp`
/// stages of `v` parts each, the parts dealt to the stages in turn (part
/// `i` on stage `i mod pp`): the most layers a stage before the last
/// holds, and the last stage's, which runs the output; `None` where a
/// stage would hold no layer (torchtitan refuses such a split).
///
/// ```
/// use scalescope_core::evaluate::weighted_split;
/// // 126 layers and the two on 16 stages of 4 parts: two a part.
/// assert_eq!(weighted_split(126, 16, 4), Some((8, 7)));
/// // 61 layers and the two on 4 stages of 8 parts: the first 31 parts
/// // hold two slots, the last the output alone.
/// assert_eq!(weighted_split(61, 4, 8), Some((16, 14)));
/// // 3 layers and the two on 3 stages: the last holds the output alone.
/// assert_eq!(weighted_split(3, 3, 1), None);
/// ```
#[must_use]
pub fn weighted_split(layers: u32, pp: u32, v: u32) -> Option<(u32, u32)> {
    if pp <= 1 {
        return Some((0, layers));
    }
    let (pp64, v) = (u64::from(pp), u64::from(v.max(1)));
    let slots = u64::from(layers) + 2;
    let (base, extra) = (slots / (pp64 * v), slots % (pp64 * v));
    // Stage `s` holds parts s, s + pp, ...: those below `extra` one more.
    let stage = |s: u64| {
        let more = if extra > s {
            (extra - s).div_ceil(pp64).min(v)
        } else {
            0
        };
        base * v + more
    };
    // The first stage holds the embedding, the last the output; the fewest
    // layers any stage holds is the first's or the last's.
    let (first, last) = (stage(0).checked_sub(1)?, stage(pp64 - 1).checked_sub(1)?);
    if first == 0 || last == 0 {
        return None;
    }
    let earlier = if pp > 2 { stage(1).max(first) } else { first };
    Some((u32::try_from(earlier).ok()?, u32::try_from(last).ok()?))
}

/// How a pipeline of `pp` stages holds `layers` layers when the last stage
/// also runs the output head, which costs `head` layers' time: the most
/// layers any earlier stage holds, and the last stage's layers. The split
/// minimises the slowest stage (Megatron's uneven first and last stages,
/// as Llama 3 405B ran 126 layers on 16 stages). Every stage holds at least
/// one layer; without a pipeline the one stage holds them all.
///
/// ```
/// use scalescope_core::evaluate::split_layers;
/// assert_eq!(split_layers(32, 1, 0.2), (0, 32));
/// assert_eq!(split_layers(126, 16, 0.7), (8, 7));
/// ```
#[must_use]
pub fn split_layers(layers: u32, pp: u32, head: f64) -> (u32, u32) {
    if pp <= 1 || layers < pp {
        return (0, layers);
    }
    let others = pp - 1;
    let most_last = layers - others;
    let cost = |n: u32| f64::from((layers - n).div_ceil(others)).max(f64::from(n) + head);
    let guess =
        crate::math::floor((f64::from(layers) - f64::from(others) * head.max(0.0)) / f64::from(pp))
            .clamp(1.0, f64::from(most_last));
    // In range by the clamp; a float-to-int cast saturates.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let guess = guess as u32;
    // The cost falls then rises in n; the floor of the balance point or
    // the next count is the least.
    let next = (guess + 1).min(most_last);
    let best = if cost(next) < cost(guess) {
        next
    } else {
        guess
    };
    ((layers - best).div_ceil(others), best)
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
