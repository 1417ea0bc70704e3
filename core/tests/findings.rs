//! One test per paper finding (shared/paper/FINDINGS.md). Stated numbers
//! must land within `findings::TOLERANCE` (20% relative); shape-only
//! findings must show the stated direction. Findings the model does not yet
//! reproduce are ignored with the reason, so `cargo test -- --ignored`
//! shows exactly what is missing.

use scalescope_core::findings::by_id;

fn check(id: &str) {
    let f = by_id(id).expect("known finding");
    assert!(
        f.holds,
        "{id} does not hold\n  paper: {}\n  model: {}",
        f.paper, f.model
    );
}

#[test]
fn f1_weak_scaling_diminishing_returns_and_flat_power() {
    check("F1");
}

#[test]
fn f2_allgather_bus_bandwidth_collapses_allreduce_holds() {
    check("F2");
}

#[test]
fn f3_collective_time_grows_compute_constant() {
    check("F3");
}

#[test]
#[ignore = "model: MFU 47% at 2 nodes (paper ~40%) and 17% at 32 nodes (paper <15%)"]
fn f4_strong_scaling_mfu_falls() {
    check("F4");
}

#[test]
#[ignore = "model: at 256 H100s FSDP-only exposes only ~2%, so TP/PP do not beat it yet"]
fn f5_small_model_parallel_beats_fsdp_at_256() {
    check("F5");
}

#[test]
#[ignore = "model: A100 67% / H100 47% best-layout MFU, exposed gap +0.8 points (paper +12.83)"]
fn f6_a100_vs_h100_best_layout() {
    check("F6");
}

#[test]
fn f7_newer_gpus_more_communication_bound() {
    check("F7");
}

#[test]
#[ignore = "model: Llama-2 1B MFU below 7B's (kernel overheads at small width)"]
fn f8_communication_grows_with_model_size() {
    check("F8");
}

#[test]
fn f9_longer_context_better_overlap() {
    check("F9");
}

#[test]
#[ignore = "model: TP4 at 2048 GPUs +44.6% WPS for +23 W (paper +52.6% for +30 W)"]
fn f10_tensor_parallel_wins_at_2048() {
    check("F10");
}

#[test]
#[ignore = "model: 70B MFU falls 12% from 512 to 2048 GPUs (paper >30%)"]
fn f11_fixed_batch_pretraining_scale_mfu_falls() {
    check("F11");
}

#[test]
#[ignore = "model: CP at 4k is cheaper than TP of the same degree (paper: worse)"]
fn f12_context_parallel_worse_than_tensor_parallel_at_4k() {
    check("F12");
}

#[test]
fn f13_v100_small_model_parallel_best_a100_better() {
    check("F13");
}

#[test]
fn f14_memory_falls_with_fsdp_group_diminishing() {
    check("F14");
}
