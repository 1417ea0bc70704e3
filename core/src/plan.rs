//! Planning a training run: what a setting costs to train on a token budget
//! (days, GPU-hours, energy, money, CO2e), and the same across cluster sizes,
//! with the cheapest size, the fastest and the knee where doubling the
//! cluster stops paying.
//!
//! Energy is the model's GPU power ([`crate::power`]) times the rest of the
//! node and the data centre: `node_overhead` adds CPUs, memory, NICs and fans
//! as a share of GPU power, and `pue` the building.

use crate::error::Error;
use crate::evaluate::Report;
use crate::scenario::{Config, Layout};
use crate::search::{sweep, Objective, Scaling, SearchSpace};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// What a run is planned against.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// Tokens to train on.
    pub tokens: f64,
    /// Price of one GPU for one hour, US dollars.
    pub price_per_gpu_hour: f64,
    /// The rest of the node's power (CPUs, memory, NICs, fans) as a share
    /// of the GPUs' power.
    pub node_overhead: f64,
    /// Power usage effectiveness of the data centre: facility power over IT power.
    pub pue: f64,
    /// Grid carbon intensity, kg CO2e per kWh.
    pub carbon_kg_per_kwh: f64,
    /// A doubling of the cluster that speeds training up by less than this
    /// is past the knee.
    pub knee_speedup: f64,
}

/// Chinchilla's compute-optimal tokens per parameter (Hoffmann et al. 2022).
pub const CHINCHILLA_TOKENS_PER_PARAM: f64 = 20.0;

impl Budget {
    /// Defaults, each with its source:
    /// - `node_overhead` 0.5: a DGX H100 draws up to 10.2 kW for eight
    ///   700 W GPUs (NVIDIA DGX H100 datasheet), 0.82 of GPU power at peak;
    ///   half that share is taken for a training load below peak.
    /// - `pue` 1.2: between Google's fleet-wide 1.10 (2023 environmental
    ///   report) and the Uptime Institute's 1.58 industry average (2023
    ///   survey).
    /// - `carbon_kg_per_kwh` 0.4: near the world average of electricity
    ///   generation (IEA, about 0.46 in 2022) and the US average (EIA,
    ///   about 0.37 in 2023).
    /// - `knee_speedup` 1.5: a doubling that buys less than 1.5x.
    /// - `price_per_gpu_hour` by GPU: [`Budget::price_of`].
    #[must_use]
    pub fn new(tokens: f64, price_per_gpu_hour: f64) -> Budget {
        Budget {
            tokens,
            price_per_gpu_hour,
            node_overhead: 0.5,
            pue: 1.2,
            carbon_kg_per_kwh: 0.4,
            knee_speedup: 1.5,
        }
    }

    /// A GPU-hour's on-demand price by GPU, US dollars: rounded list prices
    /// of GPU clouds in 2024-25 (Lambda, RunPod); H200 and B200 are
    /// extrapolated as their parts are.
    #[must_use]
    pub fn price_of(gpu_id: &str) -> f64 {
        match gpu_id {
            id if id.starts_with("v100") => 0.8,
            id if id.starts_with("a100") => 1.5,
            id if id.starts_with("h200") => 3.5,
            // GB200 and GB300 NVL72 at the B200's price: no list price
            // per GPU-hour was public for them in 2024-25.
            id if id.starts_with("b200") || id.starts_with("gb") => 5.0,
            _ => 2.5,
        }
    }

