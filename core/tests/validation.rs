//! The model against published training runs, each under the software
//! stack that produced it at its published layout (`scalescope validate`
//! prints them; `docs/validation.md` says where each number comes from).
//! Three constants are fitted on these runs; each source is also predicted
//! with constants fitted without it.

use scalescope_core::scenario::Schedule;
use scalescope_core::validation::{self, Errors, SOURCES};

#[test]
fn at_least_forty_runs_from_six_sources_each_under_its_own_stack() {
    let all = validation::all();
    assert!(all.len() >= 40, "{} runs", all.len());
    let sources = SOURCES
        .iter()
        .filter(|s| all.iter().any(|c| c.run.source == s.citation))
        .count();
    assert!(sources >= 6, "{sources} sources");
    for c in &all {
        assert_eq!(c.run.config.stack.id, c.run.stack, "{}", c.run.name);
    }
}

#[test]
fn mean_and_median_absolute_error_are_ten_percent_or_less() {
    let all: Vec<_> = validation::all()
        .into_iter()
        .filter(|c| !c.run.gap)
        .collect();
    let e = Errors::of(&all, |_| true);
    assert!(e.mean <= 0.10, "mean {:.3}", e.mean);
    assert!(e.median <= 0.10, "median {:.3}", e.median);
    let held = all.iter().filter(|c| c.holds()).count();
    assert!(
        held * 10 >= all.len() * 9,
        "{held} of {} within 25%",
        all.len()
    );
}

/// A source the model is known to miss says which mechanism it lacks, and
/// its error is guarded too: it must not grow past where it stands.
#[test]
fn sources_with_a_known_gap_name_it_and_stay_within_their_bound() {
    let all = validation::all();
    for s in SOURCES.iter() {
        let Some(gap) = s.gap else { continue };
        assert!(gap.why.len() > 40, "{}", s.key);
        let e = Errors::of(&all, |c| c.run.source == s.citation);
        assert!(
            e.runs > 0 && e.mean <= gap.bound,
            "{}: mean {:.3} over its bound {}",
            s.key,
            e.mean,
            gap.bound
        );
    }
}

#[test]
fn the_shipped_constants_are_the_fit_on_the_published_runs() {
    let f = validation::fit();
    let shipped = validation::Fitted::shipped();
    assert!((f.gemm_a100 - shipped.gemm_a100).abs() < 0.01, "{f:?}");
    assert!((f.gemm_h100 - shipped.gemm_h100).abs() < 0.01, "{f:?}");
    assert!(
        (f.overlap_share - shipped.overlap_share).abs() < 0.02,
        "{f:?}"
    );
}

#[test]
fn every_source_is_predicted_by_constants_fitted_without_it() {
    let loso = validation::leave_one_source_out();
    assert_eq!(loso.len(), SOURCES.len());
    let mut total = 0.0;
    let mut runs = 0;
    for (key, _, e) in &loso {
        assert!(e.runs > 0 && e.mean.is_finite(), "{key}");
        // Sources with a known gap have their own guard.
        if SOURCES.iter().any(|s| s.key == *key && s.gap.is_some()) {
            continue;
        }
        total += e.mean * e.runs as f64;
        runs += e.runs;
    }
    let mean = total / f64::from(u32::try_from(runs).unwrap());
    assert!(mean <= 0.12, "leave-one-source-out mean {mean:.3}");
}

#[test]
fn the_runs_layouts_are_the_published_ones() {
    for c in validation::all() {
        let Some(l) = c.layout else { continue };
        let published = c.run.config.layout;
        let p = published.parallel;
        assert_eq!(
            (l.parallel.tp, l.parallel.pp, l.parallel.cp, l.parallel.dp),
            (p.tp, p.pp, p.cp, p.dp),
            "{}",
            c.run.name
        );
        let tuned = c.run.tuned.micro_batches;
        if tuned.is_empty() {
            assert_eq!(l.micro_batch, published.micro_batch, "{}", c.run.name);
        } else {
            assert!(tuned.contains(&l.micro_batch), "{}", c.run.name);
        }
        assert!(
            c.run.tuned.recompute.contains(&l.recompute),
            "{}",
            c.run.name
        );
    }
}

