//! `scalescope pages DIR`: the explorer's model page and the paper tour's
//! numbers, written as HTML fragments at build time (`scripts/gen-docs.sh`
//! writes them into `static/pages/`, and checks them in `make test`). The
//! explorer fetches a fragment when its view opens (the one-file copy
//! carries them as `<template>`s), so the findings, the published runs
//! and this text are not compiled into the site's WebAssembly.

#[path = "equations.rs"]
mod equations;
#[path = "tour_words.rs"]
mod tour_words;

use core::fmt::Write as _;
use equations::SECTIONS;
use scalescope_core::calibration::TABLE;
use scalescope_core::findings::{self, Finding, Number, TOLERANCE};
use scalescope_core::validation::{self, Check};
use std::path::Path;

/// Text as HTML: `&`, `<`, `>` and `"` escaped.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A stated value with its unit: `37.22 %`, `658 W`.
#[must_use]
fn value(v: f64, unit: &str) -> String {
    match unit {
        "W" => format!("{v:.0} W"),
        "%" => format!("{v:.2} %"),
        _ => format!("{v:.2} {unit}"),
    }
}

/// How the paper states a number: `under 15.00 %`.
#[must_use]
fn stated(n: &Number) -> String {
    format!("{}{}", n.bound.prefix(), value(n.paper, n.unit))
}

/// Model minus paper: `+4.53 points`, `-5 W`.
#[must_use]
fn difference(n: &Number) -> String {
    format!("{:+.2} {}", n.difference(), n.difference_unit())
}

/// A finding's stated numbers as a table (quantity, paper, model,
/// difference); empty for shape-only findings.
#[must_use]
fn numbers_table(f: &Finding, testid: &str) -> String {
    if f.numbers.is_empty() {
        return String::new();
    }
    let mut h = format!(
        "<table class=\"numbers\" data-testid=\"{testid}\"><thead><tr><th scope=\"col\">Quantity</th>\
         <th scope=\"col\">Paper</th><th scope=\"col\">Model</th><th scope=\"col\">Difference</th>\
         </tr></thead><tbody>"
    );
    for n in &f.numbers {
        let _ = write!(
            h,
            "<tr{}><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
            if n.holds() { "" } else { " class=\"misses\"" },
            esc(n.quantity),
            esc(&stated(n)),
            esc(&value(n.model, n.unit)),
            esc(&difference(n))
        );
    }
    h.push_str("</tbody></table>");
    h
}

