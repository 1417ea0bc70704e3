//! Each stage's order of passes under GPipe, 1F1B, interleaved 1F1B
//! (Megatron's order, its warm-up and its groups of micro-batches) and
//! zero-bubble ZB-H1 (each backward split into B and W), and
//! what a pass needs from another stage before it can start.

use super::pass::Op;
use super::Pass;
use crate::scenario::Schedule;
use alloc::vec::Vec;

/// Micro-batches an interleaved schedule of `pp` stages takes through
/// every chunk before the next ones, out of `m` (Megatron-Core's
/// `microbatch_group_size_per_vp_stage`): `pp`, its default, where the
/// micro-batches come in whole rounds of `pp`; otherwise the least group
/// up to `4 × pp` whose last one is empty or holds at least `pp` (the
/// schedule's own condition, so that no stage waits on a dependency
/// inside a group), else every micro-batch in one group. Llama 3 405B
/// ran micro-batch counts that are no multiple of its 16 stages.
// Source: NVIDIA/Megatron-LM megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving (group in [PP, M], remainder 0 or at least PP) and get_schedule_table (the last group shorter)
#[must_use]
pub fn micro_batch_group(pp: u32, m: u32) -> u32 {
    let pp = pp.max(1);
    if m % pp == 0 || m <= pp {
        return pp;
    }
    (pp + 1..=m.min(4 * pp))
        .find(|n| m % n == 0 || m % n >= pp)
        .unwrap_or(m)
}

/// Micro-batches after which `schedule` over `pp` stages and `v` chunks
/// and `m` micro-batches repeats itself: the interleaved schedule's group
/// ([`micro_batch_group`]), else `pp`. The order and the warm-up take it
/// as the interleaved group; the other schedules ignore it.
pub(super) fn period(schedule: Schedule, pp: u32, v: u32, m: u32) -> u32 {
    if schedule == Schedule::Interleaved && v > 1 {
        micro_batch_group(pp, m)
    } else {
        pp.max(1)
    }
}

/// Each stage's passes in the order it runs them, an interleaved schedule
/// taking `group` micro-batches through every chunk at a time.
pub(super) fn order(
    schedule: Schedule,
    (pp, v, m): (u32, u32, u32),
    group: u32,
    s: u32,
) -> Vec<Op> {
    let f = |mb, chunk| Op {
        backward: false,
        weight: false,
        mb,
        chunk,
    };
    let b = |mb, chunk| Op {
        backward: true,
        weight: false,
        mb,
        chunk,
    };
    // One stage has no V to turn: its chunk runs as ZB-H1's.
    if schedule.pairs_micro_batches() && pp > 1 {
        return dual_pipe_v(pp, m, s);
    }
    if schedule.v_shape() && pp > 1 {
        return zero_bubble_v(pp, m, s);
    }
    if schedule.splits_backward() {
        return zero_bubble_h1(pp, m, s);
    }
    let mut out = Vec::with_capacity(2 * (m * v) as usize);
    if schedule == Schedule::Gpipe {
        out.extend((0..m).map(|i| f(i, 0)));
        out.extend((0..m).map(|i| b(i, 0)));
        return out;
    }
    // Megatron's order: micro-batches in groups of `pp`, each group through
    // every chunk (forward up, backward down).
    let group = if v > 1 { group.max(1) } else { m.max(1) };
    let mut fs = Vec::with_capacity((m * v) as usize);
    let mut bs = Vec::with_capacity((m * v) as usize);
    let mut g = 0;
    while g < m {
        let end = (g + group).min(m);
        for c in 0..v {
            fs.extend((g..end).map(|i| f(i, c)));
            bs.extend((g..end).map(|i| b(i, v - 1 - c)));
        }
        g = end;
    }
    let total = fs.len();
    let warmup = warmup(pp, v, s, total, group);
    out.extend_from_slice(&fs[..warmup]);
    for i in 0..total - warmup {
        out.push(fs[warmup + i]);
        out.push(bs[i]);
    }
    out.extend_from_slice(&bs[total - warmup..]);
    out
}

