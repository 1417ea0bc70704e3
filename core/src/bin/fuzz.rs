//! `fuzz`: a seeded random-scenario campaign over the scenario parser,
//! evaluation, layout search, sweeps and calibration fits. Every scenario
//! goes through the public path (`Scenario` -> `to_config` -> `evaluate`);
//! every report must be finite, with MFU and HFU in [0, 1], the step equal
//! to its breakdown and no exposed communication above its total; every
//! fit to runs made of them is refused by name or finite, its constants
//! within their bounds. Any failure prints the scenario and exits 1;
//! otherwise the counts are printed.
//!
//!   fuzz [--evaluations N] [--seed S]     (default 10,000,000 and 1)
//!
//! N counts scenarios evaluated; those refused with a named error (a
//! layout that does not divide, an fp8 run on A100, a value out of range)
//! come on top and are counted by reason.

use scalescope_core::calibrate::{self, Calibration, Measured, Metric, CONSTANTS};
use scalescope_core::evaluate::{evaluate, Report};
use scalescope_core::hardware::GPUS;
use scalescope_core::model::{Mlp, Model, PRESETS};
use scalescope_core::scenario::{
    DataParallel, HardwareSpec, ModelSpec, Module, Modules, Parallel, Precision, Recompute,
    Scenario, Schedule,
};
use scalescope_core::search::{search, sweep, Objective, Scaling, SearchSpace};
use scalescope_core::stack::STACKS;
use std::process::ExitCode;
use std::time::Instant;

#[path = "fuzz/rng.rs"]
mod rng;
use rng::{latent, moe, Rng};

/// The slowest a scenario's check and evaluation may take before the
/// campaign fails: ten times the bound the pipeline limit keeps
/// (`scenario::limits::SIMULATED_PASSES`, about 10 ms here), for a busy
/// machine.
const SLOWEST_EVALUATION_S: f64 = 0.1;

/// A deep pipeline: hundreds to tens of thousands of stages, interleaved
/// or not, on enough 16-GPU nodes, over many micro-batches: the class
/// whose simulation once grew with the square of the depth.
fn deep_pipeline(r: &mut Rng) -> Scenario {
    let mut s = scenario(r);
    let pp: u32 = 1 << (6 + r.below(11));
    let v: u32 = 1 << r.below(4);
    s.model = ModelSpec::Custom(Model {
        layers: pp
            .saturating_mul(v)
            .saturating_mul(1 + u32::try_from(r.below(2)).unwrap_or(0)),
        hidden: 1024,
        heads: 8,
        kv_heads: 8,
        ffn: 4096,
        vocab: 32000,
        mlp: Mlp::Gelu,
        head_dim: None,
        latent: None,
        moe: None,
        window: None,
    });
    s.hardware.gpus_per_node = Some(16);
    s.hardware.nodes = (pp / 16).max(1) << r.below(3);
    let dp = (s.hardware.nodes * 16 / pp).max(1);
    s.micro_batch = 1;
    s.global_batch = dp.saturating_mul(pp).saturating_mul(1 << r.below(5));
    s.parallel.tp = 1;
    s.parallel.cp = 1;
    s.parallel.pp = pp;
    // Left unset (0) as a file may leave it: the interleaved schedule's
    // count is then chosen, and its choice must stay within the bound.
    s.parallel.virtual_stages = if r.chance(4) { 0 } else { v };
    s.parallel.schedule = r.pick(&Schedule::ALL);
    s
}