/// The equations, assumptions and calibration table.
fn static_part() -> String {
    let mut h = String::from(
        "<h1>How the model works</h1><p class=\"lead\">ScaleScope computes one training step of a \
         decoder-only transformer from first principles: the FLOPs and bytes of each layer, the \
         GPU's datasheet rates, NCCL's cost model for each collective, and which communication \
         can hide behind which compute. Every number on the explorer's charts comes from these \
         equations; nothing is looked up from measurements.</p>\
         <nav class=\"toc\" aria-label=\"On this page\"><ol>",
    );
    for s in SECTIONS {
        let _ = write!(
            h,
            "<li><a href=\"#model-{}\">{}</a></li>",
            s.id,
            esc(s.title)
        );
    }
    h.push_str(
        "<li><a href=\"#model-calibration\">Calibration table</a></li>\
         <li><a href=\"#model-validation\">Validation against the paper</a></li>\
         <li><a href=\"#model-runs\">Published training runs</a></li></ol></nav>",
    );
    for s in SECTIONS {
        let _ = write!(
            h,
            "<section id=\"model-{}\" class=\"model-section\"><h2>{}</h2>",
            s.id,
            esc(s.title)
        );
        for p in s.paragraphs {
            let _ = write!(h, "<p>{}</p>", esc(p));
        }
        if !s.equations.is_empty() {
            let _ = write!(
                h,
                "<div class=\"equations\" role=\"group\" aria-label=\"Equations: {}\">",
                esc(s.title)
            );
            for e in s.equations {
                let _ = write!(h, "<code class=\"eq\">{}</code>", esc(e));
            }
            h.push_str("</div>");
        }
        if !s.constants.is_empty() {
            let listed: Vec<String> = s
                .constants
                .iter()
                .map(|name| {
                    TABLE.iter().find(|c| c.name == *name).map_or_else(
                        || (*name).to_owned(),
                        |c| {
                            if c.unit == "-" {
                                format!("{} = {}", c.name, c.value)
                            } else {
                                format!("{} = {} {}", c.name, c.value, c.unit)
                            }
                        },
                    )
                })
                .collect();
            let _ = write!(
                h,
                "<p class=\"constants\">Constants: {} (see the calibration table).</p>",
                esc(&listed.join(" · "))
            );
        }
        h.push_str("</section>");
    }
    h.push_str(
        "<section id=\"model-calibration\" class=\"model-section\"><h2>Calibration table</h2>\
         <p>Every constant of the model that is not a datasheet number, with where it comes from. \
         The table is read from the core's source, so it cannot drift from what the model uses.\
         </p><div class=\"scroll\"><table class=\"calibration\" data-testid=\"calibration-table\">\
         <thead><tr><th scope=\"col\">Constant</th><th scope=\"col\">Value</th>\
         <th scope=\"col\">Unit</th><th scope=\"col\">Source or calibration</th></tr></thead><tbody>",
    );
    for c in TABLE {
        let _ = write!(
            h,
            "<tr><th scope=\"row\"><code>{}</code></th><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
            esc(c.name),
            c.value,
            esc(c.unit),
            esc(c.source)
        );
    }
    h.push_str("</tbody></table></div></section>");
    h
}

/// The validation section for the findings as the core computed them.
fn validation(all: &[Finding]) -> String {
    let held = all.iter().filter(|f| f.holds).count();
    let numbers: Vec<&Number> = all.iter().flat_map(|f| f.numbers.iter()).collect();
    let within = numbers.iter().filter(|n| n.holds()).count();
    let mut h = format!(
        "<p class=\"validation-summary\" data-testid=\"validation-summary\">{held} of {} findings \
         hold. {within} of {} stated numbers land within {:.0}% of the paper's (or on the stated \
         side of its bound).</p>",
        all.len(),
        numbers.len(),
        TOLERANCE * 100.0
    );
    for f in all {
        let _ = write!(
            h,
            "<section class=\"finding{}\" data-testid=\"validation-{}\"><h3>{} ({}): \
             <span class=\"verdict{}\">{}</span></h3><p>{}</p>",
            if f.holds { "" } else { " misses" },
            f.id,
            f.id,
            esc(f.figure),
            if f.holds { "" } else { " misses" },
            if f.holds {
                "holds"
            } else {
                "does not hold yet"
            },
            esc(f.claim)
        );
        if f.numbers.is_empty() {
            let _ = write!(
                h,
                "<p class=\"shape\">Paper: {}. Model: {}</p>",
                esc(&f.paper),
                esc(&f.model)
            );
        } else {
            h.push_str(&numbers_table(f, &format!("numbers-{}", f.id)));
            let _ = write!(
                h,
                "<p class=\"shape\">Model, in full: {}</p>",
                esc(&f.model)
            );
        }
        h.push_str("</section>");
    }
    h
}

