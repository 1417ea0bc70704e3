//! Unit tests of `schedule`.
use super::*;
use crate::scenario::Scenario;
use crate::timeline::micro_batch_group;

/// The pace read off one run's first stage is the pace between the
/// ends of two runs two rounds apart, for pipelines of every schedule,
/// depth and balance (the last stage runs the head).
#[test]
fn steady_pace_of_one_run_is_the_pace_between_two_runs() {
    let base = Scenario::example().to_config().unwrap();
    let mut checked = 0;
    use Schedule::{DualPipeV, Interleaved, OneFOneB, ZeroBubbleH1, ZeroBubbleV};
    for (pp, v, schedule) in [
        (2, 1, OneFOneB),
        (3, 1, OneFOneB),
        (4, 1, OneFOneB),
        (8, 1, OneFOneB),
        (4, 2, Interleaved),
        (8, 2, Interleaved),
        (2, 4, Interleaved),
        (16, 2, Interleaved),
        (4, 1, ZeroBubbleH1),
        (8, 1, ZeroBubbleH1),
        (4, 2, ZeroBubbleV),
        (8, 2, ZeroBubbleV),
        (4, 2, DualPipeV),
        (8, 2, DualPipeV),
    ] {
        for mb in [1, 2] {
            for tp in [1, 8] {
                let mut cfg = base;
                let p = &mut cfg.layout.parallel;
                p.pp = pp;
                p.tp = tp;
                p.virtual_stages = v;
                p.schedule = schedule;
                let zero_bubble = schedule.splits_backward();
                cfg.layout.micro_batch = mb;
                let step = Step::new(&cfg);
                let (first, last) = recipes(&step, cfg.pipeline_split());
                let head = head_stage(pp, schedule);
                let recipe = |s: u32| if s == head { &last } else { &first };
                // A step of 10,000 micro-batches, or (interleaved) of a
                // count off the rounds of PP, which groups them otherwise.
                let total = if v > 1 && mb == 2 { 10_006 } else { 10_000 };
                let period = period(cfg.layout.parallel.schedule, pp, step.v as u32, total);
                let m = simulated_micro_batches(step.v as u32, total, period);
                let send = phases::pipeline_send(&cfg, &step.shape, &step.links).0;
                let starts: Vec<f64> = (0..pp).map(|s| before(recipe(s), None)).collect();
                let span = |s: u32, op: Op| span_of(recipe(s), op);
                let run_of = |m| {
                    simulate(
                        (pp, step.v as u32, m),
                        period,
                        p_schedule(&cfg),
                        send,
                        &span,
                        &starts,
                    )
                };
                let run = run_of(m);
                if zero_bubble {
                    // Read off two runs: the pace carries a short run to
                    // the end of a long one, simulated whole.
                    let pace = steady_period(&run, p_schedule(&cfg), &run_of);
                    let long = m + 4 * pp;
                    let carried = run.end() + f64::from(long - m) * pace;
                    let whole = run_of(long).end();
                    assert!(
                        (carried - whole).abs() <= 1e-9 * whole,
                        "pp {pp} mb {mb} tp {tp}: {carried} vs {whole}"
                    );
                }
                let one = steady_period(&run, p_schedule(&cfg), &run_of);
                let two = steady_period(&run, Schedule::Gpipe, &run_of);
                assert!(
                    (one - two).abs() <= 1e-9 * two.abs().max(1e-12),
                    "pp {pp} v {v} mb {mb} tp {tp}: {one} vs {two}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 56);
}

fn p_schedule(cfg: &crate::scenario::Config) -> Schedule {
    cfg.layout.parallel.schedule
}

#[test]
fn interleaving_groups_micro_batches_as_megatron_allows() {
    // Whole rounds of PP keep Megatron's default group; otherwise the least
    // group whose last one is empty or holds at least PP.
    assert_eq!(micro_batch_group(16, 32), 16);
    assert_eq!(micro_batch_group(16, 24), 24);
    assert_eq!(micro_batch_group(16, 40), 20);
    assert_eq!(micro_batch_group(4, 10), 5);
    assert_eq!(micro_batch_group(4, 11), 6);
    for pp in 2..=16_u32 {
        for m in pp..=200 {
            let n = micro_batch_group(pp, m);
            assert!(n >= pp && n <= m, "pp {pp} m {m}: {n}");
            assert!(m % n == 0 || m % n >= pp, "pp {pp} m {m}: {n}");
        }
    }
}

#[test]
fn a_micro_batch_count_off_the_rounds_runs_each_group_through_every_chunk() {
    // 22 micro-batches on 4 stages of 2 chunks: groups of 6 (the last of
    // 4, a full round of the stages), 5 leaving a last group of 2.
    assert_eq!(micro_batch_group(4, 22), 6);
    let order = order(Schedule::Interleaved, (4, 2, 22), 6, 0);
    let first_backward = order.iter().position(|op| op.backward).unwrap();
    // Megatron's warm-up, 2 (pp - 1) + (v - 1) × group forwards, then
    // one forward before each backward.
    assert_eq!(first_backward, 2 * 3 + 6 + 1);
    // The first group runs chunk 0 for its six micro-batches, then chunk 1.
    let chunks: Vec<u32> = order[..12].iter().map(|op| op.chunk).collect();
    assert_eq!(chunks, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    assert_eq!(order.len(), 2 * 2 * 22);
    // Every micro-batch crosses both chunks, forward and backward, once.
    for backward in [false, true] {
        for chunk in 0..2 {
            let mut mbs: Vec<u32> = order
                .iter()
                .filter(|op| op.backward == backward && op.chunk == chunk)
                .map(|op| op.mb)
                .collect();
            mbs.sort_unstable();
            assert_eq!(mbs, (0..22).collect::<Vec<_>>());
        }
    }
}

/// ZB-H1 simulated with equal F, B and W passes and free sends (or any
/// pass times with W no longer than F + B) takes the paper's step,
/// `m (F + B + W) + (pp - 1)(F + B - W)`, against 1F1B's
/// `(m + pp - 1)(F + B + W)`, and no stage holds more than `pp`
/// micro-batches between a forward and its weight gradient.
#[test]
fn zero_bubble_h1_takes_the_papers_step_at_one_f_one_b_memory() {
    for (pp, m) in [(2, 2), (4, 8), (4, 13), (8, 8), (8, 32), (16, 48)] {
        for (f, b, w) in [
            (1.0, 1.0, 1.0),
            (1.0, 1.2, 0.8),
            (1.0, 1.5, 1.0),
            (1.0, 1.0, 0.5),
        ] {
            let span = |_: u32, op: Op| {
                let t = match (op.backward, op.weight) {
                    (false, _) => f,
                    (true, false) => b,
                    (true, true) => w,
                };
                (t, t)
            };
            let starts = vec![0.0; pp as usize];
            let run = simulate((pp, 1, m), pp, Schedule::ZeroBubbleH1, 0.0, &span, &starts);
            let end = run.end();
            let paper = f64::from(m) * (f + b + w) + f64::from(pp - 1) * (f + b - w);
            assert!(
                (end - paper).abs() < 1e-9,
                "pp {pp} m {m} ({f}, {b}, {w}): {end} vs {paper}"
            );
            let whole = |_: u32, op: Op| if op.backward { (b + w, b + w) } else { (f, f) };
            let plain = simulate((pp, 1, m), pp, Schedule::OneFOneB, 0.0, &whole, &starts);
            let plain_end = plain.end();
            assert!((plain_end - f64::from(m + pp - 1) * (f + b + w)).abs() < 1e-9);
            for (s, order) in run.orders.iter().enumerate() {
                let mut live: i64 = 0;
                let mut most = 0;
                for op in order {
                    live += match (op.backward, op.weight) {
                        (false, _) => 1,
                        (true, true) => -1,
                        (true, false) => 0,
                    };
                    most = most.max(live);
                }
                assert!(most <= i64::from(pp.min(m)), "stage {s}: {most}");
                assert_eq!(order.len(), 3 * m as usize);
            }
        }
    }
}

/// ZB-V simulated with equal F, B and W chunk passes and free sends, from
/// `2 pp - 1` micro-batches up, takes its work plus `pp - 1` passes (the
/// stages' staggered start), against 1F1B's `3 (pp - 1)` of its two-chunk
/// passes; no stage holds more than `2 pp` chunks (`pp` stages' worth, the
/// first stage's 1F1B peak) between a forward and its weight gradient.
///
/// DualPipeV, at least `2 pp` micro-batches, takes the same step with its
/// forward and backward passes paired (DualPipe's bubble of
/// `(PP/2 - 1)(F&B + B - 3W)` over its `PP = 2 pp` stages, a pair taking
/// `F + B + W` here, where compute does not overlap), holding one chunk
/// more (DualPipe's `PP + 1`).
#[test]
fn zero_bubble_v_leaves_only_the_staggered_start_at_one_f_one_b_memory() {
    let cases = [(2, 3), (2, 4), (4, 7), (4, 8), (4, 13), (8, 16), (8, 32)];
    for (schedule, pp, m) in cases
        .iter()
        .map(|&(pp, m)| (Schedule::ZeroBubbleV, pp, m))
        .chain(
            [(2, 4), (4, 8), (4, 9), (8, 16), (8, 33)]
                .iter()
                .map(|&(pp, m)| (Schedule::DualPipeV, pp, m)),
        )
    {
        let span = |_: u32, _: Op| (1.0, 1.0);
        let starts = vec![0.0; pp as usize];
        let run = simulate((pp, 2, m), pp, schedule, 0.0, &span, &starts);
        let end = run.end();
        assert!(
            (end - f64::from(6 * m + pp - 1)).abs() < 1e-9,
            "{schedule:?} pp {pp} m {m}: {end}"
        );
        for (s, order) in run.orders.iter().enumerate() {
            assert_eq!(order.len(), 6 * m as usize);
            let mut live: i64 = 0;
            let mut most = 0;
            for op in order {
                live += i64::from(!op.backward) - i64::from(op.weight);
                most = most.max(live);
            }
            let extra = i64::from(schedule == Schedule::DualPipeV);
            assert!(
                most <= 2 * i64::from(pp) + extra,
                "{schedule:?} stage {s}: {most}"
            );
        }
    }
}

/// Without a pipeline the zero-bubble schedules have no V to turn and no
/// drain to fill: the one stage runs its forward, B and W passes, and the
/// timeline's step is the step model's (ZB-V once drew chunk 1's passes
/// into a table of one chunk and panicked).
#[test]
fn zero_bubble_schedules_without_a_pipeline_run_one_stage() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
    for schedule in [
        Schedule::ZeroBubbleH1,
        Schedule::ZeroBubbleV,
        Schedule::DualPipeV,
    ] {
        cfg.layout.parallel.schedule = schedule;
        cfg.layout.parallel.pp = 1;
        let report = crate::evaluate::evaluate(&cfg).unwrap();
        let t = crate::timeline::timeline(&cfg).unwrap();
        assert!((t.step_s - report.step_time_s).abs() <= 1e-9 * report.step_time_s);
        assert_eq!(report.virtual_stages, 1);
        assert_eq!(cfg.embedding_matrices(), 2.0);
    }
}

/// One stage simulates at most 3 × (32 + 34) passes whatever the
/// micro-batches and chunks, so the check of the bound on simulated passes
/// asks only a pipeline.
#[test]
fn one_stage_never_nears_the_bound_on_simulated_passes() {
    for schedule in crate::scenario::Schedule::ALL {
        for m in [1, 2, 31, 32, 33, 1000, u32::MAX] {
            for v in [1, 2, 8, 1000] {
                let passes = simulated_passes(schedule, 1, v, m);
                assert!(
                    passes <= 3 * (32 + 34),
                    "{schedule:?} m {m} v {v}: {passes}"
                );
            }
        }
    }
}

/// The stage that runs the output head puts its larger chunks first and
/// leaves the smallest last, beside the head (Megatron-Core's loss
/// counted as a layer, torchtitan's output weighing one): Llama 3.1
/// 405B's last stage of 7 layers in 4 chunks holds 2, 2, 2 and 1 with the
/// head; an earlier stage leaves its larger chunks last.
#[test]
fn the_head_stage_leaves_its_short_chunk_beside_the_head() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.model = crate::model::preset("llama3-405b").unwrap();
    let p = &mut cfg.layout.parallel;
    (p.tp, p.pp, p.schedule, p.virtual_stages) = (8, 16, Schedule::Interleaved, 4);
    cfg.global_batch = 64;
    let step = Step::new(&cfg);
    let chunks = |layers, head| {
        let r = Recipe::of(&step, layers, head);
        (0..4).map(|c| r.chunk_layers(c)).collect::<Vec<_>>()
    };
    assert_eq!(chunks(7, true), [(1, 2), (3, 4), (5, 6), (7, 7)]);
    assert_eq!(chunks(6, true), [(1, 2), (3, 4), (5, 5), (6, 6)]);
    assert_eq!(chunks(3, true), [(1, 1), (2, 2), (3, 3), (4, 3)]);
    assert_eq!(chunks(7, false), [(1, 1), (2, 3), (4, 5), (6, 7)]);
}
