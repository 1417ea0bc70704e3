//! The step's timeline against the step model: for layouts the search
//! visits (every one that fits, over random models, clusters, batches,
//! contexts and stacks), the makespan is the step time and each stage's
//! exposed communication is the breakdown's, within 2% of the step; the
//! intervals on one stream never overlap and lie inside the step; the
//! trace export is Chrome's trace event format.

use proptest::prelude::*;
use scalescope_core::evaluate::evaluate;
use scalescope_core::hardware::{Cluster, GPUS};
use scalescope_core::model::PRESETS;
use scalescope_core::scenario::{Config, Scenario, Schedule};
use scalescope_core::search::{for_each_layout, SearchSpace};
use scalescope_core::stack::{Stack, STACKS};
use scalescope_core::timeline::{timeline, trace, Stream, Timeline};

/// Checks one configuration; returns why it fails.
fn check(cfg: &Config) -> Result<(), String> {
    let r = evaluate(cfg).map_err(|e| e.to_string())?;
    let t = timeline(cfg).map_err(|e| e.to_string())?;
    let step = r.step_time_s;
    let tol = 0.02 * step;
    let b = &r.breakdown;
    let what = format!(
        "{:?} m={} {:?} layers={} hidden={} seq={} gpu={} nodes={} batch={} bubble={} pp={}",
        cfg.layout,
        cfg.micro_batches(),
        cfg.stack.name,
        cfg.model.layers,
        cfg.model.hidden,
        cfg.seq_len,
        cfg.cluster.gpu.id,
        cfg.cluster.nodes,
        cfg.global_batch,
        b.bubble.0,
        b.pp.exposed.0
    );
    if (t.step_s - step).abs() > tol {
        return Err(format!("makespan {} vs step {step}: {what}", t.step_s));
    }
    let slowest = t
        .stages
        .iter()
        .find(|s| s.slowest)
        .ok_or("no slowest stage")?;
    let exposed = b.comm_exposed().0 - b.pp.exposed.0;
    if (slowest.exposed_comm_s - exposed).abs() > tol {
        return Err(format!(
            "exposed {} vs {exposed} (step {step}): {what}",
            slowest.exposed_comm_s
        ));
    }
    let trace_exposed = slowest.exposed_comm_s + slowest.waiting_s;
    if (trace_exposed - b.comm_exposed_trace().0).abs() > tol {
        return Err(format!(
            "trace exposure {trace_exposed} vs {} (step {step}): {what}",
            b.comm_exposed_trace().0
        ));
    }
    well_formed(&t)
}

fn well_formed(t: &Timeline) -> Result<(), String> {
    for st in &t.stages {
        if st.intervals.len() > 5000 {
            return Err(format!("{} intervals", st.intervals.len()));
        }
        for stream in Stream::ALL {
            let mut last_end = 0.0_f64;
            for i in st.intervals.iter().filter(|i| i.stream == stream) {
                let finite = i.start_s.is_finite() && i.end_s.is_finite();
                if !finite || i.start_s < -1e-12 || i.end_s > t.step_s * (1.0 + 1e-9) + 1e-12 {
                    return Err(format!("outside the step {}: {i:?}", t.step_s));
                }
                if i.end_s < i.start_s || i.start_s < last_end - 1e-9 * t.step_s {
                    return Err(format!("overlap on {stream:?} at {last_end}: {i:?}"));
                }
                last_end = i.end_s;
            }
        }
    }
    Ok(())
}

prop_compose! {
    fn base()(
        gpu in 0..3usize,
        model in 0..PRESETS.len(),
        nodes_pow in 0u32..7,
        seq_pow in 9u32..16,
        per_gpu in 1u32..5,
        stack in 0..STACKS.len(),
    ) -> Config {
        let mut cfg = Scenario::example().to_config().unwrap();
        // A mixture-of-experts model's search also walks its expert
        // degrees: at most 16 nodes, to keep the test short.
        let moe = PRESETS[model].model.moe.is_some();
        cfg.cluster = Cluster::new(GPUS[gpu], 1 << if moe { nodes_pow.min(4) } else { nodes_pow });
        cfg.model = PRESETS[model].model;
        cfg.seq_len = 1 << seq_pow;
        cfg.global_batch = per_gpu * cfg.cluster.gpus();
        cfg.stack = Stack::of(STACKS[stack]);
        cfg
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn the_timeline_agrees_with_the_step_model_for_every_layout_the_search_visits(cfg in base()) {
        let mut failures = Vec::new();
        let mut seen = 0;
        for_each_layout(&cfg, &SearchSpace::full(), |c, _| {
            seen += 1;
            // Every pipeline and every third layout without one, to keep
            // the test short.
            if c.layout.parallel.pp > 1 || seen % 3 == 0 {
                if let Err(e) = check(c) {
                    failures.push(e);
                }
            }
        });
        prop_assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
    }
}

#[test]
fn llama2_70b_on_2048_h100s_with_pp_8_and_each_schedule() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.cluster = Cluster::new(scalescope_core::hardware::gpu_by_id("h100").unwrap(), 256);
    cfg.model = scalescope_core::model::find_preset("llama2-70b")
        .unwrap()
        .model;
    cfg.seq_len = 4096;
    cfg.layout.parallel.tp = 8;
    cfg.layout.parallel.pp = 8;
    cfg.layout.micro_batch = 1;
    cfg.global_batch = 16 * cfg.dp();
    for schedule in Schedule::ALL {
        cfg.layout.parallel.schedule = schedule;
        cfg.stack = Stack::of(
            if schedule != Schedule::Gpipe && schedule != Schedule::OneFOneB {
                scalescope_core::stack::StackId::Megatron
            } else {
                scalescope_core::stack::StackId::Paper
            },
        );
        cfg.layout.parallel.sp = false;
        cfg.layout.parallel.virtual_stages = 2;
        assert_eq!(cfg.micro_batches(), 16);
        check(&cfg).unwrap();
    }
}

#[test]
fn the_trace_is_chrome_trace_event_format() {
    let cfg = Scenario::example().to_config().unwrap();
    let t = timeline(&cfg).unwrap();
    let text = serde_json::to_string(&trace::trace(&t)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = v["traceEvents"].as_array().unwrap();
    assert!(events.len() > 10);
    for e in events {
        let ph = e["ph"].as_str().unwrap();
        assert!(ph == "X" || ph == "M", "{e}");
        assert!(e["pid"].is_u64() && e["tid"].is_u64() && e["ts"].is_number());
        if ph == "X" {
            assert!(e["dur"].as_f64().unwrap() >= 0.0);
            assert!(e["name"].is_string() && e["cat"].is_string());
        }
    }
    assert_eq!(v["displayTimeUnit"], "ms");
}
