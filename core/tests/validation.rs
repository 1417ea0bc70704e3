//! The model against published training runs it was not calibrated on
//! (Megatron-LM on 32 to 3072 A100s, Llama 3 405B on 8192 and 16384
//! H100s). Tolerance: every run within 30% and the median within 10%.
//! `scalescope validate` prints where each run lands.

use scalescope_core::validation;

#[test]
fn every_published_run_has_a_prediction_within_thirty_percent() {
    let all = validation::all();
    assert_eq!(all.len(), 12);
    for c in &all {
        let d = c
            .difference()
            .unwrap_or_else(|| panic!("{}: no tuned choice fits", c.run.name));
        assert!(d.is_finite());
        assert!(
            d.abs() <= 0.30,
            "{}: published {}, model {:?}",
            c.run.name,
            c.run.published,
            c.model
        );
    }
}

#[test]
fn median_error_over_published_runs_is_under_ten_percent() {
    let mut errors: Vec<f64> = validation::all()
        .iter()
        .filter_map(validation::Check::difference)
        .map(f64::abs)
        .collect();
    errors.sort_by(f64::total_cmp);
    let median = errors[errors.len() / 2];
    assert!(median < 0.10, "median error {median}");
}

#[test]
fn the_runs_layouts_are_the_published_ones() {
    for c in validation::all() {
        let l = c.layout.expect("a layout");
        let p = c.run.config.layout.parallel;
        assert_eq!(
            (l.parallel.tp, l.parallel.pp, l.parallel.dp),
            (p.tp, p.pp, p.dp)
        );
        assert!(c.run.tuned.micro_batches.contains(&l.micro_batch));
    }
}