/// ZB-H1's order on stage `s` of `pp` over `m` micro-batches: 1F1B's
/// warm-up of `pp - s - 1` forwards, then per micro-batch a forward and
/// an input-gradient backward (B), each B followed by the weight gradient
/// (W) of the micro-batch `s` before it, the deferred W's closing the
/// drain. The stages nearer the loss, which 1F1B leaves idle longest at
/// the end, defer the most; every stage holds at most `pp` micro-batches
/// (1F1B's peak, the first stage's). With equal F, B and W passes and free
/// sends the step is `m (F + B + W) + (pp - 1)(F + B - W)`, the paper's.
// Source: Qi et al., "Zero Bubble Pipeline Parallelism" (ICLR 2024), section 3.1 and figure 3 (ZB-H1)
fn zero_bubble_h1(pp: u32, m: u32, s: u32) -> Vec<Op> {
    let mut o = Orders::new(3 * m);
    for _ in 0..(pp - s - 1).min(m) {
        o.forward(0);
    }
    while o.next[0][1] < m {
        if o.next[0][0] < m {
            o.forward(0);
        }
        o.input(0);
        if o.next[0][1] - o.next[0][2] > s {
            o.weight(0);
        }
    }
    while o.next[0][2] < m {
        o.weight(0);
    }
    o.out
}

/// ZB-V's order on stage `s` of `pp` over `m` micro-batches, chunk 0 the
/// V's way down and chunk 1 its way back: `2 (pp - s) - 1` forwards of
/// chunk 0, `s` pairs of both chunks' forwards, `pp - s` rounds of chunk
/// 1's forward, B and W; then per micro-batch both chunks' forward, B and
/// W; the drain runs the B's first and the deferred W's last. Below
/// `2 pp - 1` micro-batches the order is the longer one's, without the
/// micro-batches that do not exist.
// Source: pytorch/pytorch torch/distributed/pipelining/schedules.py, ScheduleZBVZeroBubble._calculate_single_rank_operations (Qi et al., "Zero Bubble Pipeline Parallelism", section 6)
fn zero_bubble_v(pp: u32, m: u32, s: u32) -> Vec<Op> {
    let n = m.max(2 * pp - 1);
    let mut o = Orders::new(6 * n);
    for _ in 0..2 * (pp - s) - 1 {
        o.forward(0);
    }
    for _ in 0..s {
        o.forward(1);
        o.forward(0);
    }
    for _ in 0..pp - s {
        o.forward(1);
        o.backward(1, true);
    }
    while o.next[1][0] < o.next[0][0] || o.next[0][0] < n {
        if o.next[0][0] < n {
            o.forward(0);
        }
        o.backward(0, true);
        o.forward(1);
        o.backward(1, true);
    }
    for _ in 0..s {
        o.input(0);
        o.input(1);
    }
    for _ in 0..pp - s {
        o.input(0);
        o.weight(0);
    }
    for c in [1, 0] {
        while o.next[c][2] < n {
            o.weight(c);
        }
    }
    let mut out = o.out;
    out.retain(|op| op.mb < m);
    out
}

/// DualPipeV's order on stage `s` of `pp` over `m` (at least `2 pp`)
/// micro-batches, ZB-V's chunks: chunk 0's forwards, both chunks'
/// forwards, chunk 1's B each with a deferred W and a forward; then the
/// steady pairs, one micro-batch's forward beside another's whole
/// backward (B then W), chunk 0's forward with chunk 1's backward and
/// chunk 1's forward with chunk 0's; the drain's B's, from the middle of
/// it on without their W's, which close the step.
// Source: pytorch/pytorch torch/distributed/pipelining/schedules.py, ScheduleDualPipeV._calculate_single_rank_operations (deepseek-ai/DualPipe, DualPipeV)
fn dual_pipe_v(pp: u32, m: u32, s: u32) -> Vec<Op> {
    let mut o = Orders::new(6 * m);
    for _ in 0..2 * (pp - s - 1) {
        o.forward(0);
    }
    for _ in 0..=s {
        o.forward(0);
        o.forward(1);
    }
    for _ in 0..pp - s - 1 {
        o.backward(1, false);
        o.deferred_weight();
        o.forward(1);
    }
    for _ in 0..(m + s + 1).saturating_sub(2 * pp) {
        o.forward(0);
        o.backward(1, true);
        o.forward(1);
        o.backward(0, true);
    }
    for _ in 0..pp - s - 1 {
        o.backward(1, true);
        o.forward(1);
        o.backward(0, true);
    }
    // The second half of the drain splits its backwards, its W's deferred.
    let half = s.div_ceil(2);
    let mut whole = true;
    for i in 0..=s {
        if i == half && s % 2 == 1 {
            whole = false;
        }
        o.backward(1, whole);
        if i == half && s % 2 == 0 {
            whole = false;
        }
        o.backward(0, whole);
    }
    for _ in 0..pp - s - 1 {
        o.deferred_weight();
        o.backward(0, whole);
    }
    for _ in 0..=s {
        o.deferred_weight();
    }
    o.out
}

