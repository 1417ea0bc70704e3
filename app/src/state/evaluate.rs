//! One evaluated point: the chosen layout's report, or the best layout's
//! when the switch is on, or the reason there is none.

use super::Controls;
use scalescope_core::evaluate::Report;
use scalescope_core::memory::Memory;
use scalescope_core::scenario::{Config, Layout};
use scalescope_core::search::{search, Objective};

/// One evaluated point: the layout used and its report, or why there is none.
pub type Outcome = Result<(Layout, Report), String>;

/// Evaluates the controls at `nodes` on `gpu`: the chosen layout, or the
/// best one when the switch is on. Layouts that do not fit are reported as
/// such, never evaluated silently.
pub fn evaluate_at(c: &Controls, nodes: u32, gpu: &'static str) -> Outcome {
    let scenario = c.scenario_at(nodes, gpu);
    if c.best {
        let base = scenario.resolve().map_err(|e| e.to_string())?;
        // What no layout can fix is said as such, not as a layout failure.
        base.check_setting().map_err(|e| e.to_string())?;
        let found = search(&base, &c.space(), Objective::Throughput, 1);
        return found
            .best
            .first()
            .map(|b| (b.layout, b.report))
            .ok_or_else(|| no_fit_reason(&base, found.out_of_memory));
    }
    let cfg = scenario.to_config().map_err(|e| e.to_string())?;
    let r = scalescope_core::evaluate::evaluate_checked(&cfg);
    if r.fits {
        Ok((cfg.layout, r))
    } else {
        Err(out_of_memory(&cfg, &r.memory))
    }
}

fn no_fit_reason(base: &Config, oom: u32) -> String {
    if oom > 0 {
        String::from(
            "no layout fits in GPU memory: add nodes, shorten the context or pick a smaller model",
        )
    } else {
        format!(
            "no layout splits a global batch of {} over {} GPUs: raise the batch or use fewer nodes",
            base.global_batch,
            base.cluster.gpus()
        )
    }
}

fn out_of_memory(cfg: &Config, m: &Memory) -> String {
    format!(
        "out of memory: needs {:.1} GiB per GPU of {:.0} GiB; raise TP or PP, recompute activations, shard with FSDP or lower the micro-batch",
        m.total().as_gib(),
        cfg.cluster.gpu.hbm.as_gib()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Overrides, MAX_NODES};

    #[test]
    fn out_of_memory_is_reported_not_evaluated() {
        let c = Controls {
            model: "llama2-70b",
            nodes: 1,
            ..Controls::default()
        };
        let msg = evaluate_at(&c, 1, c.gpu).expect_err("70B does not fit on 8 GPUs like this");
        assert!(msg.starts_with("out of memory"), "{msg}");
    }

    #[test]
    fn overrides_reach_the_model() {
        let at = |o: Overrides| {
            let c = Controls {
                nodes: 16,
                overrides: o,
                ..Controls::default()
            };
            evaluate_at(&c, 16, c.gpu).expect("valid").1
        };
        let base = at(Overrides::default());
        let slow_net = at(Overrides {
            network_gbps_per_gpu: Some(50.0),
            ..Overrides::default()
        });
        let fast_gpu = at(Overrides {
            peak_tflops: Some(1980.0),
            ..Overrides::default()
        });
        let better_overlap = at(Overrides {
            dp_overlap_gb_per_s: Some(150.0),
            ..Overrides::default()
        });
        assert!(slow_net.tokens_per_s < base.tokens_per_s);
        assert!(fast_gpu.tokens_per_s > base.tokens_per_s);
        assert!(better_overlap.tokens_per_s > base.tokens_per_s);
        assert!(
            fast_gpu.mfu < base.mfu,
            "MFU is against the overridden peak"
        );
    }

    /// A cluster beyond the core's GPU limit is named as such with the
    /// best-layout search on, as it is without.
    #[test]
    fn a_setting_no_layout_can_fix_says_why_with_the_search_on() {
        let mut c = Controls {
            nodes: MAX_NODES,
            ..Controls::default()
        };
        c.overrides.gpus_per_node = Some(1024);
        let plain = evaluate_at(&c, c.nodes, c.gpu).unwrap_err();
        c.best = true;
        let best = evaluate_at(&c, c.nodes, c.gpu).unwrap_err();
        assert!(plain.contains("hardware.nodes"), "{plain}");
        assert_eq!(best, plain);
    }
}

#[cfg(test)]
mod routing_tests {
    use super::*;

    #[test]
    fn a_router_imbalance_slows_the_step() {
        let mut c = Controls {
            model: "qwen3-30b-a3b",
            nodes: 2,
            ep: 8,
            local_batch: 8,
            micro_batch: 1,
            dp: scalescope_core::scenario::DataParallel::Zero1,
            recompute: scalescope_core::scenario::Recompute::Full,
            stack: scalescope_core::stack::StackId::Megatron,
            ..Controls::default()
        };
        let step = |c: &Controls| evaluate_at(c, c.nodes, c.gpu).unwrap().1.step_time_s;
        let even = step(&c);
        c.routing.imbalance = Some(1.5);
        let skewed = step(&c);
        assert!(skewed > even * 1.05, "{even} {skewed}");
    }
}