fn scenario(r: &mut Rng) -> Scenario {
    let gpu = r.pick(&GPUS);
    let opt = |r: &mut Rng| if r.chance(4) { Some(r.what_if()) } else { None };
    let model = if r.chance(80) {
        ModelSpec::Preset(String::from(r.pick(PRESETS).id))
    } else {
        // Mostly a well-formed shape (heads split the width, kv heads the
        // heads), sometimes anything.
        let heads = r.count(7);
        let kv = heads >> r.below(4);
        ModelSpec::Custom(Model {
            layers: if r.chance(90) {
                1 + u32::try_from(r.below(160)).unwrap_or(0)
            } else {
                r.count(8)
            },
            hidden: if r.chance(90) {
                heads.saturating_mul(64 << r.below(3))
            } else {
                r.count(15)
            },
            heads,
            kv_heads: if r.chance(90) { kv.max(1) } else { r.count(6) },
            ffn: r.count(16),
            vocab: r.count(18),
            mlp: r.pick(&[Mlp::Swiglu, Mlp::Gelu, Mlp::ClampedSwiglu]),
            head_dim: if r.chance(20) { Some(r.count(8)) } else { None },
            latent: latent(r),
            moe: moe(r),
            window: r.chance(20).then(|| scalescope_core::model::Window {
                tokens: r.count(14),
                full_every: u32::try_from(r.below(4)).unwrap_or(0),
                chunked: r.chance(50),
            }),
        })
    };
    let (tp, cp) = (r.count(4), r.count(2));
    let pp = if r.chance(70) {
        r.count(4)
    } else {
        u32::try_from(r.below(130)).unwrap_or(1)
    };
    let nodes = r.count(10);
    let micro_batch = r.count(4);
    // Mostly a batch that splits over the replicas (8 GPUs a node).
    let dp = (u64::from(nodes) * 8 / (u64::from(tp) * u64::from(pp) * u64::from(cp)).max(1)).max(1);
    let global_batch = if r.chance(80) {
        u32::try_from(dp * u64::from(micro_batch) * (1 << r.below(5))).unwrap_or(u32::MAX)
    } else {
        r.count(14)
    };
    Scenario {
        hardware: HardwareSpec {
            gpu: String::from(gpu.id),
            nodes,
            gpus_per_node: if r.chance(20) { Some(r.count(5)) } else { None },
            nvlink_domain: if r.chance(10) { Some(r.count(8)) } else { None },
            inter_node_gbps_per_gpu: opt(r),
            peak_tflops: opt(r),
            hbm_gib: opt(r),
            hbm_gb_per_s: opt(r),
            nvlink_gb_per_s: opt(r),
            dp_overlap_gb_per_s: opt(r),
            host_link_gb_per_s: opt(r),
        },
        model,
        seq_len: if r.chance(90) {
            256 << r.below(8)
        } else {
            r.count(18)
        },
        global_batch,
        micro_batch,
        parallel: Parallel {
            dp: r.pick(&[
                DataParallel::Ddp,
                DataParallel::Zero1,
                DataParallel::Fsdp,
                DataParallel::FsdpFull,
                DataParallel::Hsdp,
            ]),
            tp,
            pp,
            cp,
            sp: r.chance(50),
            schedule: r.pick(&Schedule::ALL),
            virtual_stages: r.count(3),
            ep: if r.chance(60) { 1 } else { r.count(8) },
            etp: if r.chance(80) { 1 } else { r.count(3) },
            ep_overlap: r.chance(30),
        },
        recompute: r.pick(&[Recompute::None, Recompute::Selective, Recompute::Full]),
        offload_layers: if r.chance(10) {
            r.pick(&[1, 4, 40, 100_000])
        } else {
            0
        },
        recompute_modules: if r.chance(10) {
            Modules::of(&[r.pick(&Module::ALL), r.pick(&Module::ALL)])
        } else {
            Modules::NONE
        },
        precision: r.pick(&[
            Precision::Bf16,
            Precision::Fp16,
            Precision::Fp8,
            Precision::Fp4,
        ]),
        stack: r.pick(&STACKS),
        calibration: calibration(r),
    }
}

/// Mostly none; sometimes fitted constants, mostly within their bounds.
fn calibration(r: &mut Rng) -> Calibration {
    let mut cal = Calibration::default();
    if r.chance(20) {
        for c in CONSTANTS {
            if r.chance(50) {
                let (lo, hi) = c.bounds();
                let unit = (r.next() >> 11) as f64 / (1u64 << 53) as f64;
                let v = if r.chance(80) {
                    lo + (hi - lo) * unit
                } else {
                    r.what_if()
                };
                cal.set(c, Some(v));
            }
        }
    }
    cal
}

