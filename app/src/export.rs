//! What leaves the page as a file: each chart's data as CSV, each chart as
//! SVG (the same drawing code as the canvas, on plotters' SVG backend), and
//! the whole setting as the core's scenario file. Reading a scenario file
//! back is in [`import_scenario`]. Pure Rust, tested natively.

use crate::charts::bars::{overlapped_segments, step_segments};
use crate::charts::{self, layout_label, Chart};
use crate::state::{Cell, Controls, Outcome, Scaling, Views, MAX_NODES};
use plotters::prelude::IntoDrawingArea;
use scalescope_core::error::Error as CoreError;
use scalescope_core::hardware::gpu_by_id;
use scalescope_core::model::{find_preset, PRESETS};
use scalescope_core::scenario::{ModelSpec, Scenario, Schedule};

/// One CSV field: quoted when it holds a comma, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn row(fields: &[String]) -> String {
    let mut line = fields
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}

/// `csv` (as [`csv`] writes it) as an HTML table for people: the header
/// row as column heads, every field escaped.
#[must_use]
pub fn csv_table(csv: &str, caption: &str) -> String {
    let mut out = format!(
        "<table class=\"numbers data-table\" tabindex=\"0\"><caption>{}</caption>",
        crate::format::escape_html(caption)
    );
    for (k, line) in csv.lines().enumerate() {
        let (open, close) = if k == 0 {
            ("<th scope=\"col\">", "</th>")
        } else {
            ("<td>", "</td>")
        };
        out.push_str(if k == 0 { "<thead><tr>" } else { "<tr>" });
        for f in fields(line) {
            out.push_str(open);
            out.push_str(&crate::format::escape_html(&f));
            out.push_str(close);
        }
        out.push_str(if k == 0 {
            "</tr></thead><tbody>"
        } else {
            "</tr>"
        });
    }
    out.push_str("</tbody></table>");
    out
}

/// The fields of one CSV line: commas split, double quotes group (a
/// doubled quote inside stands for one).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let last = out.len() - 1;
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out[last].push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out[last].push(c),
        }
    }
    out
}

/// A number as CSV writes it: enough digits to re-plot, no exponent noise.
fn n(v: f64) -> String {
    if v.is_finite() {
        crate::format::trimmed(v, 6)
    } else {
        String::new()
    }
}

/// `ok`, or why the point has no value.
fn status(o: &Outcome) -> String {
    match o {
        Ok(_) => String::from("ok"),
        Err(e) => e.clone(),
    }
}

