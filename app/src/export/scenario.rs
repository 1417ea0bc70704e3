//! The setting as the core's scenario file, and a scenario file read back
//! into controls: applied whole or not at all, with notices for what the
//! explorer shows differently.

use crate::state::{Controls, Outcome, Scaling, MAX_NODES, MAX_PINS, MAX_PIN_NAME};
use scalescope_core::error::Error as CoreError;
use scalescope_core::hardware::gpu_by_id;
use scalescope_core::model::find_preset;
use scalescope_core::scenario::{ModelSpec, Scenario, Schedule};
use scalescope_core::stack::Stack;

/// The scenario file of the current setting, at the current node count.
/// With the best-layout switch on, it holds the layout that was found
/// there, so evaluating the file gives the numbers on screen. With pins,
/// the file is an array of named settings, the live one first:
/// `[{"name": "Live setting", "scenario": {...}}, {"name": "Pin 1", ...}]`.
#[must_use]
pub fn scenario_json(c: &Controls, current: &Outcome) -> String {
    if c.pins.is_empty() {
        let mut text = serde_json::to_string_pretty(&scenario_of(c, current)).unwrap_or_default();
        text.push('\n');
        return text;
    }
    let named = |name: &str, s: Scenario| serde_json::json!({ "name": name, "scenario": s });
    let mut all = vec![named(LIVE, scenario_of(c, current))];
    for p in &c.pins {
        let views = crate::state::pinned_views(&p.controls);
        all.push(named(&p.name, scenario_of(&p.controls, &views.current)));
    }
    let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
    text.push('\n');
    text
}

/// The name of the live setting in a file with pins.
const LIVE: &str = "Live setting";

/// The scenario of `c`, with the layout found when the switch is on.
fn scenario_of(c: &Controls, current: &Outcome) -> Scenario {
    let mut s = c.scenario_at(c.nodes, c.gpu);
    if c.best {
        if let Ok((layout, _)) = current {
            s.parallel = layout.parallel;
            s.micro_batch = layout.micro_batch;
            s.recompute = layout.recompute;
        }
    }
    s
}

/// Largest scenario file read, bytes: any real scenario is under 2 KB.
pub const MAX_SCENARIO_BYTES: usize = 64 * 1024;

/// Reads a scenario file into controls. Returns the controls and notices
/// about what the explorer shows differently (clamped or not represented),
/// or an error that names the field and the problem. Nothing is applied on
/// error, so the page keeps its current view.
///
/// # Errors
/// Malformed JSON, an unknown or missing field, a value of the wrong type,
/// or a scenario the core rejects (with the core's message).
pub fn import_scenario(text: &str) -> Result<(Controls, Vec<String>), String> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(format!(
            "the file is {} KB; a scenario file is a few hundred bytes (at most {} KB are read)",
            text.len() / 1024,
            MAX_SCENARIO_BYTES / 1024
        ));
    }
    if text.trim_start().starts_with('[') {
        return import_pinned(text);
    }
    import_one(text)
}

/// A file of named settings: the first is the live one, the others pins.
fn import_pinned(text: &str) -> Result<(Controls, Vec<String>), String> {
    let shape = "a file of several settings is an array of {\"name\", \"scenario\"}";
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let items = value.as_array().ok_or(shape)?;
    if items.is_empty() {
        // Read as one scenario, to say what a scenario file is.
        return import_one(text);
    }
    let mut all = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let fields = item
            .as_object()
            .ok_or_else(|| format!("{shape}; setting {} is not", i + 1))?;
        if let Some(k) = fields.keys().find(|k| *k != "name" && *k != "scenario") {
            return Err(format!("setting {}: unknown field `{}`", i + 1, shorten(k)));
        }
        let name = fields
            .get("name")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| format!("setting {}: `name` is missing or not text", i + 1))?;
        let scenario = fields
            .get("scenario")
            .ok_or_else(|| format!("setting {}: `scenario` is missing", i + 1))?;
        all.push((name.to_owned(), scenario.to_string()));
    }
    if all.is_empty() || all.len() > 1 + MAX_PINS {
        return Err(format!(
            "a file of several settings holds 1 to {} of them, not {}",
            1 + MAX_PINS,
            all.len()
        ));
    }
    let mut notices = Vec::new();
    let mut settings = Vec::new();
    for (i, (name, scenario)) in all.iter().enumerate() {
        let (c, more) = import_one(scenario)
            .map_err(|e| format!("setting {} (`{}`): {e}", i + 1, shorten(name)))?;
        notices.extend(more.into_iter().map(|m| format!("{}: {m}", shorten(name))));
        settings.push((name.clone(), c));
    }
    let mut settings = settings.into_iter();
    let (_, mut live) = settings.next().ok_or("no setting")?;
    for (name, c) in settings {
        live.pins.push(crate::state::Pin {
            name: name.chars().take(MAX_PIN_NAME).collect(),
            controls: c,
        });
    }
    Ok((live, notices))
}

/// At most 40 characters of a name, for a message.
fn shorten(name: &str) -> String {
    name.chars().take(MAX_PIN_NAME).collect()
}

