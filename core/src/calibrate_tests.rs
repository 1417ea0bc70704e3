//! The calibration's tests: known constants recovered from runs the model
//! generates itself, with and without noise; the CSV read, refused line by
//! line, and written back; the calibration in a scenario file.

use super::*;
use crate::error::Error;
use crate::evaluate::evaluate;
use crate::scenario::{DataParallel, Parallel, Precision, Recompute, Schedule};
use crate::stack::StackId;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

const FREE: [Constant; 3] = [
    Constant::GemmEfficiency,
    Constant::NetworkEfficiency,
    Constant::DpOverlapShare,
];

/// The constants the generated runs are measured with.
const TRUTH: Calibration = Calibration {
    gemm_efficiency: Some(0.5),
    network_efficiency: Some(0.7),
    dp_overlap_share: Some(0.25),
    attention_efficiency: None,
};

/// An H100 setting: nodes, model, global batch, micro-batch, TP, PP, the
/// data-parallel flavour and the stack.
#[allow(clippy::too_many_arguments)]
fn setting(
    nodes: u32,
    model: &str,
    global_batch: u32,
    micro_batch: u32,
    tp: u32,
    pp: u32,
    dp: DataParallel,
    stack: StackId,
) -> Scenario {
    let mut s = Scenario::example();
    s.hardware.nodes = nodes;
    s.hardware.inter_node_gbps_per_gpu = None;
    s.model = crate::scenario::ModelSpec::Preset(model.into());
    s.global_batch = global_batch;
    s.micro_batch = micro_batch;
    s.parallel = Parallel {
        dp,
        tp,
        pp,
        cp: 1,
        sp: false,
        schedule: Schedule::OneFOneB,
        virtual_stages: 1,
        ep: 1,
        etp: 1,
        ep_overlap: false,
    };
    s.stack = stack;
    s
}

/// Ten varied settings on H100: one node to 64, 1B to 70B, FSDP, full
/// sharding, hybrid sharding, ZeRO-1 and DDP, tensor parallelism inside a
/// node and a pipeline across nodes, under stacks that share one overlap
/// share.
fn settings() -> Vec<Scenario> {
    use DataParallel::*;
    use StackId::*;
    vec![
        setting(1, "llama2-7b", 16, 2, 1, 1, Fsdp, Megatron),
        setting(4, "llama2-7b", 64, 2, 1, 1, Fsdp, Megatron),
        setting(16, "llama2-7b", 128, 1, 2, 1, Fsdp, Megatron),
        setting(32, "llama2-7b", 64, 2, 8, 1, Fsdp, Megatron),
        setting(8, "llama2-13b", 128, 1, 2, 2, Zero1, Megatron),
        setting(16, "llama2-70b", 128, 1, 8, 4, Zero1, Megatron),
        setting(8, "llama2-1b", 128, 2, 1, 1, FsdpFull, Torchtitan),
        setting(32, "llama2-13b", 256, 1, 1, 1, Hsdp, Torchtitan),
        setting(64, "llama3-8b", 512, 1, 2, 1, Zero1, Megatron),
        setting(2, "llama2-1b", 32, 2, 1, 1, Ddp, LlmFoundry),
    ]
}

/// Runs of `settings` as the model measures them under `truth`, each value
/// scaled by its factor of `noise`; the metrics vary.
fn generated(truth: Calibration, noise: impl Fn(usize) -> f64) -> Vec<Measured> {
    let metrics = [Metric::TokensPerGpu, Metric::StepTime, Metric::Mfu];
    settings()
        .into_iter()
        .enumerate()
        .map(|(i, scenario)| {
            let mut cfg = scenario.to_config().unwrap();
            truth.apply(&mut cfg);
            let metric = metrics[i % 3];
            let value = metric.of(&evaluate(&cfg).unwrap()) * noise(i);
            Measured {
                scenario,
                metric,
                value,
            }
        })
        .collect()
}