/// The data behind `chart`, as CSV with a header row. Points that cannot
/// run keep their row, with empty values and the reason in `status`.
#[must_use]
pub fn csv(chart: Chart, v: &Views) -> String {
    let mut out = String::new();
    let mut put = |fields: Vec<String>| out.push_str(&row(&fields));
    let h = |names: &[&str]| names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    match chart {
        Chart::Throughput => {
            let best_per_gpu = v
                .points
                .iter()
                .filter_map(|p| p.outcome.as_ref().ok())
                .map(|(_, r)| r.tokens_per_s_per_gpu)
                .fold(0.0, f64::max);
            put(h(&[
                "nodes",
                "gpus",
                "global_batch",
                "tokens_per_s",
                "ideal_tokens_per_s",
                "layout",
                "status",
            ]));
            for p in &v.points {
                let (t, layout) = match &p.outcome {
                    Ok((l, r)) => (n(r.tokens_per_s), layout_label(l)),
                    Err(_) => (String::new(), String::new()),
                };
                put(vec![
                    p.nodes.to_string(),
                    p.gpus.to_string(),
                    p.global_batch.to_string(),
                    t,
                    n(best_per_gpu * f64::from(p.gpus)),
                    layout,
                    status(&p.outcome),
                ]);
            }
        }
        Chart::PerGpu | Chart::Power => {
            let per_gpu = chart == Chart::PerGpu;
            put(if per_gpu {
                h(&[
                    "nodes",
                    "gpus",
                    "tokens_per_s_per_gpu",
                    "tflops_per_gpu",
                    "mfu",
                    "status",
                ])
            } else {
                h(&[
                    "nodes",
                    "gpus",
                    "power_w_per_gpu",
                    "power_w_cluster",
                    "tokens_per_joule",
                    "status",
                ])
            });
            for p in &v.points {
                let values = match &p.outcome {
                    Ok((_, r)) if per_gpu => [r.tokens_per_s_per_gpu, r.tflops_per_gpu, r.mfu],
                    Ok((_, r)) => [r.power_w_per_gpu, r.power_w_cluster, r.tokens_per_joule],
                    Err(_) => [f64::NAN; 3],
                };
                let mut fields = vec![p.nodes.to_string(), p.gpus.to_string()];
                fields.extend(values.iter().map(|&x| n(x)));
                fields.push(status(&p.outcome));
                put(fields);
            }
        }
        Chart::Breakdown => {
            let probe = scalescope_core::evaluate::Breakdown::default();
            let mut header = h(&["nodes", "gpus", "step_s"]);
            header.extend(step_segments(&probe).iter().map(|s| seconds(s.0)));
            header.extend(overlapped_segments(&probe).iter().map(|s| seconds(s.0)));
            header.push(String::from("status"));
            put(header);
            for p in &v.points {
                let mut fields = vec![p.nodes.to_string(), p.gpus.to_string()];
                match &p.outcome {
                    Ok((_, r)) => {
                        fields.push(n(r.step_time_s));
                        let b = &r.breakdown;
                        fields.extend(step_segments(b).iter().map(|s| n(s.2)));
                        fields.extend(overlapped_segments(b).iter().map(|s| n(s.2)));
                    }
                    Err(_) => fields.extend(core::iter::repeat_n(String::new(), 12)),
                }
                fields.push(status(&p.outcome));
                put(fields);
            }
        }
        Chart::Grid => {
            put(h(&[
                "tp",
                "pp",
                "tokens_per_s_per_gpu",
                "mfu",
                "layout",
                "status",
            ]));
            for (i, cell) in v.grid.cells.iter().enumerate() {
                let tp = v.grid.tps[i % v.grid.tps.len().max(1)];
                let pp = v.grid.pps[i / v.grid.tps.len().max(1)];
                let mut fields = vec![tp.to_string(), pp.to_string()];
                match cell {
                    Cell::Ok(l, r) => fields.extend([
                        n(r.tokens_per_s_per_gpu),
                        n(r.mfu),
                        layout_label(l),
                        String::from("ok"),
                    ]),
                    Cell::OutOfMemory => fields.extend([
                        String::new(),
                        String::new(),
                        String::new(),
                        String::from("out of memory"),
                    ]),
                    Cell::Invalid(why) => {
                        fields.extend([String::new(), String::new(), String::new(), why.clone()])
                    }
                }
                put(fields);
            }
        }
        Chart::Generations => {
            put(h(&[
                "gpu",
                "extrapolated",
                "tokens_per_s_per_gpu",
                "mfu",
                "exposed_comm_fraction",
                "layout",
                "status",
            ]));
            for g in &v.generations {
                let mut fields = vec![g.gpu.name.to_owned(), g.gpu.extrapolated.to_string()];
                match &g.outcome {
                    Ok((l, r)) => fields.extend([
                        n(r.tokens_per_s_per_gpu),
                        n(r.mfu),
                        n(r.exposed_comm_fraction),
                        layout_label(l),
                    ]),
                    Err(_) => fields.extend(core::iter::repeat_n(String::new(), 4)),
                }
                fields.push(status(&g.outcome));
                put(fields);
            }
        }
        Chart::Collectives => {
            put(h(&[
                "nodes",
                "allgather_bus_gb_per_s",
                "allreduce_bus_gb_per_s",
            ]));
            for c in &v.collectives {
                put(vec![c.nodes.to_string(), n(c.allgather), n(c.allreduce)]);
            }
        }
        Chart::Memory => {
            put(h(&[
                "fsdp_group",
                "weights_gib",
                "gradients_gib",
                "optimizer_gib",
                "activations_gib",
                "buffers_gib",
                "reserve_gib",
                "total_gib",
                "hbm_gib",
            ]));
            for p in &v.memory {
                let m = &p.memory;
                put(vec![
                    p.group.to_string(),
                    n(m.weights.as_gib()),
                    n(m.gradients.as_gib()),
                    n(m.optimizer.as_gib()),
                    n(m.activations.as_gib()),
                    n(m.buffers.as_gib()),
                    n(m.reserve.as_gib()),
                    n(m.total().as_gib()),
                    n(v.hbm_gib),
                ]);
            }
        }
    }
    out
}

