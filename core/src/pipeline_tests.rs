//! Unit tests of `pipeline`: how the stages hold the layers.
use super::*;
use crate::scenario::{Scenario, Schedule};

#[test]
fn the_pipeline_split_is_the_least_slowest_stage() {
    for layers in 1..=160_u32 {
        for pp in 2..=layers.min(40) {
            for head in [0.0, 0.3, 0.7, 1.5, 4.0] {
                let (most, last) = split_layers(layers, pp, head);
                let cost =
                    |n: u32| f64::from((layers - n).div_ceil(pp - 1)).max(f64::from(n) + head);
                let best = (1..=layers - (pp - 1)).map(cost).fold(f64::MAX, f64::min);
                assert!(
                    (f64::from(most).max(f64::from(last) + head) - best).abs() < 1e-9,
                    "{layers} layers, {pp} stages, head {head}: ({most}, {last})"
                );
                assert!(most * (pp - 1) >= layers - last && last >= 1);
            }
        }
    }
}

#[test]
fn llama3_405b_runs_its_126_layers_on_16_stages_with_a_lighter_last() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.model = crate::model::preset("llama3-405b").unwrap();
    cfg.layout.parallel.pp = 16;
    assert_eq!(cfg.pipeline_split(), (8, 7));
}

/// Layers that divide over the stages are held evenly, as Megatron-LM's
/// default split holds them, however heavy the head; those that do not,
/// and chunks that do not divide them, leave the head's stage fewer.
#[test]
fn layers_that_divide_over_the_stages_are_held_evenly() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.model = crate::model::preset("llama3-8b").unwrap();
    cfg.layout.parallel.tp = 1;
    cfg.layout.parallel.pp = 8;
    assert_eq!(cfg.pipeline_split(), (4, 4));
    cfg.layout.parallel.pp = 6;
    let (first, last) = cfg.pipeline_split();
    assert!(last < first, "{first} {last}");
    cfg.layout.parallel.pp = 4;
    cfg.layout.parallel.schedule = Schedule::Interleaved;
    cfg.layout.parallel.virtual_stages = 4;
    assert_eq!(cfg.pipeline_split(), (8, 8));
    cfg.layout.parallel.virtual_stages = 3;
    let (first, last) = cfg.pipeline_split();
    assert!(last < first, "{first} {last}");
    // torchtitan weighs the output instead: its last stage holds fewer.
    cfg.layout.parallel.schedule = Schedule::OneFOneB;
    cfg.layout.parallel.pp = 8;
    cfg.stack = crate::stack::TORCHTITAN;
    let (first, last) = cfg.pipeline_split();
    assert!(last < first, "{first} {last}");
}
