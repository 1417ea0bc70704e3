//! The Leptos page: the control panel, the readout, the eight chart cards
//! and their hover tooltips, the paper tour, the model page and embed mode.
//! Every input writes one field of [`Controls`]; one effect recomputes the
//! [`Views`] and repaints every chart in the same task, then records how
//! long that took (for the budget script).

mod dom;
mod model_page;
mod tour;

use crate::charts::{self, Chart, Hit};
use crate::format;
use crate::keys::Key;
use crate::state::{
    self, custom_max, Controls, Outcome, Scaling, Views, DEGREES, MAX_NODES, MAX_WHAT_IF,
};
use leptos::html::Canvas;
use leptos::prelude::*;
use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::JsCast;
use plotters::prelude::IntoDrawingArea;
use scalescope_core::hardware::GPUS;
use scalescope_core::model::{Mlp, PRESETS};
use scalescope_core::scenario::{DataParallel, Precision, Recompute, Schedule};
use scalescope_core::stack::{Stack, StackId, STACKS};

/// Height of every chart canvas, CSS pixels. Embedded charts share their
/// frame's height instead, as the stylesheet lays them out.
const CHART_HEIGHT: u32 = 380;

/// Notices listed at once; the rest are counted.
const MAX_NOTICES: usize = 8;

type ReadField = fn(&Controls) -> u32;
type WriteField = fn(&mut Controls, u32);

/// A slider over a fixed list of values (powers of two here), so that the
/// keyboard's arrows step one value and Home/End reach the ends.
struct Slider {
    label: &'static str,
    testid: &'static str,
    unit: &'static str,
    values: &'static [u32],
    get: ReadField,
    set: WriteField,
}

const NODE_VALUES: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const SEQ_VALUES: [u32; 9] = [512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072];
const LOCAL_BATCH_VALUES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
const GLOBAL_BATCH_VALUES: [u32; 15] = [
    8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072,
];
const MICRO_BATCH_VALUES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

fn index_of(values: &[u32], v: u32) -> usize {
    values.iter().rposition(|&x| x <= v).unwrap_or(0)
}

/// A stack as the select lists it.
fn stack_label(id: StackId) -> &'static str {
    match id {
        StackId::Paper => "The paper's (eager PyTorch, FSDPv2)",
        StackId::Megatron => "Megatron-LM (fused, SP, interleaving)",
        StackId::Megatron2021 => "Megatron-LM 2021 (no FlashAttention)",
        StackId::LlmFoundry => "MosaicML llm-foundry (FSDP)",
        StackId::Torchtitan => "torchtitan (FSDP2, compiled)",
    }
}

fn report_of(o: &Outcome) -> Option<scalescope_core::evaluate::Report> {
    o.as_ref().ok().map(|(_, r)| *r)
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Publishes a timing on `<body data-...>` for the budget script.
fn publish(name: &str, value: &str) {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute(name, value);
    }
}

/// Draws one chart on its canvas at `width` CSS pixels and returns its
/// hover targets (empty if the canvas is not laid out).
fn paint(
    canvas: &web_sys::HtmlCanvasElement,
    (width, height): (u32, u32),
    chart: Chart,
    views: &Views,
    draw: u32,
) -> Vec<Hit> {
    // Which repaint this canvas shows (tests wait for it after scrolling).
    let _ = canvas.set_attribute("data-painted", &draw.to_string());
    if width == 0 {
        return Vec::new();
    }
    // As many canvas pixels as the screen has device pixels, so charts are
    // sharp (and PNG downloads full resolution) on high-density screens.
    let scale = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let device = |css: u32| (f64::from(css) * scale).round() as u32;
    if canvas.width() != device(width) {
        canvas.set_width(device(width));
    }
    if canvas.height() != device(height) {
        canvas.set_height(device(height));
    }
    let Some(backend) = charts::canvas::FastCanvas::scaled(canvas, (width, height), scale) else {
        return Vec::new();
    };
    charts::draw(chart, &backend.into_drawing_area(), views).unwrap_or_default()
}

/// Replaces the page's URL with one that encodes `c` (no new history
/// entry), keeping embed mode's chart list.
fn write_url(c: &Controls, embed: Option<&[Chart]>) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let mut query = crate::url::to_query(c);
    if let Some(charts) = embed {
        if !query.is_empty() {
            query.push('&');
        }
        query.push_str(&crate::url::embed_param(charts));
    }
    let path = w.location().pathname().unwrap_or_default();
    let hash = w.location().hash().unwrap_or_default();
    let target = if query.is_empty() {
        format!("{path}{hash}")
    } else {
        format!("{path}?{query}{hash}")
    };
    if let Ok(history) = w.history() {
        let _ =
            history.replace_state_with_url(&leptos::wasm_bindgen::JsValue::NULL, "", Some(&target));
    }
}

/// The small button beside a control that puts it back to its default.
fn reset_button(
    label: &'static str,
    title: &'static str,
    reset: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <button
            class="reset"
            type="button"
            aria-label=format!("Reset {label}")
            title=title
            on:click=move |_| reset()
        >"↺"</button>
    }
}

