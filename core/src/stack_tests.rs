//! Unit tests of `stack`.
use super::*;

#[test]
fn keys_round_trip_and_match_serde() {
    for id in STACKS {
        assert_eq!(StackId::parse(id.key()), Some(id));
        assert_eq!(Stack::of(id).id, id);
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, alloc::format!("\"{}\"", id.key()));
    }
    assert_eq!(StackId::parse("LLM-Foundry"), Some(StackId::LlmFoundry));
    assert_eq!(StackId::parse("DeepSpeed"), Some(StackId::DeepSpeed));
    assert_eq!(StackId::parse("zero3"), None);
}

#[test]
fn only_the_compiled_stack_dispatches_cheaply() {
    for id in STACKS {
        let s = Stack::of(id);
        assert_eq!(
            s.host_dispatch_us < 5.0,
            id == StackId::Torchtitan,
            "{id:?}"
        );
    }
}

/// Only torchtitan's selective recomputation reruns matmuls (its per-op
/// policy), and only its pipeline split weighs the embedding and output
/// instead of holding divisible layers evenly (Megatron-LM's).
#[test]
fn only_torchtitan_reruns_matmuls_and_balances_its_pipeline() {
    for id in STACKS {
        let s = Stack::of(id);
        let titan = id == StackId::Torchtitan;
        assert_eq!(s.selective_reruns_matmuls, titan, "{id:?}");
        let split = if titan {
            crate::stack::PipelineSplit::Weighted
        } else {
            crate::stack::PipelineSplit::Megatron
        };
        assert_eq!(s.pipeline_split, split, "{id:?}");
    }
}
