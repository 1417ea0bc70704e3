//! Tests of links: every control round-trips, tampered links are read as far as they can be.
use super::*;
use scalescope_core::model::Model;

#[test]
fn defaults_make_an_empty_query() {
    assert_eq!(to_query(&Controls::default()), "");
    let (c, notices) = from_query("");
    assert_eq!(c, Controls::default());
    assert!(notices.is_empty());
}

#[test]
fn every_control_round_trips() {
    let c = Controls {
        gpu: "a100-sxm4-40gb",
        nodes: 24,
        model: "custom",
        custom: Model {
            layers: 30,
            hidden: 3072,
            heads: 24,
            kv_heads: 8,
            ffn: 8192,
            vocab: 50_000,
            mlp: Mlp::Gelu,
            head_dim: None,
            latent: None,
            moe: None,
            window: None,
        },
        seq_len: 8192,
        tp: 4,
        pp: 2,
        cp: 2,
        ep: 16,
        etp: 2,
        ep_overlap: false,
        dp: DataParallel::Hsdp,
        sp: false,
        schedule: Schedule::Interleaved,
        scaling: Scaling::Strong,
        local_batch: 4,
        global_batch: 1024,
        micro_batch: 1,
        recompute: Recompute::Selective,
        precision: Precision::Fp16,
        stack: StackId::Megatron,
        best: true,
        overrides: Overrides {
            peak_tflops: Some(400.5),
            hbm_gb_per_s: Some(3000.0),
            nvlink_gb_per_s: Some(1200.0),
            network_gbps_per_gpu: Some(800.0),
            gpus_per_node: Some(16),
            nvlink_domain: Some(32),
            dp_overlap_gb_per_s: Some(120.0),
        },
        routing: crate::state::Routing {
            imbalance: Some(1.2),
            capacity: Some(1.5),
        },
        plan: PlanInputs {
            tokens: Some(2e12),
            tokens_per_param: 25.0,
            price: Some(1.75),
            overhead: 0.3,
            pue: 1.1,
            carbon: 0.05,
            knee: 1.7,
        },
        pins: Vec::new(),
        calibration: scalescope_core::calibrate::Calibration {
            gemm_efficiency: Some(0.51),
            network_efficiency: Some(0.8),
            ..Default::default()
        },
        calibrated: true,
    };
    let q = to_query(&c);
    let (back, notices) = from_query(&format!("?{q}"));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back, c, "{q}");
}

#[test]
fn tampered_queries_are_ignored_or_clamped_with_a_notice() {
    let (c, notices) = from_query(
        "?nodes=99999&tp=abc&gpu=tpu-v9&foo=1&seq=4096&model=llama2-70b&best=maybe&net=-3&%ZZ=%",
    );
    assert_eq!(c.nodes, MAX_NODES);
    assert_eq!(c.tp, 1);
    assert_eq!(c.gpu, Controls::default().gpu);
    assert_eq!(c.model, "llama2-70b");
    assert!(!c.best);
    assert_eq!(c.overrides.network_gbps_per_gpu, None);
    let all = notices.join("\n");
    for expected in [
        "`nodes=99999` is out of range (1 to 16384): using 16384",
        "ignored `tp=abc`: not a valid value",
        "ignored `gpu=tpu-v9`: not a valid value",
        "ignored `foo=1`: unknown parameter",
        "ignored `best=maybe`: not a valid value",
        "ignored `net=-3`: not a valid value",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
}

#[test]
fn pins_round_trip_with_their_names_and_settings() {
    let mut c = Controls {
        nodes: 64,
        ..Controls::default()
    };
    c.tp = 4;
    c.pin(String::from("TP 4 & friends"));
    c.tp = 2;
    c.model = "llama2-13b";
    c.pin(String::from("13B"));
    c.tp = 1;
    let q = to_query(&c);
    assert!(q.contains("pin1="), "{q}");
    let (back, notices) = from_query(&format!("?{q}"));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back, c, "{q}");
    assert_eq!(back.pins[0].name, "TP 4 & friends");
    assert_eq!(back.pins[1].controls.model, "llama2-13b");
}

