//! `scalescope`: evaluate, sweep and search scenario files; print the
//! paper's findings and the model's speed.

use scalescope_core::calibration;
use scalescope_core::error::clip_echoes;
use scalescope_core::findings;
use scalescope_core::plan;
use scalescope_core::scenario::{Config, Scenario, Schedule};
use scalescope_core::search::{search, sweep, Objective, Scaling, SearchSpace};
use scalescope_core::timeline;
use scalescope_core::validation;
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "usage:
  scalescope eval FILE                 full report as JSON (FILE may be - for stdin)
  scalescope sweep FILE --nodes 1,2,4  CSV, one row per node count
        [--scaling weak|strong] [--best]
  scalescope search FILE [--objective throughput|energy] [--top N] [--paper]
  eval, sweep, search and timeline take --stack paper|megatron|megatron-2021|llm-foundry|torchtitan|
        deepspeed|deepspeed-2021
        to run the file's setting under another software stack
  scalescope plan FILE [--nodes 1,2,4] [--scaling weak|strong] [--best]
        [--tokens N | --tokens-per-param R] [--price USD] [--overhead X] [--pue X]
        [--carbon KG] [--knee X]       days, GPU-hours, MWh, cost and CO2e to train, as CSV,
                                       with the cheapest size, the fastest and the knee
  scalescope timeline FILE [--format json|trace]
                                       the step as intervals on each stream; trace is
                                       Chrome's trace event format (opens in Perfetto)
  scalescope calibrate RUNS.csv [--free gemm,network,overlap,attention]
                                       constants fitted to measured runs, beside their
                                       defaults, and each run's error before and after
  scalescope findings                  the paper's findings F1-F14, paper vs model
  scalescope validate                  published training runs, measured vs model
  scalescope calibration               every calibrated constant and its source
  scalescope pages DIR                 the explorer's model page and tour numbers as HTML
                                       fragments (DIR/model.html, DIR/tour.html)
  scalescope bench [search|eval [--runs N]] evaluations per second, time of a full search
                                       (search: only the search, N times, for a profiler)";

/// Writes a line to standard output. A closed pipe (`scalescope validate |
/// head -3`) ends the program quietly, as other command-line tools do.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("scalescope: writing output: {e}");
            std::process::exit(2);
        }
    }};
}

#[path = "scalescope/bench.rs"]
mod bench;
#[path = "scalescope/calibrate.rs"]
mod calibrate;
#[path = "scalescope/eval.rs"]
mod eval;
#[path = "scalescope/extremes.rs"]
mod extremes;
#[path = "scalescope/pages.rs"]
mod pages;
#[path = "scalescope/validate.rs"]
mod validate;
use eval::eval;

/// The most layouts `search --top` prints.
const MAX_TOP: usize = 10_000;
/// The most node counts one `sweep --nodes` list holds.
const MAX_SWEEP_POINTS: usize = 4096;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scalescope: {}", clip_echoes(&e, 60));
            ExitCode::from(2)
        }
    }
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// The scenario of `args` (its file, with `--stack` applied), checked.
fn load_with_stack(args: &[String]) -> Result<Config, String> {
    scenario_with_stack(args)?
        .to_config()
        .map_err(|e| e.to_string())
}

/// The file's first setting, under `--stack` if given.
fn scenario_with_stack(args: &[String]) -> Result<Scenario, String> {
    let mut scenario = read_scenario(args.get(1))?;
    if let Some(stack) = stack_flag(args)? {
        scenario.stack = stack;
    }
    Ok(scenario)
}

/// [`load_with_stack`] for a sweep over node counts: chunks per GPU the
/// file leaves unset stay unset (0), so each point chooses its own.
fn load_for_sweep(args: &[String]) -> Result<Config, String> {
    let scenario = scenario_with_stack(args)?;
    let mut cfg = scenario.to_config().map_err(|e| e.to_string())?;
    if scenario.parallel.virtual_stages == 0 {
        cfg.layout.parallel.virtual_stages = 0;
    }
    Ok(cfg)
}