    /// Checks every field lies in its range.
    ///
    /// # Errors
    /// `OutOfRange` naming the first field that does not.
    pub fn check(&self) -> Result<(), Error> {
        let fields: [(&'static str, f64, f64, f64); 6] = [
            ("tokens", self.tokens, 1.0, 1e16),
            ("price_per_gpu_hour", self.price_per_gpu_hour, 0.0, 1e4),
            ("node_overhead", self.node_overhead, 0.0, 5.0),
            ("pue", self.pue, 1.0, 3.0),
            ("carbon_kg_per_kwh", self.carbon_kg_per_kwh, 0.0, 2.0),
            ("knee_speedup", self.knee_speedup, 1.0, 2.0),
        ];
        for (field, v, min, max) in fields {
            if !(v.is_finite() && v >= min && v <= max) {
                return Err(Error::OutOfRange { field, min, max });
            }
        }
        Ok(())
    }
}

/// What training on the budget costs with one setting.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cost {
    /// Days to train.
    pub days: f64,
    /// GPU-hours.
    pub gpu_hours: f64,
    /// Energy from the grid, MWh (GPUs, the rest of the node, the building).
    pub energy_mwh: f64,
    /// Cost, US dollars.
    pub cost_usd: f64,
    /// Emissions, tonnes CO2e.
    pub co2_tonnes: f64,
}

/// The cost of training on `budget` at the speed and power of `report`.
#[must_use]
pub fn cost(report: &Report, budget: &Budget) -> Cost {
    let seconds = budget.tokens / report.tokens_per_s.max(1e-30);
    let gpu_hours = seconds / 3600.0 * f64::from(report.gpus);
    let watts = report.power_w_cluster * (1.0 + budget.node_overhead) * budget.pue;
    let energy_mwh = watts * seconds / 3.6e9;
    Cost {
        days: seconds / 86_400.0,
        gpu_hours,
        energy_mwh,
        cost_usd: gpu_hours * budget.price_per_gpu_hour,
        co2_tonnes: energy_mwh * budget.carbon_kg_per_kwh,
    }
}

/// One cluster size of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanPoint {
    /// Nodes.
    pub nodes: u32,
    /// GPUs.
    pub gpus: u32,
    /// The layout that ran (the best one, with a search).
    pub layout: Option<Layout>,
    /// What training costs there, or why the size cannot run.
    pub cost: Result<Cost, Error>,
}

/// A plan across cluster sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Each size, in the order asked.
    pub points: Vec<PlanPoint>,
    /// The cheapest size (index into `points`).
    pub cheapest: Option<usize>,
    /// The fastest size.
    pub fastest: Option<usize>,
    /// The knee: the largest size before a doubling that speeds training
    /// up by less than the budget's `knee_speedup`.
    pub knee: Option<usize>,
}

/// Plans training `base`'s setting on `budget` at each node count of
/// `nodes`, scaling the batch as `scaling` says, with the best layout at
/// each size when `best` gives a search space.
///
/// # Errors
/// A budget out of range.
pub fn plan(
    base: &Config,
    nodes: &[u32],
    scaling: Scaling,
    best: Option<&SearchSpace>,
    budget: &Budget,
) -> Result<Plan, Error> {
    budget.check()?;
    let points: Vec<PlanPoint> = sweep(
        base,
        nodes,
        scaling,
        best.map(|s| (s, Objective::Throughput)),
    )
    .into_iter()
    .map(|p| PlanPoint {
        nodes: p.nodes,
        gpus: p.nodes.saturating_mul(base.cluster.gpus_per_node),
        layout: p.layout,
        cost: p.result.map(|r| cost(&r, budget)),
    })
    .collect();
    Ok(Plan::of(points, budget.knee_speedup))
}

impl Plan {
    /// A plan of sizes already costed (in increasing size), with the
    /// cheapest, the fastest and the knee marked.
    #[must_use]
    pub fn of(points: Vec<PlanPoint>, knee_speedup: f64) -> Plan {
        let sizes: Vec<(u32, Option<Cost>)> = points
            .iter()
            .map(|p| (p.gpus, p.cost.as_ref().ok().copied()))
            .collect();
        let m = Marks::of(&sizes, knee_speedup);
        Plan {
            points,
            cheapest: m.cheapest,
            fastest: m.fastest,
            knee: m.knee,
        }
    }
}

/// The sizes a plan marks, as indices into its sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The cheapest size.
    pub cheapest: Option<usize>,
    /// The fastest size.
    pub fastest: Option<usize>,
    /// The knee: the largest size before a doubling that speeds training
    /// up by less than `knee_speedup`.
    pub knee: Option<usize>,
}