/// A zero-bubble stage's passes as they are appended: each chunk's next
/// forward, B and W (`next[chunk]`), and the chunks whose W's wait behind
/// split backwards, taken oldest first (`taken` of them so far).
struct Orders {
    out: Vec<Op>,
    next: [[u32; 3]; 2],
    deferred: Vec<usize>,
    taken: usize,
}

impl Orders {
    fn new(passes: u32) -> Self {
        Self {
            out: Vec::with_capacity(passes as usize),
            next: [[0; 3]; 2],
            deferred: Vec::new(),
            taken: 0,
        }
    }
    /// Chunk `c`'s next pass of `kind` (0 F, 1 B, 2 W).
    fn pass(&mut self, c: usize, kind: usize) {
        self.out.push(Op {
            backward: kind > 0,
            weight: kind == 2,
            mb: self.next[c][kind],
            chunk: c as u32,
        });
        self.next[c][kind] += 1;
    }
    fn forward(&mut self, c: usize) {
        self.pass(c, 0);
    }
    fn input(&mut self, c: usize) {
        self.pass(c, 1);
    }
    fn weight(&mut self, c: usize) {
        self.pass(c, 2);
    }
    /// Chunk `c`'s next backward: B and W at once when `whole`, else B
    /// with its W deferred.
    fn backward(&mut self, c: usize, whole: bool) {
        self.input(c);
        if whole {
            self.weight(c);
        } else {
            self.deferred.push(c);
        }
    }
    fn deferred_weight(&mut self) {
        if let Some(&c) = self.deferred.get(self.taken) {
            self.taken += 1;
            self.weight(c);
        }
    }
}

/// Forwards stage `s` runs before its first backward under 1F1B (with `v`
/// chunks, Megatron's interleaved warm-up over groups of `group`
/// micro-batches), of its `total` forwards.
pub(super) fn warmup(pp: u32, v: u32, s: u32, total: usize, group: u32) -> usize {
    if v > 1 {
        ((pp - s - 1) * 2 + (v - 1) * group) as usize
    } else {
        (pp - s - 1) as usize
    }
    .min(total)
}

/// What pass `op` on stage `s` needs first, and whether it comes over a
/// link from another stage.
pub(super) fn needs(op: Op, s: u32, pp: u32, v: u32, v_shape: bool) -> Option<(Pass, bool)> {
    // A weight gradient follows its own stage's input gradient, which the
    // stage's order already runs first.
    if op.weight {
        return None;
    }
    let pass = |stage, chunk, backward| Pass {
        stage,
        micro_batch: op.mb,
        chunk,
        backward,
    };
    if v_shape {
        // Chunk 0's forward runs down the stages and chunk 1's back up;
        // the last stage turns it round without a send, the first runs the
        // loss and turns it into chunk 1's backward, which runs down, and
        // chunk 0's back up.
        let last = s + 1 == pp;
        return Some(match (op.backward, op.chunk) {
            (false, 0) => (pass(s.checked_sub(1)?, 0, false), true),
            (false, _) if last => (pass(s, 0, false), false),
            (false, _) => (pass(s + 1, 1, false), true),
            (true, 0) if last => (pass(s, 1, true), false),
            (true, 0) => (pass(s + 1, 0, true), true),
            (true, _) if s == 0 => (pass(s, 1, false), false),
            (true, _) => (pass(s - 1, 1, true), true),
        });
    }
    if !op.backward {
        if s > 0 {
            Some((pass(s - 1, op.chunk, false), true))
        } else if op.chunk > 0 {
            Some((pass(pp - 1, op.chunk - 1, false), pp > 1))
        } else {
            None
        }
    } else if s + 1 < pp {
        Some((pass(s + 1, op.chunk, true), true))
    } else if op.chunk + 1 < v {
        Some((pass(0, op.chunk + 1, true), pp > 1))
    } else {
        Some((pass(s, op.chunk, false), false))
    }
}