#[test]
fn a_tampered_pin_is_read_as_far_as_it_can_be() {
    let (c, notices) = from_query("?pin2=tp%3Dabc%26nodes%3D4%26name%3Dx");
    assert_eq!(c.pins.len(), 1);
    assert_eq!(c.pins[0].name, "x");
    assert_eq!(c.pins[0].controls.nodes, 4);
    assert!(
        notices.iter().any(|n| n.starts_with("x: ignored `tp=abc`")),
        "{notices:?}"
    );
}

#[test]
fn planner_inputs_out_of_range_are_clamped_with_a_notice() {
    let (c, notices) = from_query("?pue=0.5&knee=9&price=abc&tokens=2e12");
    assert!((c.plan.pue - 1.0).abs() < 1e-12);
    assert!((c.plan.knee - 2.0).abs() < 1e-12);
    assert_eq!(c.plan.price, None);
    assert_eq!(c.plan.tokens, Some(2e12));
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert!(notices[2].contains("price"), "{notices:?}");
}

#[test]
fn tiny_and_unround_what_ifs_keep_every_digit() {
    for v in [0.0001, 0.0016, 1e-300, 1234.5678] {
        let mut c = Controls::default();
        c.overrides.peak_tflops = Some(v);
        c.overrides.hbm_gb_per_s = Some(v);
        let (back, notices) = from_query(&to_query(&c));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, c, "{}", to_query(&c));
    }
}

#[test]
fn gpus_and_models_are_read_as_scenario_files_read_them() {
    let (c, notices) = from_query("gpu=H100&model=LLAMA2-70B");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((c.gpu, c.model), ("h100-sxm5-80gb", "llama2-70b"));
    let (c, _) = from_query("gpu=b200");
    assert_eq!(c.gpu, "b200-180gb");
}

#[test]
fn a_count_that_is_not_whole_is_rounded_and_said_so() {
    let (c, notices) = from_query("nodes=2.5&layers=5000&model=custom");
    assert_eq!((c.nodes, c.custom.layers), (3, custom_max::LAYERS));
    assert_eq!(
        notices,
        [
            "`nodes=2.5` is not a whole number: using 3",
            "`layers=5000` is out of range (1 to 1024): using 1024"
        ]
    );
    let (c, notices) = from_query("gpn=0.3");
    assert_eq!(c.overrides.gpus_per_node, Some(1));
    assert_eq!(notices, ["`gpn=0.3` is out of range (1 to 1024): using 1"]);
}

#[test]
fn a_parameter_given_twice_counts_once_with_a_notice() {
    let (c, notices) = from_query("nodes=4&nodes=8");
    assert_eq!(c.nodes, 8);
    assert_eq!(
        notices,
        ["`nodes` is given more than once: the last one is used"]
    );
    let (charts, _) = embed_of("embed=power&embed=grid").unwrap();
    assert_eq!(charts, vec![Chart::Grid]);
}

#[test]
fn escapes_are_decoded() {
    assert_eq!(
        params("?a%20b=c+d%2").collect::<Vec<_>>(),
        [(String::from("a b"), String::from("c d%2"))]
    );
    let (c, _) = from_query("model=llama2%2D13b");
    assert_eq!(c.model, "llama2-13b");
}

#[test]
fn embed_links_name_their_charts() {
    assert!(embed_of("nodes=4").is_none());
    let (charts, notices) = embed_of("?nodes=4&embed=power,per-gpu,bogus").unwrap();
    assert_eq!(charts, vec![Chart::Power, Chart::PerGpu]);
    assert_eq!(notices.len(), 1);
    assert!(notices[0].contains("bogus"));
    assert_eq!(embed_of("embed=1").unwrap().0, vec![Chart::Throughput]);
    assert_eq!(embed_of("embed").unwrap().0, vec![Chart::Throughput]);
    // The controls ignore the parameter without a notice.
    let (c, notices) = from_query("embed=power&nodes=4");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(c.nodes, 4);
    assert_eq!(
        embed_param(&[Chart::Power, Chart::Memory]),
        "embed=power,memory"
    );
}