/// A segment name as a CSV column: `exposed data-parallel comm` becomes
/// `exposed_data_parallel_comm_s`.
fn seconds(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    s.push_str("_s");
    s
}

/// `chart` drawn as an SVG document of `size` pixels, by the same code
/// that draws the canvas (text measured by `canvas`, so it lays out as on
/// screen). `None` if the canvas has no 2D context.
#[must_use]
pub fn svg(
    chart: Chart,
    v: &Views,
    canvas: &web_sys::HtmlCanvasElement,
    size: (u32, u32),
) -> Option<String> {
    let (backend, buffer) = charts::canvas::FastCanvas::svg(canvas, size)?;
    {
        let root = backend.into_drawing_area();
        // A chart that failed half-way still leaves a well-formed document:
        // `present` closes it either way.
        let _ = charts::draw(chart, &root, v);
        let _ = root.present();
    }
    let text = buffer.borrow().clone();
    Some(text)
}

/// The file name of a chart export: `scalescope-throughput.csv`.
#[must_use]
pub fn file_name(chart: Chart, extension: &str) -> String {
    format!("scalescope-{}.{extension}", chart.id())
}

/// The scenario file of the current setting, at the current node count.
/// With the best-layout switch on, it holds the layout that was found
/// there, so evaluating the file gives the numbers on screen.
#[must_use]
pub fn scenario_json(c: &Controls, current: &Outcome) -> String {
    let mut s = c.scenario_at(c.nodes, c.gpu);
    if c.best {
        if let Ok((layout, _)) = current {
            s.parallel = layout.parallel;
            s.micro_batch = layout.micro_batch;
            s.recompute = layout.recompute;
        }
    }
    let mut text = serde_json::to_string_pretty(&s).unwrap_or_default();
    text.push('\n');
    text
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
    let s: Scenario = serde_json::from_str(text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            return format!("not valid JSON: {e}");
        }
        let message = e.to_string();
        // A missing or unknown field is named by the message itself; the
        // path is the object it belongs to.
        let own = message.starts_with("missing field") || message.starts_with("unknown field");
        let path = path_at(text, e.line(), e.column(), own);
        let what = if path == "model" {
            format!(
                "expected a preset name ({}) or an object with layers, hidden, heads, kv_heads, ffn, vocab and mlp",
                PRESETS.iter().map(|p| p.id).collect::<Vec<_>>().join(", ")
            )
        } else {
            message
        };
        if path.is_empty() {
            what
        } else {
            format!("`{path}`: {what}")
        }
    })?;
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
    c.overrides.network_gbps_per_gpu = hw.inter_node_gbps_per_gpu;
    c.overrides.peak_tflops = hw.peak_tflops;
    c.overrides.hbm_gb_per_s = hw.hbm_gb_per_s;
    c.overrides.nvlink_gb_per_s = hw.nvlink_gb_per_s;
    c.overrides.dp_overlap_gb_per_s = hw.dp_overlap_gb_per_s;
    // The datasheet defaults need no override.
    let gpu = crate::state::gpu_of(&c);
    if c.overrides.gpus_per_node == Some(gpu.gpus_per_node) {
        c.overrides.gpus_per_node = None;
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
    match &s.model {
        ModelSpec::Preset(id) => {
            c.model = find_preset(id).map_or(c.model, |p| p.id);
        }
        ModelSpec::Custom(m) => {
            c.model = "custom";
            c.custom = *m;
        }
    }
    c.seq_len = s.seq_len;
    let p = s.parallel;
    c.dp = p.dp;
    c.tp = p.tp;
    c.pp = p.pp;
    c.cp = p.cp;
    // A file says nothing of the switch where sequence parallelism cannot
    // run (TP 1, or a stack without it): the switch keeps its place.
    let says_sp = p.tp > 1 && scalescope_core::stack::Stack::of(s.stack).sequence_parallel;
    c.sp = if says_sp { p.sp } else { c.sp };
    c.schedule = p.schedule;
    if p.schedule == Schedule::Interleaved && p.virtual_stages != 2 {
        notices.push(format!(
            "`parallel.virtual_stages` is {}: the explorer interleaves 2 chunks per stage",
            p.virtual_stages
        ));
    }
    c.micro_batch = s.micro_batch;
    c.recompute = s.recompute;
    c.precision = s.precision;
    c.stack = s.stack;
    // A batch that splits evenly over the GPUs reads as weak scaling (so
    // the sweep keeps sequences per GPU); any other as strong scaling.
    let gpus = u64::from(c.nodes) * u64::from(c.gpus_per_node());
    if gpus > 0 && u64::from(s.global_batch) % gpus == 0 {
        c.scaling = Scaling::Weak;
        c.local_batch = u32::try_from(u64::from(s.global_batch) / gpus).unwrap_or(1);
    } else {
        c.scaling = Scaling::Strong;
        c.global_batch = s.global_batch;
    }
    // The same ranges as a link's: whatever a link would clamp is clamped
    // here too, and said so.
    let (checked, clamped) = crate::url::from_query(&crate::url::to_query(&c));
    notices.extend(clamped);
    Ok((checked, notices))
}

