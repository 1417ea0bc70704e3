//! Each chart in one or two sentences of what it shows now: the text a
//! screen reader gives for the canvas, updated with every repaint.

use super::Chart;
use crate::format;
use crate::state::{Cell, Outcome, Views};
use scalescope_core::evaluate::Report;

fn report(o: &Outcome) -> Option<&Report> {
    o.as_ref().ok().map(|(_, r)| r)
}

/// "falls", "rises" or "stays" for a change from `a` to `b`.
fn trend(a: f64, b: f64) -> &'static str {
    if b < a * 0.99 {
        "falls"
    } else if b > a * 1.01 {
        "rises"
    } else {
        "stays level"
    }
}

/// A sweep point's GPU count and report.
type At<'a> = (u32, &'a Report);

/// The first and last sweep points that run, with their reports.
fn ends(v: &Views) -> Option<(At<'_>, At<'_>)> {
    let mut ok = v
        .points
        .iter()
        .filter_map(|p| report(&p.outcome).map(|r| (p.gpus, r)));
    let first = ok.next()?;
    let last = ok.next_back().unwrap_or(first);
    Some((first, last))
}

/// What `chart` shows for `v`, in words.
#[must_use]
pub fn describe(chart: Chart, v: &Views) -> String {
    let text = match chart {
        Chart::Throughput => throughput(v),
        Chart::PerGpu => per_gpu(v),
        Chart::Breakdown => breakdown(v),
        Chart::Power => power(v),
        Chart::Grid => grid(v),
        Chart::Generations => Some(generations(v)),
        Chart::Collectives => collectives(v),
        Chart::Memory => memory(v),
        Chart::Timeline => timeline(v),
        Chart::Plan => Some(plan(v)),
    };
    text.unwrap_or_else(|| String::from("This setting cannot run, so the chart shows no point."))
}

fn throughput(v: &Views) -> Option<String> {
    let ((g0, a), (g1, b)) = ends(v)?;
    let ideal = a.tokens_per_s * f64::from(g1) / f64::from(g0.max(1));
    Some(format!(
        "Global throughput {} from {} to {} between {} and {}, {} of linear scaling.",
        trend(a.tokens_per_s, b.tokens_per_s),
        format::si(a.tokens_per_s, "tokens/s"),
        format::si(b.tokens_per_s, "tokens/s"),
        format::count(g0, "GPUs"),
        format::count(g1, "GPUs"),
        format::pct(b.tokens_per_s / ideal.max(1e-30)),
    ))
}

fn per_gpu(v: &Views) -> Option<String> {
    let ((g0, a), (g1, b)) = ends(v)?;
    Some(format!(
        "Per-GPU throughput {} from {} to {} between {} and {}; MFU from {} to {}.",
        trend(a.tokens_per_s_per_gpu, b.tokens_per_s_per_gpu),
        format::si(a.tokens_per_s_per_gpu, ""),
        format::si(b.tokens_per_s_per_gpu, "tokens/s"),
        format::count(g0, "GPUs"),
        format::count(g1, "GPUs"),
        format::pct(a.mfu),
        format::pct(b.mfu),
    ))
}

fn breakdown(v: &Views) -> Option<String> {
    let r = report(&v.current)?;
    let b = &r.breakdown;
    let share = |x: f64| format::pct(x / r.step_time_s);
    Some(format!(
        "At {} a step takes {}: compute {}, exposed communication {}, pipeline bubble {}, \
         with {} of communication hidden behind compute.",
        format::count(r.gpus, "GPUs"),
        format::duration(r.step_time_s),
        share(b.compute().0),
        share(b.comm_exposed().0),
        share(b.bubble.0),
        format::duration((b.comm_total() - b.comm_exposed()).0),
    ))
}

fn power(v: &Views) -> Option<String> {
    let ((g0, a), (g1, b)) = ends(v)?;
    Some(format!(
        "Power per GPU {} from {} to {} between {} and {}, while tokens per joule {} from \
         {} to {}.",
        trend(a.power_w_per_gpu, b.power_w_per_gpu),
        format::si(a.power_w_per_gpu, "W"),
        format::si(b.power_w_per_gpu, "W"),
        format::count(g0, "GPUs"),
        format::count(g1, "GPUs"),
        trend(a.tokens_per_joule, b.tokens_per_joule),
        format::sig3(a.tokens_per_joule),
        format::sig3(b.tokens_per_joule),
    ))
}

fn grid(v: &Views) -> Option<String> {
    let g = &v.grid();
    let (k, r) = g
        .cells
        .iter()
        .enumerate()
        .filter_map(|(k, c)| match c {
            Cell::Ok(_, r) => Some((k, r)),
            _ => None,
        })
        .max_by(|a, b| {
            a.1.tokens_per_s_per_gpu
                .total_cmp(&b.1.tokens_per_s_per_gpu)
        })?;
    let blocked = g
        .cells
        .iter()
        .filter(|c| !matches!(c, Cell::Ok(..)))
        .count();
    let cols = g.tps.len().max(1);
    Some(format!(
        "The fastest of {} tensor x pipeline layouts is TP {} and PP {}, at {} per GPU; \
         {} cannot run.",
        g.cells.len(),
        g.tps.get(k % cols).copied().unwrap_or(1),
        g.pps.get(k / cols).copied().unwrap_or(1),
        format::si(r.tokens_per_s_per_gpu, "tokens/s"),
        blocked,
    ))
}

