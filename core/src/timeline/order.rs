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
    let op = |backward, weight, mb| Op {
        backward,
        weight,
        mb,
        chunk: 0,
    };
    let mut out = Vec::with_capacity(3 * m as usize);
    let warm = (pp - s - 1).min(m);
    out.extend((0..warm).map(|i| op(false, false, i)));
    let (mut fs, mut bs, mut ws) = (warm, 0, 0);
    while bs < m {
        if fs < m {
            out.push(op(false, false, fs));
            fs += 1;
        }
        out.push(op(true, false, bs));
        bs += 1;
        if bs - ws > s {
            out.push(op(true, true, ws));
            ws += 1;
        }
    }
    out.extend((ws..m).map(|i| op(true, true, i)));
    out
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
    /// Appends chunk `c`'s next pass of `kind` (0 F, 1 B, 2 W).
    fn push(out: &mut Vec<Op>, next: &mut [[u32; 3]; 2], c: usize, kind: usize) {
        out.push(Op {
            backward: kind > 0,
            weight: kind == 2,
            mb: next[c][kind],
            chunk: c as u32,
        });
        next[c][kind] += 1;
    }
    let n = m.max(2 * pp - 1);
    let mut out = Vec::with_capacity(6 * n as usize);
    let mut next = [[0_u32; 3]; 2];
    for _ in 0..2 * (pp - s) - 1 {
        push(&mut out, &mut next, 0, 0);
    }
    for _ in 0..s {
        push(&mut out, &mut next, 1, 0);
        push(&mut out, &mut next, 0, 0);
    }
    for _ in 0..pp - s {
        for kind in 0..3 {
            push(&mut out, &mut next, 1, kind);
        }
    }
    while next[1][0] < next[0][0] || next[0][0] < n {
        if next[0][0] < n {
            push(&mut out, &mut next, 0, 0);
        }
        for (c, kind) in [(0, 1), (0, 2), (1, 0), (1, 1), (1, 2)] {
            push(&mut out, &mut next, c, kind);
        }
    }
    for _ in 0..s {
        push(&mut out, &mut next, 0, 1);
        push(&mut out, &mut next, 1, 1);
    }
    for _ in 0..pp - s {
        push(&mut out, &mut next, 0, 1);
        push(&mut out, &mut next, 0, 2);
    }
    for c in [1, 0] {
        while next[c][2] < n {
            push(&mut out, &mut next, c, 2);
        }
    }
    out.retain(|op| op.mb < m);
    out
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