/// The stack `--stack` names, if given.
fn stack_flag(args: &[String]) -> Result<Option<scalescope_core::stack::StackId>, String> {
    flag(args, "--stack")
        .map(|key| {
            scalescope_core::stack::StackId::parse(key).ok_or_else(|| {
                format!(
                    "--stack {}: use paper, megatron, megatron-2021, llm-foundry or torchtitan",
                    clip(key)
                )
            })
        })
        .transpose()
}

/// At most 60 characters of what the user typed, for an error message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

fn read_scenario(path: Option<&String>) -> Result<Scenario, String> {
    let path = path.ok_or_else(|| USAGE.to_string())?;
    let text = read_input(path)?;
    // A file of several settings: every command but `eval` runs the first,
    // the live one.
    let all = scalescope_core::json::read_scenarios(&text).map_err(|e| format!("{path}: {e}"))?;
    all.into_iter()
        .next()
        .map(|n| n.scenario)
        .ok_or_else(|| format!("{path}: no setting"))
}

/// The text of the file at `path`, or of standard input for `-`.
fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("reading stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))
    }
}

/// Published runs per stack and source: each run, the errors, the fitted
/// constants and the leave-one-source-out errors.
fn validate() {
    use validation::{Errors, SOURCES};
    let all = validation::all();
    let held = all.iter().filter(|c| c.holds()).count();
    for c in &all {
        let layout = c.layout.map_or_else(String::new, |l| {
            let off = match l.offload_layers {
                0 => String::new(),
                n => format!(" offload {n}"),
            };
            let modules: Vec<_> = l.recompute_modules.iter().map(|m| m.key()).collect();
            let modules = if modules.is_empty() {
                String::new()
            } else {
                format!(" ({})", modules.join(", "))
            };
            let schedule = match l.parallel.schedule {
                Schedule::OneFOneB | Schedule::Interleaved => {
                    format!("v{}", l.parallel.virtual_stages)
                }
                s => String::from(s.key()),
            };
            let over = c.run.memory_note();
            format!(
                "mb{} {schedule} {:?}{modules}{off}{over}",
                l.micro_batch, l.recompute
            )
        });
        outln!(
            "{:32} {:12} published {:>15}  model {:>15}  {:>7}  [{}] {}",
            c.run.name,
            c.run.stack.key(),
            c.run.metric.show(c.run.published),
            c.model
                .map_or_else(|| String::from("no fit"), |m| c.run.metric.show(m)),
            c.difference()
                .map_or_else(String::new, |d| format!("{:+.1}%", d * 100.0)),
            if c.holds() { "holds" } else { "misses" },
            layout
        );
    }
    validate::errors(&all);
    // Each gap once, with every source it covers.
    let gaps: Vec<&str> = SOURCES
        .iter()
        .filter_map(|s| s.gap.map(|g| g.why))
        .collect();
    for (i, why) in gaps.iter().enumerate() {
        if gaps[..i].contains(why) {
            continue;
        }
        let keys: Vec<&str> = SOURCES
            .iter()
            .filter(|s| s.gap.is_some_and(|g| g.why == *why))
            .map(|s| s.key)
            .collect();
        outln!("  known gap, {}: {}", keys.join(", "), why);
    }
    validate::moe_missing(&all);
    validate::scaling_series(&all);
    outln!("\nAbsolute error by source, and predicted with constants fitted without it (held-out sources: by the fit, which never saw them):");
    let left_out = validation::leave_one_source_out();
    for &(key, f, loso) in &left_out {
        let source = SOURCES.iter().position(|s| s.key == key).unwrap_or(0);
        let own = Errors::of(&all, |c| c.run.source == SOURCES[source].citation);
        outln!(
            "  {key:25} {:>3} runs  mean {:>5.1}%  left out: mean {:>5.1}% (GEMM A100 {:.3}, H100 {:.3}, overlap {:.3}){}",
            own.runs,
            own.mean * 100.0,
            loso.mean * 100.0,
            f.gemm_a100,
            f.gemm_h100,
            f.overlap_share,
            if SOURCES[source].held_out {
                "  held out"
            } else {
                ""
            }
        );
    }
    // A held-out source is predicted by the fit on every fitted source.
    let full = left_out
        .iter()
        .find(|(key, _, _)| SOURCES.iter().any(|s| s.key == *key && s.held_out))
        .map(|&(_, f, _)| f);
    let f = full.unwrap_or_else(validation::fit);
    outln!(
        "\nFitted on the runs of every source not held out: GEMM_EFFICIENCY_A100 {:.3}, GEMM_EFFICIENCY_H100 {:.3}, TUNED_OVERLAP_SHARE {:.3}",
        f.gemm_a100, f.gemm_h100, f.overlap_share
    );
    outln!(
        "{held} of {} published runs within {:.0}%, from {} sources",
        all.len(),
        validation::TOLERANCE * 100.0,
        SOURCES.len()
    );
}