/// Why a report is wrong, if it is.
fn fault(r: &Report) -> Option<String> {
    let b = &r.breakdown;
    let numbers = [
        r.step_time_s,
        r.tokens_per_s,
        r.tokens_per_s_per_gpu,
        r.tflops_per_gpu,
        r.mfu,
        r.mfu_palm,
        r.hfu,
        r.exposed_comm_fraction,
        r.exposed_comm_trace_fraction,
        r.compute_fraction,
        r.power_w_per_gpu,
        r.power_w_cluster,
        r.tokens_per_joule,
        r.memory_gib_per_gpu,
        b.forward.0,
        b.backward.0,
        b.recompute.0,
        b.optimizer.0,
        b.bubble.0,
        b.contention.0,
        b.host.0,
    ];
    if let Some(x) = numbers.iter().find(|x| !x.is_finite() || **x < 0.0) {
        return Some(format!("a number is {x}"));
    }
    if !(r.mfu <= 1.0 && r.hfu <= 1.0) {
        return Some(format!("MFU {} HFU {}", r.mfu, r.hfu));
    }
    if (b.step().0 - r.step_time_s).abs() > 1e-9 * r.step_time_s.max(1e-12) {
        return Some(format!(
            "step {} but breakdown {}",
            r.step_time_s,
            b.step().0
        ));
    }
    for (name, c) in b.comms() {
        if !(c.total.0.is_finite()
            && c.exposed.0 >= 0.0
            && c.exposed.0 <= c.total.0 * (1.0 + 1e-12))
        {
            return Some(format!("{name}: exposed {} of {}", c.exposed.0, c.total.0));
        }
    }
    None
}

/// What is wrong with the timeline of `cfg`, if anything: an interval not
/// finite or outside the step, two overlapping on one stream, too many.
fn timeline_fault(cfg: &scalescope_core::scenario::Config) -> Option<String> {
    let t = scalescope_core::timeline::timeline_checked(cfg);
    if !(t.step_s.is_finite() && t.step_s > 0.0) {
        return Some(format!("timeline makespan {}", t.step_s));
    }
    let count = t.intervals().count();
    if count > 10_000 {
        return Some(format!("{count} intervals"));
    }
    for st in &t.stages {
        for stream in scalescope_core::timeline::Stream::ALL {
            let mut end = 0.0_f64;
            for i in st.intervals.iter().filter(|i| i.stream == stream) {
                let inside = i.start_s >= -1e-12 && i.end_s <= t.step_s * (1.0 + 1e-9) + 1e-12;
                if !(i.start_s.is_finite() && i.end_s.is_finite() && inside && i.end_s >= i.start_s)
                {
                    return Some(format!("interval outside the step {}: {i:?}", t.step_s));
                }
                if i.start_s < end - 1e-9 * t.step_s {
                    return Some(format!("overlap on {stream:?}: {i:?}"));
                }
                end = i.end_s;
            }
        }
    }
    None
}

#[derive(Default)]
struct Counts {
    scenarios: u64,
    evaluated: u64,
    refused: u64,
    searches: u64,
    layouts: u64,
    sweep_points: u64,
    timelines: u64,
    documents: u64,
    fits: u64,
    failures: u64,
    /// Deep pipelines tried (hundreds to tens of thousands of stages).
    deep: u64,
    /// The slowest check and evaluation of one scenario, seconds.
    worst: f64,
    /// Refusals by the kind of error (its variant's name).
    reasons: std::collections::BTreeMap<String, u64>,
}

fn fail(what: &str, s: &Scenario, why: &str) {
    eprintln!(
        "fuzz: {what}: {why}\n{}",
        serde_json::to_string(s).unwrap_or_default()
    );
}

/// A value measured of `rep` in `metric`: the model's, up to four times
/// off either way, or sometimes no measurement at all.
fn measured(r: &mut Rng, metric: Metric, rep: &Report) -> f64 {
    let unit = (r.next() >> 11) as f64 / (1u64 << 53) as f64;
    match r.below(20) {
        0 => r.what_if(),
        1 => 1e300,
        _ => metric.of(rep) * 4f64.powf(2.0 * unit - 1.0),
    }
}