/// Narayanan et al.'s Table 1 runs at the micro-batch and chunks per
/// stage Megatron-LM's script for the table sets
/// (`examples/sc21/run_table_1.sh`), not at the model's best: 530B with 3
/// chunks (one layer each), 1T plain 1F1B.
#[test]
fn narayanans_table_runs_at_its_scripts_micro_batch_and_chunks() {
    let all = validation::all();
    let at = |name: &str| {
        let c = all.iter().find(|c| c.run.name == name).unwrap();
        let l = c.layout.unwrap();
        (l.micro_batch, l.parallel.chunks())
    };
    for (name, expected) in [
        ("GPT 1.7B, 32 A100", (16, 1)),
        ("GPT 39B, 512 A100", (4, 1)),
        ("GPT 76B, 1024 A100", (2, 3)),
        ("GPT 146B, 1536 A100", (2, 2)),
        ("GPT 310B, 1920 A100", (1, 2)),
        ("GPT 530B, 2520 A100", (1, 3)),
        ("GPT 1T, 3072 A100", (1, 1)),
    ] {
        assert_eq!(at(name), expected, "{name}");
    }
}

/// The flash-attention repository's GPT-3 rows run the micro-batch its
/// configs set for an 80 GB GPU (`datamodule.batch_size` by
/// `train.gpu_mem`), not the model's best.
#[test]
fn flash_attentions_gpt3_rows_run_their_configs_micro_batches() {
    let all = validation::all();
    for (name, mb) in [
        ("GPT-3 125M, 8 A100", 32),
        ("GPT-3 355M, 8 A100", 16),
        ("GPT-3 760M, 8 A100", 16),
        ("GPT-3 1.3B, 8 A100", 8),
        ("GPT-3 2.7B, 8 A100", 4),
    ] {
        let c = all.iter().find(|c| c.run.name == name).unwrap();
        assert_eq!(c.layout.unwrap().micro_batch, mb, "{name}");
    }
}

/// Automodel runs one pipeline schedule per gradient-accumulation step,
/// of `local_batch / micro_batch` micro-batches: its table's DeepSeek-V3
/// rows (local batch 8, micro-batch 1; accumulation 1 on 256 GPUs, 4 on
/// 1024) are each costed as one schedule of 8 micro-batches.
#[test]
fn automodel_pipelines_fill_and_drain_once_per_accumulation_step() {
    for name in ["DeepSeek-V3, 256 H100", "DeepSeek-V3, 1024 H100"] {
        let run = validation::runs()
            .into_iter()
            .find(|r| r.name == name)
            .unwrap();
        assert_eq!(run.config.micro_batches(), 8, "{name}");
        assert_eq!(run.config.layout.parallel.pp, 4, "{name}");
    }
}

#[test]
fn held_out_sources_are_predicted_without_being_fitted_on() {
    let all = validation::all();
    let held: Vec<_> = SOURCES.iter().filter(|s| s.held_out).collect();
    assert!(held.len() >= 3, "{} held-out sources", held.len());
    for s in &held {
        assert!(
            all.iter()
                .any(|c| c.run.source == s.citation && c.run.held_out),
            "{}",
            s.key
        );
    }
    // Predictions of runs no constant was fitted on: a guard, not a fit.
    let e = Errors::of(&all, |c| c.run.held_out && !c.run.gap);
    assert!(e.mean <= 0.15, "held-out mean {:.3}", e.mean);
}

#[test]
fn each_run_tries_its_recomputation_modes_least_first() {
    use scalescope_core::scenario::Recompute;
    let rank = |r: &Recompute| match r {
        Recompute::None => 0,
        Recompute::Selective => 1,
        Recompute::Full => 2,
    };
    for row in validation::ROWS {
        let ranks: Vec<u8> = row.tuned.recompute.iter().map(rank).collect();
        assert!(
            !ranks.is_empty() && ranks.windows(2).all(|w| w[0] < w[1]),
            "{}",
            row.name
        );
    }
}

