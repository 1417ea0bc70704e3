//! `scalescope bench`'s extremes: the deepest pipelines the model accepts,
//! each evaluated 20 times, the worst time beside the median.

use scalescope_core::evaluate::evaluate;
use scalescope_core::findings;
use std::time::Instant;

/// The worst evaluation over a fixed set of extreme scenarios: the deepest
/// pipelines the model accepts (`scenario::limits::SIMULATED_PASSES`),
/// interleaved or not, over many micro-batches, beside the median.
pub(super) fn bench() {
    // (stages, chunks, layers, nodes of 16 GPUs, micro-batches per replica)
    // Each at the limit but the last, 65,536 stages, which is refused.
    let cases: [(u32, u32, u32, u32, u32); 7] = [
        (128, 1, 128, 8, 512),
        (256, 1, 256, 16, 256),
        (1024, 1, 1024, 64, 64),
        (32768, 1, 32768, 2048, 2),
        (64, 4, 256, 4, 256),
        (16, 16, 256, 1, 256),
        (65536, 1, 65536, 4096, 2),
    ];
    let mut worst = (0.0_f64, String::new());
    let mut all = Vec::new();
    for (pp, v, layers, nodes, m) in cases {
        let mut cfg = findings::base(scalescope_core::hardware::V100, nodes, "llama2-7b", 1024, 1);
        cfg.model = scalescope_core::model::Model {
            layers,
            hidden: 1024,
            heads: 8,
            kv_heads: 8,
            ffn: 4096,
            vocab: 32000,
            mlp: scalescope_core::model::Mlp::Gelu,
            head_dim: None,
            latent: None,
            moe: None,
            window: None,
        };
        cfg.cluster.gpus_per_node = 16;
        let p = &mut cfg.layout.parallel;
        p.tp = 1;
        p.pp = pp;
        p.virtual_stages = v;
        p.schedule = if v > 1 {
            scalescope_core::scenario::Schedule::Interleaved
        } else {
            scalescope_core::scenario::Schedule::OneFOneB
        };
        cfg.layout.micro_batch = 1;
        cfg.global_batch = m.saturating_mul(cfg.dp());
        let mut times = Vec::new();
        let mut outcome = String::new();
        for _ in 0..20 {
            let t = Instant::now();
            let r = evaluate(&cfg);
            times.push(t.elapsed().as_secs_f64());
            outcome = match r {
                Ok(_) => String::from("evaluated"),
                Err(e) => format!("refused: {e}"),
            };
        }
        times.sort_by(f64::total_cmp);
        let top = times[times.len() - 1];
        all.extend_from_slice(&times);
        if top > worst.0 {
            worst = (
                top,
                format!("PP {pp} x {v} chunks, {m} micro-batches ({outcome})"),
            );
        }
    }
    all.sort_by(f64::total_cmp);
    outln!(
        "extreme pipelines ({} scenarios x 20): median {:.3} ms, worst {:.3} ms: {}",
        cases.len(),
        all[all.len() / 2] * 1e3,
        worst.0 * 1e3,
        worst.1
    );
}
