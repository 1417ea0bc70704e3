//! The planner: what training the current setting on a token budget costs
//! at each size of the sweep (days, GPU-hours, energy, money, CO2e), with
//! the cheapest size, the fastest and the knee marked by the core
//! ([`scalescope_core::plan`]), from the reports the sweep already has.

use super::{model_of, Controls, Point};
use scalescope_core::plan::{cost, Budget, Cost, Marks, CHINCHILLA_TOKENS_PER_PARAM};
use scalescope_core::scenario::Layout;

/// What the planner costs a run against; `None` takes the default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanInputs {
    /// Tokens to train on; `None`: `tokens_per_param` per parameter.
    pub tokens: Option<f64>,
    /// Tokens per parameter when `tokens` is not given (Chinchilla's 20).
    pub tokens_per_param: f64,
    /// Price of a GPU-hour, US dollars; `None`: the GPU's default price.
    pub price: Option<f64>,
    /// The rest of the node's power as a share of the GPUs'.
    pub overhead: f64,
    /// Power usage effectiveness of the data centre.
    pub pue: f64,
    /// Grid carbon intensity, kg CO2e per kWh.
    pub carbon: f64,
    /// A doubling that speeds training up by less than this is past the knee.
    pub knee: f64,
}

impl Default for PlanInputs {
    /// The core's defaults ([`Budget::new`], where each is sourced).
    fn default() -> Self {
        let b = Budget::new(0.0, 0.0);
        Self {
            tokens: None,
            tokens_per_param: CHINCHILLA_TOKENS_PER_PARAM,
            price: None,
            overhead: b.node_overhead,
            pue: b.pue,
            carbon: b.carbon_kg_per_kwh,
            knee: b.knee_speedup,
        }
    }
}

impl PlanInputs {
    /// Tokens to train `c`'s model on.
    #[must_use]
    pub fn tokens_for(&self, c: &Controls) -> f64 {
        self.tokens
            .unwrap_or_else(|| self.tokens_per_param * model_of(c).params())
    }

    /// The price of a GPU-hour of `c`'s GPU.
    #[must_use]
    pub fn price_for(&self, c: &Controls) -> f64 {
        self.price.unwrap_or_else(|| Budget::price_of(c.gpu))
    }

    /// The core's budget for `c`.
    #[must_use]
    pub fn budget(&self, c: &Controls) -> Budget {
        Budget {
            tokens: self.tokens_for(c),
            price_per_gpu_hour: self.price_for(c),
            node_overhead: self.overhead,
            pue: self.pue,
            carbon_kg_per_kwh: self.carbon,
            knee_speedup: self.knee,
        }
    }
}

/// One size of the plan.
#[derive(Clone, Debug)]
pub struct PlanSize {
    /// Nodes.
    pub nodes: u32,
    /// GPUs.
    pub gpus: u32,
    /// The layout and what training costs with it, or why the size cannot run.
    pub cost: Result<(Layout, Cost), String>,
}

/// The plan across the sweep's sizes.
#[derive(Clone, Debug, Default)]
pub struct PlanView {
    /// The budget it was costed against.
    pub tokens: f64,
    /// Each size of the sweep.
    pub sizes: Vec<PlanSize>,
    /// The cheapest, fastest and knee sizes.
    pub marks: Marks,
}

/// Costs every point of the sweep on `c`'s budget, or says why the budget
/// cannot be used.
///
/// # Errors
/// A budget input out of range, named.
pub fn plan_of(c: &Controls, points: &[Point]) -> Result<PlanView, String> {
    let budget = c.plan.budget(c);
    budget.check().map_err(|e| e.to_string())?;
    let sizes: Vec<PlanSize> = points
        .iter()
        .map(|p| PlanSize {
            nodes: p.nodes,
            gpus: p.gpus,
            cost: p
                .outcome
                .as_ref()
                .map(|(l, r)| (*l, cost(r, &budget)))
                .map_err(Clone::clone),
        })
        .collect();
    let costed: Vec<_> = sizes
        .iter()
        .map(|s| (s.gpus, s.cost.as_ref().ok().map(|(_, c)| *c)))
        .collect();
    Ok(PlanView {
        tokens: budget.tokens,
        marks: Marks::of(&costed, budget.knee_speedup),
        sizes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::compute;
    use scalescope_core::plan::{plan, Budget};
    use scalescope_core::search::Scaling;

    #[test]
    fn the_planner_gives_the_numbers_of_scalescope_plan() {
        let c = Controls::default();
        let v = compute(&c);
        let view = v.plan.as_ref().expect("the default budget is valid");
        let cfg = c.scenario_at(c.nodes, c.gpu).resolve().expect("valid");
        let nodes: Vec<u32> = view.sizes.iter().map(|s| s.nodes).collect();
        let budget = c.plan.budget(&c);
        let core = plan(&cfg, &nodes, Scaling::Weak, None, &budget).expect("plans");
        assert_eq!(core.cheapest, view.marks.cheapest);
        assert_eq!(core.fastest, view.marks.fastest);
        assert_eq!(core.knee, view.marks.knee);
        for (a, b) in core.points.iter().zip(&view.sizes) {
            let (Ok(a), Ok((_, b))) = (&a.cost, &b.cost) else {
                panic!("every default size runs");
            };
            assert!((a.days - b.days).abs() <= 1e-12 * a.days);
            assert!((a.cost_usd - b.cost_usd).abs() <= 1e-9 * a.cost_usd);
        }
        // Chinchilla's 20 tokens per parameter of Llama-2 7B.
        assert!((view.tokens / model_of(&c).params() - 20.0).abs() < 1e-9);
        assert!((budget.price_per_gpu_hour - Budget::price_of("h100")).abs() < 1e-12);
    }

    #[test]
    fn a_budget_out_of_range_is_named_and_the_rest_still_draws() {
        let mut c = Controls::default();
        c.plan.pue = 0.2;
        let v = compute(&c);
        let e = v.plan.expect_err("PUE under 1");
        assert!(e.contains("pue"), "{e}");
        assert!(v.current.is_ok());
    }
}