/// The published runs (`scalescope validate`) as a table.
fn runs(all: &[Check]) -> String {
    let held = all.iter().filter(|c| c.holds()).count();
    let unseen = all.iter().filter(|c| c.run.held_out).count();
    let mut h = format!(
        "<p class=\"validation-summary\" data-testid=\"runs-summary\">{held} of {} published runs \
         land within {:.0}% of the model; {unseen} of them are held out of the fit.</p><table class=\"numbers\" \
         data-testid=\"runs-table\"><thead><tr><th scope=\"col\">Run</th><th scope=\"col\">Stack</th><th scope=\"col\">\
         Published</th><th scope=\"col\">Model</th><th scope=\"col\">Difference</th><th scope=\"col\">Fit</th></tr>\
         </thead><tbody>",
        all.len(),
        validation::TOLERANCE * 100.0
    );
    for c in all {
        let miss = if c.holds() { "" } else { " class=\"misses\"" };
        let _ = write!(
            h,
            "<tr{miss}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(c.run.name),
            c.run.stack.key(),
            c.run.metric.show(c.run.published),
            c.model.map_or_else(
                || String::from("does not fit"),
                |m| format!("{}{}", c.run.metric.show(m), c.run.memory_note())
            ),
            c.difference()
                .map_or_else(String::new, |d| format!("{:+.1}%", d * 100.0)),
            if c.run.held_out {
                "held out"
            } else {
                "fitted on"
            },
        );
    }
    h.push_str("</tbody></table>");
    h
}

/// The paper's statement beside the model's for the same setting, the
/// stated numbers, and whether the finding holds.
fn compare(f: &Finding) -> String {
    format!(
        "<dl class=\"tour-compare\"><div><dt>Paper ({})</dt><dd data-testid=\"tour-paper\">{}</dd></div>\
         <div><dt>Model, same setting</dt><dd data-testid=\"tour-model\">{}</dd></div></dl>{}\
         <p class=\"verdict{}\" data-testid=\"tour-verdict\">{}</p>",
        esc(f.figure),
        esc(&f.paper),
        esc(&f.model),
        numbers_table(f, "tour-numbers"),
        if f.holds { "" } else { " misses" },
        if f.holds {
            "The model reproduces this finding."
        } else {
            "The model does not reproduce this finding yet: see the validation section of the model page."
        }
    )
}

/// The model page: equations, calibration table, the findings and the
/// published runs as the model gives them.
fn model_page(all: &[Finding], runs_checked: &[Check]) -> String {
    let mut h = static_part();
    h.push_str(
        "<section id=\"model-validation\" class=\"model-section\"><h2>Validation against the paper</h2>\
         <p>Each finding of the paper, computed by the model for the paper's setting when this site \
         was built (<code>scalescope findings</code> prints the same). Stated numbers must land \
         within 20% of the paper's; shape-only findings must show the stated direction.</p>",
    );
    h.push_str(&validation(all));
    h.push_str(
        "</section><section id=\"model-runs\" class=\"model-section\"><h2>Published training runs</h2>\
         <p>Runs by others, each under the software stack that produced it: Megatron-LM's \
         GPT runs of 2021 and 2022 and BLOOM 176B on A100s (megatron-2021), NVIDIA's FP8 \
         runs on H100 (megatron), Llama 3 405B on 8192 and 16384 H100s and torchtitan's \
         FSDP2 runs on A100 (torchtitan), and MosaicML's MPT benchmarks (llm-foundry). \
         Each keeps its published GPUs, model, context, batch and parallel degrees; the \
         micro-batch, interleaving and recomputation its authors tuned are the best of a \
         few choices. The GEMM efficiencies and the overlap share are fitted on these \
         runs; <code>scalescope validate</code> also predicts each source with constants fitted \
         without it. ",
    );
    // Counted, so the page cannot drift from the sources it lists.
    let held = validation::SOURCES.iter().filter(|s| s.held_out).count();
    let _ = write!(h, "Another {held} sources are held out of the fit");
    h.push_str(
        ", so their rows are \
         predictions of runs no constant has seen: NVIDIA's BF16 recipes on H100 \
         (GPT-3, Llama 3.1, Nemotron-4), NeMo 24.09's re-measured FP8 table on H100, IBM's FSDP runs on 128 A100s, the \
         flash-attention repository's GPT-3 runs on 8 A100s, MT-NLG 530B, Megatron-LM's README \
         example and MegaScale's baseline of GPT 175B (taken as A100s), ZeRO-3 under \
         DeepSpeed of 2021, MLPerf's GPT-3 175B on 512 to 11,616 H100s, NeMo's Llama 2 7B at 8K to 1M tokens of context (a known gap), FlagPerf's Llama-2 7B under DeepSpeed's ZeRO-3 on 8 A800s and H800s, Megatron-Bridge's FP8, MXFP8 and NVFP4 runs on B200, GB200 and GB300 NVL72 (25.11, 26.02 and 26.04), NeMo 25.02's and 25.04's dense runs on B200 and GB200, and \
         MLPerf's Llama 3.1 405B and 8B on GB200 and GB300 (Blackwell's GEMM efficiency is H100's, GB200's derated as measured and B200's bounded by GB200's rate per SM, cuDNN's attention measured on it), \
         DeepSeek-V3's own pre-training on 2,048 H800s, \
         and nine sources of mixture-of-experts runs beside it: Megatron-Bridge's DeepSeek-V3, GPT-OSS and \
         Qwen3 on H100 and Blackwell (25.11, 26.02 and 26.04, and its issue 4439's Qwen3 30B-A3B on B200), NeMo Automodel's on H100 (taken as the torchtitan \
         stack), the Megatron-MoE model zoo's Qwen3 235B on 256 H100s, GB200s and GB300s, Megatron-LM's measured Qwen3 recipes, \
         DGX Cloud's Llama 4 Maverick on GB200 NVL72 and H100, and NeMo 25.02's and 25.04's Mixtral 8x7B on B200 and GB200. No MoE constant \
         was fitted on a training run; the gap they show is named in \
         <code>scalescope validate</code>.</p>",
    );
    h.push_str(&runs(runs_checked));
    h.push_str("</section>\n");
    h
}

