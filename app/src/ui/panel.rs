//! The control panel: cluster, model and data, parallel layout, hardware
//! what-ifs and the scenario file, in the order a reader sets them.

use super::dom;
use super::inputs::{self, custom_field, select, slider, Slider, WhatIf};
use super::page::Page;
use crate::format;
use crate::keys::Key;
use crate::state::{self, custom_max, Controls, PlanInputs, Scaling, MAX_NODES, MAX_WHAT_IF};
use leptos::prelude::*;
use scalescope_core::hardware::GPUS;
use scalescope_core::model::{Mlp, PRESETS};
use scalescope_core::scenario::{DataParallel, Precision, Recompute, Schedule};
use scalescope_core::stack::{Stack, StackId, STACKS};

use super::sliders::{GLOBAL_BATCH_VALUES, LAYOUT, LOCAL_BATCH_VALUES};
pub use super::sliders::{NODES, SEQ};

/// A stack as the select lists it.
fn stack_label(id: StackId) -> &'static str {
    match id {
        StackId::Paper => "The paper's (eager PyTorch, FSDPv2)",
        StackId::Megatron => "Megatron-LM (fused, SP, interleaving)",
        StackId::Megatron2021 => "Megatron-LM 2021 (no FlashAttention)",
        StackId::LlmFoundry => "llm-foundry (FSDP, FlashAttention 1)",
        StackId::Torchtitan => "torchtitan (FSDP2, compiled)",
        StackId::DeepSpeed => "DeepSpeed ZeRO",
        StackId::DeepSpeed2021 => "DeepSpeed ZeRO, 2021",
    }
}

fn options(list: &[(&'static str, &'static str)]) -> Vec<(&'static str, String)> {
    list.iter().map(|&(k, t)| (k, String::from(t))).collect()
}

