//! Unit tests of the scenario file: round trips, the cannot-run state,
//! what a file the explorer cannot show in full says when it loads, and
//! the errors that name the field.
use super::*;
use crate::state::compute;

#[test]
fn scenario_round_trips_through_the_file() {
    let mut c = Controls {
        gpu: "a100-sxm4-80gb",
        nodes: 16,
        model: "llama2-13b",
        seq_len: 8192,
        tp: 4,
        pp: 2,
        micro_batch: 1,
        ..Controls::default()
    };
    c.overrides.nvlink_gb_per_s = Some(450.0);
    let text = scenario_json(&c, &Err(String::new()));
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back["hardware"]["gpu"], "a100-sxm4-80gb");
    assert_eq!(back["parallel"]["tp"], 4);
    let (read, notices) = import_scenario(&text).unwrap();
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(read, c);
    // A file that offloads activations (with one stage, as Megatron-Core
    // needs) loads without them, and says so.
    c.pp = 1;
    let text = scenario_json(&c, &Err(String::new()));
    let offload = ("\"recompute\"", "\"offload_layers\": 4, \"recompute\"");
    let host = ("\"gpu\"", "\"host_link_gb_per_s\": 32, \"gpu\"");
    for (at, with) in [offload, host] {
        let (read, notices) = import_scenario(&text.replacen(at, with, 1)).unwrap();
        assert_eq!(read, c);
        assert!(
            notices.iter().any(|n| n.contains("does not offload")),
            "{notices:?}"
        );
    }
    // A file that names Megatron-Core's recomputation modules loads
    // with the explorer's own selective recomputation, and says so.
    c.recompute = scalescope_core::scenario::Recompute::Selective;
    let text = scenario_json(&c, &Err(String::new()));
    let modules = "\"recompute_modules\": [\"layernorm\"], \"recompute\"";
    let (read, notices) = import_scenario(&text.replacen("\"recompute\"", modules, 1)).unwrap();
    assert_eq!(read, c);
    assert!(
        notices.iter().any(|n| n.contains("`recompute_modules`")),
        "{notices:?}"
    );
}

/// A preset MoE model with its routing changed is written out whole
/// (GPT-OSS with its clamped SwiGLU and its windows) and comes back as
/// the preset with the same what-ifs.
#[test]
fn routing_what_ifs_round_trip_through_the_file() {
    for (model, ep) in [("qwen3-30b-a3b", 8), ("gpt-oss-120b", 8)] {
        let mut c = Controls {
            model,
            ep,
            ..Controls::default()
        };
        c.routing.imbalance = Some(1.3);
        c.routing.capacity = Some(1.25);
        let text = scenario_json(&c, &Err(String::new()));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["model"]["moe"]["imbalance"], 1.3);
        let (read, notices) = import_scenario(&text).unwrap();
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(read, c);
        let load = crate::state::model_of(&read).moe.unwrap().load();
        assert!((load - 1.25).abs() < 1e-12, "{load}");
    }
    let gpt_oss = Controls {
        model: "gpt-oss-120b",
        ep: 8,
        routing: crate::state::Routing {
            imbalance: Some(1.3),
            capacity: None,
        },
        ..Controls::default()
    };
    let v: serde_json::Value =
        serde_json::from_str(&scenario_json(&gpt_oss, &Err(String::new()))).unwrap();
    assert_eq!(v["model"]["mlp"], "clamped_swiglu");
    assert_eq!(v["model"]["window"]["tokens"], 128);
}

#[test]
fn pins_go_into_the_file_as_an_array_of_named_settings_and_back() {
    let mut c = Controls {
        tp: 2,
        ..Controls::default()
    };
    c.pin(String::from("TP 2"));
    c.model = "llama2-13b";
    c.pin(String::from("13B"));
    c.nodes = 64;
    let text = scenario_json(&c, &Err(String::new()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v[0]["name"], "Live setting");
    assert_eq!(v[1]["name"], "TP 2");
    assert_eq!(v[1]["scenario"]["parallel"]["tp"], 2);
    assert_eq!(v[2]["scenario"]["model"], "llama2-13b");
    let (back, notices) = import_scenario(&text).unwrap();
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back, c);
    // A bad pin is named and nothing is opened.
    let bad = text.replacen("\"tp\": 2", "\"tp\": \"two\"", 1);
    let e = import_scenario(&bad).unwrap_err();
    assert!(
        e.starts_with("setting 1 (`Live setting`): `parallel.tp`"),
        "{e}"
    );
}

