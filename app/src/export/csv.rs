//! Each chart's data as CSV (one row per point; a point that cannot run
//! keeps its row, with empty values and the reason in `status`), and a CSV
//! as an HTML table for the Data toggle.

use crate::charts::bars::{overlapped_segments, step_segments};
use crate::charts::{layout_label, Chart};
use crate::state::{Cell, Outcome, Views};

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

/// Column names as owned strings.
fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

/// The data behind `chart`, as CSV with a header row. Points that cannot
/// run keep their row, with empty values and the reason in `status`.
#[must_use]
pub fn csv(chart: Chart, v: &Views) -> String {
    let rows = match chart {
        Chart::Throughput => throughput(v),
        Chart::PerGpu => per_point(v, true),
        Chart::Power => per_point(v, false),
        Chart::Breakdown => breakdown(v),
        Chart::Grid => grid(v),
        Chart::Generations => generations(v),
        Chart::Collectives => collectives(v),
        Chart::Memory => memory(v),
        Chart::Timeline => timeline(v),
        Chart::Plan => plan(v),
    };
    rows.iter().map(|r| row(r)).collect()
}

fn throughput(v: &Views) -> Vec<Vec<String>> {
    let best_per_gpu = v
        .points
        .iter()
        .filter_map(|p| p.outcome.as_ref().ok())
        .map(|(_, r)| r.tokens_per_s_per_gpu)
        .fold(0.0, f64::max);
    let mut rows = vec![header(&[
        "nodes",
        "gpus",
        "global_batch",
        "tokens_per_s",
        "ideal_tokens_per_s",
        "layout",
        "status",
    ])];
    for p in &v.points {
        let (t, layout) = match &p.outcome {
            Ok((l, r)) => (n(r.tokens_per_s), layout_label(l)),
            Err(_) => (String::new(), String::new()),
        };
        rows.push(vec![
            p.nodes.to_string(),
            p.gpus.to_string(),
            p.global_batch.to_string(),
            t,
            n(best_per_gpu * f64::from(p.gpus)),
            layout,
            status(&p.outcome),
        ]);
    }
    rows
}

/// Per-GPU throughput (`per_gpu`) or power, per sweep point.
fn per_point(v: &Views, per_gpu: bool) -> Vec<Vec<String>> {
    let mut rows = vec![if per_gpu {
        header(&[
            "nodes",
            "gpus",
            "tokens_per_s_per_gpu",
            "tflops_per_gpu",
            "mfu",
            "status",
        ])
    } else {
        header(&[
            "nodes",
            "gpus",
            "power_w_per_gpu",
            "power_w_cluster",
            "tokens_per_joule",
            "status",
        ])
    }];
    for p in &v.points {
        let values = match &p.outcome {
            Ok((_, r)) if per_gpu => [r.tokens_per_s_per_gpu, r.tflops_per_gpu, r.mfu],
            Ok((_, r)) => [r.power_w_per_gpu, r.power_w_cluster, r.tokens_per_joule],
            Err(_) => [f64::NAN; 3],
        };
        let mut fields = vec![p.nodes.to_string(), p.gpus.to_string()];
        fields.extend(values.iter().map(|&x| n(x)));
        fields.push(status(&p.outcome));
        rows.push(fields);
    }
    rows
}

fn breakdown(v: &Views) -> Vec<Vec<String>> {
    let probe = scalescope_core::evaluate::Breakdown::default();
    let mut head = header(&["nodes", "gpus", "step_s"]);
    head.extend(step_segments(&probe).iter().map(|s| seconds(s.0)));
    head.extend(overlapped_segments(&probe).iter().map(|s| seconds(s.0)));
    head.push(String::from("status"));
    let columns = head.len();
    let mut rows = vec![head];
    for p in &v.points {
        let mut fields = vec![p.nodes.to_string(), p.gpus.to_string()];
        if let Ok((_, r)) = &p.outcome {
            fields.push(n(r.step_time_s));
            let b = &r.breakdown;
            fields.extend(step_segments(b).iter().map(|s| n(s.2)));
            fields.extend(overlapped_segments(b).iter().map(|s| n(s.2)));
        }
        fields.resize(columns - 1, String::new());
        fields.push(status(&p.outcome));
        rows.push(fields);
    }
    rows
}

fn grid(v: &Views) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "tp",
        "pp",
        "tokens_per_s_per_gpu",
        "mfu",
        "layout",
        "status",
    ])];
    let grid = v.grid();
    let columns = grid.tps.len().max(1);
    for (i, cell) in grid.cells.iter().enumerate() {
        let tp = grid.tps[i % columns];
        let pp = grid.pps[i / columns];
        let mut fields = vec![tp.to_string(), pp.to_string()];
        let why = match cell {
            Cell::Ok(l, r) => {
                fields.extend([n(r.tokens_per_s_per_gpu), n(r.mfu), layout_label(l)]);
                String::from("ok")
            }
            Cell::OutOfMemory => String::from("out of memory"),
            Cell::Invalid(why) => why.clone(),
        };
        fields.resize(5, String::new());
        fields.push(why);
        rows.push(fields);
    }
    rows
}