/// Runs the command `args` names.
fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("eval") => eval(args),
        Some("sweep") => sweep_csv(args),
        Some("search") => search_json(args),
        Some("timeline") => timeline_json(args),
        Some("plan") => plan_csv(args),
        Some("calibrate") => calibrate::table(args),
        Some("validate") => {
            validate();
            Ok(())
        }
        Some("findings") => {
            print_findings();
            Ok(())
        }
        Some("calibration") => {
            print_calibration();
            Ok(())
        }
        Some("pages") => match args.get(1) {
            Some(dir) => pages::write(std::path::Path::new(dir)),
            None => Err(USAGE.to_string()),
        },
        Some("bench") if args.get(1).map(String::as_str) == Some("search") => {
            bench::search(number(args, "--runs", 200.0)? as usize);
            Ok(())
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("eval") => {
            bench::evaluation(number(args, "--runs", 200.0)? as usize);
            Ok(())
        }
        Some("bench") => {
            bench::all();
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    }
}

/// A number given as `--name value`, or `default`.
fn number(args: &[String], name: &str, default: f64) -> Result<f64, String> {
    flag(args, name).map_or(Ok(default), |v| {
        v.trim()
            .parse::<f64>()
            .map_err(|e| format!("{name} `{v}`: {e}"))
    })
}

/// The budget of `plan`: tokens (by default Chinchilla's 20 per parameter),
/// the GPU's price, and the stated defaults unless given.
fn budget(args: &[String], cfg: &Config) -> Result<plan::Budget, String> {
    let per_param = number(
        args,
        "--tokens-per-param",
        plan::CHINCHILLA_TOKENS_PER_PARAM,
    )?;
    let tokens = number(args, "--tokens", per_param * cfg.model.params())?;
    let price = number(args, "--price", plan::Budget::price_of(cfg.cluster.gpu.id))?;
    let mut b = plan::Budget::new(tokens, price);
    b.node_overhead = number(args, "--overhead", b.node_overhead)?;
    b.pue = number(args, "--pue", b.pue)?;
    b.carbon_kg_per_kwh = number(args, "--carbon", b.carbon_kg_per_kwh)?;
    b.knee_speedup = number(args, "--knee", b.knee_speedup)?;
    b.check().map_err(|e| e.to_string())?;
    Ok(b)
}

