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
    for (pp, v) in [
        (2, 1),
        (3, 1),
        (4, 1),
        (8, 1),
        (4, 2),
        (8, 2),
        (2, 4),
        (16, 2),
    ] {
        for mb in [1, 2] {
            for tp in [1, 8] {
                let mut cfg = base;
                let p = &mut cfg.layout.parallel;
                p.pp = pp;
                p.tp = tp;
                p.virtual_stages = v;
                p.schedule = if v > 1 {
                    Schedule::Interleaved
                } else {
                    Schedule::OneFOneB
                };
                cfg.layout.micro_batch = mb;
                let step = Step::new(&cfg);
                let (first, last) = recipes(&step, cfg.pipeline_split());
                let recipe = |s: u32| if s + 1 == pp { &last } else { &first };
                // A step of 10,000 micro-batches, or (interleaved) of a
                // count off the rounds of PP, which groups them otherwise.
                let total = if v > 1 && mb == 2 { 10_006 } else { 10_000 };
                let period = period(pp, step.v as u32, total);
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
    assert_eq!(checked, 32);
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