#[test]
fn exported_best_layout_is_the_one_found() {
    let c = Controls {
        best: true,
        ..Controls::default()
    };
    let v = compute(&c);
    let (layout, _) = v.current.clone().unwrap();
    let text = scenario_json(&c, &v.current);
    let s: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(s.parallel, layout.parallel);
    assert_eq!(s.micro_batch, layout.micro_batch);
}

#[test]
fn bad_files_name_the_field_and_change_nothing() {
    let good = scenario_json(&Controls::default(), &Err(String::new()));
    let cases = [
        ("{ not json", "not valid JSON"),
        (
            &good.replace("\"nodes\": 32", "\"nodes\": \"many\""),
            "`hardware.nodes`",
        ),
        (
            &good.replace("\"seq_len\"", "\"seq_length\""),
            "unknown field `seq_length`",
        ),
        (
            &good.replace("\"micro_batch\": 2,", ""),
            "missing field `micro_batch`",
        ),
        (&good.replace("\"sp\": false", "\"sp\": 1"), "`parallel.sp`"),
        (
            &good.replace("\"llama2-7b\"", "7"),
            "`model`: invalid type: integer `7`, expected a preset name",
        ),
        (
            &good.replace("\"llama2-7b\"", "\"llama9-7b\""),
            "the scenario cannot run",
        ),
        (
            &good.replace("\"dp\": \"fsdp\"", "\"dp\": \"zero9\""),
            "`parallel.dp`",
        ),
        (&good.replace("\"nodes\": 32", "\"nodes\": 0"), "nodes"),
        ("[]", "expected struct Scenario"),
    ];
    for (text, expected) in cases {
        let err = import_scenario(text).expect_err(text);
        assert!(err.contains(expected), "{expected:?} not in {err:?}");
    }
}

#[test]
fn a_setting_saved_where_it_cannot_run_opens_in_that_state() {
    let mut c = Controls {
        tp: 3,
        ..Controls::default()
    };
    let text = scenario_json(&c, &Err(String::from("cannot run")));
    let (back, notices) = import_scenario(&text).unwrap();
    assert_eq!(back.tp, 3);
    assert!(
        notices[0].starts_with("as saved, this setting cannot run: tensor parallel 3"),
        "{notices:?}"
    );
    c.tp = 1;
    c.overrides.peak_tflops = Some(1e-4);
    let text = scenario_json(&c, &Err(String::from("cannot run")));
    let err = import_scenario(&text).unwrap_err();
    assert!(err.contains("hardware.peak_tflops"), "{err}");
}

#[test]
fn short_gpu_and_model_names_open_as_the_core_reads_them() {
    let mut s = Scenario::example();
    s.hardware.gpu = "b200".into();
    s.model = ModelSpec::Preset("LLAMA2-13B".into());
    let (c, _) = import_scenario(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!((c.gpu, c.model), ("b200-180gb", "llama2-13b"));
}

#[test]
fn the_cores_example_file_imports() {
    let text = serde_json::to_string(&Scenario::example()).unwrap();
    let (c, _) = import_scenario(&text).unwrap();
    assert_eq!((c.nodes, c.tp, c.scaling), (32, 2, Scaling::Weak));
    assert_eq!(c.local_batch, 2);
}

#[test]
fn mistakes_are_named_as_the_command_line_tool_names_them() {
    let good = scenario_json(&Controls::default(), &Err(String::new()));
    let custom = r#"{"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn": 14336, "vocab": 32000, "mlp": "swiglu"}"#;
    let with_custom = good.replace("\"llama2-7b\"", custom);
    let cases = [
        good.replace("\"nodes\": 32", "\"nodes\": \"many\""),
        good.replace("\"seq_len\"", "\"seq_length\""),
        good.replace("\"micro_batch\": 2,", ""),
        good.replace("\"sp\": false", "\"sp\": 1"),
        good.replace("\"llama2-7b\"", "7"),
        good.replace("\"dp\": \"fsdp\"", "\"dp\": \"zero9\""),
        with_custom.replace("\"hidden\": 4096", "\"hidden\": \"big\""),
        with_custom.replace("\"heads\": 32,", ""),
        String::from("[]"),
        String::from("{ not json"),
    ];
    for text in cases {
        let ours = read(&text).unwrap_err();
        let cores = scalescope_core::json::read_scenario(&text).unwrap_err();
        let path = |e: &str| e.split('`').nth(1).map(String::from);
        assert_eq!(
            ours.starts_with('`'),
            cores.starts_with('`'),
            "{ours} / {cores}"
        );
        if ours.starts_with('`') {
            assert_eq!(path(&ours), path(&cores), "{ours} / {cores}");
        }
    }
}