#[test]
fn nvidias_recipe_rows_reduce_and_keep_gradients_in_bf16_as_their_recipes_set() {
    // Megatron-Bridge's and NeMo's performance recipes and the DGX Cloud
    // configs that say so reduce in bf16 and keep a bf16 gradient buffer;
    // Nemotron-4 15B's config and the model zoo's scripts keep fp32.
    let bytes = |name: &str| {
        let row = validation::ROWS
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no row {name}"));
        let stack = row.run().config.stack;
        assert_eq!(stack.reduce_bytes, stack.grad_buffer_bytes, "{name}");
        stack.reduce_bytes
    };
    for name in [
        "GPT-3 175B, 128 H100",
        "Nemotron-4 340B BF16, 128 H100",
        "Llama 3.1 405B, 256 GB200",
        "DeepSeek-V3, 256 GB200",
    ] {
        assert_eq!(bytes(name), 2.0, "{name}");
    }
    for name in [
        "Nemotron-4 15B BF16, 16 H100",
        "Qwen3 235B-A22B BF16 EP32, 256 H100",
        "GPT 175B, 64 A100",
    ] {
        assert_eq!(bytes(name), 4.0, "{name}");
    }
}

/// The time the model misses on an MoE run is the published step less the
/// model's, per MoE layer of the stage that sets it and per micro-batch: for a
/// run published in tokens per second per GPU, the published step is the
/// global batch's tokens over that rate and the GPUs.
#[test]
fn moe_runs_miss_the_published_step_less_the_models_per_moe_layer_and_micro_batch() {
    use scalescope_core::evaluate::evaluate_checked;
    let all = validation::all();
    let (rows, fp8) = validation::megatron_moe_missing(&all);
    assert!(
        rows.len() >= 12 && fp8.len() >= 12,
        "{} MoE runs",
        rows.len()
    );
    for r in &rows {
        let c = all.iter().find(|c| c.run.name == r.name).unwrap();
        assert!(c.run.gap && c.run.config.model.moe.is_some(), "{}", r.name);
        let mut cfg = c.run.config;
        cfg.layout = c.layout.unwrap();
        let report = evaluate_checked(&cfg);
        let tokens = f64::from(cfg.global_batch) * f64::from(cfg.seq_len);
        let published_step = tokens / (c.run.published * f64::from(cfg.cluster.gpus()));
        let layers_mbs = f64::from(report.micro_batches)
            * f64::from(report.stage_layers)
            * cfg.model.moe_share();
        let want = (published_step - report.step_time_s) / layers_mbs;
        assert!(
            (r.missing - want).abs() <= 1e-9 * want.abs().max(1e-3),
            "{}: {} against {want}",
            r.name,
            r.missing
        );
        assert_eq!(r.missing > 0.0, c.difference().unwrap() > 0.0, "{}", r.name);
        assert!(
            (r.model * layers_mbs - report.step_time_s).abs() < 1e-9,
            "{}",
            r.name
        );
        assert!(r.host >= 0.0 && r.host <= r.model, "{}", r.name);
    }
    // What the known gap says of them, within a tenth of a millisecond.
    let gap = SOURCES
        .iter()
        .find(|s| s.key == "megatron-bridge-moe")
        .unwrap()
        .gap
        .unwrap()
        .why;
    let (fixed, each) = validation::per_expert(&fp8).unwrap();
    let said = |ms: f64, text: &str| (ms - text.parse::<f64>().unwrap()).abs() <= 0.05;
    assert!(
        said(fixed * 1e3, "2.81") && gap.contains("2.81 ms less 0.109 ms per local expert"),
        "{fixed}"
    );
    assert!((each * 1e3 + 0.109).abs() <= 0.005, "{each}");
    let scopes = validation::by_graphs(&fp8);
    let said_of = [
        ("3.6 ms where the recipe captures nothing", "3.6"),
        ("0.16 ms where it captures router", "0.16"),
        ("0.49 ms where it captures attention", "0.49"),
    ];
    assert_eq!(scopes.len(), 3);
    for ((_, _, mean), (phrase, ms)) in scopes.iter().zip(said_of) {
        assert!(
            gap.contains(phrase) && said(mean * 1e3, ms),
            "{phrase}: {mean}"
        );
    }
}