/// Every stop of the tour: its words and the finding's comparison, each
/// between `<!--F1-->` and `<!--/F1-->` markers the explorer cuts it out by.
fn tour(all: &[Finding]) -> String {
    let mut h = String::new();
    for w in &tour_words::WORDS {
        let _ = write!(
            h,
            "<!--{id}--><p data-testid=\"tour-text\">{}</p>",
            esc(w.text),
            id = w.finding
        );
        if let Some(f) = all.iter().find(|f| f.id == w.finding) {
            h.push_str(&compare(f));
        }
        let _ = write!(h, "<p class=\"tour-try\">Try: {}</p>", esc(w.try_this));
        if let Some(t) = w.timeline {
            let _ = write!(
                h,
                "<p class=\"tour-try\" data-testid=\"tour-timeline\">{}</p>",
                esc(t)
            );
        }
        let _ = writeln!(h, "<!--/{}-->", w.finding);
    }
    h
}

/// Writes `model.html` and `tour.html` into `dir`.
pub fn write(dir: &Path) -> Result<(), String> {
    let all = findings::all();
    let checked = validation::all();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, html) in [
        ("model.html", model_page(&all, &checked)),
        ("tour.html", tour(&all)),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, html).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use scalescope_core::findings::Bound;

    #[test]
    fn every_finding_is_cut_out_of_the_tour_by_its_markers() {
        let all = findings::all();
        let html = tour(&all);
        for f in &all {
            let open = format!("<!--{}-->", f.id);
            let close = format!("<!--/{}-->", f.id);
            let at = html.find(&open).expect("opening marker");
            let block = &html[at + open.len()..];
            let end = block.find(&close).expect("closing marker");
            assert!(
                block[..end].contains("data-testid=\"tour-verdict\""),
                "{}",
                f.id
            );
        }
    }

    #[test]
    fn stated_numbers_read_as_the_paper_states_them() {
        let n = Number {
            quantity: "q",
            paper: 15.0,
            model: 19.3,
            unit: "%",
            bound: Bound::Under,
        };
        assert_eq!(stated(&n), "under 15.00 %");
        assert_eq!(value(658.4, "W"), "658 W");
        assert_eq!(
            esc("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
