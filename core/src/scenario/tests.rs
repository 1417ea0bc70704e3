//! The scenario's tests: overrides, limits, checks and the file read back.

use super::*;
use crate::error::Error;
use crate::evaluate::evaluate;
use crate::units::FlopRate;

fn with_overlap(v: Option<f64>) -> Result<Config, Error> {
    let mut s = Scenario::example();
    s.hardware.dp_overlap_gb_per_s = v;
    s.to_config()
}

#[test]
fn overlap_rate_defaults_to_the_paper_calibration_and_can_be_overridden() {
    let paper = with_overlap(None).unwrap();
    let default = paper.dp_overlap_bandwidth().as_gb_s();
    // 17% of H100's NVLink bus rate (450 GB/s one way at 80%).
    assert!(
        (default - crate::calibration::OVERLAP_BANDWIDTH_SHARE * 450.0 * 0.8).abs() < 1e-9,
        "{default}"
    );
    let fast = with_overlap(Some(150.0)).unwrap();
    let (a, b) = (evaluate(&paper).unwrap(), evaluate(&fast).unwrap());
    assert!(b.step_time_s < a.step_time_s);
    assert!(b.breakdown.comm_exposed().0 < a.breakdown.comm_exposed().0);
}

#[test]
fn tiny_hardware_values_are_refused_by_name() {
    for v in [1e-310, 1e-9] {
        assert_eq!(
            with_overlap(Some(v)).unwrap_err(),
            Error::TooSmall {
                field: "hardware.dp_overlap_gb_per_s",
                min: limits::HARDWARE_MIN
            }
        );
    }
    let mut s = Scenario::example();
    s.hardware.nvlink_gb_per_s = Some(1e-300);
    assert!(matches!(s.to_config(), Err(Error::TooSmall { .. })));
}

#[test]
fn overlap_rate_must_be_positive() {
    for v in [0.0, -1.0, f64::NAN] {
        assert_eq!(
            with_overlap(Some(v)).unwrap_err(),
            Error::NotPositive {
                field: "hardware.dp_overlap_gb_per_s"
            }
        );
    }
}

#[test]
fn heads_must_split_the_width_and_kv_heads_the_heads() {
    let custom = |hidden, heads, kv_heads| {
        let mut s = Scenario::example();
        let mut m = crate::model::preset("llama2-7b").unwrap();
        (m.hidden, m.heads, m.kv_heads) = (hidden, heads, kv_heads);
        s.model = ModelSpec::Custom(m);
        s.parallel.tp = 1;
        s.to_config()
    };
    assert_eq!(
        custom(2048, 16, 3).unwrap_err(),
        Error::KvHeadsNotDividingHeads {
            kv_heads: 3,
            heads: 16
        }
    );
    assert_eq!(
        custom(2000, 48, 8).unwrap_err(),
        Error::HeadsNotDividingHidden {
            heads: 48,
            hidden: 2000
        }
    );
    assert!(custom(2048, 16, 4).is_ok());
}

#[test]
fn a_search_of_a_setting_no_layout_can_fix_visits_nothing() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.cluster.nodes = limits::GPUS;
    assert!(matches!(cfg.check_setting(), Err(Error::TooLarge { .. })));
    let visited =
        crate::search::for_each_layout(&cfg, &crate::search::SearchSpace::full(), |_, _| {
            panic!("visited a layout")
        });
    assert_eq!(visited, (0, 0));
}

#[test]
fn one_node_limit_one_message() {
    let refuse = |nodes| {
        let mut s = Scenario::example();
        s.hardware.nodes = nodes;
        s.to_config().unwrap_err()
    };
    let limit = Error::TooLarge {
        field: "hardware.nodes",
        max: f64::from(limits::GPUS / 8),
    };
    assert_eq!(refuse(1_048_577), limit);
    assert_eq!(refuse(1_048_576), limit);
    assert_eq!(refuse(limits::GPUS / 8 + 1), limit);
    let mut s = Scenario::example();
    s.hardware.nodes = limits::GPUS / 8;
    s.global_batch = limits::GPUS;
    s.micro_batch = 1;
    s.parallel.tp = 1;
    assert!(s.to_config().is_ok(), "{:?}", s.to_config());
}