/// Why a fit of random free constants to `runs` is wrong, if it is: it
/// must be refused with a named error or give finite numbers and
/// constants within their bounds; the runs written as CSV, and a few bytes
/// of it changed, are read or refused without a panic.
fn fit_fault(r: &mut Rng, runs: &[Measured]) -> Option<String> {
    let free: Vec<_> = CONSTANTS.into_iter().filter(|_| r.chance(60)).collect();
    if let Ok(rep) = calibrate::fit(runs, &free, Calibration::default()) {
        let mut numbers = [rep.rms_before, rep.rms_after].into_iter().chain(
            rep.runs
                .iter()
                .flat_map(|f| [f.before, f.after, f.model_before, f.model_after]),
        );
        if let Some(bad) = numbers.find(|v| !v.is_finite()) {
            return Some(format!("fit: {bad} in its report"));
        }
        for f in &rep.fitted {
            let (lo, hi) = f.constant.bounds();
            if !(lo..=hi).contains(&f.value) {
                return Some(format!(
                    "fit: {} = {} out of its bounds",
                    f.constant.name(),
                    f.value
                ));
            }
        }
    }
    let mut bytes = calibrate::write_csv(runs).into_bytes();
    for _ in 0..=r.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = usize::try_from(r.below(bytes.len() as u64)).unwrap_or(0);
        bytes[at] = r.pick(b"0123456789,#\n-.eE xyz");
    }
    let _ = calibrate::read_csv(&String::from_utf8_lossy(&bytes));
    None
}

