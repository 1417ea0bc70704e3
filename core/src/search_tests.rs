//! Tests of the layout search.
use super::walk::Walk;
use super::*;
use crate::evaluate::Step;
use crate::findings::base;
use crate::hardware::H100;
use crate::scenario::{Recompute, Schedule};

#[test]
fn without_accumulation_a_replica_runs_its_whole_batch_whatever_its_size() {
    // 96 sequences on 32 GPUs: 3 per FSDP-only replica, not a power of two.
    let cfg = base(H100, 4, "llama2-7b", 96, 1);
    let mut seen = Vec::new();
    for_each_layout(&cfg, &SearchSpace::paper(), |c, _| {
        if c.layout.parallel.pp == 1 {
            seen.push((
                c.layout.parallel.tp,
                c.layout.micro_batch,
                c.micro_batches(),
            ));
        }
    });
    assert!(seen.contains(&(1, 3, 1)), "{seen:?}");
    assert!(seen.iter().all(|&(_, _, m)| m == 1), "{seen:?}");
}

/// Settings whose pipelines run short, long, uneven and interleaved.
fn pipelined() -> Vec<Config> {
    let mut out = Vec::new();
    for (nodes, model, batch) in [
        (4, "llama2-13b", 64),
        (16, "llama2-70b", 512),
        (32, "llama3-8b", 256),
        (64, "gpt3-175b", 1536),
        (8, "mixtral-8x7b", 256),
        (4, "qwen3-30b-a3b", 128),
    ] {
        for stack in crate::stack::STACKS {
            let mut cfg = base(H100, nodes, model, batch, 1);
            cfg.stack = crate::stack::Stack::of(stack);
            out.push(cfg);
        }
    }
    out
}

#[test]
fn a_pipeline_bound_never_exceeds_its_step_at_any_recomputation() {
    let mut seen = 0;
    for cfg in pipelined() {
        for_each_layout(&cfg, &SearchSpace::full(), |c, r| {
            if c.layout.parallel.pp > 1 {
                let step = Step::new(c);
                let split = c.pipeline_split();
                let bound = step
                    .bound(split)
                    .max(crate::timeline::critical_path(&step, split));
                assert!(
                    bound <= r.step_time_s * (1.0 + 1e-9),
                    "{bound} > {}: {:?}",
                    r.step_time_s,
                    c.layout
                );
                // The walk bounds a pipeline by its compute at no
                // recomputation before its memory picks a mode.
                let mut none = *c;
                none.layout.recompute = crate::scenario::Recompute::None;
                let quick = Step::new(&none).quick_bound(split);
                assert!(
                    quick <= bound * (1.0 + 1e-9),
                    "{quick} > {bound}: {:?}",
                    c.layout
                );
                seen += 1;
            }
        });
    }
    assert!(seen > 1000, "{seen}");
}

#[test]
fn a_floor_never_exceeds_a_step_in_its_group_and_flavour() {
    let mut seen = 0;
    for cfg in pipelined() {
        let space = SearchSpace::full();
        let walk = Walk::new(&cfg, &space, &|_| f64::INFINITY);
        for_each_layout(&cfg, &space, |c, r| {
            let p = c.layout.parallel;
            let dp = c.cluster.gpus() / (p.tp * p.pp * p.cp);
            let mut at = cfg;
            at.layout.parallel.pp = p.pp;
            let g = walk.group((p.tp, p.pp, p.cp), (p.ep, p.etp), dp, at.pipeline_split());
            let flavour = space.dp.iter().position(|&f| f == Some(p.dp)).unwrap();
            let floor = walk.flavours(&g)[flavour];
            assert!(
                g.floor <= floor && floor <= r.step_time_s * (1.0 + 1e-9),
                "{} > {}: {:?} ({})",
                floor,
                r.step_time_s,
                c.layout,
                cfg.stack.name
            );
            seen += 1;
        });
    }
    assert!(seen > 5000, "{seen}");
}

