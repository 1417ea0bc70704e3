//! Each stage's order of passes under GPipe, 1F1B and interleaved 1F1B
//! (Megatron's order, its warm-up and its groups of micro-batches), and
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

/// Micro-batches after which a schedule of `pp` stages and `v` chunks over
/// `m` micro-batches repeats itself: the interleaved schedule's group
/// ([`micro_batch_group`]), else `pp`. The order and the warm-up take it
/// as the interleaved group; one chunk ignores it.
pub(super) fn period(pp: u32, v: u32, m: u32) -> u32 {
    if v > 1 {
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
        mb,
        chunk,
    };
    let b = |mb, chunk| Op {
        backward: true,
        mb,
        chunk,
    };
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
pub(super) fn needs(op: Op, s: u32, pp: u32, v: u32) -> Option<(Pass, bool)> {
    let pass = |stage, chunk, backward| Pass {
        stage,
        micro_batch: op.mb,
        chunk,
        backward,
    };
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