/// A fixed sequence in [-1, 1): a linear congruential generator's high bits.
fn pseudo_random(n: usize) -> Vec<f64> {
    let mut state: u64 = 0x5eed_cafe_f00d_d00d;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

fn value_of(report: &FitReport, c: Constant) -> f64 {
    report
        .fitted
        .iter()
        .find(|f| f.constant == c)
        .unwrap()
        .value
}

#[test]
fn the_fit_recovers_the_constants_the_runs_were_made_with() {
    let runs = generated(TRUTH, |_| 1.0);
    let report = fit(&runs, &FREE, Calibration::default()).unwrap();
    for c in FREE {
        let (got, want) = (value_of(&report, c), TRUTH.get(c).unwrap());
        assert!(
            (got - want).abs() < 0.01,
            "{}: {got} against {want}",
            c.name()
        );
    }
    assert!(report.rms_after < 1e-3, "{report:?}");
    assert!(report.rms_before > 0.05, "{report:?}");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(report.calibration.get(Constant::AttentionEfficiency), None);
}

#[test]
fn with_five_percent_noise_the_fit_lands_near_the_constants() {
    // Uniform in log, 5% rms.
    let noise = pseudo_random(10);
    let runs = generated(TRUTH, |i| (0.05 * 3f64.sqrt() * noise[i]).exp());
    let report = fit(&runs, &FREE, Calibration::default()).unwrap();
    // Loose: gemm and overlap trade off against each other, so 5% noise
    // on ten runs moves each by several percent.
    let tolerance = [0.04, 0.15, 0.08];
    for (c, tol) in FREE.into_iter().zip(tolerance) {
        let (got, want) = (value_of(&report, c), TRUTH.get(c).unwrap());
        assert!(
            (got - want).abs() < tol,
            "{}: {got} against {want}",
            c.name()
        );
    }
    assert!(
        report.rms_after > 0.03 && report.rms_after < 0.07,
        "{}",
        report.rms_after
    );
    assert!(!report.warnings.iter().any(|w| w.starts_with("poor fit")));
}

#[test]
fn runs_that_disagree_with_each_other_give_a_poor_fit_warning() {
    let mut runs = generated(TRUTH, |_| 1.0);
    runs.truncate(4);
    let mut twice = runs[1].clone();
    twice.value = match twice.metric {
        Metric::StepTime => twice.value / 2.0,
        _ => twice.value * 2.0,
    };
    runs.push(twice);
    let report = fit(&runs, &[Constant::GemmEfficiency], Calibration::default()).unwrap();
    assert!(report.rms_after > POOR_FIT, "{}", report.rms_after);
    assert!(
        report.warnings.iter().any(|w| w.starts_with("poor fit")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn a_constant_at_its_bound_or_that_no_run_depends_on_is_named() {
    // One node each, so no traffic crosses the network; each measured at
    // a third of the model's speed, slower than any GEMM efficiency allows.
    let runs: Vec<Measured> = ["llama2-7b", "llama2-1b"]
        .into_iter()
        .map(|model| {
            let scenario = setting(1, model, 16, 2, 1, 1, DataParallel::Fsdp, StackId::Megatron);
            let r = evaluate(&scenario.to_config().unwrap()).unwrap();
            Measured {
                scenario,
                metric: Metric::TokensPerGpu,
                value: r.tokens_per_s_per_gpu / 3.0,
            }
        })
        .collect();
    let free = [Constant::GemmEfficiency, Constant::NetworkEfficiency];
    let report = fit(&runs, &free, Calibration::default()).unwrap();
    let w = report.warnings.join("\n");
    assert!(w.contains("no run depends on `network_efficiency`"), "{w}");
    assert!(w.contains("`gemm_efficiency` stopped at its bound"), "{w}");
    assert!(report.fitted[0].at_bound && !report.fitted[1].at_bound);
    assert!((report.fitted[0].value - 0.3).abs() < 1e-3);
}

#[test]
fn more_free_constants_than_runs_are_refused() {
    let runs = generated(TRUTH, |_| 1.0);
    assert_eq!(
        fit(&runs[..2], &FREE, Calibration::default()),
        Err(FitError::TooFew { free: 3, runs: 2 })
    );
    assert_eq!(
        fit(&[], &FREE, Calibration::default()),
        Err(FitError::NoRuns)
    );
    assert_eq!(
        fit(&runs, &[], Calibration::default()),
        Err(FitError::NoFreeConstants)
    );
    let repeated = [Constant::GemmEfficiency, Constant::GemmEfficiency];
    assert_eq!(
        fit(&runs, &repeated, Calibration::default()),
        Err(FitError::Repeated(Constant::GemmEfficiency))
    );
    let many: Vec<Measured> = (0..65).map(|i| runs[i % 10].clone()).collect();
    assert_eq!(
        fit(&many, &FREE, Calibration::default()),
        Err(FitError::TooMany { runs: 65 })
    );
}

#[test]
fn a_run_that_is_not_a_measurement_is_refused_by_its_position() {
    let mut runs = generated(TRUTH, |_| 1.0);
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        runs[2].value = bad;
        let e = fit(&runs, &FREE, Calibration::default()).unwrap_err();
        assert!(matches!(e, FitError::Run { run: 3, .. }), "{e}");
    }
    runs[2] = generated(TRUTH, |_| 1.0)[2].clone();
    runs[3].scenario.parallel.tp = 3;
    let e = fit(&runs, &FREE, Calibration::default()).unwrap_err();
    assert!(e.to_string().starts_with("run 4: tensor parallel 3"), "{e}");
    let start = Calibration {
        gemm_efficiency: Some(2.0),
        ..Calibration::default()
    };
    runs[3].scenario.parallel.tp = 8;
    assert!(matches!(
        fit(&runs, &FREE, start),
        Err(FitError::Start(Error::CalibrationOutOfRange { .. }))
    ));
}

#[test]
fn a_held_constant_stays_at_its_starting_value() {
    let runs = generated(TRUTH, |_| 1.0);
    let start = Calibration {
        network_efficiency: Some(0.7),
        dp_overlap_share: Some(0.25),
        ..Calibration::default()
    };
    let report = fit(&runs, &[Constant::GemmEfficiency], start).unwrap();
    assert_eq!(report.calibration.network_efficiency, Some(0.7));
    assert_eq!(report.calibration.dp_overlap_share, Some(0.25));
    assert!((value_of(&report, Constant::GemmEfficiency) - 0.5).abs() < 1e-3);
    assert!(report.rms_after < 1e-3, "{}", report.rms_after);
}

const HEADER: &str = "gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,metric,value";

/// `read_csv`'s error for `text`, as `(line, field, message)`.
fn refusal(text: &str) -> (usize, Option<String>, String) {
    let e = read_csv(text).unwrap_err();
    (e.line, e.field, e.message)
}

#[test]
fn read_csv_names_the_line_and_the_field_of_each_mistake() {
    let good = "h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,3000";
    let cases: [(&str, Option<&str>, &str); 12] = [
        (
            "h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,-12",
            Some("value"),
            "negative throughput -12",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,0",
            Some("value"),
            "zero throughput",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,1,step_time,NaN",
            Some("value"),
            "step time `NaN` is not a finite number",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,1,mfu,41",
            Some("value"),
            "MFU 41 is over 1",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,fast",
            Some("value"),
            "`fast` is not a number",
        ),
        (
            "h100,four,llama2-7b,4096,64,2,1,1,tokens_per_gpu,3000",
            Some("nodes"),
            "`four` is not a whole number",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,3,1,tokens_per_gpu,3000",
            Some("tp"),
            "tensor parallel 3 does not divide the 32 attention heads",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu",
            None,
            "9 cells, and the header names 10 columns",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,1,flops,3000",
            Some("metric"),
            "unknown metric `flops`",
        ),
        (
            "h100,4,llama2-7b,4096,64,2,1,0,tokens_per_gpu,3000",
            Some("pp"),
            "0: a count must be at least 1",
        ),
        (
            "a200,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,3000",
            Some("gpu"),
            "unknown GPU",
        ),
        (
            "h100,4,llama2-7b,4096,60,2,1,1,tokens_per_gpu,3000",
            Some("global_batch"),
            "global batch 60 does not split",
        ),
    ];
    for (line, field, message) in cases {
        let text = alloc::format!("# measured in May\n{HEADER}\n{good}\n\n{line}\n");
        let (l, f, m) = refusal(&text);
        assert_eq!((l, f.as_deref()), (5, field), "{line}: {m}");
        assert!(m.starts_with(message), "{line}: {m}");
    }
    let e = read_csv(&alloc::format!("{HEADER}\n{}", cases[0].0)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, field `value`: negative throughput -12"
    );
}

#[test]
fn read_csv_refuses_a_bad_header_and_too_many_runs() {
    let (l, f, m) = refusal("\n# nothing\n");
    assert_eq!((l, f, m.starts_with("no header line")), (1, None, true));
    let (l, f, m) = refusal(&alloc::format!("{HEADER},colour\n"));
    assert_eq!((l, f.as_deref()), (1, Some("colour")));
    assert!(m.starts_with("unknown column"), "{m}");
    let (l, f, _) = refusal("gpu,nodes,model,seq,global_batch,micro_batch,tp,metric,value\n");
    assert_eq!((l, f.as_deref()), (1, Some("pp")));
    let (_, f, m) = refusal(&alloc::format!("{HEADER},tp\n"));
    assert_eq!(
        (f.as_deref(), m.as_str()),
        (Some("tp"), "column named twice: name it once")
    );
    let (l, f, m) = refusal(&alloc::format!(
        "{HEADER},dp\nh100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,3000,fsdp2\n"
    ));
    assert_eq!((l, f.as_deref()), (2, Some("dp")));
    assert!(m.contains("unknown variant `fsdp2`"), "{m}");
    let row = "h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,3000\n";
    assert_eq!(
        read_csv(&alloc::format!("{HEADER}\n{}", row.repeat(64)))
            .unwrap()
            .len(),
        64
    );
    let (l, f, m) = refusal(&alloc::format!("{HEADER}\n{}", row.repeat(65)));
    assert_eq!((l, f), (66, None));
    assert!(m.starts_with("more than 64 runs"), "{m}");
}

#[test]
fn write_csv_reads_back_as_the_same_runs() {
    let mut runs = generated(TRUTH, |_| 1.0);
    runs[1].scenario.parallel.cp = 2;
    runs[1].scenario.parallel.sp = true;
    runs[1].scenario.recompute = Recompute::Selective;
    runs[1].scenario.precision = Precision::Fp8;
    runs[2].scenario.hardware.gpus_per_node = Some(4);
    runs[2].scenario.hardware.inter_node_gbps_per_gpu = Some(200.0);
    runs[3].value = 1.0 / 3.0;
    let text = write_csv(&runs);
    assert_eq!(read_csv(&text).unwrap(), runs, "{text}");
    // Columns in another order, optional ones left out.
    let text = "value,metric,pp,tp,micro_batch,global_batch,seq,model,nodes,gpu\n2900.5,tokens_per_gpu,1,1,2,64,4096,llama2-7b,4,h100\n";
    let run = &read_csv(text).unwrap()[0];
    assert_eq!(run.value, 2900.5);
    assert_eq!(run.scenario.parallel.dp, DataParallel::Fsdp);
    assert_eq!(run.scenario.stack, StackId::Paper);
}

#[test]
fn an_empty_calibration_changes_no_report() {
    for scenario in settings() {
        let cfg = scenario.to_config().unwrap();
        let mut applied = cfg;
        Calibration::default().apply(&mut applied);
        assert_eq!(applied, cfg);
        assert_eq!(evaluate(&applied).unwrap(), evaluate(&cfg).unwrap());
    }
    let text = serde_json::to_string(&Scenario::example()).unwrap();
    assert!(!text.contains("calibration"), "{text}");
}

#[test]
fn a_scenario_files_calibration_reads_back_and_is_applied() {
    let mut s = Scenario::example();
    s.calibration = TRUTH;
    s.calibration.attention_efficiency = Some(0.4);
    let text = serde_json::to_string_pretty(&s).unwrap();
    let back: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    let cfg = back.to_config().unwrap();
    assert_eq!(cfg.cluster.gpu.gemm_efficiency, 0.5);
    assert_eq!(cfg.cluster.network_efficiency, 0.7);
    assert_eq!(cfg.stack.dp_overlap_share, 0.25);
    assert_eq!(cfg.cluster.gpu.attention_efficiency, 0.4);
    let plain = Scenario::example().to_config().unwrap();
    assert_ne!(evaluate(&cfg).unwrap(), evaluate(&plain).unwrap());
    let unknown = text.replace("\"gemm_efficiency\"", "\"gemm\"");
    assert!(serde_json::from_str::<Scenario>(&unknown)
        .unwrap_err()
        .to_string()
        .contains("unknown field `gemm`"));
}

#[test]
fn a_calibration_out_of_range_is_refused_by_its_field() {
    for c in CONSTANTS {
        let (lo, hi) = c.bounds();
        for bad in [lo - 0.01, hi + 0.01, f64::NAN, f64::INFINITY, -1.0] {
            let mut s = Scenario::example();
            s.calibration.set(c, Some(bad));
            let e = s.to_config().unwrap_err();
            assert!(
                matches!(e, Error::CalibrationOutOfRange { field, min, max, .. }
                    if field == c.name() && min == lo && max == hi),
                "{e:?}"
            );
            let text = e.to_string();
            assert!(
                text.starts_with(&alloc::format!("`calibration.{}` is ", c.name())),
                "{text}"
            );
            assert!(
                text.contains(&alloc::format!("between {lo} and {hi}")),
                "{text}"
            );
        }
        let mut s = Scenario::example();
        s.calibration.set(c, Some(lo));
        assert!(s.to_config().is_ok());
        s.calibration.set(c, Some(hi));
        assert!(s.to_config().is_ok());
    }
}

#[test]
fn constants_are_named_and_parsed_by_either_name() {
    for c in CONSTANTS {
        assert_eq!(Constant::parse(c.name()), Some(c));
        assert_eq!(Constant::parse(&c.short().to_uppercase()), Some(c));
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, alloc::format!("\"{}\"", c.name()));
        let cfg = Scenario::example().to_config().unwrap();
        let (lo, hi) = c.bounds();
        let d = c.default_for(&cfg);
        assert!(lo <= d && d <= hi, "{}: {d}", c.name());
    }
    assert_eq!(Constant::parse("flops"), None);
    assert_eq!(Metric::parse("MFU"), Some(Metric::Mfu));
    assert!(Metric::Mfu.show(0.413).contains("41.3%"));
}

/// An attention calibration sets the efficiency the stack's kernel reads:
/// FlashAttention-2's under the paper's stack, cuDNN's under Megatron,
/// which runs attention through Transformer Engine.
#[test]
fn an_attention_calibration_sets_the_kernel_the_stack_runs() {
    let mut s = Scenario::example();
    s.calibration.attention_efficiency = Some(0.4);
    let paper = s.to_config().unwrap();
    assert_eq!(paper.cluster.gpu.attention_efficiency, 0.4);
    assert_eq!(Constant::AttentionEfficiency.default_for(&paper), 0.4);
    s.stack = StackId::Megatron;
    let megatron = s.to_config().unwrap();
    let gpu = megatron.cluster.gpu;
    assert_eq!(gpu.te_attention_efficiency, 0.4);
    assert_eq!(
        gpu.attention_efficiency,
        crate::hardware::H100.attention_efficiency
    );
    assert_eq!(Constant::AttentionEfficiency.default_for(&megatron), 0.4);
}

/// `docs/calibrate.md` quotes each fittable constant's default at its
/// current value (it is written by hand, so a refit must update it).
#[test]
fn the_calibration_guide_quotes_the_current_defaults() {
    use crate::calibration as cal;
    let guide = include_str!("../../docs/calibrate.md");
    for quoted in [
        alloc::format!("H100 {}, A100 {}, V100 {}", cal::GEMM_EFFICIENCY_H100, cal::GEMM_EFFICIENCY_A100, cal::GEMM_EFFICIENCY_V100),
        alloc::format!("`NETWORK_EFFICIENCY`, {}", cal::NETWORK_EFFICIENCY),
        alloc::format!("`OVERLAP_BANDWIDTH_SHARE` ({}) under `paper`", cal::OVERLAP_BANDWIDTH_SHARE),
        alloc::format!("`TUNED_OVERLAP_SHARE` ({})", cal::TUNED_OVERLAP_SHARE),
        alloc::format!("`ATTENTION_EFFICIENCY_*`: H100 {}", cal::ATTENTION_EFFICIENCY_H100),
        alloc::format!("`CUDNN_ATTENTION_EFFICIENCY_*` where the stack runs attention through Transformer Engine: H100 {}", cal::CUDNN_ATTENTION_EFFICIENCY_H100),
    ] {
        assert!(guide.contains(&quoted), "docs/calibrate.md should say: {quoted}");
    }
}