#[test]
fn the_search_finds_what_evaluating_every_layout_finds() {
    for cfg in pipelined() {
        let mut all = Vec::new();
        for_each_layout(&cfg, &SearchSpace::full(), |c, r| {
            all.push((r.step_time_s, c.layout))
        });
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        let found = search(&cfg, &SearchSpace::full(), Objective::Throughput, 3);
        let steps: Vec<f64> = found.best.iter().map(|c| c.report.step_time_s).collect();
        let want: Vec<f64> = all.iter().take(3).map(|a| a.0).collect();
        assert_eq!(steps, want, "{}", cfg.stack.name);
    }
}

#[test]
fn a_layout_shared_across_flavours_evaluates_as_if_alone() {
    // Qwen3 30B-A3B's output head weighs five layers: its interleaved
    // pipelines hold even stages where 1F1B's would not.
    for (nodes, model, batch) in [(8, "llama2-7b", 256), (4, "qwen3-30b-a3b", 128)] {
        let mut cfg = base(H100, nodes, model, batch, 1);
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        let mut seen = 0;
        for_each_layout(&cfg, &SearchSpace::full(), |c, r| {
            assert_eq!(r, crate::evaluate::evaluate_checked(c), "{:?}", c.layout);
            seen += 1;
        });
        assert!(seen > 100, "{seen}");
    }
}

/// The memory floor a walk skips a flavour by holds for every layout of
/// it: enumerated here without the walk (every degree, micro-batch,
/// schedule, flavour and recomputation a full space allows), no layout
/// that fits belongs to a flavour the walk calls out of memory.
#[test]
fn no_layout_that_fits_is_skipped_as_out_of_memory() {
    let space = SearchSpace::full();
    let mut checked = 0;
    for cfg in pipelined().into_iter().step_by(crate::stack::STACKS.len()) {
        let walk = Walk::new(&cfg, &space, &|_| f64::INFINITY);
        let gpus = cfg.cluster.gpus();
        for tp in [1, 2, 4, 8] {
            for pp in [1, 2, 4, 8] {
                for cp in [1, 2] {
                    if gpus % (tp * pp * cp) != 0 {
                        continue;
                    }
                    let dp = gpus / (tp * pp * cp);
                    let mut at = cfg;
                    at.layout.parallel.pp = pp;
                    let split = at.pipeline_split();
                    let eps: &[u32] = if cfg.model.moe.is_some() {
                        &[1, 2, 4, 8]
                    } else {
                        &[1]
                    };
                    for &ep in eps {
                        let g = walk.group((tp, pp, cp), (ep, 1), dp, split);
                        let floors = walk.flavours(&g);
                        for (i, flavour) in space.dp.iter().enumerate() {
                            let Some(flavour) = *flavour else { continue };
                            for mb in [1, 2, 4, 8, 16] {
                                for (schedule, v) in
                                    [(Schedule::OneFOneB, 1), (Schedule::Interleaved, 2)]
                                {
                                    for r in
                                        [Recompute::None, Recompute::Selective, Recompute::Full]
                                    {
                                        let mut c = cfg;
                                        let p = &mut c.layout.parallel;
                                        (p.tp, p.pp, p.cp, p.ep, p.dp) = (tp, pp, cp, ep, flavour);
                                        (p.schedule, p.virtual_stages) = (schedule, v);
                                        p.sp = c.stack.sequence_parallel && tp > 1;
                                        c.layout.micro_batch = mb;
                                        c.layout.recompute = r;
                                        if c.check_setting().is_err() || c.check_layout().is_err() {
                                            continue;
                                        }
                                        let fits = crate::memory::per_gpu(&c).total().0
                                            <= c.cluster.gpu.hbm.0;
                                        assert!(
                                            !fits || !floors[i].is_nan(),
                                            "{:?} fits but its flavour is skipped",
                                            c.layout
                                        );
                                        checked += usize::from(fits);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
