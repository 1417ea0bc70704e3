//! The findings where something grows: the cluster under weak and strong
//! scaling (F1 to F4, F10, F11), the context (F9) and the FSDP group (F14).

use super::{base, best, data, eval, layout_name, pct, with_mp, within, Finding};
use crate::collective::{self, Collective, Group};
use crate::evaluate::{links, Report};
use crate::hardware::H100;
use crate::scenario::Layout;
use crate::units::Bytes;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Weak scaling of Llama-2 7B with FSDP only, local batch 2, on `nodes`.
#[must_use]
pub fn weak_scaling_point(nodes: u32) -> Option<Report> {
    eval(&base(H100, nodes, "llama2-7b", 16 * nodes, 2))
}

/// F1: weak scaling of 7B with FSDP from 8 to 2048 H100s.
pub(super) fn f1() -> Finding {
    let r = |n| weak_scaling_point(n);
    // Exposure as the paper's traces show it, at every doubling from 1 to 256 nodes.
    let exposure: Vec<f64> = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        .iter()
        .map(|&n| r(n).map_or(f64::NAN, |x| x.exposed_comm_trace_fraction))
        .collect();
    let minimal_below_32_nodes = exposure[..5].iter().all(|&e| e < data::F1_EXPOSURE_MINIMAL);
    let rising_past_128 =
        exposure[4..].windows(2).all(|w| w[1] > w[0]) && exposure[8] > data::F1_EXPOSURE_AT_2048;
    let (model, holds, numbers) = match (r(1), r(16), r(32), r(256)) {
        (Some(a), Some(b), Some(c), Some(d)) => {
            let drop = 1.0 - d.tokens_per_s_per_gpu / b.tokens_per_s_per_gpu;
            let p_drop = 1.0 - d.power_w_per_gpu / b.power_w_per_gpu;
            let eff_drop = 1.0 - d.tokens_per_joule / b.tokens_per_joule;
            let sublinear =
                d.tokens_per_s < a.tokens_per_s * 256.0 && d.tokens_per_s > b.tokens_per_s;
            (
                format!(
                    "per-GPU WPS and TFLOPS -{} (128->2048); power {:.0} W -> {:.0} W (-{}); tokens/J -{}; exposed (trace) {} at 8, {} at 128, {} at 256, {} at 2048",
                    pct(drop), b.power_w_per_gpu, d.power_w_per_gpu, pct(p_drop), pct(eff_drop),
                    pct(a.exposed_comm_trace_fraction), pct(b.exposed_comm_trace_fraction), pct(c.exposed_comm_trace_fraction), pct(d.exposed_comm_trace_fraction)
                ),
                within(drop, data::F1_FALL.value)
                    && within(p_drop, data::F1_POWER_FALL)
                    && within(b.power_w_per_gpu, data::F1_POWER_128.value)
                    && within(d.power_w_per_gpu, data::F1_POWER_2048.value)
                    && eff_drop > data::F1_EFFICIENCY_FALL.value
                    && sublinear
                    && minimal_below_32_nodes
                    && rising_past_128,
                alloc::vec![
                    data::F1_FALL.beside(drop * 100.0),
                    data::F1_POWER_128.beside(b.power_w_per_gpu),
                    data::F1_POWER_2048.beside(d.power_w_per_gpu),
                    data::F1_EFFICIENCY_FALL.beside(eff_drop * 100.0),
                ],
            )
        }
        _ => (String::from("a point did not evaluate"), false, Vec::new()),
    };
    Finding::new(&data::F1, model, holds, numbers)
}

/// Bus bandwidth (GB/s) of AllGather and AllReduce of `bytes` on `nodes` DGX H100 nodes.
#[must_use]
pub fn bus_bandwidths(nodes: u32, bytes: Bytes) -> (f64, f64) {
    let cfg = base(H100, nodes, "llama2-7b", 8 * nodes, 1);
    let l = links(&cfg);
    let g = Group::new(nodes * 8, 8);
    (
        collective::time(Collective::AllGather, bytes, g, &l)
            .bus_bandwidth
            .as_gb_s(),
        collective::time(Collective::AllReduce, bytes, g, &l)
            .bus_bandwidth
            .as_gb_s(),
    )
}

/// F2: NCCL bus bandwidth from 4 to 512 DGX H100 nodes.
pub(super) fn f2() -> Finding {
    let bytes = Bytes::mb(1024.0);
    let (ag4, ar4) = bus_bandwidths(4, bytes);
    let (ag512, ar512) = bus_bandwidths(512, bytes);
    Finding::new(
        &data::F2,
        format!("1 GB: AllGather {ag4:.0} -> {ag512:.0} GB/s; AllReduce {ar4:.0} -> {ar512:.0} GB/s (4 -> 512 nodes)"),
        ag512 < 0.5 * ag4 && ar512 > 0.8 * ar4,
        Vec::new(),
    )
}