/// One scenario file read into controls.
fn import_one(text: &str) -> Result<(Controls, Vec<String>), String> {
    let s = read(text)?;
    // A file the explorer wrote for a setting that cannot run (TP not
    // dividing the heads, a batch that does not split) opens in that state,
    // as the same link would, with the reason; names, ranges and limits the
    // controls cannot hold are refused.
    let mut notices = Vec::new();
    match s.to_config() {
        Ok(_) => {}
        Err(e) if can_open_as_saved(&e) => {
            notices.push(format!("as saved, this setting cannot run: {e}"));
        }
        Err(e) => return Err(format!("the scenario cannot run: {e}")),
    }
    let mut c = Controls::default();
    hardware(&s, &mut c, &mut notices)?;
    model(&s, &mut c);
    layout(&s, &mut c, &mut notices);
    batch(&s, &mut c);
    c.calibration = s.calibration;
    c.calibrated = !s.calibration.is_empty();
    // The same ranges as a link's: whatever a link would clamp is clamped
    // here too, and said so.
    let (checked, clamped) = crate::url::from_query(&crate::url::to_query(&c));
    notices.extend(clamped);
    Ok((checked, notices))
}

/// The cluster: GPU, node count and the what-ifs that differ from the
/// datasheet.
fn hardware(s: &Scenario, c: &mut Controls, notices: &mut Vec<String>) -> Result<(), String> {
    let hw = &s.hardware;
    // The core reads short names and any capitalisation (it has accepted
    // this one): the control shows the GPU it resolved to.
    c.gpu = gpu_by_id(&hw.gpu).map_or(c.gpu, |g| g.id);
    if hw.nodes > MAX_NODES {
        return Err(format!(
            "`hardware.nodes`: {} nodes is beyond the explorer's {MAX_NODES}",
            hw.nodes
        ));
    }
    c.nodes = hw.nodes;
    c.overrides.gpus_per_node = hw.gpus_per_node;
    c.overrides.nvlink_domain = hw.nvlink_domain;
    c.overrides.network_gbps_per_gpu = hw.inter_node_gbps_per_gpu;
    c.overrides.peak_tflops = hw.peak_tflops;
    c.overrides.hbm_gb_per_s = hw.hbm_gb_per_s;
    c.overrides.nvlink_gb_per_s = hw.nvlink_gb_per_s;
    c.overrides.dp_overlap_gb_per_s = hw.dp_overlap_gb_per_s;
    // The datasheet defaults need no override.
    let gpu = crate::state::gpu_of(c);
    if c.overrides.gpus_per_node == Some(gpu.gpus_per_node) {
        c.overrides.gpus_per_node = None;
    }
    if c.overrides.nvlink_domain == Some(gpu.nvlink_domain) && c.overrides.gpus_per_node.is_none() {
        c.overrides.nvlink_domain = None;
    }
    if let Some(v) = c.overrides.network_gbps_per_gpu {
        let datasheet = gpu.network_per_node.as_gb_s() * 8.0 / f64::from(gpu.gpus_per_node.max(1));
        if (v - datasheet).abs() < 1e-9 && c.overrides.gpus_per_node.is_none() {
            c.overrides.network_gbps_per_gpu = None;
        }
    }
    if hw.hbm_gib.is_some() {
        notices.push(String::from(
            "`hardware.hbm_gib` is not an explorer control: the GPU's datasheet HBM capacity is used",
        ));
    }
    if s.offload_layers > 0 || hw.host_link_gb_per_s.is_some() {
        notices.push(String::from(
            "`offload_layers` and `hardware.host_link_gb_per_s` are not explorer controls: the explorer does not offload",
        ));
    }
    if !s.recompute_modules.is_empty() {
        notices.push(String::from(
            "`recompute_modules` is not an explorer control: selective recomputation reruns the stack's default (the norms and the MLP activation; under torchtitan every second matmul too)",
        ));
    }
    Ok(())
}

/// A preset by the name the core resolved, or the custom model; a custom
/// model that is a preset but for its routing (what the explorer writes
/// for a routing what-if) comes back as the preset and the what-ifs.
fn model(s: &Scenario, c: &mut Controls) {
    c.routing = crate::state::Routing::default();
    match &s.model {
        ModelSpec::Preset(id) => {
            c.model = find_preset(id).map_or(c.model, |p| p.id);
        }
        ModelSpec::Custom(m) => {
            // The preset this is, but for its routing.
            let routed = m.moe.and_then(|mine| {
                scalescope_core::model::PRESETS.iter().find_map(|p| {
                    let theirs = p.model.moe?;
                    let moe = scalescope_core::model::Moe {
                        imbalance: mine.imbalance,
                        capacity: mine.capacity,
                        ..theirs
                    };
                    let same = scalescope_core::model::Model {
                        moe: Some(moe),
                        ..p.model
                    };
                    (same == *m).then_some((p.id, mine, theirs))
                })
            });
            if let Some((id, mine, theirs)) = routed {
                c.model = id;
                c.routing.imbalance = Some(mine.imbalance).filter(|&v| v != theirs.imbalance);
                c.routing.capacity = mine.capacity.filter(|_| mine.capacity != theirs.capacity);
            } else {
                c.model = "custom";
                c.custom = *m;
            }
        }
    }
    c.seq_len = s.seq_len;
}