/// `plan`: one CSV row per cluster size, marked cheapest, fastest or knee.
fn plan_csv(args: &[String]) -> Result<(), String> {
    let cfg = load_for_sweep(args)?;
    let nodes = if flag(args, "--nodes").is_some() {
        sweep_nodes(args)?
    } else {
        (0..9).map(|k| 1 << k).collect()
    };
    let scaling = match flag(args, "--scaling").unwrap_or("weak") {
        "weak" => Scaling::Weak,
        "strong" => Scaling::Strong,
        other => return Err(format!("--scaling {other}: use weak or strong")),
    };
    let b = budget(args, &cfg)?;
    let space = SearchSpace::full();
    let best = args.iter().any(|a| a == "--best").then_some(&space);
    if best.is_some() {
        note_searched(&cfg);
    }
    let p = plan::plan(&cfg, &nodes, scaling, best, &b).map_err(|e| e.to_string())?;
    outln!(
        "# {:.4e} tokens at ${}/GPU-hour, node overhead {}, PUE {}, {} kg CO2e/kWh",
        b.tokens,
        b.price_per_gpu_hour,
        b.node_overhead,
        b.pue,
        b.carbon_kg_per_kwh
    );
    outln!(
        "nodes,gpus,tp,pp,cp,micro_batch,days,gpu_hours,energy_mwh,cost_usd,co2_tonnes,mark,error"
    );
    for (i, pt) in p.points.iter().enumerate() {
        let l = pt.layout.unwrap_or(cfg.layout);
        let lp = l.parallel;
        let marks: Vec<&str> = [
            (p.cheapest, "cheapest"),
            (p.fastest, "fastest"),
            (p.knee, "knee"),
        ]
        .iter()
        .filter(|(at, _)| *at == Some(i))
        .map(|(_, m)| *m)
        .collect();
        let head = format!(
            "{},{},{},{},{},{}",
            pt.nodes, pt.gpus, lp.tp, lp.pp, lp.cp, l.micro_batch
        );
        match &pt.cost {
            Ok(c) => outln!(
                "{head},{:.3},{:.0},{:.2},{:.0},{:.2},{},",
                c.days,
                c.gpu_hours,
                c.energy_mwh,
                c.cost_usd,
                c.co2_tonnes,
                marks.join(" ")
            ),
            Err(e) => outln!("{head},,,,,,,\"{e}\""),
        }
    }
    Ok(())
}

/// `timeline`: the step's intervals as JSON, or as Chrome trace events.
fn timeline_json(args: &[String]) -> Result<(), String> {
    let cfg = load_with_stack(args)?;
    let t = timeline::timeline(&cfg).map_err(|e| e.to_string())?;
    let text = match flag(args, "--format").unwrap_or("json") {
        "json" => serde_json::to_string_pretty(&t),
        "trace" => serde_json::to_string(&timeline::trace::trace(&t)),
        other => return Err(format!("--format {other}: use json or trace")),
    }
    .map_err(|e| e.to_string())?;
    outln!("{text}");
    Ok(())
}

/// The node counts of `--nodes 1,2,4`, at most [`MAX_SWEEP_POINTS`].
fn sweep_nodes(args: &[String]) -> Result<Vec<u32>, String> {
    let nodes: Vec<u32> = flag(args, "--nodes")
        .ok_or("sweep needs --nodes 1,2,4,...")?
        .split(',')
        .map(|n| {
            n.trim()
                .parse::<u32>()
                .map_err(|e| format!("--nodes `{n}`: {e}"))
        })
        .collect::<Result<_, _>>()?;
    if nodes.len() > MAX_SWEEP_POINTS {
        return Err(format!(
            "--nodes lists {} counts: at most {MAX_SWEEP_POINTS}",
            nodes.len()
        ));
    }
    Ok(nodes)
}