/// The model select (presets and "Custom model…").
pub fn model_select(page: Page) -> impl IntoView {
    let mut list: Vec<(&'static str, String)> = PRESETS
        .iter()
        .map(|p| (p.id, String::from(p.name)))
        .collect();
    list.push(("custom", String::from("Custom model…")));
    select(
        page,
        "Model",
        "model",
        list,
        |c| c.model,
        |c, v| {
            c.model = PRESETS
                .iter()
                .find(|p| p.id == v)
                .map_or("custom", |p| p.id);
        },
    )
}

/// The whole panel.
pub fn panel(page: Page) -> impl IntoView {
    let controls = page.controls;
    view! {
        <aside class="panel" aria-label="Controls">
            {cluster(page)}
            {model_and_data(page)}
            {layout(page)}
            {what_ifs(page)}
            {planner(page)}
            {super::calibrate::section(page)}
            {scenario_file(page)}
            <button
                class="reset-all"
                type="button"
                data-testid="reset-all"
                on:click=move |_| controls.update(|c| {
                    // Pins stay: they are what the reset setting is compared with.
                    let pins = core::mem::take(&mut c.pins);
                    *c = Controls { pins, ..Controls::default() };
                })
            >"Reset every control"</button>
        </aside>
    }
}

fn cluster(page: Page) -> impl IntoView {
    let controls = page.controls;
    let gpus = GPUS.iter().map(|g| (g.id, String::from(g.name))).collect();
    let extrapolated_note = move || {
        let g = state::gpu_of(&controls.get());
        g.extrapolated.then(|| {
            view! {
                <p class="note" data-testid="extrapolated-note">
                    {format!("{} was not measured in the paper: its GEMM efficiency is carried over from H100 (GB200's at its measured share of GB300's, B200's at GB200's rate per SM); its attention runs at rates measured on H200, GB200 and GB300.", g.name)}
                </p>
            }
        })
    };
    let nodes_typed = move |ev: leptos::ev::Event| {
        page.count_typed(&ev, "Nodes", MAX_NODES, |c| c.nodes, |c, v| c.nodes = v);
    };
    view! {
        <section>
            <h2>"Cluster"</h2>
            {select(page, "GPU", "gpu", gpus, |c| c.gpu, |c, v| {
                if let Some(g) = GPUS.iter().find(|g| g.id == v) {
                    c.gpu = g.id;
                }
            })}
            {extrapolated_note}
            {slider(page, NODES)}
            <div class="control">
                <label for="nodes-input">"Nodes, typed (any count up to 16,384)"</label>
                <input
                    type="number"
                    id="nodes-input"
                    data-testid="nodes-input"
                    aria-label="Nodes, typed"
                    min="1"
                    max=MAX_NODES.to_string()
                    prop:value=move || controls.get().nodes.to_string()
                    on:change=nodes_typed
                />
            </div>
        </section>
    }
}

fn model_and_data(page: Page) -> impl IntoView {
    let controls = page.controls;
    let scaling = options(&[
        ("weak", "Weak: fixed batch per GPU"),
        ("strong", "Strong: fixed global batch"),
    ]);
    let strong = Memo::new(move |_| controls.with(|c| c.scaling == Scaling::Strong));
    let batch = move || {
        if strong.get() {
            slider(
                page,
                Slider {
                    label: "Global batch",
                    testid: "batch",
                    unit: "sequences per step",
                    values: &GLOBAL_BATCH_VALUES,
                    get: |c| c.global_batch,
                    set: |c, v| c.global_batch = v,
                },
            )
            .into_any()
        } else {
            slider(
                page,
                Slider {
                    label: "Local batch",
                    testid: "batch",
                    unit: "sequences per GPU",
                    values: &LOCAL_BATCH_VALUES,
                    get: |c| c.local_batch,
                    set: |c, v| c.local_batch = v,
                },
            )
            .into_any()
        }
    };
    view! {
        <section>
            <h2>"Model and data"</h2>
            {model_select(page)}
            <Show when=move || controls.with(|c| c.model == "custom")>
                {custom_model(page)}
            </Show>
            {slider(page, SEQ)}
            {select(page, "Scaling", "scaling", scaling, |c| c.scaling.key(), |c, v| {
                if let Some(x) = Scaling::from_key(v) { c.scaling = x; }
            })}
            {batch}
        </section>
    }
}

fn custom_model(page: Page) -> impl IntoView {
    let controls = page.controls;
    view! {
        <div class="custom" data-testid="custom-model">
            {custom_field(page, "layers", custom_max::LAYERS, |c| c.custom.layers, |c, v| c.custom.layers = v)}
            {custom_field(page, "hidden", custom_max::HIDDEN, |c| c.custom.hidden, |c, v| c.custom.hidden = v)}
            {custom_field(page, "heads", custom_max::HEADS, |c| c.custom.heads, |c, v| c.custom.heads = v)}
            {custom_field(page, "kv heads", custom_max::HEADS, |c| c.custom.kv_heads, |c, v| c.custom.kv_heads = v)}
            {custom_field(page, "ffn", custom_max::FFN, |c| c.custom.ffn, |c, v| c.custom.ffn = v)}
            {custom_field(page, "vocab", custom_max::VOCAB, |c| c.custom.vocab, |c, v| c.custom.vocab = v)}
            <label class="field">
                "MLP"
                <select
                    aria-label="Custom model MLP"
                    prop:value=move || controls.with(|c| c.custom.mlp.key())
                    on:change=move |ev| {
                        page.mark_input(&ev);
                        if let Some(mlp) = Mlp::from_key(&event_target_value(&ev)) {
                            controls.update(|c| c.custom.mlp = mlp);
                        }
                    }
                >
                    <option value="swiglu">"SwiGLU"</option>
                    <option value="gelu">"GeLU"</option>
                    <option value="clamped_swiglu">"Clamped SwiGLU (GPT-OSS)"</option>
                </select>
            </label>
        </div>
    }
}

/// A checkbox switch writing one flag of the controls.
fn switch(
    page: Page,
    testid: &'static str,
    label: &'static str,
    text: &'static str,
    disabled: fn(&Controls) -> bool,
    get: fn(&Controls) -> bool,
    set: fn(&mut Controls, bool),
) -> impl IntoView {
    let controls = page.controls;
    view! {
        <div class="control switch">
            <label>
                <input
                    type="checkbox"
                    role="switch"
                    data-testid=testid
                    aria-label=label
                    prop:disabled=move || disabled(&controls.get())
                    prop:checked=move || get(&controls.get())
                    on:change=move |ev| {
                        page.mark_input(&ev);
                        let on = event_target_checked(&ev);
                        controls.update(|c| set(c, on));
                    }
                />
                {text}
            </label>
        </div>
    }
}

fn layout(page: Page) -> impl IntoView {
    let controls = page.controls;
    let stacks = STACKS
        .iter()
        .map(|&id| (id.key(), String::from(stack_label(id))))
        .collect();
    let dp = options(&[
        ("fsdp", "FSDP, no reshard after forward (paper)"),
        ("fsdp_full", "FSDP full shard (ZeRO-3)"),
        ("hsdp", "Hybrid sharded (HSDP)"),
        ("zero1", "ZeRO-1"),
        ("ddp", "DDP"),
    ]);
    let recompute = options(&[
        ("none", "None"),
        ("selective", "Selective"),
        ("full", "Full"),
    ]);
    let precision = options(&[
        ("bf16", "bf16 (fp16 on V100)"),
        ("fp16", "fp16"),
        ("fp8", "fp8 (H100 and later)"),
        ("fp4", "fp4 (NVFP4, Blackwell)"),
    ]);
    let schedule = options(&[
        ("1f1b", "1F1B"),
        ("interleaved", "Interleaved 1F1B (2 chunks)"),
        ("zb-h1", "Zero-bubble ZB-H1"),
        ("zb-v", "Zero-bubble ZB-V"),
        ("dualpipev", "DualPipeV"),
        ("gpipe", "GPipe"),
    ]);
    let [tp, pp, cp, ep, etp, mb] = LAYOUT;
    view! {
        <section>
            <h2>"Parallel layout"</h2>
            {switch(page, "best-switch", "Best layout",
                " Best layout at every point (searches TP, PP, CP, EP, micro-batch and recomputation)",
                |_| false, |c| c.best, |c, on| c.best = on)}
            {select(page, "Software stack", "stack", stacks, |c| c.stack.key(), |c, v| {
                if let Some(x) = StackId::parse(v) { c.stack = x; }
            })}
            <p class="hint" data-testid="stack-note">{move || Stack::of(controls.get().stack).name}</p>
            {select(page, "Data parallelism", "dp", dp, |c| c.dp.key(), |c, v| {
                if let Some(x) = DataParallel::from_key(v) { c.dp = x; }
            })}
            <fieldset class="manual" prop:disabled=move || controls.get().best>
                {slider(page, tp)}
                {slider(page, pp)}
                {slider(page, cp)}
                <fieldset class="experts" prop:disabled=move || state::model_of(&controls.get()).moe.is_none()>
                    {slider(page, ep)}
                    {slider(page, etp)}
                    {ROUTING.map(|w| inputs::what_if(page, w)).into_iter().collect_view()}
                    {switch(page, "ep-overlap-switch", "All-to-All overlap",
                        " Hide the All-to-All behind the next micro-batch (combined 1F1B; not with full recomputation)",
                        |c| c.recompute == Recompute::Full, |c| c.ep_overlap, |c, on| c.ep_overlap = on)}
                </fieldset>
                {slider(page, mb)}
                {switch(page, "sp-switch", "Sequence parallelism", " Sequence parallelism with TP",
                    |c| !Stack::of(c.stack).sequence_parallel, |c| c.sp, |c, on| c.sp = on)}
                {select(page, "Pipeline schedule", "schedule", schedule, |c| c.schedule.key(), |c, v| {
                    if let Some(x) = Schedule::from_key(v) { c.schedule = x; }
                })}
                {select(page, "Activation recomputation", "recompute", recompute, |c| c.recompute.key(), |c, v| {
                    if let Some(x) = Recompute::from_key(v) { c.recompute = x; }
                })}
            </fieldset>
            {select(page, "Precision", "precision", precision, |c| c.precision.key(), |c, v| {
                if let Some(x) = Precision::from_key(v) { c.precision = x; }
            })}
        </section>
    }
}

/// The cross-node data-parallel rate the core derives from the other
/// what-ifs (the field's placeholder).
fn derived_dp_overlap(c: &Controls) -> String {
    let mut s = c.scenario_at(1, c.gpu);
    s.hardware.dp_overlap_gb_per_s = None;
    s.resolve().map_or_else(
        |_| String::new(),
        |cfg| format::sig3(cfg.dp_overlap_bandwidth().as_gb_s()),
    )
}

const WHAT_IFS: [WhatIf; 7] = [
    WhatIf {
        label: "Peak dense TFLOP/s",
        testid: "peak-tflops",
        unit: "bf16 TFLOP/s",
        placeholder: |c| format::sig3(state::gpu_of(c).peak_bf16.as_tflops()),
        get: |c| c.overrides.peak_tflops,
        set: |c, v| c.overrides.peak_tflops = v,
        zero: false,
        max: MAX_WHAT_IF,
    },
    WhatIf {
        label: "HBM bandwidth",
        testid: "hbm",
        unit: "GB/s",
        placeholder: |c| format::sig3(state::gpu_of(c).hbm_bandwidth.as_gb_s()),
        get: |c| c.overrides.hbm_gb_per_s,
        set: |c, v| c.overrides.hbm_gb_per_s = v,
        zero: false,
        max: MAX_WHAT_IF,
    },
    WhatIf {
        label: "NVLink per GPU",
        testid: "nvlink",
        unit: "GB/s",
        placeholder: |c| format::sig3(state::gpu_of(c).nvlink.as_gb_s()),
        get: |c| c.overrides.nvlink_gb_per_s,
        set: |c, v| c.overrides.nvlink_gb_per_s = v,
        zero: false,
        max: MAX_WHAT_IF,
    },
    WhatIf {
        label: "Cross-node data-parallel traffic under compute",
        testid: "dp-overlap",
        unit: "GB/s per GPU",
        placeholder: derived_dp_overlap,
        get: |c| c.overrides.dp_overlap_gb_per_s,
        set: |c, v| c.overrides.dp_overlap_gb_per_s = v,
        zero: false,
        max: MAX_WHAT_IF,
    },
    WhatIf {
        label: "InfiniBand per GPU",
        testid: "network",
        unit: "Gb/s",
        placeholder: |c| {
            let g = state::gpu_of(c);
            format::sig3(g.network_per_node.as_gb_s() * 8.0 / f64::from(g.gpus_per_node.max(1)))
        },
        get: |c| c.overrides.network_gbps_per_gpu,
        set: |c, v| c.overrides.network_gbps_per_gpu = v,
        zero: false,
        max: MAX_WHAT_IF,
    },
    WhatIf {
        label: "GPUs per node",
        testid: "gpus-per-node",
        unit: "GPUs",
        placeholder: |c| state::gpu_of(c).gpus_per_node.to_string(),
        get: |c| c.overrides.gpus_per_node.map(f64::from),
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        set: |c, v| c.overrides.gpus_per_node = v.map(|v| (v.round() as u32).clamp(1, 1024)),
        zero: false,
        max: MAX_WHAT_IF,
    },
    WhatIf {
        label: "GPUs per NVLink domain",
        testid: "nvlink-domain",
        unit: "GPUs",
        placeholder: |c| state::nvlink_domain_of(c).to_string(),
        get: |c| c.overrides.nvlink_domain.map(f64::from),
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        set: |c, v| c.overrides.nvlink_domain = v.map(|v| (v.round() as u32).clamp(1, 1024)),
        zero: false,
        max: MAX_WHAT_IF,
    },
];

/// The largest load the core takes (imbalance or capacity factor).
const EXPERT_LOAD: f64 = scalescope_core::scenario::limits::EXPERT_LOAD;

/// An MoE model's routing: empty fields take the model's own (balanced,
/// dropless, as the published benchmarks force).
const ROUTING: [WhatIf; 2] = [
    WhatIf {
        label: "Load imbalance, most-loaded expert over the mean",
        testid: "imbalance",
        unit: "x; a trained router runs 1.1 to 1.5",
        placeholder: |c| {
            state::own_model_of(c)
                .moe
                .map_or_else(String::new, |e| format::exact(e.imbalance))
        },
        get: |c| c.routing.imbalance,
        set: |c, v| c.routing.imbalance = v.map(|v| v.clamp(1.0, EXPERT_LOAD)),
        zero: false,
        max: EXPERT_LOAD,
    },
    WhatIf {
        label: "Capacity factor",
        testid: "capacity",
        unit: "x the even share, padded; empty: dropless",
        placeholder: |_| String::from("dropless"),
        get: |c| c.routing.capacity,
        set: |c, v| c.routing.capacity = v.map(|v| v.clamp(1.0, EXPERT_LOAD)),
        zero: false,
        max: EXPERT_LOAD,
    },
];

/// The planner's inputs: empty fields take the defaults shown.
const PLAN_INPUTS: [WhatIf; 7] = [
    WhatIf {
        label: "Tokens to train on",
        testid: "plan-tokens",
        unit: "tokens",
        placeholder: |c| format::si(c.plan.tokens_for(c), ""),
        get: |c| c.plan.tokens,
        set: |c, v| c.plan.tokens = v.map(|v| v.clamp(1.0, 1e16)),
        zero: false,
        max: 1e16,
    },
    WhatIf {
        label: "Tokens per parameter, when no total is given",
        testid: "plan-tpp",
        unit: "Chinchilla: 20",
        placeholder: |_| String::from("20"),
        get: |c| {
            planned(
                c.plan.tokens_per_param,
                PlanInputs::default().tokens_per_param,
            )
        },
        set: |c, v| {
            c.plan.tokens_per_param = v.map_or(PlanInputs::default().tokens_per_param, |v| {
                v.clamp(1e-3, 1e6)
            })
        },
        zero: false,
        max: 1e6,
    },
    WhatIf {
        label: "Price of a GPU-hour",
        testid: "plan-price",
        unit: "US dollars",
        placeholder: |c| format::sig3(c.plan.price_for(c)),
        get: |c| c.plan.price,
        set: |c, v| c.plan.price = v.map(|v| v.clamp(0.0, 1e4)),
        zero: true,
        max: 1e4,
    },
    WhatIf {
        label: "Rest of the node's power",
        testid: "plan-overhead",
        unit: "share of GPU power",
        placeholder: |_| format::sig3(PlanInputs::default().overhead),
        get: |c| planned(c.plan.overhead, PlanInputs::default().overhead),
        set: |c, v| {
            c.plan.overhead = v.map_or(PlanInputs::default().overhead, |v| v.clamp(0.0, 5.0))
        },
        zero: true,
        max: 5.0,
    },
    WhatIf {
        label: "Data centre PUE",
        testid: "plan-pue",
        unit: "facility over IT power",
        placeholder: |_| format::sig3(PlanInputs::default().pue),
        get: |c| planned(c.plan.pue, PlanInputs::default().pue),
        set: |c, v| c.plan.pue = v.map_or(PlanInputs::default().pue, |v| v.clamp(1.0, 3.0)),
        zero: false,
        max: 3.0,
    },
    WhatIf {
        label: "Grid carbon intensity",
        testid: "plan-carbon",
        unit: "kg CO2e per kWh",
        placeholder: |_| format::sig3(PlanInputs::default().carbon),
        get: |c| planned(c.plan.carbon, PlanInputs::default().carbon),
        set: |c, v| c.plan.carbon = v.map_or(PlanInputs::default().carbon, |v| v.clamp(0.0, 2.0)),
        zero: true,
        max: 2.0,
    },
    WhatIf {
        label: "Knee: least speed-up worth a doubling",
        testid: "plan-knee",
        unit: "x per 2x GPUs",
        placeholder: |_| format::sig3(PlanInputs::default().knee),
        get: |c| planned(c.plan.knee, PlanInputs::default().knee),
        set: |c, v| c.plan.knee = v.map_or(PlanInputs::default().knee, |v| v.clamp(1.0, 2.0)),
        zero: false,
        max: 2.0,
    },
];

/// A planner input with a default, as a what-if field holds it: empty
/// (`None`) at the default.
#[allow(clippy::float_cmp)]
fn planned(v: f64, default: f64) -> Option<f64> {
    (v != default).then_some(v)
}

fn planner(page: Page) -> impl IntoView {
    view! {
        <details class="overrides" data-testid="planner">
            <summary>"Planning the run"</summary>
            <p class="hint">"What training on a token budget costs: the readout and the planning chart use these."</p>
            {PLAN_INPUTS.map(|w| inputs::what_if(page, w)).into_iter().collect_view()}
        </details>
    }
}

fn what_ifs(page: Page) -> impl IntoView {
    view! {
        <details class="overrides">
            <summary>"Hardware what-ifs"</summary>
            {WHAT_IFS.map(|w| inputs::what_if(page, w)).into_iter().collect_view()}
        </details>
    }
}

fn scenario_file(page: Page) -> impl IntoView {
    let export = move |_| {
        let c = page.controls.get_untracked();
        let text = crate::export::scenario_json(&c, &state::evaluate_at(&c, c.nodes, c.gpu));
        dom::download_text("scalescope-scenario.json", "application/json", &text);
    };
    view! {
        <section class="files">
            <h2>"Scenario file"</h2>
            <button type="button" class="file-button" data-testid="export-scenario" on:click=export>
                "Download this setting (JSON)"
            </button>
            <label class="file-button">
                "Open a scenario file…"
                <input
                    type="file"
                    accept=".json,application/json"
                    data-testid="import-file"
                    on:change=move |ev| {
                        let input: web_sys::HtmlInputElement = event_target(&ev);
                        if let Some(file) = input.files().and_then(|f| f.get(0)) {
                            dom::read_text(file, move |name, r| page.apply_import(&name, r));
                        }
                        input.set_value("");
                    }
                />
            </label>
            <p class="hint">"or drop one anywhere on the page. The format is the command-line tool's."</p>
        </section>
    }
}