#[test]
fn a_slow_nvlink_is_not_blamed_on_the_overlap_rate_the_user_never_set() {
    let mut s = Scenario::example();
    s.hardware.nvlink_gb_per_s = Some(0.005);
    match s.to_config() {
        Ok(cfg) => assert!(evaluate(&cfg).unwrap().step_time_s.is_finite()),
        Err(e) => assert!(!alloc::format!("{e}").contains("dp_overlap"), "{e}"),
    }
}

#[test]
fn every_gpu_field_the_arithmetic_reads_is_checked() {
    let base = Scenario::example().to_config().unwrap();
    let bad = [0.0, -0.5, 1.5, f64::NAN, f64::INFINITY];
    for v in bad {
        for which in 0..3 {
            let mut cfg = base;
            let gpu = &mut cfg.cluster.gpu;
            *[
                &mut gpu.gemm_efficiency,
                &mut gpu.attention_efficiency,
                &mut gpu.te_attention_efficiency,
            ][which] = v;
            assert!(
                matches!(evaluate(&cfg), Err(Error::OutOfRange { .. })),
                "{which} {v}"
            );
        }
    }
    for (tdp, idle) in [
        (0.0, 70.0),
        (f64::NAN, 70.0),
        (f64::INFINITY, 70.0),
        (700.0, f64::NAN),
        (700.0, -1.0),
    ] {
        let mut cfg = base;
        cfg.cluster.gpu.tdp = crate::units::Watts(tdp);
        cfg.cluster.gpu.idle = crate::units::Watts(idle);
        assert!(evaluate(&cfg).is_err(), "tdp {tdp} idle {idle}");
    }
    for v in [-1.0, f64::NAN, f64::INFINITY] {
        let mut cfg = base;
        cfg.cluster.gpu.te_attention_half_length = v;
        assert!(
            matches!(evaluate(&cfg), Err(Error::OutOfRange { .. })),
            "half length {v}"
        );
    }
    let mut cfg = base;
    cfg.cluster.gpu.peak_fp8 = FlopRate(f64::NAN);
    assert!(evaluate(&cfg).is_err());
}

#[test]
fn a_sweep_point_says_its_own_reason() {
    use crate::search::{sweep, Objective, Scaling, SearchSpace};
    let mut cfg = Scenario::example().resolve().unwrap();
    cfg.cluster.gpu = crate::hardware::A100_80GB;
    cfg.precision = Precision::Fp8;
    let space = SearchSpace::full();
    for p in sweep(
        &cfg,
        &[1, 4],
        Scaling::Weak,
        Some((&space, Objective::Throughput)),
    ) {
        assert!(
            matches!(p.result, Err(Error::PrecisionUnsupported { .. })),
            "{:?}",
            p.result
        );
    }
    cfg.precision = Precision::Bf16;
    cfg.model = crate::model::preset("gpt3-175b").unwrap();
    for p in sweep(
        &cfg,
        &[1],
        Scaling::Weak,
        Some((&space, Objective::Throughput)),
    ) {
        assert_eq!(p.result.unwrap_err(), Error::NoLayoutFits);
    }
}

#[test]
fn a_scenario_written_and_read_back_keeps_every_bit() {
    // What-if values of every magnitude a file can hold, from a fixed
    // pseudo-random sequence.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = 1e-3 + (x >> 11) as f64 / (1u64 << 53) as f64 * 1e4;
        let mut s = Scenario::example();
        s.hardware.peak_tflops = Some(v);
        s.hardware.dp_overlap_gb_per_s = Some(v / 3.0);
        let text = serde_json::to_string(&s).unwrap();
        let back: Scenario = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s, "{text}");
    }
}

