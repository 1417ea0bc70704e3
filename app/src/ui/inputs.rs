//! The input widgets the control panel is made of: a slider over a list of
//! values, a select, a typed what-if, a custom model's field and the reset
//! button beside each. Each writes one field of [`Controls`].

use super::page::Page;
use crate::format;
use crate::state::Controls;
use leptos::prelude::*;

/// Reads one count from the controls.
pub type ReadField = fn(&Controls) -> u32;
/// Writes one count into the controls.
pub type WriteField = fn(&mut Controls, u32);

/// A slider over a fixed list of values (powers of two here), so that the
/// keyboard's arrows step one value and Home/End reach the ends.
#[derive(Clone, Copy)]
pub struct Slider {
    /// What the slider sets.
    pub label: &'static str,
    /// Test hook and element id stem.
    pub testid: &'static str,
    /// Unit of the value shown beside it.
    pub unit: &'static str,
    /// The values, in order.
    pub values: &'static [u32],
    /// Reads the value.
    pub get: ReadField,
    /// Writes the value.
    pub set: WriteField,
}

fn index_of(values: &[u32], v: u32) -> usize {
    values.iter().rposition(|&x| x <= v).unwrap_or(0)
}

/// The small button beside a control that puts it back to its default.
pub fn reset_button(
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

/// A slider with its value, in words, and a reset button.
pub fn slider(page: Page, s: Slider) -> impl IntoView {
    let Slider {
        label,
        testid,
        unit,
        values,
        get,
        set,
    } = s;
    let controls = page.controls;
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
                        page.mark_input(&ev);
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
}

/// A select over `options` (value, text), with a reset button.
pub fn select(
    page: Page,
    label: &'static str,
    testid: &'static str,
    options: Vec<(&'static str, String)>,
    get: fn(&Controls) -> &'static str,
    set: fn(&mut Controls, &str),
) -> impl IntoView {
    let controls = page.controls;
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
                        page.mark_input(&ev);
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
}

/// A what-if field (a positive number, or empty for the datasheet value).
pub struct WhatIf {
    /// What the value is.
    pub label: &'static str,
    /// Test hook and element id stem.
    pub testid: &'static str,
    /// Its unit.
    pub unit: &'static str,
    /// The datasheet value, shown when the field is empty.
    pub placeholder: fn(&Controls) -> String,
    /// Reads the what-if.
    pub get: fn(&Controls) -> Option<f64>,
    /// Writes the what-if.
    pub set: fn(&mut Controls, Option<f64>),
    /// Whether zero is a value (a price, a carbon intensity), not a mistake.
    pub zero: bool,
    /// The largest value taken; more is clamped, with a notice.
    pub max: f64,
}

/// Reads a typed what-if: empty is the datasheet value, silently; beyond
/// the range, the largest value; anything else not positive, the datasheet
/// value, with a notice.
fn read_what_if(page: Page, label: &str, raw: &str, (zero, max): (bool, f64)) -> Option<f64> {
    let v = raw.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    match v {
        _ if raw.trim().is_empty() => None,
        Some(v) if v > max => {
            let why = format!("is out of range: using {}", format::exact(max));
            page.typed_notice(label, raw, &why);
            Some(max)
        }
        Some(v) if v > 0.0 || (zero && v == 0.0) => Some(v),
        _ => {
            page.typed_notice(label, raw, "is not a positive number: using the default");
            None
        }
    }
}

/// A typed what-if with its unit and a reset button.
pub fn what_if(page: Page, w: WhatIf) -> impl IntoView {
    let WhatIf {
        label,
        testid,
        unit,
        placeholder,
        get,
        set,
        zero,
        max,
    } = w;
    let controls = page.controls;
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
                        page.mark_input(&ev);
                        let v = read_what_if(page, label, &event_target_value(&ev), (zero, max));
                        controls.update(|c| set(c, v));
                    }
                />
                {reset_button(label, "Reset to default", move || controls.update(|c| set(c, None)))}
            </div>
        </div>
    }
}

/// One typed count of a custom model (layers, hidden size, ...).
pub fn custom_field(
    page: Page,
    label: &'static str,
    max: u32,
    get: ReadField,
    set: WriteField,
) -> impl IntoView {
    view! {
        <label class="field">
            {label}
            <input
                type="number"
                min="1"
                aria-label=format!("Custom model {label}")
                prop:value=move || get(&page.controls.get()).to_string()
                max=max.to_string()
                on:change=move |ev| {
                    page.count_typed(&ev, &format!("Custom model {label}"), max, get, set);
                }
            />
        </label>
    }
}
