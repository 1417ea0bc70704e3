//! Property tests over the whole input range: no panic, NaN or infinity;
//! monotonic in bandwidth and FLOPS; exposed communication bounded by total
//! communication; contention bounded by overlapped communication and the
//! step equal to the sum of its parts; degrees multiply to the GPU count;
//! memory never grows with the FSDP group; MFU and HFU never above one;
//! every layer count runs on every pipeline degree up to it.

use proptest::prelude::*;
use scalescope_core::evaluate::evaluate;
use scalescope_core::hardware::{Cluster, GPUS};
use scalescope_core::model::PRESETS;
use scalescope_core::scenario::{
    Config, DataParallel, Layout, Module, Modules, Parallel, Precision, Recompute, Schedule,
};
use scalescope_core::stack::{Stack, STACKS};
use scalescope_core::units::{Bandwidth, FlopRate};

const DP: [DataParallel; 5] = [
    DataParallel::Ddp,
    DataParallel::Zero1,
    DataParallel::Fsdp,
    DataParallel::FsdpFull,
    DataParallel::Hsdp,
];
const RECOMPUTE: [Recompute; 3] = [Recompute::None, Recompute::Selective, Recompute::Full];
const SCHEDULE: [Schedule; 6] = Schedule::ALL;
const PRECISION: [Precision; 4] = [
    Precision::Bf16,
    Precision::Fp16,
    Precision::Fp8,
    Precision::Fp4,
];

prop_compose! {
    fn any_config()(
        gpu in 0..GPUS.len(),
        model in 0..PRESETS.len(),
        nodes in 0u32..5000,
        gpn in 0u32..17,
        seq_pow in 0u32..19,
        batch in 0u32..100_000,
        mb in 0u32..64,
        tp_pow in 0u32..8,
        pp in 0u32..130,
        cp_pow in 0u32..7,
        v in 0u32..5,
        dp in 0..5usize,
        rc in 0..3usize,
        sched in 0..3usize,
        prec in 0..3usize,
        sp in any::<bool>(),
        stack in 0..STACKS.len(),
    ) -> Config {
        let mut cluster = Cluster::new(GPUS[gpu], nodes);
        cluster.gpus_per_node = gpn;
        Config {
            cluster,
            model: PRESETS[model].model,
            seq_len: 1 << seq_pow,
            global_batch: batch,
            layout: Layout {
                parallel: Parallel {
                    dp: DP[dp],
                    tp: 1 << tp_pow,
                    pp,
                    cp: 1 << cp_pow,
                    sp,
                    schedule: SCHEDULE[sched],
                    virtual_stages: v,
                    ep: 1,
                    etp: 1,
                    ep_overlap: false,
                },
                micro_batch: mb,
                recompute: RECOMPUTE[rc],
                offload_layers: 0,
                recompute_modules: Modules::NONE,
            },
            precision: PRECISION[prec],
            stack: Stack::of(STACKS[stack]),
        }
    }
}