/// Whether a scenario failing with `e` can still be shown by the controls
/// (in the cannot-run state): a layout or shape that does not divide, or a
/// precision the GPU lacks, but not an unknown name or a value out of range.
fn can_open_as_saved(e: &CoreError) -> bool {
    matches!(
        e,
        CoreError::TpNotDividingHeads { .. }
            | CoreError::PipelineTooDeep { .. }
            | CoreError::StackLacks { .. }
            | CoreError::CpNotDividingSequence { .. }
            | CoreError::LayoutNotDividingGpus { .. }
            | CoreError::BatchNotDivisible { .. }
            | CoreError::InterleavingNeedsMicroBatches { .. }
            | CoreError::HeadsNotDividingHidden { .. }
            | CoreError::KvHeadsNotDividingHeads { .. }
            | CoreError::PrecisionUnsupported { .. }
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::compute;

    #[test]
    fn every_chart_exports_csv_with_a_header_and_one_row_per_point() {
        let v = compute(&Controls::default());
        for chart in Chart::ALL {
            let text = csv(chart, &v);
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines.len() >= 3, "{chart:?}: {text}");
            let columns = lines[0].split(',').count();
            for l in &lines[1..] {
                assert!(!l.contains("NaN") && !l.contains("inf"), "{chart:?}: {l}");
                // No field in these exports holds a quoted comma except
                // layouts and reasons; count fields outside quotes.
                let mut fields = 1;
                let mut quoted = false;
                for ch in l.chars() {
                    match ch {
                        '"' => quoted = !quoted,
                        ',' if !quoted => fields += 1,
                        _ => {}
                    }
                }
                assert_eq!(fields, columns, "{chart:?}: {l}");
            }
        }
        let throughput = csv(Chart::Throughput, &v);
        assert_eq!(throughput.lines().count(), 1 + v.points.len());
        assert!(throughput.starts_with("nodes,gpus,global_batch,tokens_per_s"));
    }

    #[test]
    fn a_point_that_cannot_run_keeps_its_row_with_the_reason() {
        let c = Controls {
            model: "llama2-70b",
            ..Controls::default()
        };
        let text = csv(Chart::Throughput, &compute(&c));
        assert!(
            text.contains("out of memory") || text.contains("GiB"),
            "{text}"
        );
    }

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
                "`model`: expected a preset name",
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
    fn a_charts_data_reads_as_a_table_with_every_row() {
        let v = crate::state::compute(&crate::state::Controls::default());
        for chart in Chart::ALL {
            let text = csv(chart, &v);
            let table = csv_table(&text, chart.title());
            let rows = table.matches("<tr>").count();
            assert_eq!(rows, text.lines().count(), "{chart:?}");
            assert!(!table.contains("<script"));
        }
        let quoted = fields(r#"a,"b, c","say ""hi""""#);
        assert_eq!(quoted, ["a", "b, c", r#"say "hi""#]);
    }
}