impl Marks {
    /// The marks of `sizes` (GPUs, and the cost where the size runs), in
    /// increasing size: the explorer marks the sweep it has already costed.
    #[must_use]
    pub fn of(sizes: &[(u32, Option<Cost>)], knee_speedup: f64) -> Marks {
        let by = |f: fn(&Cost) -> f64| {
            (0..sizes.len())
                .filter(|&i| sizes[i].1.is_some())
                .min_by(|&a, &b| {
                    let v = |i: usize| sizes[i].1.as_ref().map_or(f64::INFINITY, f);
                    v(a).total_cmp(&v(b))
                })
        };
        Marks {
            cheapest: by(|c| c.cost_usd),
            fastest: by(|c| c.days),
            knee: knee(sizes, knee_speedup),
        }
    }
}

/// The largest size whose next doubling (or more) speeds training up by
/// less than `speedup` per doubling; none if every step pays.
fn knee(sizes: &[(u32, Option<Cost>)], speedup: f64) -> Option<usize> {
    for i in 0..sizes.len().saturating_sub(1) {
        let (Some(a), Some(b)) = (sizes[i].1.map(|c| c.days), sizes[i + 1].1.map(|c| c.days))
        else {
            continue;
        };
        let growth = f64::from(sizes[i + 1].0) / f64::from(sizes[i].0.max(1));
        if growth <= 1.0 {
            continue;
        }
        // The speed-up per doubling of the cluster between the two sizes.
        let per_doubling = crate::math::exp2(crate::math::log2(a / b) / crate::math::log2(growth));
        if per_doubling < speedup {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::evaluate;
    use crate::scenario::Scenario;

    #[test]
    fn one_setting_costs_what_a_hand_calculation_gives() {
        let cfg = Scenario::example().to_config().unwrap();
        let r = evaluate(&cfg).unwrap();
        let budget = Budget::new(2e12, 2.5);
        let c = cost(&r, &budget);
        // 2 T tokens at the setting's tokens/s, on its GPUs at its power.
        let seconds = 2e12 / r.tokens_per_s;
        assert!((c.days - seconds / 86_400.0).abs() < 1e-9 * c.days);
        let gpu_hours = seconds / 3600.0 * f64::from(r.gpus);
        assert!((c.gpu_hours - gpu_hours).abs() < 1e-9 * gpu_hours);
        assert!((c.cost_usd - 2.5 * gpu_hours).abs() < 1e-9 * c.cost_usd);
        let mwh = r.power_w_cluster * 1.5 * 1.2 * seconds / 3.6e9;
        assert!((c.energy_mwh - mwh).abs() < 1e-9 * mwh);
        assert!((c.co2_tonnes - 0.4 * mwh).abs() < 1e-9 * mwh);
    }

    #[test]
    fn a_plan_marks_the_cheapest_the_fastest_and_the_knee() {
        let cfg = Scenario::example().to_config().unwrap();
        let nodes = [1, 2, 4, 8, 16, 32, 64, 128, 256];
        let p = plan(&cfg, &nodes, Scaling::Weak, None, &Budget::new(2e12, 2.5)).unwrap();
        let (cheap, fast) = (p.cheapest.unwrap(), p.fastest.unwrap());
        let cost = |i: usize| *p.points[i].cost.as_ref().unwrap();
        for i in 0..nodes.len() {
            if let Ok(c) = &p.points[i].cost {
                assert!(c.cost_usd >= cost(cheap).cost_usd);
                assert!(c.days >= cost(fast).days);
            }
        }
        // Weak scaling keeps getting faster, at a rising price per token.
        assert!(fast > cheap, "{cheap} {fast}");
        if let Some(k) = p.knee {
            let speedup = cost(k).days / cost(k + 1).days;
            assert!(speedup < 1.5, "{speedup}");
        }
    }

    #[test]
    fn a_budget_out_of_range_is_named() {
        let mut b = Budget::new(2e12, 2.5);
        b.pue = 0.5;
        let e = b.check().unwrap_err();
        assert!(alloc::format!("{e}").contains("pue"), "{e}");
        b.pue = 1.2;
        b.tokens = f64::NAN;
        assert!(b.check().is_err());
    }
}
