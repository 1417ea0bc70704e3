//! Unit tests of `schedule`.
use super::*;
use crate::scenario::Scenario;

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
                let m = simulated_micro_batches(pp, step.v as u32, 10_000);
                let send = phases::pipeline_send(&cfg, &step.shape, &step.links).0;
                let starts: Vec<f64> = (0..pp).map(|s| before(recipe(s), None)).collect();
                let span = |s: u32, op: Op| span_of(recipe(s), op);
                let run_of =
                    |m| simulate(pp, step.v as u32, m, p_schedule(&cfg), send, &span, &starts);
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