/// One campaign from `seed`, until `n` scenarios have been evaluated (the
/// ones refused with a named error come on top).
fn campaign(n: u64, seed: u64) -> Counts {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut c = Counts::default();
    let explorer = SearchSpace::explorer(DataParallel::Fsdp);
    let mut runs = Vec::new();
    while c.evaluated < n && c.scenarios < n.saturating_mul(100).max(1000) {
        let s = if r.chance(2) {
            c.deep += 1;
            deep_pipeline(&mut r)
        } else {
            scenario(&mut r)
        };
        c.scenarios += 1;
        let t = Instant::now();
        let outcome = s
            .to_config()
            .and_then(|cfg| evaluate(&cfg).map(|rep| (cfg, rep)));
        let took = t.elapsed().as_secs_f64();
        c.worst = c.worst.max(took);
        if took > SLOWEST_EVALUATION_S {
            fail(
                "time",
                &s,
                &format!("checked and evaluated in {:.1} ms", took * 1e3),
            );
            c.failures += 1;
        }
        match outcome {
            Ok((cfg, rep)) => {
                c.evaluated += 1;
                if let Some(why) = fault(&rep) {
                    fail("evaluate", &s, &why);
                    c.failures += 1;
                }
                if c.evaluated % 500 == 0 {
                    let found = search(&cfg, &explorer, Objective::Throughput, 3);
                    c.searches += 1;
                    for cand in &found.best {
                        c.layouts += 1;
                        if let Some(why) = fault(&cand.report) {
                            fail("search", &s, &why);
                            c.failures += 1;
                        }
                    }
                }
                if c.evaluated % 100 == 3 {
                    let metric = r.pick(&[Metric::TokensPerGpu, Metric::StepTime, Metric::Mfu]);
                    let value = measured(&mut r, metric, &rep);
                    runs.push(Measured {
                        scenario: s.clone(),
                        metric,
                        value,
                    });
                    if runs.len() >= 6 {
                        c.fits += 1;
                        if let Some(why) = fit_fault(&mut r, &runs) {
                            fail("calibrate", &s, &why);
                            c.failures += 1;
                        }
                        runs.clear();
                    }
                }
                if c.evaluated % 200 == 7 {
                    c.timelines += 1;
                    if let Some(why) = timeline_fault(&cfg) {
                        fail("timeline", &s, &why);
                        c.failures += 1;
                    }
                }
                if c.evaluated % 250 == 1 {
                    let nodes = [1, 2, r.count(10), 64, r.count(12)];
                    let best = r.chance(50).then_some((&explorer, Objective::Throughput));
                    for p in sweep(
                        &cfg,
                        &nodes,
                        r.pick(&[Scaling::Weak, Scaling::Strong]),
                        best,
                    ) {
                        c.sweep_points += 1;
                        if let Some(why) = p.result.as_ref().ok().and_then(fault) {
                            fail("sweep", &s, &why);
                            c.failures += 1;
                        }
                    }
                }
            }
            Err(e) => {
                c.refused += 1;
                let kind = format!("{e:?}");
                let kind = kind.split([' ', '{', '(']).next().unwrap_or("").to_owned();
                *c.reasons.entry(kind).or_default() += 1;
            }
        }
        if c.scenarios % 50 == 0 {
            // A written scenario with a few bytes changed: parsed, checked
            // and evaluated without a panic.
            let mut bytes = serde_json::to_vec(&s).unwrap_or_default();
            for _ in 0..=r.below(4) {
                if bytes.is_empty() {
                    break;
                }
                let at = usize::try_from(r.below(bytes.len() as u64)).unwrap_or(0);
                bytes[at] = r.pick(b"0123456789{}[]:,\"-.eE xyz");
            }
            c.documents += 1;
            if let Ok(doc) = serde_json::from_slice::<Scenario>(&bytes) {
                if let Ok(rep) = doc.to_config().and_then(|cfg| evaluate(&cfg)) {
                    if let Some(why) = fault(&rep) {
                        fail("document", &doc, &why);
                        c.failures += 1;
                    }
                }
            }
        }
    }
    c
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str, default: u64| -> Result<u64, String> {
        match args.iter().position(|a| a == name) {
            None => Ok(default),
            Some(i) => args
                .get(i + 1)
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|&v| v <= 10_000_000_000)
                .ok_or_else(|| format!("{name}: give a count up to 10,000,000,000")),
        }
    };
    let (n, seed) = match (value("--evaluations", 10_000_000), value("--seed", 1)) {
        (Ok(n), Ok(s)) => (n, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    let t = Instant::now();
    // Two workers, one per core, on seeds derived from the one given.
    let halves = [n / 2, n - n / 2];
    let results: Vec<Counts> = std::thread::scope(|scope| {
        let handles: Vec<_> = halves
            .iter()
            .enumerate()
            .map(|(k, &part)| scope.spawn(move || campaign(part, seed * 2 + k as u64)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut total = Counts::default();
    for c in &results {
        total.scenarios += c.scenarios;
        total.evaluated += c.evaluated;
        total.refused += c.refused;
        total.searches += c.searches;
        total.timelines += c.timelines;
        total.layouts += c.layouts;
        total.sweep_points += c.sweep_points;
        total.documents += c.documents;
        total.fits += c.fits;
        total.failures += c.failures;
        total.deep += c.deep;
        total.worst = total.worst.max(c.worst);
        for (k, v) in &c.reasons {
            *total.reasons.entry(k.clone()).or_default() += v;
        }
    }
    println!(
        "fuzz (seed {seed}): {} scenarios in {:.1} s: {} evaluated, {} refused with a named error; \
         {} searches ({} best layouts checked), {} sweep points, {} timelines, {} mutated documents, {} fits; {} failures",
        total.scenarios,
        t.elapsed().as_secs_f64(),
        total.evaluated,
        total.refused,
        total.searches,
        total.layouts,
        total.sweep_points,
        total.timelines,
        total.documents,
        total.fits,
        total.failures
    );
    println!(
        "deep pipelines: {}; slowest check and evaluation of one scenario: {:.2} ms (fails above {} ms)",
        total.deep,
        total.worst * 1e3,
        SLOWEST_EVALUATION_S * 1e3
    );
    let mut reasons: Vec<_> = total.reasons.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1));
    println!(
        "refused by: {}",
        reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if total.failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
