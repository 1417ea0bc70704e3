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

/// Where the layers with the embedding and the loss fill an interleaved
/// schedule's chunks, Megatron-LM's recipes count the two as a layer each
/// (Llama 3.1 405B's 126 layers on 16 stages of 4 or 8 chunks, Qwen3
/// 235B's 94 on 8 of 4): the first and the last stage hold one layer
/// less. torchtitan spreads the layers and the two over its parts, the
/// first parts one more where they do not divide.
#[test]
fn the_embedding_and_the_loss_count_as_a_layer_each_where_they_fill_the_chunks() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.model = crate::model::preset("llama3-405b").unwrap();
    let p = &mut cfg.layout.parallel;
    (p.pp, p.schedule, p.virtual_stages) = (16, Schedule::Interleaved, 4);
    assert_eq!(cfg.pipeline_split(), (8, 7));
    cfg.layout.parallel.virtual_stages = 8;
    assert_eq!(cfg.pipeline_split(), (8, 7));
    cfg.model = crate::model::preset("qwen3-235b-a22b").unwrap();
    (cfg.layout.parallel.pp, cfg.layout.parallel.virtual_stages) = (8, 4);
    assert_eq!(cfg.pipeline_split(), (12, 11));
    // Two stages: each is the first or the last.
    cfg.model.layers = 30;
    (cfg.layout.parallel.pp, cfg.layout.parallel.virtual_stages) = (2, 4);
    assert_eq!(cfg.pipeline_split(), (15, 15));
    // torchtitan's parts: 34 slots on 4 stages, the first two holding 9.
    cfg.model = crate::model::preset("llama3-8b").unwrap();
    cfg.stack = crate::stack::TORCHTITAN;
    cfg.layout.parallel.pp = 4;
    cfg.layout.parallel.schedule = Schedule::OneFOneB;
    assert_eq!(cfg.pipeline_split(), (9, 7));
    for (layers, pp, v) in [(126, 16, 4), (61, 4, 8), (32, 4, 1), (94, 8, 3)] {
        let (most, last) = weighted_split(layers, pp, v).unwrap();
        // The stages before the last hold at most `most` each, and together
        // with the last every layer.
        assert!(
            most * (pp - 1) + last >= layers && last < most,
            "{layers} {pp} {v}"
        );
    }
}

/// torchtitan's rule dealt out part by part: the layers with the
/// embedding and the output over `pp x v` parts, the first parts one more
/// where they do not divide, part `i` on stage `i mod pp`.
#[test]
fn the_weighted_split_is_torchtitans_rule_dealt_out() {
    for layers in 1..=140_u32 {
        for pp in 2..=12_u32 {
            for v in 1..=6_u32 {
                let parts = pp * v;
                let slots = layers + 2;
                let mut stage = alloc::vec![0_u32; pp as usize];
                for i in 0..parts {
                    stage[(i % pp) as usize] += slots / parts + u32::from(i < slots % parts);
                }
                let held: alloc::vec::Vec<i64> = (0..pp)
                    .map(|s| {
                        i64::from(stage[s as usize]) - i64::from(s == 0) - i64::from(s == pp - 1)
                    })
                    .collect();
                let want = if held.iter().any(|&l| l <= 0) {
                    None
                } else {
                    let most = held[..pp as usize - 1].iter().copied().max().unwrap();
                    Some((most as u32, held[pp as usize - 1] as u32))
                };
                assert_eq!(weighted_split(layers, pp, v), want, "{layers} {pp} {v}");
            }
        }
    }
}