/// F3: FSDP's collectives against compute as the world grows.
pub(super) fn f3() -> Finding {
    let pts: Vec<Report> = [1, 16, 256]
        .iter()
        .filter_map(|&n| weak_scaling_point(n))
        .collect();
    let holds = pts.len() == 3 && {
        let c =
            |r: &Report| (r.breakdown.dp_allgather.total + r.breakdown.dp_reduce_scatter.total).0;
        let k = |r: &Report| (r.breakdown.forward + r.breakdown.backward).0;
        c(&pts[0]) < c(&pts[1]) && c(&pts[1]) < c(&pts[2]) && (k(&pts[2]) - k(&pts[0])).abs() < 1e-9
    };
    let model = pts
        .iter()
        .map(|r| {
            format!(
                "{} GPUs: AG+RS {:.0} ms, compute {:.0} ms",
                r.gpus,
                (r.breakdown.dp_allgather.total + r.breakdown.dp_reduce_scatter.total).as_ms(),
                (r.breakdown.forward + r.breakdown.backward).as_ms()
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    Finding::new(&data::F3, model, holds, Vec::new())
}

/// F4: strong scaling at global batch 32, each size at its best layout.
pub(super) fn f4() -> Finding {
    let pts: Vec<(u32, Option<(Layout, Report)>)> = [2, 4, 8, 16, 32]
        .iter()
        .map(|&n| (n, best(&base(H100, n, "llama2-7b", 32, 1))))
        .collect();
    let ok: Vec<(u32, Layout, Report)> = pts
        .iter()
        .filter_map(|(n, b)| b.map(|(l, r)| (*n, l, r)))
        .collect();
    let holds = ok.len() == 5 && {
        let first = &ok[0].2;
        let last = &ok[4].2;
        // Diminishing returns: more throughput at every size, but 16 times
        // the GPUs buy less than 16 times the throughput, and each
        // doubling buys less than the one before.
        let global_grows = ok
            .windows(2)
            .all(|w| w[1].2.tokens_per_s > w[0].2.tokens_per_s * 0.999);
        let gains: Vec<f64> = ok
            .windows(2)
            .map(|w| w[1].2.tokens_per_s / w[0].2.tokens_per_s)
            .collect();
        let diminishing = gains.windows(2).all(|g| g[1] <= g[0] * 1.02)
            && last.tokens_per_s < first.tokens_per_s * 16.0;
        let local_falls = ok
            .windows(2)
            .all(|w| w[1].2.tokens_per_s_per_gpu < w[0].2.tokens_per_s_per_gpu);
        let mfu_falls = ok.windows(2).all(|w| w[1].2.mfu < w[0].2.mfu);
        // Overheads clear beyond 4 nodes: the MFU lost from 4 to 32 nodes
        // is more than twice what was lost from 2 to 4.
        let clear_beyond_4 = (ok[1].2.mfu - last.mfu) > 2.0 * (first.mfu - ok[1].2.mfu);
        within(first.mfu_palm, data::F4_MFU_2_NODES.value)
            && last.mfu_palm < data::F4_MFU_32_NODES.value
            && global_grows
            && diminishing
            && local_falls
            && mfu_falls
            && clear_beyond_4
            && last.tokens_per_joule < first.tokens_per_joule
    };
    let model = ok
        .iter()
        .map(|(n, l, r)| format!("{n} nodes: MFU {} ({})", pct(r.mfu_palm), layout_name(l)))
        .collect::<Vec<_>>()
        .join("; ");
    let numbers = match (ok.first(), ok.last()) {
        (Some(first), Some(last)) if ok.len() == 5 => alloc::vec![
            data::F4_MFU_2_NODES.beside(first.2.mfu_palm * 100.0),
            data::F4_MFU_32_NODES.beside(last.2.mfu_palm * 100.0),
        ],
        _ => Vec::new(),
    };
    Finding::new(&data::F4, model, holds, numbers)
}

/// F9: context length from 1k to 8k.
pub(super) fn f9() -> Finding {
    let pts: Vec<(u32, Report)> = [1024, 2048, 4096, 8192]
        .iter()
        .filter_map(|&s| {
            let mut c = base(H100, 32, "llama2-7b", 256, 1);
            c.seq_len = s;
            eval(&c).map(|r| (s, r))
        })
        .collect();
    let holds = pts.len() == 4
        && pts.windows(2).all(|w| {
            let flops_per_joule = |r: &Report| r.tflops_per_gpu / r.power_w_per_gpu;
            w[1].1.exposed_comm_trace_fraction < w[0].1.exposed_comm_trace_fraction
                && w[1].1.mfu > w[0].1.mfu
                && flops_per_joule(&w[1].1) > flops_per_joule(&w[0].1)
        });
    Finding::new(
        &data::F9,
        pts.iter()
            .map(|(s, r)| {
                format!(
                    "{s}: exposed {}, MFU {}, {:.3} TFLOP/J",
                    pct(r.exposed_comm_trace_fraction),
                    pct(r.mfu_palm),
                    r.tflops_per_gpu / r.power_w_per_gpu
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
        holds,
        Vec::new(),
    )
}

/// FSDP-only's report, the faster TP degree and its report.
type FsdpAndTp = (Report, u32, Report);

/// FSDP-only at local batch 2 on `nodes` H100 nodes, and the faster of
/// tensor parallelism 2 and 4 at the same per-GPU batch.
fn fsdp_and_best_tp(nodes: u32) -> Option<FsdpAndTp> {
    let cfg = base(H100, nodes, "llama2-7b", 16 * nodes, 2);
    let b = eval(&cfg)?;
    let (t, r) = [2, 4]
        .iter()
        .filter_map(|&t| eval(&with_mp(cfg, t, 1, 1)).map(|r| (t, r)))
        .max_by(|a, c| a.1.tokens_per_s.total_cmp(&c.1.tokens_per_s))?;
    Some((b, t, r))
}

/// F10: FSDP-only past 128 GPUs, and tensor parallelism at 2048.
pub(super) fn f10() -> Finding {
    // Past 128 GPUs: FSDP-only's exposed communication rises at every
    // doubling, and TP 2 or 4 is better or comparable (within 5%) at each.
    let past: Vec<(u32, Option<FsdpAndTp>)> = [16, 32, 64, 128, 256]
        .iter()
        .map(|&n| (n, fsdp_and_best_tp(n)))
        .collect();
    let bound = past.iter().all(|(_, p)| p.is_some())
        && past.windows(2).all(|w| match (&w[0].1, &w[1].1) {
            (Some(a), Some(b)) => b.0.exposed_comm_trace_fraction > a.0.exposed_comm_trace_fraction,
            _ => false,
        })
        && past[1..]
            .iter()
            .all(|(_, p)| p.is_some_and(|(b, _, r)| r.tokens_per_s >= 0.95 * b.tokens_per_s));
    let trend = past
        .iter()
        .filter_map(|(n, p)| {
            p.map(|(b, t, r)| {
                format!(
                    "{} GPUs: FSDP exposed {}, TP{t} x{:.2}",
                    n * 8,
                    pct(b.exposed_comm_trace_fraction),
                    r.tokens_per_s / b.tokens_per_s
                )
            })
        })
        .collect::<Vec<_>>()
        .join("; ");
    let (model, holds, numbers) = match past[4].1 {
        Some((b, t, r)) => {
            let gain = r.tokens_per_s / b.tokens_per_s - 1.0;
            let dw = r.power_w_per_gpu - b.power_w_per_gpu;
            (
                format!(
                    "TP{t} at 2048 GPUs: WPS +{}, power +{dw:.1} W per GPU; {trend}",
                    pct(gain)
                ),
                within(gain, data::F10_GAIN.value)
                    && within(dw, data::F10_POWER_RISE.value)
                    && bound,
                alloc::vec![
                    data::F10_GAIN.beside(gain * 100.0),
                    data::F10_POWER_RISE.beside(dw),
                ],
            )
        }
        _ => (String::from("did not fit"), false, Vec::new()),
    };
    Finding::new(&data::F10, model, holds, numbers)
}

/// F11: fixed global batch from 512 to 2048 GPUs.
pub(super) fn f11() -> Finding {
    let mut rows = Vec::new();
    let mut holds = true;
    let mut numbers = Vec::new();
    for (id, stated) in data::F11_MFU_FALL {
        let first = best(&base(H100, 64, id, 1024, 1));
        let last = best(&base(H100, 256, id, 1024, 1));
        match (first, last) {
            (Some((_, a)), Some((_, b))) => {
                let fall = 1.0 - b.mfu / a.mfu;
                holds &= fall > stated.value && b.tokens_per_s_per_gpu < a.tokens_per_s_per_gpu;
                numbers.push(stated.beside(fall * 100.0));
                rows.push(format!(
                    "{id}: MFU {} -> {} (-{})",
                    pct(a.mfu_palm),
                    pct(b.mfu_palm),
                    pct(fall)
                ));
            }
            _ => {
                holds = false;
                rows.push(format!("{id}: no layout fits"));
            }
        }
    }
    Finding::new(&data::F11, rows.join("; "), holds, numbers)
}

/// Memory per GPU (GiB) of Llama-2 7B with FSDP over `gpus` GPUs, local batch 1.
#[must_use]
pub fn memory_at_group(gpus: u32) -> f64 {
    let mut c = base(H100, 1, "llama2-7b", gpus, 1);
    c.cluster.gpus_per_node = gpus.min(8);
    c.cluster.nodes = gpus.div_ceil(8);
    crate::memory::per_gpu(&c).total().as_gib()
}

/// F14: memory per GPU as the FSDP group grows.
pub(super) fn f14() -> Finding {
    let groups = [8, 16, 32, 64, 128, 256];
    let mem: Vec<f64> = groups.iter().map(|&g| memory_at_group(g)).collect();
    let falls = mem.windows(2).all(|w| w[1] < w[0]);
    let savings: Vec<f64> = mem.windows(2).map(|w| w[0] - w[1]).collect();
    let diminishing = savings.windows(2).all(|w| w[1] < w[0]);
    Finding::new(
        &data::F14,
        groups
            .iter()
            .zip(&mem)
            .map(|(g, m)| format!("{g}: {m:.1} GiB"))
            .collect::<Vec<_>>()
            .join(", "),
        falls && diminishing,
        Vec::new(),
    )
}