fn generations(v: &Views) -> String {
    let parts: Vec<String> = v
        .generations()
        .iter()
        .map(|g| match report(&g.outcome) {
            Some(r) => format!("{} MFU {}", g.gpu.name, format::pct(r.mfu)),
            None => format!("{} cannot run", g.gpu.name),
        })
        .collect();
    format!("On the same workload: {}.", parts.join("; "))
}

fn collectives(v: &Views) -> Option<String> {
    let (a, b) = (v.collectives.first()?, v.collectives.last()?);
    Some(format!(
        "Between {} and {} nodes, AllGather bus bandwidth {} from {:.0} to {:.0} GB/s, \
         AllReduce {} from {:.0} to {:.0} GB/s and All-to-All {} from {:.0} to {:.0} GB/s.",
        a.nodes,
        b.nodes,
        trend(a.allgather, b.allgather),
        a.allgather,
        b.allgather,
        trend(a.allreduce, b.allreduce),
        a.allreduce,
        b.allreduce,
        trend(a.alltoall, b.alltoall),
        a.alltoall,
        b.alltoall,
    ))
}

fn memory(v: &Views) -> Option<String> {
    let (a, b) = (v.memory.first()?, v.memory.last()?);
    Some(format!(
        "Memory per GPU {} from {:.1} to {:.1} GiB as the FSDP group grows from {} to {}; \
         the GPU holds {:.0} GiB.",
        trend(a.memory.total().0, b.memory.total().0),
        a.memory.total().as_gib(),
        b.memory.total().as_gib(),
        format::count(a.group, "GPUs"),
        format::count(b.group, "GPUs"),
        v.hbm_gib,
    ))
}

fn timeline(v: &Views) -> Option<String> {
    let t = v.timeline.as_ref().ok()?;
    let parts: Vec<String> = t
        .stages
        .iter()
        .map(|s| {
            let share = |x: f64| format::pct(x / t.step_s.max(1e-12));
            format!(
                "stage {} computes {} of it, waits on the host {}, shows communication with no compute beside it {} and waits for its neighbours {}",
                s.stage,
                share(s.compute_s),
                share(s.host_s),
                share(s.exposed_comm_s),
                share(s.waiting_s)
            )
        })
        .collect();
    Some(format!(
        "One step of {} over {} ({} pipeline stages, {} micro-batches): {}.",
        format::duration(t.step_s),
        format::count(
            u32::try_from(t.stages.iter().map(|s| s.intervals.len()).sum::<usize>())
                .unwrap_or(u32::MAX),
            "intervals"
        ),
        t.pp,
        t.micro_batches,
        parts.join("; ")
    ))
}

fn plan(v: &Views) -> String {
    use super::plan::{days, dollars};
    let view = match &v.plan {
        Ok(view) => view,
        Err(reason) => return format!("The budget cannot be used: {reason}."),
    };
    let at = |i: Option<usize>| {
        i.and_then(|i| view.sizes.get(i))
            .and_then(|s| s.cost.as_ref().ok().map(|(_, c)| (s.gpus, c)))
    };
    let Some((g_cheap, cheap)) = at(view.marks.cheapest) else {
        return String::from("No cluster size of this sweep can run, so there is no plan.");
    };
    let mut text = format!(
        "Training on {} tokens costs least on {}: {} and {}",
        format::si(view.tokens, ""),
        format::count(g_cheap, "GPUs"),
        days(cheap.days),
        dollars(cheap.cost_usd),
    );
    if let Some((g, c)) = at(view.marks.fastest) {
        text.push_str(&format!(
            "; fastest on {}: {} and {}",
            format::count(g, "GPUs"),
            days(c.days),
            dollars(c.cost_usd)
        ));
    }
    match at(view.marks.knee) {
        Some((g, _)) => text.push_str(&format!(
            ". Past {} a doubling buys less than {}x the speed.",
            format::count(g, "GPUs"),
            format::sig3(v.controls.plan.knee)
        )),
        None => text.push_str(". Every doubling of the sweep pays."),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{compute, Controls};

    #[test]
    fn every_chart_is_described_in_words_with_its_numbers() {
        let v = compute(&Controls::default());
        for chart in Chart::ALL {
            let text = describe(chart, &v);
            assert!(text.ends_with('.'), "{chart:?}: {text}");
            assert!(
                text.chars().any(|c| c.is_ascii_digit()),
                "{chart:?}: {text}"
            );
            assert!(
                !text.contains("NaN") && !text.contains("inf"),
                "{chart:?}: {text}"
            );
        }
        let per_gpu = describe(Chart::PerGpu, &v);
        assert!(per_gpu.starts_with("Per-GPU throughput falls"), "{per_gpu}");
        assert!(
            per_gpu.contains("8 GPUs") && per_gpu.contains("2,048 GPUs"),
            "{per_gpu}"
        );
    }

    #[test]
    fn a_setting_that_cannot_run_says_so() {
        let c = Controls {
            tp: 3,
            ..Controls::default()
        };
        let v = compute(&c);
        assert!(describe(Chart::Breakdown, &v).contains("cannot run"));
    }
}