fn generations(v: &Views) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "gpu",
        "extrapolated",
        "tokens_per_s_per_gpu",
        "mfu",
        "exposed_comm_fraction",
        "layout",
        "status",
    ])];
    for g in v.generations() {
        let mut fields = vec![g.gpu.name.to_owned(), g.gpu.extrapolated.to_string()];
        if let Ok((l, r)) = &g.outcome {
            fields.extend([
                n(r.tokens_per_s_per_gpu),
                n(r.mfu),
                n(r.exposed_comm_fraction),
                layout_label(l),
            ]);
        }
        fields.resize(6, String::new());
        fields.push(status(&g.outcome));
        rows.push(fields);
    }
    rows
}

fn collectives(v: &Views) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "nodes",
        "allgather_bus_gb_per_s",
        "allreduce_bus_gb_per_s",
        "alltoall_bus_gb_per_s",
    ])];
    for c in &v.collectives {
        rows.push(vec![
            c.nodes.to_string(),
            n(c.allgather),
            n(c.allreduce),
            n(c.alltoall),
        ]);
    }
    rows
}

/// One row per interval of the timeline, or the reason there is none.
fn timeline(v: &Views) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "stage",
        "stream",
        "kind",
        "start_ms",
        "end_ms",
        "duration_ms",
        "micro_batch_first",
        "micro_batch_last",
        "chunk",
        "layer_first",
        "layer_last",
        "waits_for",
        "status",
    ])];
    let t = match &v.timeline {
        Ok(t) => t,
        Err(why) => {
            let mut row = vec![String::new(); 12];
            row.push(why.clone());
            rows.push(row);
            return rows;
        }
    };
    let opt = |x: Option<u32>| x.map(|x| x.to_string()).unwrap_or_default();
    for (stage, i) in t.intervals() {
        let waits = i.waits_for.map_or_else(String::new, |w| {
            format!(
                "stage {} {} micro-batch {}",
                w.stage,
                if w.backward { "backward" } else { "forward" },
                w.micro_batch + 1
            )
        });
        rows.push(vec![
            stage.to_string(),
            i.stream.name().to_owned(),
            i.kind.name().to_owned(),
            n(i.start_s * 1e3),
            n(i.end_s * 1e3),
            n(i.duration() * 1e3),
            opt(i.micro_batches.map(|m| m.0 + 1)),
            opt(i.micro_batches.map(|m| m.1 + 1)),
            i.chunk.to_string(),
            opt(i.layers.map(|l| l.0)),
            opt(i.layers.map(|l| l.1)),
            waits,
            String::from("ok"),
        ]);
    }
    rows
}

fn memory(v: &Views) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "fsdp_group",
        "weights_gib",
        "gradients_gib",
        "optimizer_gib",
        "activations_gib",
        "buffers_gib",
        "reserve_gib",
        "total_gib",
        "hbm_gib",
    ])];
    for p in &v.memory {
        let m = &p.memory;
        rows.push(vec![
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
    rows
}

/// One row per cluster size of the plan, with its marks.
fn plan(v: &Views) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "nodes",
        "gpus",
        "tokens",
        "days",
        "gpu_hours",
        "energy_mwh",
        "cost_usd",
        "co2_tonnes",
        "mark",
        "layout",
        "status",
    ])];
    let view = match &v.plan {
        Ok(view) => view,
        Err(reason) => {
            rows.push(
                vec![String::new(); 10]
                    .into_iter()
                    .chain([reason.clone()])
                    .collect(),
            );
            return rows;
        }
    };
    for (i, s) in view.sizes.iter().enumerate() {
        let marks: Vec<&str> = [
            (view.marks.cheapest, "cheapest"),
            (view.marks.fastest, "fastest"),
            (view.marks.knee, "knee"),
        ]
        .iter()
        .filter(|(m, _)| *m == Some(i))
        .map(|(_, name)| *name)
        .collect();
        let mut row = vec![s.nodes.to_string(), s.gpus.to_string(), n(view.tokens)];
        match &s.cost {
            Ok((l, c)) => {
                row.extend([c.days, c.gpu_hours, c.energy_mwh, c.cost_usd, c.co2_tonnes].map(n));
                row.push(marks.join(" "));
                row.push(layout_label(l));
                row.push(String::from("ok"));
            }
            Err(reason) => {
                row.extend(core::iter::repeat_n(String::new(), 7));
                row.push(reason.clone());
            }
        }
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{compute, Controls};

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