fn all_finite(r: &scalescope_core::evaluate::Report) -> bool {
    let b = &r.breakdown;
    let comms = b
        .comms()
        .iter()
        .all(|(_, c)| c.total.0.is_finite() && c.exposed.0.is_finite());
    [
        r.step_time_s,
        r.tokens_per_s,
        r.tokens_per_s_per_gpu,
        r.tflops_per_gpu,
        r.mfu,
        r.hfu,
        r.power_w_per_gpu,
        r.power_w_cluster,
        r.tokens_per_joule,
        r.memory_gib_per_gpu,
        b.forward.0,
        b.backward.0,
        b.bubble.0,
        b.optimizer.0,
        b.contention.0,
        b.host.0,
        r.exposed_comm_trace_fraction,
    ]
    .iter()
    .all(|x| x.is_finite() && *x >= 0.0)
        && comms
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn never_panics_nan_or_infinite(cfg in any_config()) {
        if let Ok(r) = evaluate(&cfg) {
            prop_assert!(all_finite(&r), "{r:?}");
            prop_assert!(r.step_time_s > 0.0);
        }
    }

    #[test]
    fn exposed_never_exceeds_total(cfg in any_config()) {
        if let Ok(r) = evaluate(&cfg) {
            for (name, c) in r.breakdown.comms() {
                prop_assert!(c.exposed.0 <= c.total.0 + 1e-15, "{name}: {c:?}");
            }
        }
    }

    #[test]
    fn overlap_stretches_compute_by_at_most_the_overlapped_communication(cfg in any_config()) {
        if let Ok(r) = evaluate(&cfg) {
            let b = &r.breakdown;
            let overlapped = b.comm_total().0 - b.comm_exposed().0;
            prop_assert!(b.contention.0 <= overlapped + 1e-12, "{b:?}");
            let parts = b.compute().0 + b.contention.0 + b.host.0 + b.bubble.0 + b.comm_exposed().0;
            prop_assert!((r.step_time_s - parts).abs() <= 1e-9 * parts.max(1.0), "{r:?}");
        }
    }

    #[test]
    fn degrees_multiply_to_gpu_count(cfg in any_config()) {
        if let Ok(r) = evaluate(&cfg) {
            let p = cfg.layout.parallel;
            prop_assert_eq!(u64::from(r.dp) * u64::from(p.tp) * u64::from(p.pp) * u64::from(p.cp), u64::from(r.gpus));
        }
    }

    /// Offloading activations never adds memory, never shortens the step,
    /// and over a host link that outruns every layer costs nothing.
    #[test]
    fn offloading_saves_memory_and_never_time(cfg in any_config(), n in 1u32..200) {
        // Megatron-Core offloads only with one stage and no recomputation.
        let mut cfg = cfg;
        cfg.layout.parallel.pp = 1;
        cfg.layout.recompute = Recompute::None;
        let mut off = cfg;
        off.layout.offload_layers = n;
        if let (Ok(r), Ok(o)) = (evaluate(&cfg), evaluate(&off)) {
            prop_assert!(o.memory.total().0 <= r.memory.total().0 * (1.0 + 1e-12));
            prop_assert!(o.step_time_s >= r.step_time_s * (1.0 - 1e-12));
            // A link past the range a file may set (the check refuses it),
            // through the same arithmetic.
            off.cluster.gpu.host_link = Bandwidth(1e30);
            let free = scalescope_core::evaluate::evaluate_checked(&off);
            prop_assert!((free.step_time_s - r.step_time_s).abs() <= 1e-12 * r.step_time_s);
        }
    }

    /// Recomputing named modules never adds memory and never shortens the
    /// step against keeping every activation.
    #[test]
    fn recompute_modules_save_memory_and_never_time(cfg in any_config(), bits in 1usize..32) {
        let mut cfg = cfg;
        cfg.layout.recompute = Recompute::None;
        let mut named = cfg;
        named.layout.recompute = Recompute::Selective;
        let modules: Vec<Module> =
            Module::ALL.into_iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).map(|(_, m)| m).collect();
        named.layout.recompute_modules = Modules::of(&modules);
        if let (Ok(r), Ok(m)) = (evaluate(&cfg), evaluate(&named)) {
            prop_assert!(m.memory.total().0 <= r.memory.total().0 * (1.0 + 1e-12));
            prop_assert!(m.step_time_s >= r.step_time_s * (1.0 - 1e-12));
        }
    }

    #[test]
    fn more_bandwidth_or_flops_never_slower(cfg in any_config(), f in 1.0f64..8.0, which in 0..5usize) {
        if let Ok(r) = evaluate(&cfg) {
            let mut fast = cfg;
            let g = &mut fast.cluster.gpu;
            match which {
                0 => { g.peak_bf16 = FlopRate(g.peak_bf16.0 * f); g.peak_fp8 = FlopRate(g.peak_fp8.0 * f); }
                1 => g.hbm_bandwidth = Bandwidth(g.hbm_bandwidth.0 * f),
                2 => g.nvlink = Bandwidth(g.nvlink.0 * f),
                3 => fast.cluster.dp_overlap_bandwidth = Some(Bandwidth(cfg.dp_overlap_bandwidth().0 * f)),
                _ => fast.cluster.network_per_gpu = Bandwidth(fast.cluster.network_per_gpu.0 * f),
            }
            let q = evaluate(&fast).expect("same layout stays valid");
            prop_assert!(q.step_time_s <= r.step_time_s * (1.0 + 1e-12), "{} > {}", q.step_time_s, r.step_time_s);
        }
    }

    #[test]
    fn memory_never_grows_with_fsdp_group(model in 0..PRESETS.len(), dp in 2..5usize, pow in 0u32..10, mb in 1u32..4) {
        let base = |nodes: u32| {
            let cfg = Config {
                cluster: Cluster::new(GPUS[3], nodes),
                model: PRESETS[model].model,
                seq_len: 4096,
                global_batch: nodes * 8 * mb,
                layout: Layout {
                    parallel: Parallel { dp: DP[dp], tp: 1, pp: 1, cp: 1, sp: false, schedule: Schedule::OneFOneB, virtual_stages: 1, ep: 1, etp: 1, ep_overlap: false },
                    micro_batch: mb,
                    recompute: Recompute::None,
                    offload_layers: 0,
                    recompute_modules: Modules::NONE,
                },
                precision: Precision::Bf16,
                stack: Stack::of(STACKS[0]),
            };
            evaluate(&cfg).expect("valid").memory_gib_per_gpu
        };
        let small = base(1 << pow);
        let large = base(2 << pow);
        prop_assert!(large <= small + 1e-9, "{large} > {small}");
    }

    #[test]
    fn mfu_and_hfu_never_exceed_one(cfg in any_config(), long in 0u32..8) {
        // Long contexts too (up to 2M tokens), where attention dominates.
        let mut cfg = cfg;
        if long > 4 {
            cfg.seq_len = 1 << (16 + long);
        }
        if let Ok(r) = evaluate(&cfg) {
            prop_assert!(r.mfu <= 1.0 && r.hfu <= 1.0, "MFU {} HFU {} for {cfg:?}", r.mfu, r.hfu);
            prop_assert!(r.mfu <= r.hfu + 1e-12, "MFU {} above HFU {}", r.mfu, r.hfu);
        }
    }

    #[test]
    fn every_layer_count_runs_on_every_pipeline_degree_up_to_it(layers in 1u32..200, pp in 1u32..64, model in 0..PRESETS.len()) {
        let pp = pp.min(layers);
        let mut m = PRESETS[model].model;
        m.layers = layers;
        let cfg = Config {
            cluster: Cluster::new(GPUS[3], pp),
            model: m,
            seq_len: 4096,
            global_batch: 8 * pp,
            layout: Layout {
                parallel: Parallel { dp: DataParallel::Zero1, tp: 8, pp, cp: 1, sp: false, schedule: Schedule::OneFOneB, virtual_stages: 1, ep: 1, etp: 1, ep_overlap: false },
                micro_batch: 1,
                recompute: Recompute::Full,
                offload_layers: 0,
                recompute_modules: Modules::NONE,
            },
            precision: Precision::Bf16,
            stack: Stack::of(STACKS[0]),
        };
        let r = evaluate(&cfg);
        prop_assert!(r.is_ok(), "{layers} layers on {pp} stages: {r:?}");
        let (most, last) = cfg.pipeline_split();
        if pp > 1 {
            prop_assert_eq!(most * (pp - 1) >= layers - last, true);
            prop_assert!(last >= 1 && most >= 1 && last <= most + 1);
        }
    }
}