/// The line through missing times against experts per GPU, and the mean
/// of each CUDA graph scope, on rows made for them.
#[test]
fn missing_times_fit_a_line_per_expert_and_average_per_graph_scope() {
    use validation::Graphs;
    let all = validation::all();
    let (rows, _) = validation::megatron_moe_missing(&all);
    let mut line: Vec<_> = rows.iter().take(4).copied().collect();
    let setups = [
        (4, Graphs::Eager),
        (8, Graphs::Eager),
        (32, Graphs::RouterPreprocess),
        (8, Graphs::AttnRouterPreprocess),
    ];
    for (r, (experts, graphs)) in line.iter_mut().zip(setups) {
        r.local_experts = experts;
        r.graphs = Some(graphs);
        r.missing = 1e-3 + 2e-4 * f64::from(experts);
    }
    let (fixed, each) = validation::per_expert(&line).unwrap();
    assert!((fixed - 1e-3).abs() < 1e-12 && (each - 2e-4).abs() < 1e-12);
    let means = validation::by_graphs(&line);
    assert_eq!(means.len(), 3);
    assert_eq!((means[0].0, means[0].1), (Graphs::Eager, 2));
    assert!((means[0].2 - 2.2e-3).abs() < 1e-12 && (means[1].2 - 7.4e-3).abs() < 1e-12);
    line[0].missing = f64::NAN;
    assert!(validation::per_expert(&line).is_none());
    for r in &mut line {
        r.local_experts = 8;
    }
    assert!(validation::per_expert(&line[1..]).is_none());
    assert!(validation::per_expert(&[]).is_none() && validation::by_graphs(&[]).is_empty());
}

/// Every Megatron-Bridge MoE run says what its recipe captures in CUDA
/// graphs (read from its configuration), and no run of another stack
/// claims a Megatron-Core graph scope.
#[test]
fn megatron_bridge_moe_runs_name_their_cuda_graph_scope() {
    for c in &validation::all() {
        let bridge = c.run.source.starts_with("NVIDIA-NeMo/Megatron-Bridge")
            && c.run.config.model.moe.is_some();
        if bridge {
            assert!(c.run.graphs.is_some(), "{}", c.run.name);
        }
        if c.run.stack != scalescope_core::stack::StackId::Megatron {
            assert!(c.run.graphs.is_none(), "{}", c.run.name);
        }
    }
}

/// A row costed whatever the model's memory says (`fits_as_published`)
/// is one the model's memory does put over its GPU's, at its one choice
/// of layout (nothing tuned, so no other choice is costed over its
/// memory): the flag never hides a layout that fits. DeepSeek-V3's own
/// run is the one, and it keeps its DualPipe schedule.
#[test]
fn only_rows_whose_savings_the_model_lacks_are_costed_over_their_memory() {
    let flagged: Vec<_> = validation::all()
        .into_iter()
        .filter(|c| c.run.fits_as_published)
        .collect();
    assert_eq!(flagged.len(), 1);
    let c = &flagged[0];
    assert_eq!(c.run.name, "DeepSeek-V3, 2048 H800");
    let t = c.run.tuned;
    assert!(t.micro_batches.is_empty() && t.virtual_stages == [1] && t.recompute.len() == 1);
    let mut cfg = c.run.config;
    cfg.layout = c.layout.expect("costed");
    assert!(scalescope_core::memory::per_gpu(&cfg).total().0 > cfg.cluster.gpu.hbm.0);
    let p = cfg.layout.parallel;
    assert_eq!(
        (p.schedule, p.pp, p.ep, p.tp),
        (Schedule::DualPipeV, 16, 64, 1)
    );
}

/// Tuned chunks per stage interleave a 1F1B row only: a row that names
/// its schedule keeps it, and a chunk count it cannot take is not tried.
#[test]
fn a_row_naming_its_schedule_keeps_it_under_tuned_chunks() {
    let mut run = validation::runs()
        .into_iter()
        .find(|r| r.name == "DeepSeek-V3, 2048 H800")
        .unwrap();
    run.tuned.virtual_stages = &[2, 1];
    let l = validation::check(&run).layout.expect("costed at one chunk");
    assert_eq!(
        (l.parallel.schedule, l.parallel.virtual_stages),
        (Schedule::DualPipeV, 1)
    );
    run.tuned.virtual_stages = &[2];
    assert!(validation::check(&run).layout.is_none());
}