/// The whole explorer page.
#[component]
pub fn App() -> impl IntoView {
    // The URL's query string is the starting state (a shared link); what it
    // could not use is listed in a notice.
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (start, mut url_notices) = crate::url::from_query(&search);
    let embed: Option<Vec<Chart>> = crate::url::embed_of(&search).map(|(charts, unknown)| {
        url_notices.extend(unknown);
        charts
    });
    let shown: Vec<Chart> = embed.clone().unwrap_or_else(|| Chart::ALL.to_vec());
    let embed = StoredValue::new(embed);
    let chart_height = StoredValue::new(CHART_HEIGHT);
    if embed.with_value(Option::is_some) {
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let _ = body.class_list().add_1("embed");
        }
    }
    let controls = RwSignal::new(start);
    let notices = RwSignal::new(url_notices);
    let notice_title = RwSignal::new(String::from("Some of this link's settings were not used: "));
    let import_error: RwSignal<Option<String>> = RwSignal::new(None);
    let tour_at: RwSignal<Option<usize>> = RwSignal::new(None);
    let model_open = RwSignal::new(model_page::is_open());
    let url_pending = StoredValue::new(false);
    let readout: RwSignal<Option<(Outcome, Controls)>> = RwSignal::new(None);
    // The last setting that could run: the readout keeps showing it (greyed)
    // while the current one cannot.
    let last_good: RwSignal<Option<(Outcome, Controls)>> = RwSignal::new(None);
    let last_input = StoredValue::new(0.0_f64);
    let draws = StoredValue::new(0_u32);
    let hits: StoredValue<Vec<Vec<Hit>>> = StoredValue::new(vec![Vec::new(); Chart::ALL.len()]);
    let tooltip: RwSignal<Option<(usize, i32, i32, String)>> = RwSignal::new(None);
    let resized = RwSignal::new(0_u32);
    let widths: StoredValue<Vec<u32>> = StoredValue::new(Vec::new());
    let measured: StoredValue<Option<u32>> = StoredValue::new(None);
    let canvases: Vec<NodeRef<Canvas>> = Chart::ALL.iter().map(|_| NodeRef::new()).collect();
    let visible: StoredValue<Vec<bool>> = StoredValue::new(vec![true; Chart::ALL.len()]);
    let stale: StoredValue<Vec<bool>> = StoredValue::new(vec![false; Chart::ALL.len()]);
    let latest: StoredValue<Option<Views>> = StoredValue::new(None);
    // Each chart in words, for screen readers and the Data table's caption.
    let summaries: RwSignal<Vec<String>> = RwSignal::new(vec![String::new(); Chart::ALL.len()]);

    // Paints chart `i` from the latest views if it was skipped while off
    // screen (as it scrolls in, or before an export).
    let paint_if_stale = move |i: usize, canvas: &web_sys::HtmlCanvasElement| {
        if !stale.with_value(|s| s.get(i).copied().unwrap_or(false)) {
            return;
        }
        let size = (
            widths.with_value(|w| w.get(i).copied().unwrap_or(0)),
            chart_height.get_value(),
        );
        let found = latest.with_value(|v| {
            v.as_ref()
                .map(|v| paint(canvas, size, Chart::ALL[i], v, draws.get_value()))
        });
        if let Some(found) = found {
            hits.update_value(|h| h[i] = found);
            stale.update_value(|s| s[i] = false);
        }
    };

    // Which charts are on screen (with a margin, so a chart is painted just
    // before it scrolls in). A stale chart coming into view is painted from
    // the latest views at once.
    let observed: Vec<NodeRef<Canvas>> = shown.iter().map(|c| canvases[c.index()]).collect();
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let elements: Vec<_> = observed.iter().map(NodeRef::get).collect();
        if elements.iter().any(Option::is_none) {
            return false;
        }
        let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            for entry in entries.iter() {
                let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
                let target = entry.target();
                let Some(i) = target
                    .get_attribute("data-chart-index")
                    .and_then(|v| v.parse::<usize>().ok())
                    .filter(|&i| i < Chart::ALL.len())
                else {
                    continue;
                };
                let on = entry.is_intersecting();
                visible.update_value(|v| v[i] = on);
                if on {
                    paint_if_stale(i, &target.unchecked_into());
                }
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin("300px 0px");
        let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
            on_change.as_ref().unchecked_ref(),
            &options,
        ) else {
            // Without an observer every chart stays marked visible and is
            // painted on every input.
            return true;
        };
        // The observer lives as long as the page.
        on_change.forget();
        for el in elements.iter().flatten() {
            observer.observe(el);
        }
        true
    });

    let on_resize = leptos::ev::resize;
    let _ = window_event_listener(on_resize, move |_| resized.update(|n| *n += 1));

    let refs = canvases.clone();
    let shown_charts = shown.clone();
    Effect::new(move |_| {
        let c = controls.get();
        resized.track();
        let mounted: Vec<_> = refs.iter().map(NodeRef::get).collect();
        if shown_charts.iter().any(|ch| mounted[ch.index()].is_none()) {
            return;
        }
        let n = draws.get_value() + 1;
        // Keep the URL in step with the controls, so a copied link
        // reproduces this view. At most one write per 250 ms: browsers
        // throttle (and warn about) rapid history updates while dragging.
        if !url_pending.get_value() {
            url_pending.set_value(true);
            set_timeout(
                move || {
                    url_pending.set_value(false);
                    embed.with_value(|e| write_url(&controls.get_untracked(), e.as_deref()));
                },
                std::time::Duration::from_millis(250),
            );
        }
        let t0 = now_ms();
        let views = state::compute(&c);
        let t1 = now_ms();
        // Card widths are read only after a resize (or while a card is not
        // laid out yet): reading them after every input would force the
        // browser to lay the page out again before drawing.
        let generation = resized.get_untracked();
        let unmeasured = widths.with_value(|w| {
            shown_charts
                .iter()
                .any(|ch| w.get(ch.index()).is_none_or(|&x| x == 0))
        });
        // Embedded charts share the frame with the alert, which comes and
        // goes: they are measured on every repaint (only a few charts).
        let embedded = embed.with_value(Option::is_some);
        if measured.get_value() != Some(generation) || unmeasured || embedded {
            let fresh: Vec<u32> = mounted
                .iter()
                .map(|c| {
                    c.as_ref()
                        .map_or(0, |c| u32::try_from(c.client_width()).unwrap_or(0))
                })
                .collect();
            widths.set_value(fresh);
            measured.set_value(Some(generation));
            if embedded {
                let tallest = mounted
                    .iter()
                    .flatten()
                    .map(|c| u32::try_from(c.client_height()).unwrap_or(0))
                    .max()
                    .unwrap_or(0);
                chart_height.set_value(tallest.max(120));
            }
        }
        // Charts on screen (or about to scroll in) are painted now; the
        // others are marked stale and painted when they come into view.
        let sizes = widths.get_value();
        let on_screen = visible.get_value();
        let mut painted = 0_u32;
        let height = chart_height.get_value();
        for (i, (canvas, width)) in mounted.iter().zip(sizes).enumerate() {
            let Some(canvas) = canvas else {
                continue;
            };
            if on_screen.get(i).copied().unwrap_or(true) {
                let found = paint(canvas, (width, height), Chart::ALL[i], &views, n);
                hits.update_value(|h| h[i] = found);
                stale.update_value(|s| s[i] = false);
                painted += 1;
            } else {
                hits.update_value(|h| h[i].clear());
                stale.update_value(|s| s[i] = true);
            }
        }
        publish("data-last-painted", &painted.to_string());
        tooltip.set(None);
        if views.current.is_ok() {
            last_good.set(Some((views.current.clone(), c.clone())));
        }
        readout.set(Some((views.current.clone(), c)));
        summaries.set(
            Chart::ALL
                .iter()
                .map(|&ch| {
                    if shown_charts.contains(&ch) {
                        crate::charts::describe::describe(ch, &views)
                    } else {
                        String::new()
                    }
                })
                .collect(),
        );
        latest.set_value(Some(views));
        let end = now_ms();
        publish("data-last-compute-ms", &format!("{:.3}", t1 - t0));
        publish("data-last-paint-ms", &format!("{:.3}", end - t1));
        draws.set_value(n);
        publish("data-draws", &n.to_string());
        if n == 1 {
            publish("data-first-draw-ms", &format!("{end:.1}"));
            // The offline copy is made once the page has shown, so it
            // never competes with the first load.
            set_timeout(
                dom::register_service_worker,
                std::time::Duration::from_millis(500),
            );
        } else {
            publish(
                "data-last-input-to-draw-ms",
                &format!("{:.3}", end - last_input.get_value()),
            );
        }
    });

    let mark_input = move |ev: &web_sys::Event| last_input.set_value(ev.time_stamp());

    let sliders_top = [
        Slider {
            label: "Nodes",
            testid: "nodes",
            unit: "nodes of 8 GPUs",
            values: &NODE_VALUES,
            get: |c| c.nodes,
            set: |c, v| c.nodes = v,
        },
        Slider {
            label: "Context length",
            testid: "seq",
            unit: "tokens",
            values: &SEQ_VALUES,
            get: |c| c.seq_len,
            set: |c, v| c.seq_len = v,
        },
    ];
    let sliders_layout = [
        Slider {
            label: "Tensor parallel degree",
            testid: "tp",
            unit: "GPUs",
            values: &DEGREES,
            get: |c| c.tp,
            set: |c, v| c.tp = v,
        },
        Slider {
            label: "Pipeline parallel degree",
            testid: "pp",
            unit: "stages",
            values: &DEGREES,
            get: |c| c.pp,
            set: |c, v| c.pp = v,
        },
        Slider {
            label: "Context parallel degree",
            testid: "cp",
            unit: "GPUs",
            values: &DEGREES,
            get: |c| c.cp,
            set: |c, v| c.cp = v,
        },
        Slider {
            label: "Micro-batch",
            testid: "micro-batch",
            unit: "sequences",
            values: &MICRO_BATCH_VALUES,
            get: |c| c.micro_batch,
            set: |c, v| c.micro_batch = v,
        },
    ];

    let slider_view = move |s: Slider| {
        let Slider {
            label,
            testid,
            unit,
            values,
            get,
            set,
        } = s;
        let default = get(&Controls::default());
        let max = values.len() - 1;
        let value_text = move || {
            let c = controls.get();
            let v = get(&c);
            if testid == "nodes" {
                // The node size follows the GPUs-per-node what-if.
                let per_node = format::count(c.gpus_per_node(), "GPUs");
                format::count(v, &format!("nodes of {per_node}"))
            } else {
                format::count(v, unit)
            }
        };
        view! {
            <div class="control">
                <label for=format!("{testid}-slider")>
                    {label} ": " <output data-testid=format!("{testid}-value")>{value_text}</output>
                </label>
                <div class="row">
                    <input
                        type="range"
                        id=format!("{testid}-slider")
                        data-testid=format!("{testid}-slider")
                        aria-label=label
                        min="0"
                        max=max.to_string()
                        step="1"
                        prop:value=move || index_of(values, get(&controls.get())).to_string()
                        aria-valuetext=value_text
                        on:input=move |ev| {
                            mark_input(&ev);
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                let v = values[i.min(max)];
                                controls.update(|c| set(c, v));
                            }
                        }
                    />
                    {reset_button(label, "Reset to default", move || controls.update(|c| set(c, default)))}
                </div>
            </div>
        }
    };

    let select_view = move |label: &'static str,
                            testid: &'static str,
                            options: Vec<(&'static str, String)>,
                            get: fn(&Controls) -> &'static str,
                            set: fn(&mut Controls, &str)| {
        let default = get(&Controls::default());
        view! {
            <div class="control">
                <label for=format!("{testid}-select")>{label}</label>
                <div class="row">
                    <select
                        id=format!("{testid}-select")
                        data-testid=format!("{testid}-select")
                        aria-label=label
                        prop:value=move || get(&controls.get())
                        on:change=move |ev| {
                            mark_input(&ev);
                            let v = event_target_value(&ev);
                            controls.update(|c| set(c, &v));
                        }
                    >
                        {options
                            .into_iter()
                            .map(|(value, text)| {
                                view! {
                                    <option value=value selected=move || get(&controls.get()) == value>
                                        {text}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                    {reset_button(label, "Reset to default", move || controls.update(|c| set(c, default)))}
                </div>
            </div>
        }
    };

    let gpu_options: Vec<(&'static str, String)> =
        GPUS.iter().map(|g| (g.id, String::from(g.name))).collect();
    let mut model_options: Vec<(&'static str, String)> = PRESETS
        .iter()
        .map(|p| (p.id, String::from(p.name)))
        .collect();
    model_options.push(("custom", String::from("Custom model…")));
    let stack_options: Vec<(&'static str, String)> = STACKS
        .iter()
        .map(|&id| (id.key(), String::from(stack_label(id))))
        .collect();
    let dp_options = vec![
        (
            "fsdp",
            String::from("FSDP, no reshard after forward (paper)"),
        ),
        ("fsdp_full", String::from("FSDP full shard (ZeRO-3)")),
        ("hsdp", String::from("Hybrid sharded (HSDP)")),
        ("zero1", String::from("ZeRO-1")),
        ("ddp", String::from("DDP")),
    ];
    let recompute_options = vec![
        ("none", String::from("None")),
        ("selective", String::from("Selective")),
        ("full", String::from("Full")),
    ];
    let precision_options = vec![
        ("bf16", String::from("bf16 (fp16 on V100)")),
        ("fp16", String::from("fp16")),
        ("fp8", String::from("fp8 (H100 and later)")),
    ];
    let schedule_options = vec![
        ("1f1b", String::from("1F1B")),
        ("interleaved", String::from("Interleaved 1F1B (2 chunks)")),
        ("gpipe", String::from("GPipe")),
    ];
    let scaling_options = vec![
        ("weak", String::from("Weak: fixed batch per GPU")),
        ("strong", String::from("Strong: fixed global batch")),
    ];

    let [nodes_slider, seq_slider] = sliders_top;
    let [tp_slider, pp_slider, cp_slider, mb_slider] = sliders_layout;

    let strong = Memo::new(move |_| controls.with(|c| c.scaling == Scaling::Strong));
    let batch_view = move || {
        if strong.get() {
            slider_view(Slider {
                label: "Global batch",
                testid: "batch",
                unit: "sequences per step",
                values: &GLOBAL_BATCH_VALUES,
                get: |c| c.global_batch,
                set: |c, v| c.global_batch = v,
            })
            .into_any()
        } else {
            slider_view(Slider {
                label: "Local batch",
                testid: "batch",
                unit: "sequences per GPU",
                values: &LOCAL_BATCH_VALUES,
                get: |c| c.local_batch,
                set: |c, v| c.local_batch = v,
            })
            .into_any()
        }
    };

    // What a typed value was changed into, and why, in the notice box.
    let typed_notice = move |what: &str, raw: &str, why: &str| {
        let raw: String = raw.trim().chars().take(40).collect();
        notice_title.set(String::from("Some of what was typed was adjusted: "));
        notices.set(vec![format!("{what}: `{raw}` {why}")]);
    };
    // Reads a typed count into the controls (rounded and clamped, with a
    // notice saying so; text that is not a number keeps the count in use),
    // then shows the count in use in the field.
    let count_typed =
        move |ev: &leptos::ev::Event, what: &str, hi: u32, get: ReadField, set: WriteField| {
            mark_input(ev);
            let input: web_sys::HtmlInputElement = event_target(ev);
            let raw = input.value();
            match state::read_count(&raw, 1, hi) {
                Some((v, why)) => {
                    if let Some(why) = why {
                        typed_notice(what, &raw, &why);
                    }
                    controls.update(|c| set(c, v));
                }
                // An emptied field (or one the browser could not read as a
                // number) just shows the count in use again.
                None if raw.trim().is_empty() => {}
                None => {
                    let kept = get(&controls.get_untracked());
                    typed_notice(what, &raw, &format!("is not a number: kept {kept}"));
                }
            }
            input.set_value(&get(&controls.get_untracked()).to_string());
        };
    let nodes_typed = move |ev: leptos::ev::Event| {
        count_typed(&ev, "Nodes", MAX_NODES, |c| c.nodes, |c, v| c.nodes = v);
    };

    let override_view = move |label: &'static str,
                              testid: &'static str,
                              unit: &'static str,
                              placeholder: fn(&Controls) -> String,
                              get: fn(&Controls) -> Option<f64>,
                              set: fn(&mut Controls, Option<f64>)| {
        view! {
            <div class="control">
                <label for=format!("{testid}-input")>{label} " (" {unit} ")"</label>
                <div class="row">
                    <input
                        type="number"
                        inputmode="decimal"
                        min="0"
                        id=format!("{testid}-input")
                        data-testid=format!("{testid}-input")
                        aria-label=label
                        placeholder=move || placeholder(&controls.get())
                        prop:value=move || get(&controls.get()).map(format::exact).unwrap_or_default()
                        on:change=move |ev| {
                            mark_input(&ev);
                            let raw = event_target_value(&ev);
                            let v = raw.trim().parse::<f64>().ok().filter(|v| v.is_finite());
                            let v = match v {
                                // An empty field is the datasheet value, silently.
                                _ if raw.trim().is_empty() => None,
                                Some(v) if v > MAX_WHAT_IF => {
                                    typed_notice(label, &raw, &format!("is out of range: using {}", format::exact(MAX_WHAT_IF)));
                                    Some(MAX_WHAT_IF)
                                }
                                Some(v) if v > 0.0 => Some(v),
                                _ => {
                                    typed_notice(label, &raw, "is not a positive number: using the datasheet value");
                                    None
                                }
                            };
                            controls.update(|c| set(c, v));
                        }
                    />
                    {reset_button(label, "Reset to default", move || controls.update(|c| set(c, None)))}
                </div>
            </div>
        }
    };

    let custom_field = move |label: &'static str, max: u32, get: ReadField, set: WriteField| {
        view! {
            <label class="field">
                {label}
                <input
                    type="number"
                    min="1"
                    aria-label=format!("Custom model {label}")
                    prop:value=move || get(&controls.get()).to_string()
                    max=max.to_string()
                    on:change=move |ev| {
                        count_typed(&ev, &format!("Custom model {label}"), max, get, set);
                    }
                />
            </label>
        }
    };

    // Paints chart `i` now if it is stale (off screen since the last
    // input), so an export shows the current setting.
    let fresh_canvas =
        move |i: usize, node: NodeRef<Canvas>| -> Option<web_sys::HtmlCanvasElement> {
            let canvas = node.get_untracked()?;
            paint_if_stale(i, &canvas);
            Some(canvas)
        };
    let export_button = move |chart: Chart, node: NodeRef<Canvas>, kind: &'static str| {
        let i = chart.index();
        let on_click = move |_| match kind {
            "png" => {
                if let Some(canvas) = fresh_canvas(i, node) {
                    dom::download_png(&canvas, &crate::export::file_name(chart, "png"));
                }
            }
            "svg" => {
                let width = widths.with_value(|w| w.get(i).copied().unwrap_or(0));
                let size = (
                    if width == 0 { 800 } else { width },
                    chart_height.get_value(),
                );
                let text = node.get_untracked().and_then(|canvas| {
                    latest.with_value(|v| {
                        v.as_ref()
                            .and_then(|v| crate::export::svg(chart, v, &canvas, size))
                    })
                });
                if let Some(text) = text {
                    dom::download_text(
                        &crate::export::file_name(chart, "svg"),
                        "image/svg+xml",
                        &text,
                    );
                }
            }
            _ => {
                let text = latest.with_value(|v| v.as_ref().map(|v| crate::export::csv(chart, v)));
                if let Some(text) = text {
                    dom::download_text(&crate::export::file_name(chart, "csv"), "text/csv", &text);
                }
            }
        };
        view! {
            <button
                type="button"
                class="export"
                data-testid=format!("export-{}-{kind}", chart.id())
                aria-label=format!("Download {} as {}", chart.title(), kind.to_uppercase())
                title=format!("Download as {}", kind.to_uppercase())
                on:click=on_click
            >{kind.to_uppercase()}</button>
        }
    };

    let data_open: RwSignal<Vec<bool>> = RwSignal::new(vec![false; Chart::ALL.len()]);
    let cards = shown
        .iter()
        .map(|&chart| {
            let i = chart.index();
            let node = canvases[i];
            let on_move = move |ev: leptos::ev::MouseEvent| {
                let (x, y) = (ev.offset_x(), ev.offset_y());
                let found = hits.with_value(|all| {
                    all.get(i).and_then(|hs| {
                        hs.iter()
                            .map(|h| ((h.x - x).pow(2) + (h.y - y).pow(2), h))
                            .filter(|(d, _)| *d <= 24 * 24)
                            .min_by_key(|(d, _)| *d)
                            .map(|(_, h)| h.clone())
                    })
                });
                tooltip.set(found.map(|h| (i, h.x, h.y, h.text)));
            };
            view! {
                <figure
                    class="card"
                    class:highlight=move || tour_at.get().is_some_and(|t| crate::tour::STOPS[t].chart == chart)
                    data-testid=format!("card-{}", chart.id())
                >
                    <figcaption>
                        <div class="card-head">
                            <h2>{chart.title()}</h2>
                            <div class="exports" role="group" aria-label=format!("Download {}", chart.title())>
                                {export_button(chart, node, "png")}
                                {export_button(chart, node, "svg")}
                                {export_button(chart, node, "csv")}
                            </div>
                        </div>
                        <p>{chart.caption()}</p>
                    </figcaption>
                    <div class="plot">
                        <canvas
                            data-testid=format!("chart-{}", chart.id())
                            data-chart-index=i.to_string()
                            role="img"
                            aria-label=chart.title()
                            aria-describedby=format!("summary-{}", chart.id())
                            height=CHART_HEIGHT.to_string()
                            node_ref=node
                            on:mousemove=on_move
                            on:mouseleave=move |_| tooltip.set(None)
                        ></canvas>
                        {move || {
                            tooltip
                                .get()
                                .filter(|t| t.0 == i)
                                .map(|(_, x, y, text)| {
                                    view! {
                                        <div
                                            class="tooltip"
                                            role="tooltip"
                                            data-testid="tooltip"
                                            style:left=format!("{}px", x + 12)
                                            style:top=format!("{}px", y + 12)
                                        >
                                            {text.lines().map(|l| view! { <div>{l.to_owned()}</div> }).collect_view()}
                                        </div>
                                    }
                                })
                        }}
                    </div>
                    <p class="sr-only" id=format!("summary-{}", chart.id()) data-testid=format!("summary-{}", chart.id())>
                        {move || summaries.with(|s| s.get(i).cloned().unwrap_or_default())}
                    </p>
                    <details class="data" data-testid=format!("data-{}", chart.id()) on:toggle=move |ev| {
                        let open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
                        data_open.update(|d| d[i] = open);
                    }>
                        <summary>"Data"</summary>
                        <div inner_html=move || {
                            if !data_open.with(|d| d[i]) {
                                return String::new();
                            }
                            let caption = summaries.with(|s| s.get(i).cloned().unwrap_or_default());
                            latest
                                .with_value(|v| v.as_ref().map(|v| crate::export::csv_table(&crate::export::csv(chart, v), &caption)))
                                .unwrap_or_default()
                        }></div>
                    </details>
                </figure>
            }
        })
        .collect_view();

    // The readout keeps its elements and updates their text: rebuilding
    // them on every input would churn the DOM and the reactive graph.
    let text_of =
        move |source: RwSignal<Option<(Outcome, Controls)>>,
              f: fn(&crate::state::Outcome, &Controls) -> Option<String>| {
            move || {
                source.with(|o| {
                    o.as_ref()
                        .and_then(|(outcome, c)| f(outcome, c))
                        .unwrap_or_else(|| String::from("–"))
                })
            }
        };
    let value = move |f: fn(&Outcome, &Controls) -> Option<String>| text_of(last_good, f);
    let current = move |f: fn(&Outcome, &Controls) -> Option<String>| text_of(readout, f);
    let failed = move || readout.with(|o| matches!(o, Some((Err(_), _))));
    let summary = view! {
        <dl class="summary" data-testid="summary" class:stale=failed>
            <div><dt>"Throughput"</dt><dd data-testid="out-throughput">{value(|o, _| report_of(o).map(|r| format::si(r.tokens_per_s, "tokens/s")))}</dd></div>
            <div><dt>"Per GPU"</dt><dd data-testid="out-per-gpu">{value(|o, _| report_of(o).map(|r| format::si(r.tokens_per_s_per_gpu, "tokens/s")))}</dd></div>
            <div><dt>"MFU"</dt><dd data-testid="out-mfu">{value(|o, _| report_of(o).map(|r| format::pct(r.mfu)))}</dd></div>
            <div><dt>"Exposed comm"</dt><dd data-testid="out-exposed">{value(|o, _| report_of(o).map(|r| format::pct(r.exposed_comm_fraction)))}</dd></div>
            <div><dt title="Communication kernels with no compute beside them, as a profiler trace shows it (the paper's measure): the critical-path exposure plus pipeline fill and drain">"Exposed in a trace"</dt><dd data-testid="out-exposed-trace">{value(|o, _| report_of(o).map(|r| format::pct(r.exposed_comm_trace_fraction)))}</dd></div>
            <div><dt>"Step"</dt><dd data-testid="out-step">{value(|o, _| report_of(o).map(|r| format::duration(r.step_time_s)))}</dd></div>
            <div><dt>"Power"</dt><dd data-testid="out-power">{value(|o, _| report_of(o).map(|r| format::si(r.power_w_per_gpu, "W per GPU")))}</dd></div>
            <div><dt>"Energy"</dt><dd data-testid="out-energy">{value(|o, _| report_of(o).map(|r| format::si(r.tokens_per_joule, "tokens/J")))}</dd></div>
            <div><dt>"Memory"</dt><dd data-testid="out-memory">{value(|o, _| report_of(o).map(|r| format!("{:.1} GiB per GPU", r.memory_gib_per_gpu)))}</dd></div>
            <div class="wide">
                <dt>{move || if failed() && last_good.with(Option::is_none) {
                    "No setting has run yet on this page"
                } else if failed() {
                    "Last setting that ran (shown greyed)"
                } else if controls.with(|c| c.best) {
                    "Best layout found"
                } else {
                    "Layout"
                }}</dt>
                <dd data-testid="out-layout">{value(|o, c| o.as_ref().ok().map(|(l, r)| format!(
                    "{} · {} · global batch {}",
                    charts::layout_label(l),
                    format::count(r.gpus, "GPUs"),
                    c.global_batch_at(c.nodes)
                )))}</dd>
            </div>
        </dl>
    };
    let message = view! {
        <div class="message" role="alert" data-testid="message" hidden=move || !failed()>
            <strong>{current(|_, c| Some(format!(
                "{}: this setting cannot run. ",
                format::count(c.nodes.saturating_mul(c.gpus_per_node()), "GPUs")
            )))}</strong>
            {current(|o, _| o.as_ref().err().cloned())}
        </div>
    };

    let extrapolated_note = move || {
        let g = state::gpu_of(&controls.get());
        g.extrapolated.then(|| {
            view! {
                <p class="note" data-testid="extrapolated-note">
                    {format!("{} was not measured in the paper: its efficiencies are carried over from H100.", g.name)}
                </p>
            }
        })
    };

    let notice_box = move || {
        view! {
            <Show when=move || notices.with(|n| !n.is_empty())>
                <div class="notice" role="status" data-testid="url-notice">
                    <strong>{move || notice_title.get()}</strong>
                    <ul>
                        {move || notices.with(|n| format::capped(n, MAX_NOTICES)).into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                    </ul>
                    <button type="button" class="reset" on:click=move |_| notices.set(Vec::new())>
                        "Dismiss"
                    </button>
                </div>
            </Show>
        }
    };

    if embed.with_value(Option::is_some) {
        let full_link = move || {
            let q = crate::url::to_query(&controls.get());
            if q.is_empty() {
                String::from("./")
            } else {
                format!("./?{q}")
            }
        };
        return view! {
            <main class="embed-view" data-testid="embed">
                <h1 class="sr-only">"ScaleScope: diminishing returns in distributed training"</h1>
                <div class="embed-controls" role="group" aria-label="Controls">
                    {slider_view(nodes_slider)}
                    {slider_view(seq_slider)}
                    {select_view("Model", "model", model_options, |c| c.model, |c, v| {
                        c.model = PRESETS.iter().find(|p| p.id == v).map_or("custom", |p| p.id);
                    })}
                </div>
                {notice_box()}
                {message}
                <div class="cards">{cards}</div>
                <p class="embed-foot">
                    <a href=full_link target="_blank" rel="noopener" data-testid="open-full">
                        "Open in ScaleScope: every control and chart"
                    </a>
                </p>
            </main>
        }
        .into_any();
    }

    // A scenario file picked or dropped: applied whole, or not at all.
    let apply_import = move |name: String, read: Result<String, String>| match read
        .and_then(|text| crate::export::import_scenario(&text))
    {
        Ok((c, changed)) => {
            import_error.set(None);
            tour_at.set(None);
            notice_title.set(format!("Opened {name}: "));
            notices.set(changed);
            controls.set(c);
        }
        Err(e) => import_error.set(Some(format!(
            "Could not open {name}: {e}. Nothing was changed."
        ))),
    };
    let _ = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            let name = file.name();
            dom::read_text(&file, move |r| apply_import(name, r));
        }
    });
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        let open = model_page::is_open();
        if open != model_open.get_untracked() {
            model_open.set(open);
            // Charts hidden behind the model page are re-measured and
            // repainted when the explorer shows again.
            if !open {
                resized.update(|n| *n += 1);
            }
        }
    });
    let export_scenario = move |_| {
        let text = latest.with_value(|v| {
            v.as_ref()
                .map(|v| crate::export::scenario_json(&v.controls, &v.current))
        });
        if let Some(text) = text {
            dom::download_text("scalescope-scenario.json", "application/json", &text);
        }
    };
    let start_tour = move |_| {
        // The tour runs on the explorer: leave the model page first.
        if model_open.get_untracked() {
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_hash("");
            }
        }
        tour::go(0, tour_at, controls);
    };

    view! {
        <header class="top">
            <div class="brand">
                <h1>"ScaleScope"</h1>
                <p class="tagline">"Why large-scale training hits diminishing returns: drag a control and every chart is redrawn from the model."</p>
            </div>
            <nav class="pages" aria-label="Pages">
                <a href="#" data-testid="explorer-link" class:current=move || !model_open.get()>"Explorer"</a>
                <button type="button" data-testid="tour-start" on:click=start_tour>"Paper tour"</button>
                <a href="#model" data-testid="model-link" class:current=move || model_open.get()>"The model"</a>
            </nav>
        </header>
        <Show when=move || model_open.get()>
            {model_page::view()}
        </Show>
        <main class="layout" hidden=move || model_open.get()>
            <aside class="panel" aria-label="Controls">

                <section>
                    <h2>"Cluster"</h2>
                    {select_view("GPU", "gpu", gpu_options, |c| c.gpu, |c, v| {
                        if let Some(g) = GPUS.iter().find(|g| g.id == v) {
                            c.gpu = g.id;
                        }
                    })}
                    {extrapolated_note}
                    {slider_view(nodes_slider)}
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
                <section>
                    <h2>"Model and data"</h2>
                    {select_view("Model", "model", model_options, |c| c.model, |c, v| {
                        c.model = PRESETS.iter().find(|p| p.id == v).map_or("custom", |p| p.id);
                    })}
                    <Show when=move || controls.with(|c| c.model == "custom")>
                        <div class="custom" data-testid="custom-model">
                            {custom_field("layers", custom_max::LAYERS, |c| c.custom.layers, |c, v| c.custom.layers = v)}
                            {custom_field("hidden", custom_max::HIDDEN, |c| c.custom.hidden, |c, v| c.custom.hidden = v)}
                            {custom_field("heads", custom_max::HEADS, |c| c.custom.heads, |c, v| c.custom.heads = v)}
                            {custom_field("kv heads", custom_max::HEADS, |c| c.custom.kv_heads, |c, v| c.custom.kv_heads = v)}
                            {custom_field("ffn", custom_max::FFN, |c| c.custom.ffn, |c, v| c.custom.ffn = v)}
                            {custom_field("vocab", custom_max::VOCAB, |c| c.custom.vocab, |c, v| c.custom.vocab = v)}
                            <label class="field">
                                "MLP"
                                <select
                                    aria-label="Custom model MLP"
                                    prop:value=move || controls.with(|c| c.custom.mlp.key())
                                    on:change=move |ev| {
                                        mark_input(&ev);
                                        if let Some(mlp) = Mlp::from_key(&event_target_value(&ev)) {
                                            controls.update(|c| c.custom.mlp = mlp);
                                        }
                                    }
                                >
                                    <option value="swiglu">"SwiGLU"</option>
                                    <option value="gelu">"GeLU"</option>
                                </select>
                            </label>
                        </div>
                    </Show>
                    {slider_view(seq_slider)}
                    {select_view("Scaling", "scaling", scaling_options, |c| c.scaling.key(), |c, v| {
                        if let Some(x) = Scaling::from_key(v) { c.scaling = x; }
                    })}
                    {batch_view}
                </section>
                <section>
                    <h2>"Parallel layout"</h2>
                    <div class="control switch">
                        <label>
                            <input
                                type="checkbox"
                                role="switch"
                                data-testid="best-switch"
                                aria-label="Best layout"
                                prop:checked=move || controls.get().best
                                on:change=move |ev| {
                                    mark_input(&ev);
                                    let on = event_target_checked(&ev);
                                    controls.update(|c| c.best = on);
                                }
                            />
                            " Best layout at every point (searches TP, PP, CP, micro-batch and recomputation)"
                        </label>
                    </div>
                    {select_view("Software stack", "stack", stack_options, |c| c.stack.key(), |c, v| {
                        if let Some(x) = StackId::parse(v) { c.stack = x; }
                    })}
                    <p class="hint" data-testid="stack-note">{move || Stack::of(controls.get().stack).name}</p>
                    {select_view("Data parallelism", "dp", dp_options, |c| c.dp.key(), |c, v| {
                        if let Some(x) = DataParallel::from_key(v) { c.dp = x; }
                    })}
                    <fieldset class="manual" prop:disabled=move || controls.get().best>
                        {slider_view(tp_slider)}
                        {slider_view(pp_slider)}
                        {slider_view(cp_slider)}
                        {slider_view(mb_slider)}
                        <div class="control switch">
                            <label>
                                <input
                                    type="checkbox"
                                    data-testid="sp-switch"
                                    aria-label="Sequence parallelism"
                                    prop:disabled=move || !Stack::of(controls.get().stack).sequence_parallel
                                    prop:checked=move || controls.get().sp
                                    on:change=move |ev| {
                                        mark_input(&ev);
                                        let on = event_target_checked(&ev);
                                        controls.update(|c| c.sp = on);
                                    }
                                />
                                " Sequence parallelism with TP"
                            </label>
                        </div>
                        {select_view("Pipeline schedule", "schedule", schedule_options, |c| c.schedule.key(), |c, v| {
                            if let Some(x) = Schedule::from_key(v) { c.schedule = x; }
                        })}
                        {select_view("Activation recomputation", "recompute", recompute_options, |c| c.recompute.key(), |c, v| {
                            if let Some(x) = Recompute::from_key(v) { c.recompute = x; }
                        })}
                    </fieldset>
                    {select_view("Precision", "precision", precision_options, |c| c.precision.key(), |c, v| {
                        if let Some(x) = Precision::from_key(v) { c.precision = x; }
                    })}
                </section>
                <details class="overrides">
                    <summary>"Hardware what-ifs"</summary>
                    {override_view("Peak dense TFLOP/s", "peak-tflops", "bf16 TFLOP/s",
                        |c| format::sig3(state::gpu_of(c).peak_bf16.as_tflops()),
                        |c| c.overrides.peak_tflops, |c, v| c.overrides.peak_tflops = v)}
                    {override_view("HBM bandwidth", "hbm", "GB/s",
                        |c| format::sig3(state::gpu_of(c).hbm_bandwidth.as_gb_s()),
                        |c| c.overrides.hbm_gb_per_s, |c, v| c.overrides.hbm_gb_per_s = v)}
                    {override_view("NVLink per GPU", "nvlink", "GB/s",
                        |c| format::sig3(state::gpu_of(c).nvlink.as_gb_s()),
                        |c| c.overrides.nvlink_gb_per_s, |c, v| c.overrides.nvlink_gb_per_s = v)}
                    {override_view("Cross-node data-parallel traffic under compute", "dp-overlap", "GB/s per GPU",
                        |c| {
                            // The default the core derives from the other what-ifs.
                            let mut s = c.scenario_at(1, c.gpu);
                            s.hardware.dp_overlap_gb_per_s = None;
                            s.resolve().map_or_else(|_| String::new(), |cfg| format::sig3(cfg.dp_overlap_bandwidth().as_gb_s()))
                        },
                        |c| c.overrides.dp_overlap_gb_per_s, |c, v| c.overrides.dp_overlap_gb_per_s = v)}
                    {override_view("InfiniBand per GPU", "network", "Gb/s",
                        |c| {
                            let g = state::gpu_of(c);
                            format::sig3(g.network_per_node.as_gb_s() * 8.0 / f64::from(g.gpus_per_node.max(1)))
                        },
                        |c| c.overrides.network_gbps_per_gpu, |c, v| c.overrides.network_gbps_per_gpu = v)}
                    {override_view("GPUs per node", "gpus-per-node", "GPUs",
                        |c| state::gpu_of(c).gpus_per_node.to_string(),
                        |c| c.overrides.gpus_per_node.map(f64::from),
                        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                        |c, v| c.overrides.gpus_per_node = v.map(|v| (v.round() as u32).clamp(1, 1024)))}
                </details>
                <section class="files">
                    <h2>"Scenario file"</h2>
                    <button type="button" class="file-button" data-testid="export-scenario" on:click=export_scenario>
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
                                    let name = file.name();
                                    dom::read_text(&file, move |r| apply_import(name, r));
                                }
                                input.set_value("");
                            }
                        />
                    </label>
                    <p class="hint">"or drop one anywhere on the page. The format is the command-line tool's."</p>
                </section>
                <button
                    class="reset-all"
                    type="button"
                    data-testid="reset-all"
                    on:click=move |_| controls.set(Controls::default())
                >"Reset every control"</button>
            </aside>
            <section class="results" aria-label="Results">
                {move || tour_at.get().map(|i| tour::panel(i, tour_at, controls))}
                {notice_box()}
                {move || import_error.get().map(|e| view! {
                    <div class="message" role="alert" data-testid="import-error">
                        {e}
                        " "
                        <button type="button" class="reset" on:click=move |_| import_error.set(None)>"Dismiss"</button>
                    </div>
                })}
                <div class="readout" aria-live="polite">{summary}{message}</div>
                <div class="cards">{cards}</div>
            </section>
        </main>
    }
    .into_any()
}