#[test]
fn a_mistake_inside_a_custom_model_names_the_field() {
    let with = |model: &str| {
        let text = serde_json::to_string(&Scenario::example())
            .unwrap()
            .replace("\"llama2-7b\"", model);
        alloc::format!("{}", serde_json::from_str::<Scenario>(&text).unwrap_err())
    };
    let full = r#"{"layers":32,"hidden":4096,"heads":32,"kv_heads":32,"ffn":11008,"vocab":32000,"mlp":"swiglu"}"#;
    assert!(with(&full.replace("layers", "layer")).contains("unknown field `layer`"));
    assert!(with(&full.replace(",\"vocab\":32000", "")).contains("missing field `vocab`"));
    assert!(with(&full.replace("32000", "\"many\""))
        .contains("invalid type: string \"many\", expected u32"));
    assert!(with(&full.replace("\"swiglu\"", "\"relu\"")).contains("unknown variant `relu`"));
    assert!(with("42").contains("a preset name or an object"));
    let ok = serde_json::to_string(&Scenario::example())
        .unwrap()
        .replace("\"llama2-7b\"", full);
    assert!(serde_json::from_str::<Scenario>(&ok)
        .unwrap()
        .to_config()
        .is_ok());
}

#[test]
fn each_choices_key_is_its_spelling_in_the_file() {
    fn spelled<T: serde::Serialize>(v: T) -> alloc::string::String {
        serde_json::to_string(&v).unwrap().trim_matches('"').into()
    }
    use DataParallel as D;
    for dp in [D::Ddp, D::Zero1, D::Fsdp, D::FsdpFull, D::Hsdp] {
        assert_eq!(dp.key(), spelled(dp));
    }
    for s in Schedule::ALL {
        assert_eq!(s.key(), spelled(s));
    }
    for r in [Recompute::None, Recompute::Selective, Recompute::Full] {
        assert_eq!(r.key(), spelled(r));
    }
    for p in [
        Precision::Bf16,
        Precision::Fp16,
        Precision::Fp8,
        Precision::Fp4,
    ] {
        assert_eq!(p.key(), spelled(p));
    }
}

/// A custom model with a two-matrix (GeLU) MLP: layers, (hidden, heads,
/// key/value heads), FFN width and vocabulary.
fn gelu_model(
    layers: u32,
    (hidden, heads, kv_heads): (u32, u32, u32),
    ffn: u32,
    vocab: u32,
) -> ModelSpec {
    ModelSpec::Custom(crate::model::Model {
        mlp: crate::model::Mlp::Gelu,
        ..crate::model::llama(layers, hidden, heads, kv_heads, ffn, vocab)
    })
}

#[test]
fn a_pipeline_whose_schedule_would_run_too_many_passes_is_refused_by_name() {
    // Llama 3 405B's published 16 stages of 8 chunks fit within the bound.
    assert_eq!(
        crate::timeline::simulated_passes(Schedule::Interleaved, 16, 8, 1024),
        73_728
    );
    assert!(
        crate::timeline::simulated_passes(Schedule::Interleaved, 16, 8, 1024)
            <= limits::SIMULATED_PASSES
    );
    // 65,536 stages of one layer each over 16-GPU nodes, as fuzzing found.
    let mut s = Scenario::example();
    s.hardware.gpu = "v100".into();
    s.hardware.gpus_per_node = Some(16);
    s.hardware.nodes = 8192;
    s.model = gelu_model(65_536, (1024, 8, 8), 4096, 32_000);
    s.global_batch = 131_072;
    s.micro_batch = 1;
    s.parallel.tp = 1;
    s.parallel.pp = 65_536;
    s.parallel.schedule = Schedule::OneFOneB;
    match s.to_config() {
        Err(Error::PipelineTooLong { stages, passes, .. }) => {
            assert_eq!(stages, 65_536);
            assert!(passes > limits::SIMULATED_PASSES);
        }
        other => panic!("{other:?}"),
    }
    // One micro-batch through the same depth stays within the bound and runs.
    s.hardware.nodes = 4096;
    s.global_batch = 1;
    assert!(evaluate(&s.to_config().unwrap()).is_ok());
}

/// A Megatron-LM recipe of `model` on `nodes` nodes, `batch` sequences
/// of one micro-batch each, TP with sequence parallelism, PP stages of
/// interleaved chunks (`(tp, pp, chunks)`).
fn interleaved_recipe(
    nodes: u32,
    model: ModelSpec,
    batch: u32,
    (tp, pp, chunks): (u32, u32, u32),
) -> Scenario {
    let mut s = Scenario::example();
    s.hardware.nodes = nodes;
    s.stack = crate::stack::StackId::Megatron;
    s.model = model;
    s.global_batch = batch;
    s.micro_batch = 1;
    s.parallel.tp = tp;
    s.parallel.pp = pp;
    s.parallel.sp = true;
    s.parallel.schedule = Schedule::Interleaved;
    s.parallel.virtual_stages = chunks;
    s
}

