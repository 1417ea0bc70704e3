//! `scalescope calibrate`: constants fitted to measured runs, as a table;
//! and the fit's line of `scalescope bench`.

use super::{clip, flag, read_input, USAGE};
use scalescope_core::calibrate::{self, Calibration, Constant};
use scalescope_core::scenario::{ModelSpec, Scenario};
use std::time::Instant;

/// The constants `--free gemm,network` names, or gemm, network and overlap.
fn free_constants(args: &[String]) -> Result<Vec<Constant>, String> {
    let Some(list) = flag(args, "--free") else {
        return Ok(vec![
            Constant::GemmEfficiency,
            Constant::NetworkEfficiency,
            Constant::DpOverlapShare,
        ]);
    };
    list.split(',')
        .map(|k| {
            Constant::parse(k.trim()).ok_or_else(|| {
                format!(
                    "--free `{}`: use gemm, network, overlap or attention",
                    clip(k)
                )
            })
        })
        .collect()
}

/// Prints `rows` with each column as wide as its widest cell, the columns
/// `right` names aligned right.
fn print_table(rows: &[Vec<String>], right: &[usize]) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (s, &w))| {
                if right.contains(&c) {
                    format!("{s:>w$}")
                } else {
                    format!("{s:<w$}")
                }
            })
            .collect();
        outln!("{}", cells.join("  ").trim_end());
    }
}

/// A run's setting in a few words: `h100 x4 llama2-7b s4096 b64 mb2 tp1 pp1 fsdp paper`.
fn setting(s: &Scenario) -> String {
    let model = match &s.model {
        ModelSpec::Preset(id) => clip(id),
        ModelSpec::Custom(_) => String::from("custom"),
    };
    let p = &s.parallel;
    let cp = if p.cp > 1 {
        format!(" cp{}", p.cp)
    } else {
        String::new()
    };
    format!(
        "{} x{} {model} s{} b{} mb{} tp{} pp{}{cp} {} {}",
        clip(&s.hardware.gpu),
        s.hardware.nodes,
        s.seq_len,
        s.global_batch,
        s.micro_batch,
        p.tp,
        p.pp,
        p.dp.key(),
        s.stack.key()
    )
}

/// `calibrate`: constants fitted to the measured runs of a CSV, beside
/// their defaults; each run's error before and after; warnings.
pub(super) fn table(args: &[String]) -> Result<(), String> {
    let path = args.get(1).ok_or_else(|| USAGE.to_string())?;
    let text = read_input(path)?;
    let runs = calibrate::read_csv(&text).map_err(|e| format!("{path}: {e}"))?;
    let free = free_constants(args)?;
    let report =
        calibrate::fit(&runs, &free, Calibration::default()).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = vec![vec![
        String::from("constant"),
        String::from("default"),
        String::from("fitted"),
        String::new(),
    ]];
    for f in &report.fitted {
        rows.push(vec![
            String::from(f.constant.name()),
            format!("{:.3}", f.default),
            format!("{:.3}", f.value),
            String::from(if f.at_bound { "at bound" } else { "" }),
        ]);
    }
    print_table(&rows, &[1, 2]);
    outln!();
    let pct = |e: f64| format!("{:+.1}%", e * 100.0);
    let mut rows = vec![[
        "run",
        "setting",
        "measured",
        "model before",
        "error",
        "model after",
        "error",
    ]
    .map(String::from)
    .to_vec()];
    for (i, (m, r)) in runs.iter().zip(&report.runs).enumerate() {
        rows.push(vec![
            (i + 1).to_string(),
            setting(&m.scenario),
            m.metric.show(m.value),
            m.metric.show(r.model_before),
            pct(r.before),
            m.metric.show(r.model_after),
            pct(r.after),
        ]);
    }
    print_table(&rows, &[0, 2, 3, 4, 5, 6]);
    outln!(
        "\nrms error: before {:.1}%, after {:.1}%",
        report.rms_before * 100.0,
        report.rms_after * 100.0
    );
    let mut rounded = report.calibration;
    for c in calibrate::CONSTANTS {
        rounded.set(c, rounded.get(c).map(|v| (v * 1e4).round() / 1e4));
    }
    outln!(
        "in a scenario file: \"calibration\": {}",
        serde_json::to_string(&rounded).map_err(|e| e.to_string())?
    );
    for w in &report.warnings {
        outln!("warning: {w}");
    }
    Ok(())
}

/// Ten runs measured on H100 (the model's own numbers under other
/// constants, with 5% noise): the calibration bench's input.
const BENCH_RUNS: &str = "gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,dp,stack,metric,value
h100,1,llama2-7b,4096,16,2,1,1,fsdp,megatron,tokens_per_gpu,8648
h100,4,llama2-7b,4096,64,2,1,1,fsdp,megatron,step_time,0.8755
h100,16,llama2-7b,4096,128,1,2,1,fsdp,megatron,mfu,0.284
h100,32,llama2-7b,4096,64,2,8,1,fsdp,megatron,tokens_per_gpu,4839
h100,8,llama2-13b,4096,128,1,2,2,zero1,megatron,step_time,1.927
h100,16,llama2-70b,4096,128,1,8,4,zero1,megatron,mfu,0.337
h100,8,llama2-1b,4096,128,2,1,1,fsdp_full,torchtitan,tokens_per_gpu,45163
h100,32,llama2-13b,4096,256,1,1,1,hsdp,torchtitan,step_time,0.9815
h100,64,llama3-8b,4096,512,1,2,1,zero1,megatron,mfu,0.3529
h100,2,llama2-1b,4096,32,2,1,1,ddp,llm-foundry,tokens_per_gpu,44432
";

/// A fit of three constants to ten measured runs.
pub(super) fn bench() {
    let runs = calibrate::read_csv(BENCH_RUNS).expect("the bench's runs are valid");
    let free = [
        Constant::GemmEfficiency,
        Constant::NetworkEfficiency,
        Constant::DpOverlapShare,
    ];
    let mut times = Vec::new();
    let mut rms = 0.0;
    for _ in 0..50 {
        let t = Instant::now();
        if let Ok(r) = calibrate::fit(&runs, &free, Calibration::default()) {
            rms = r.rms_after;
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    outln!(
        "calibrate 10 runs, 3 constants: median {:.3} ms, p95 {:.3} ms, rms error after {:.1}%",
        times[times.len() / 2] * 1e3,
        times[times.len() * 95 / 100] * 1e3,
        rms * 100.0
    );
}