/// The rows of NeMo's 2024 containers run Transformer Engine's attention
/// at cuDNN's 2024 rate on H100, and only they: later containers run
/// 2026's.
#[test]
fn only_rows_of_2024_containers_run_cudnn_at_its_2024_rate() {
    use scalescope_core::calibration as cal;
    let sources = validation::SOURCES;
    let of_2024 = ["nemo-24.07", "nemo-long-context", "nemo-24.09"];
    let mut flagged = 0;
    for row in validation::ROWS {
        let rate = row.run().config.cluster.gpu.te_attention_efficiency;
        if of_2024.contains(&sources[row.source].key) {
            assert!(row.cudnn_2024, "{}", row.name);
            assert_eq!(
                rate,
                cal::CUDNN_ATTENTION_EFFICIENCY_H100_2024,
                "{}",
                row.name
            );
            flagged += 1;
        } else {
            assert!(!row.cudnn_2024, "{}", row.name);
            assert_ne!(
                rate,
                cal::CUDNN_ATTENTION_EFFICIENCY_H100_2024,
                "{}",
                row.name
            );
        }
    }
    assert_eq!(flagged, 16);
}

/// torchtitan's per-op selective recomputation (every second matmul) runs
/// on torchtitan's own rows; Meta's Llama 3 rows, which take torchtitan's
/// profile for a stack whose recomputation is not published, rerun the
/// element-wise kernels alone, and no other row overrides its stack.
#[test]
fn only_torchtitans_rows_rerun_every_second_matmul() {
    let sources = validation::SOURCES;
    for row in validation::ROWS {
        let run = row.run();
        let reruns = run.config.stack.selective_reruns_matmuls;
        let key = sources[row.source].key;
        if key == "llama3" {
            assert_eq!(row.selective_reruns_matmuls, Some(false), "{}", row.name);
            assert!(!reruns);
        } else {
            assert_eq!(row.selective_reruns_matmuls, None, "{}", row.name);
            assert_eq!(
                reruns,
                row.stack == scalescope_core::stack::StackId::Torchtitan,
                "{}",
                row.name
            );
        }
    }
}

/// Yeung et al.'s baseline splits 32 layers evenly over 8 stages, the
/// output layer on the last: the model holds them so and, as published,
/// its MFU falls at each doubling of the vocabulary at both lengths.
#[test]
fn the_vocabulary_baseline_holds_its_layers_evenly_and_falls_with_the_vocabulary() {
    let all: Vec<_> = validation::ROWS
        .iter()
        .filter(|r| SOURCES[r.source].key == "vocab-parallelism")
        .map(validation::Row::run)
        .collect();
    let (redistributed, rows): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|r| r.name.contains("redistributed"));
    assert_eq!((rows.len(), redistributed.len()), (8, 8));
    // Redistributed, the output layer's stage holds fewer layers from 64k
    // on, and the run is faster than its baseline, as published.
    for (base, moved) in rows.iter().zip(&redistributed) {
        assert_eq!(base.config.seq_len, moved.config.seq_len);
        assert_eq!(base.config.model.vocab, moved.config.model.vocab);
        let model = |r: &validation::Run| validation::check(r).model.unwrap();
        if base.config.model.vocab >= 64_000 {
            let (first, last) = moved.config.pipeline_split();
            assert!(last < first, "{}", moved.name);
            assert!(moved.published > base.published && model(moved) > model(base));
        }
    }
    for len in [2048, 4096] {
        let mut last = (f64::INFINITY, f64::INFINITY);
        for run in rows.iter().filter(|r| r.config.seq_len == len) {
            assert_eq!(run.config.pipeline_split(), (4, 4), "{}", run.name);
            let model = validation::check(run).model.unwrap();
            assert!(run.published < last.0 && model < last.1, "{}", run.name);
            last = (run.published, model);
        }
    }
}