#[test]
fn a_pipeline_whose_layers_split_evenly_holds_the_same_layers_on_every_stage() {
    // Nemotron-4 340B as NVIDIA's recipe runs it: 96 layers, 8 stages of 12 chunks.
    let model = gelu_model(96, (18_432, 96, 8), 73_728, 256_000);
    let cfg = interleaved_recipe(16, model, 32, (8, 8, 12))
        .to_config()
        .unwrap();
    assert_eq!(cfg.pipeline_split(), (12, 12));
    // So without interleaving, as Megatron-LM's default split holds them.
    let mut plain = cfg;
    plain.layout.parallel.schedule = Schedule::OneFOneB;
    assert_eq!(plain.pipeline_split(), (12, 12));
}

#[test]
fn a_host_is_its_own_nvlink_domain_unless_its_rack_joins_hosts() {
    let resolve = |gpu: &str, gpn: Option<u32>, domain: Option<u32>| {
        let mut s = Scenario::example();
        s.hardware.gpu = gpu.into();
        s.hardware.gpus_per_node = gpn;
        s.hardware.nvlink_domain = domain;
        let c = s.to_config().unwrap().cluster;
        (c.gpus_per_node, c.domain())
    };
    // A scenario giving only GPUs per node keeps meaning one domain per host.
    assert_eq!(resolve("h100", Some(16), None), (16, 16));
    assert_eq!(resolve("h100", None, None), (8, 8));
    // An NVL72 rack: trays of 4, one domain of 72.
    assert_eq!(resolve("gb200", None, None), (4, 72));
    assert_eq!(resolve("gb200", Some(4), None), (4, 72));
    assert_eq!(resolve("gb300", None, Some(36)), (4, 36));
    assert_eq!(resolve("h100", None, Some(32)), (8, 32));
    // The rack's NICs: one 400 Gb/s (GB200) or 800 Gb/s (GB300) per GPU.
    let mut s = Scenario::example();
    s.hardware.gpus_per_node = None;
    s.hardware.inter_node_gbps_per_gpu = None;
    for (gpu, gbit) in [("gb200", 400.0), ("gb300", 800.0)] {
        s.hardware.gpu = gpu.into();
        let c = s.to_config().unwrap().cluster;
        assert!(
            (c.network_per_gpu.as_gb_s() * 8.0 - gbit).abs() < 1e-9,
            "{gpu}"
        );
    }
}

#[test]
fn a_tensor_group_inside_the_nvlink_domain_stays_on_nvlink() {
    // TP 16 on GB200 NVL72: inside the rack's domain of 72; the same
    // layout with domains of one tray of 4 crosses the network.
    let mut s = Scenario::example();
    s.hardware.gpu = "gb200".into();
    s.hardware.gpus_per_node = None;
    s.hardware.nodes = 64;
    s.model = ModelSpec::Preset("llama2-70b".into());
    s.parallel.tp = 16;
    s.global_batch = 256;
    s.micro_batch = 1;
    let rack = crate::evaluate::evaluate(&s.to_config().unwrap()).unwrap();
    s.hardware.nvlink_domain = Some(4);
    let tray = crate::evaluate::evaluate(&s.to_config().unwrap()).unwrap();
    assert!(
        rack.breakdown.tp.total.0 * 3.0 < tray.breakdown.tp.total.0,
        "{:?} vs {:?}",
        rack.breakdown.tp,
        tray.breakdown.tp
    );
    assert!(rack.tokens_per_s > tray.tokens_per_s);
}