/// `sweep`: one CSV row per node count.
fn sweep_csv(args: &[String]) -> Result<(), String> {
    let cfg = load_for_sweep(args)?;
    let nodes = sweep_nodes(args)?;
    let scaling = match flag(args, "--scaling").unwrap_or("weak") {
        "weak" => Scaling::Weak,
        "strong" => Scaling::Strong,
        other => return Err(format!("--scaling {other}: use weak or strong")),
    };
    let space = SearchSpace::full();
    let best = args
        .iter()
        .any(|a| a == "--best")
        .then_some((&space, Objective::Throughput));
    if best.is_some() {
        note_searched(&cfg);
    }
    outln!("nodes,gpus,global_batch,tp,pp,cp,dp_kind,micro_batch,step_time_s,tokens_per_s,tokens_per_s_per_gpu,tflops_per_gpu,mfu,exposed_comm_fraction,power_w_per_gpu,tokens_per_joule,memory_gib_per_gpu,fits,error");
    for p in sweep(&cfg, &nodes, scaling, best) {
        let l = p.layout.unwrap_or(cfg.layout);
        let lp = l.parallel;
        let head = format!(
            "{},{},{},{},{},{},{:?},{}",
            p.nodes,
            u64::from(p.nodes) * u64::from(cfg.cluster.gpus_per_node),
            p.global_batch,
            lp.tp,
            lp.pp,
            lp.cp,
            lp.dp,
            l.micro_batch
        );
        match p.result {
            Ok(r) => outln!(
                "{head},{:.6},{:.1},{:.1},{:.2},{:.4},{:.4},{:.1},{:.3},{:.2},{},",
                r.step_time_s,
                r.tokens_per_s,
                r.tokens_per_s_per_gpu,
                r.tflops_per_gpu,
                r.mfu,
                r.exposed_comm_fraction,
                r.power_w_per_gpu,
                r.tokens_per_joule,
                r.memory_gib_per_gpu,
                r.fits
            ),
            Err(e) => outln!("{head},,,,,,,,,,,\"{e}\""),
        }
    }
    Ok(())
}

/// Says on stderr what of the file's layout the layouts a search finds leave out.
fn note_searched(cfg: &Config) {
    let l = &cfg.layout;
    if l.offload_layers > 0 || !l.recompute_modules.is_empty() {
        eprintln!("scalescope: note: the layout search neither offloads nor names recomputation modules; the layouts it finds leave out the file's offload_layers and recompute_modules");
    }
}

/// `search`: the best layouts as JSON.
fn search_json(args: &[String]) -> Result<(), String> {
    let cfg = load_with_stack(args)?;
    note_searched(&cfg);
    let objective = match flag(args, "--objective").unwrap_or("throughput") {
        "throughput" => Objective::Throughput,
        "energy" => Objective::Energy,
        other => return Err(format!("--objective {other}: use throughput or energy")),
    };
    let top = match flag(args, "--top") {
        None => 5,
        Some(t) => t
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_TOP).contains(n))
            .ok_or_else(|| format!("--top `{t}`: give a count from 1 to {MAX_TOP}"))?,
    };
    let space = if args.iter().any(|a| a == "--paper") {
        SearchSpace::paper()
    } else {
        SearchSpace::full()
    };
    let result = search(&cfg, &space, objective, top);
    outln!(
        "{}",
        serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// `findings`: each of the paper's findings, the paper's number beside the
/// model's, and how many hold.
fn print_findings() {
    let all = findings::all();
    let held = all.iter().filter(|f| f.holds).count();
    for f in &all {
        outln!(
            "{} [{}] {}",
            f.id,
            if f.holds { "holds" } else { "FAILS" },
            f.figure
        );
        outln!("   claim: {}", f.claim);
        outln!("   paper: {}", f.paper);
        outln!("   model: {}", f.model);
        for n in &f.numbers {
            outln!(
                "   number: {}: paper {}{} {}, model {:.2} {}, difference {:+.2} {} [{}]",
                n.quantity,
                n.bound.prefix(),
                n.paper,
                n.unit,
                n.model,
                n.unit,
                n.difference(),
                n.difference_unit(),
                if n.holds() { "holds" } else { "misses" }
            );
        }
    }
    outln!("{held} of {} findings hold", all.len());
}

/// `calibration`: every calibrated constant as a Markdown table.
fn print_calibration() {
    outln!("| constant | value | unit | source |\n| --- | --- | --- | --- |");
    for c in calibration::TABLE {
        outln!("| {} | {} | {} | {} |", c.name, c.value, c.unit, c.source);
    }
}