/// The parallel layout, micro-batch, recomputation, precision and stack.
fn layout(s: &Scenario, c: &mut Controls, notices: &mut Vec<String>) {
    let p = s.parallel;
    c.dp = p.dp;
    c.tp = p.tp;
    c.pp = p.pp;
    c.ep = p.ep;
    c.etp = p.etp;
    c.ep_overlap = p.ep_overlap;
    c.cp = p.cp;
    // A file says nothing of the switch where sequence parallelism cannot
    // run (TP 1, or a stack without it): the switch keeps its place.
    let says_sp = p.tp > 1 && Stack::of(s.stack).sequence_parallel;
    c.sp = if says_sp { p.sp } else { c.sp };
    c.schedule = p.schedule;
    if p.schedule == Schedule::Interleaved && p.virtual_stages != 2 {
        // Unset (0), the core chooses the count; the explorer keeps 2.
        let v = match p.virtual_stages {
            0 => String::from("unset"),
            v => v.to_string(),
        };
        notices.push(format!(
            "`parallel.virtual_stages` is {v}: the explorer interleaves 2 chunks per stage"
        ));
    }
    c.micro_batch = s.micro_batch;
    c.recompute = s.recompute;
    c.precision = s.precision;
    c.stack = s.stack;
}

/// A batch that splits evenly over the GPUs reads as weak scaling (so the
/// sweep keeps sequences per GPU); any other as strong scaling.
fn batch(s: &Scenario, c: &mut Controls) {
    let gpus = u64::from(c.nodes) * u64::from(c.gpus_per_node());
    if gpus > 0 && u64::from(s.global_batch) % gpus == 0 {
        c.scaling = Scaling::Weak;
        c.local_batch = u32::try_from(u64::from(s.global_batch) / gpus).unwrap_or(1);
    } else {
        c.scaling = Scaling::Strong;
        c.global_batch = s.global_batch;
    }
}

/// Reads the scenario, naming the field of a mistake by its dotted path,
/// as the core's `json::read_scenario` does (a test keeps the two in step).
/// The path is found from serde_json's line and column by [`path_at`]:
/// serde_path_to_error, which the command-line tool uses, costs the site
/// 11 KiB gzipped (it wraps every visitor of the scenario's types), this
/// scan well under one.
fn read(text: &str) -> Result<Scenario, String> {
    serde_json::from_str(text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            return format!("not valid JSON: {e}");
        }
        let message = e.to_string();
        // An unknown field is named by the message itself and reported
        // just after its key: the path is the object it was found in. A
        // missing one is reported after its object's closing brace.
        let unknown = message.starts_with("unknown field");
        let path = path_at(text, e.line(), e.column(), unknown);
        if path.is_empty() {
            message
        } else {
            format!("`{path}`: {message}")
        }
    })
}

/// The dotted path (`parallel.tp`) of the JSON value that ends at `line`
/// and `column` (as serde_json reports them), found by scanning the text
/// up to there. With `parent`, the path of the object holding it.
fn path_at(text: &str, line: usize, column: usize, parent: bool) -> String {
    let mut end = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            end += column.min(l.len());
            break;
        }
        end += l.len();
    }
    let bytes = text.as_bytes();
    let end = end.min(bytes.len());
    // One entry per open object: the key whose value is being read.
    let mut keys: Vec<Option<&str>> = Vec::new();
    let mut last: Option<&str> = None;
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                last = text.get(start..i.min(bytes.len()));
            }
            b':' => {
                if let Some(top) = keys.last_mut() {
                    *top = last.take();
                }
            }
            b'{' => keys.push(None),
            b'}' => {
                keys.pop();
            }
            _ => {}
        }
        i += 1;
    }
    if parent {
        keys.pop();
    }
    keys.iter().flatten().copied().collect::<Vec<_>>().join(".")
}

/// Whether a scenario failing with `e` can still be shown by the controls
/// (in the cannot-run state): a layout or shape that does not divide, or a
/// precision the GPU lacks, but not an unknown name or a value out of range.
fn can_open_as_saved(e: &CoreError) -> bool {
    matches!(
        e,
        CoreError::TpNotDividingHeads { .. }
            | CoreError::PipelineTooDeep { .. }
            | CoreError::PipelineTooLong { .. }
            | CoreError::StackLacks { .. }
            | CoreError::CpNotDividingSequence { .. }
            | CoreError::LayoutNotDividingGpus { .. }
            | CoreError::BatchNotDivisible { .. }
            | CoreError::InterleavingNeedsMicroBatches { .. }
            | CoreError::InterleavingNeedsLayers { .. }
            | CoreError::HeadsNotDividingHidden { .. }
            | CoreError::KvHeadsNotDividingHeads { .. }
            | CoreError::PrecisionUnsupported { .. }
            | CoreError::OffloadNeeds { .. }
            | CoreError::ModuleNeeds { .. }
    )
}

#[cfg(test)]
#[path = "scenario_tests.rs"]
mod tests;