#[test]
fn an_interleaved_schedule_named_without_its_chunks_runs_the_best_count_that_fits() {
    // Llama 3 405B on 8,192 H100s at its published layout (TP8 PP16,
    // interleaved, the count not published), as a file names it.
    let text = r#"{ "hardware": { "gpu": "h100", "nodes": 1024 }, "model": "llama3-405b",
        "seq_len": 8192, "global_batch": 2048, "micro_batch": 1,
        "parallel": { "dp": "zero1", "tp": 8, "pp": 16, "sp": true, "schedule": "interleaved" },
        "recompute": "selective", "stack": "torchtitan" }"#;
    let s: Scenario = serde_json::from_str(text).unwrap();
    assert_eq!(s.parallel.virtual_stages, 0);
    let cfg = s.to_config().unwrap();
    let chosen = cfg.layout.parallel.virtual_stages;
    let report = evaluate(&cfg).unwrap();
    assert!(report.fits);
    assert_eq!(report.virtual_stages, chosen);
    // No count runs a shorter step that fits; one chunk (plain 1F1B) is
    // not what the name means, and runs slower.
    for v in 1..=126 / 16 {
        let mut other = s.clone();
        other.parallel.virtual_stages = v;
        let r = evaluate(&other.to_config().unwrap()).unwrap();
        assert!(
            !r.fits || r.step_time_s >= report.step_time_s,
            "{v} chunks beat {chosen}"
        );
        if v == 1 {
            assert!(r.step_time_s > 1.1 * report.step_time_s);
        }
    }
    // Written as 0 it means the same; other schedules take one chunk.
    let mut zero = s.clone();
    zero.parallel.virtual_stages = 0;
    assert_eq!(zero.to_config().unwrap(), cfg);
    zero.parallel.schedule = Schedule::OneFOneB;
    assert_eq!(zero.to_config().unwrap().layout.parallel.virtual_stages, 1);
}

#[test]
fn a_file_names_the_layers_it_offloads_and_writes_none_when_none() {
    let text = r#"{ "hardware": { "gpu": "gb200", "nodes": 16 }, "model": "llama3-70b",
        "seq_len": 8192, "global_batch": 256, "micro_batch": 2,
        "parallel": { "dp": "fsdp_full", "tp": 1, "pp": 1 },
        "precision": "fp8", "stack": "megatron", "offload_layers": 40 }"#;
    let s: Scenario = serde_json::from_str(text).unwrap();
    assert_eq!(s.to_config().unwrap().layout.offload_layers, 40);
    let written = serde_json::to_string(&Scenario::example()).unwrap();
    assert!(!written.contains("offload_layers"), "{written}");
    let back: Scenario = serde_json::from_str(&written).unwrap();
    assert_eq!(back.offload_layers, 0);
    let mut piped = s;
    piped.parallel.pp = 2;
    let e = piped.to_config().and_then(|c| c.check()).unwrap_err();
    assert!(matches!(e, Error::OffloadNeeds { .. }), "{e:?}");
}

#[test]
fn a_file_can_set_the_host_link_offloaded_activations_cross() {
    let mut s = Scenario::example();
    s.offload_layers = 16;
    let default = evaluate(&s.to_config().unwrap()).unwrap();
    s.hardware.host_link_gb_per_s = Some(16.0);
    let cfg = s.to_config().unwrap();
    assert!((cfg.cluster.gpu.host_link.as_gb_s() - 16.0).abs() < 1e-9);
    // A quarter of Gen5's rate: the copies outlast their layers.
    assert!(evaluate(&cfg).unwrap().breakdown.host.0 > default.breakdown.host.0);
    s.hardware.host_link_gb_per_s = Some(0.0);
    assert!(matches!(
        s.to_config(),
        Err(Error::NotPositive {
            field: "hardware.host_link_gb_per_s"
        })
    ));
}

#[test]
fn a_file_names_its_recomputation_modules_as_megatron_core_does() {
    let text = r#"{ "hardware": { "gpu": "gb200", "nodes": 64 }, "model": "deepseek-v3",
        "seq_len": 4096, "global_batch": 4096, "micro_batch": 1,
        "parallel": { "dp": "zero1", "tp": 1, "pp": 4, "ep": 64 },
        "precision": "fp8", "stack": "megatron", "recompute": "selective",
        "recompute_modules": ["mla_up_proj", "moe_act"] }"#;
    let s: Scenario = serde_json::from_str(text).unwrap();
    let cfg = s.to_config().unwrap();
    let modules = cfg.layout.recompute_modules;
    assert_eq!(modules, Modules::of(&[Module::MoeAct, Module::MlaUpProj]));
    assert!(modules.has(Module::MlaUpProj) && !modules.has(Module::Mlp));
    let written = serde_json::to_string(&s).unwrap();
    assert!(
        written.contains(r#""recompute_modules":["mla_up_proj","moe_act"]"#),
        "{written}"
    );
    let none = serde_json::to_string(&Scenario::example()).unwrap();
    assert!(!none.contains("recompute_modules"), "{none}");
    // A module the model does not cost is refused by name.
    let moe = text.replace(r#""moe_act""#, r#""moe""#);
    let e = alloc::format!("{}", serde_json::from_str::<Scenario>(&moe).unwrap_err());
    assert!(e.contains("unknown variant `moe`"), "{e}");
    // Megatron-Core's rules: a selective recomputation, latent attention
    // for mla_up_proj, experts for moe_act.
    let mut full = s.clone();
    full.recompute = Recompute::Full;
    let e = full.to_config().and_then(|c| c.check()).unwrap_err();
    assert_eq!(
        e,
        Error::ModuleNeeds {
            module: "mla_up_proj",
            what: "recompute: selective"
        }
    );
    let mut dense = Scenario::example();
    dense.recompute = Recompute::Selective;
    for (module, what) in [
        (Module::MlaUpProj, "latent attention"),
        (Module::MoeAct, "mixture-of-experts layers"),
    ] {
        dense.recompute_modules = Modules::of(&[module]);
        let e = dense.to_config().and_then(|c| c.check()).unwrap_err();
        assert_eq!(
            e,
            Error::ModuleNeeds {
                module: module.key(),
                what
            }
        );
    }
    // The others run on any model (a no-op where nothing is unfused).
    dense.recompute_modules = Modules::of(&[Module::Layernorm, Module::Mlp, Module::CoreAttn]);
    assert!(dense.to_config().and_then(|c| c.check()).is_ok());
}

#[test]
fn a_file_writes_llama4s_interleaved_experts_and_chunks_and_checks_the_period() {
    // Written out, Maverick's MoE period and chunks survive a reading
    // back; the defaults (every layer, a sliding window) are left out.
    let custom = |model: crate::model::Model| {
        let json = serde_json::to_string(&model).unwrap();
        let text = serde_json::to_string(&Scenario::example())
            .unwrap()
            .replace("\"llama2-7b\"", &json);
        (json, serde_json::from_str::<Scenario>(&text).unwrap())
    };
    let (json, s) = custom(crate::model::LLAMA4_MAVERICK);
    assert!(
        json.contains("\"every\":2") && json.contains("\"chunked\":true"),
        "{json}"
    );
    assert_eq!(s.to_config().unwrap().model, crate::model::LLAMA4_MAVERICK);
    let (json, _) = custom(crate::model::GPT_OSS_120B);
    assert!(
        !json.contains("\"every\"") && !json.contains("chunked"),
        "{json}"
    );
    // A period of 0 is named.
    let mut zero = crate::model::LLAMA4_MAVERICK;
    zero.moe = zero.moe.map(|e| crate::model::Moe { every: 0, ..e });
    let err = custom(zero).1.to_config().unwrap_err();
    assert!(alloc::format!("{err}").contains("model.moe.every"), "{err}");
}

#[test]
fn an_interleaved_pipelines_end_chunks_may_hold_the_embedding_and_the_loss() {
    // Llama 3.1 405B as NVIDIA's GB200 recipes run it: 126 layers on 16
    // stages of 8 chunks, the last stage's 7 layers and the loss.
    let model = ModelSpec::Preset("llama3-405b".into());
    let mut s = interleaved_recipe(64, model, 1536, (4, 16, 8));
    s.hardware.gpu = "gb200".into();
    let cfg = s.to_config().unwrap();
    assert_eq!(cfg.pipeline_split(), (8, 7));
    // One chunk more leaves a chunk without a layer on every stage.
    s.parallel.virtual_stages = 9;
    let err = alloc::format!("{}", s.to_config().unwrap_err());
    assert!(
        err.contains("144 pipeline stages need at least 142 layers"),
        "{err}"
    );
    // Without interleaving every stage holds a layer.
    let mut flat = cfg;
    flat.layout.parallel.schedule = Schedule::OneFOneB;
    flat.layout.parallel.pp = 127;
    let err = alloc::format!("{}", flat.check().unwrap_err());
    assert!(
        err.contains("127 pipeline stages need at least 127 layers"),
        "{err}"
    );
}
