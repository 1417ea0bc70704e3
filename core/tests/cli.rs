//! The command-line tool as a user runs it: bounded counts, readable
//! errors, a closed pipe. Built only with the `cli` feature
//! (`cargo test -p scalescope-core --features cli --test cli`).
#![cfg(feature = "cli")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

fn scalescope(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalescope"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("scalescope runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

const SCENARIO: &str = r#"{"hardware":{"gpu":"h100","nodes":4},"model":"llama2-7b","seq_len":4096,
"global_batch":64,"micro_batch":2,"parallel":{"dp":"fsdp"}}"#;

#[test]
fn every_count_the_user_types_is_bounded_and_named() {
    for top in ["100000000", "18446744073709551615", "0", "-3", "many"] {
        let out = scalescope(&["search", "-", "--top", top], SCENARIO);
        assert_eq!(out.status.code(), Some(2), "--top {top}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--top") && err.contains("10000"), "{err}");
    }
    let many = vec!["1"; 5000].join(",");
    let out = scalescope(&["sweep", "-", "--nodes", &many], SCENARIO);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 4096"));
    let ok = scalescope(&["search", "-", "--top", "3"], SCENARIO);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

#[test]
fn a_closed_pipe_ends_the_tool_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalescope"))
        .arg("validate")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe closes after one line.
    let out = child.wait_with_output().unwrap();
    assert!(first.contains("published"), "{first}");
    assert!(out.status.success(), "{:?}", out.status);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked") && err.is_empty(), "{err}");
}

#[test]
fn an_echo_of_the_users_input_is_cut_to_a_readable_length() {
    let key = "k".repeat(100_000);
    let out = scalescope(&["eval", "-"], &format!("{{\"{key}\": 1}}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 600, "{} bytes", out.stderr.len());
    let out = scalescope(&["eval", "-", "--stack", &key], SCENARIO);
    assert!(out.stderr.len() < 300, "{} bytes", out.stderr.len());
}

#[test]
fn the_stack_flag_runs_the_file_under_another_stack() {
    let paper = scalescope(&["eval", "-"], SCENARIO);
    let megatron = scalescope(&["eval", "-", "--stack", "megatron"], SCENARIO);
    assert!(paper.status.success() && megatron.status.success());
    assert_ne!(paper.stdout, megatron.stdout);
    let deepspeed = scalescope(&["eval", "-", "--stack", "deepspeed"], SCENARIO);
    assert!(deepspeed.status.success());
    assert_ne!(paper.stdout, deepspeed.stdout);
    let out = scalescope(&["eval", "-", "--stack", "colossal"], SCENARIO);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--stack colossal"));
}

#[test]
fn the_timeline_prints_as_json_and_as_a_chrome_trace() {
    let out = scalescope(&["timeline", "-"], SCENARIO);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(t["step_s"].as_f64().unwrap() > 0.0);
    assert!(!t["stages"][0]["intervals"].as_array().unwrap().is_empty());
    let out = scalescope(&["timeline", "-", "--format", "trace"], SCENARIO);
    assert!(out.status.success());
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(trace["traceEvents"].as_array().unwrap().len() > 10);
    let out = scalescope(&["timeline", "-", "--format", "svg"], SCENARIO);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use json or trace"));
}

#[test]
fn a_plan_prints_each_size_and_marks_the_cheapest_and_the_fastest() {
    let out = scalescope(&["plan", "-", "--nodes", "1,2,4,8"], SCENARIO);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(rows[0].starts_with("nodes,gpus,"));
    assert_eq!(rows.len(), 5, "{text}");
    assert!(
        text.contains("cheapest") && text.contains("fastest"),
        "{text}"
    );
    let out = scalescope(&["plan", "-", "--pue", "0.3"], SCENARIO);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`pue` must lie between 1 and 3"));
}

const RUNS: &str = "# three runs on H100
gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,dp,stack,metric,value
h100,1,llama2-7b,4096,16,2,1,1,fsdp,megatron,tokens_per_gpu,8648
h100,4,llama2-7b,4096,64,2,1,1,fsdp,megatron,step_time,0.8755

h100,32,llama2-7b,4096,64,2,8,1,fsdp,megatron,tokens_per_gpu,4839
";

#[test]
fn calibrate_fits_measured_runs_and_prints_a_table() {
    let out = scalescope(&["calibrate", "-"], RUNS);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "gemm_efficiency",
        "network_efficiency",
        "dp_overlap_share",
        "model before",
        "rms error: before",
        "\"calibration\": {\"gemm_efficiency\":",
    ] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    // One row per run, numbered.
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("3  h100 x32")),
        "{text}"
    );
    let out = scalescope(&["calibrate", "-", "--free", "gemm"], RUNS);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("network_efficiency"), "{text}");
}

#[test]
fn calibrate_names_the_line_and_field_of_a_bad_run() {
    let bad = RUNS.replace(",4839", ",-12");
    let out = scalescope(&["calibrate", "-"], &bad);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 6, field `value`: negative throughput -12"),
        "{err}"
    );
    let out = scalescope(&["calibrate", "-", "--free", "gemm,flops"], RUNS);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--free `flops`"));
}

#[test]
fn calibrate_refuses_more_free_constants_than_runs() {
    let two: String = RUNS.lines().take(4).map(|l| format!("{l}\n")).collect();
    let out = scalescope(&["calibrate", "-", "--free", "gemm,network,overlap"], &two);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("3 free constants need at least 3 runs, and there are 2"),
        "{err}"
    );
}

#[test]
fn eval_reads_a_file_of_several_named_settings_as_the_explorer_writes_it() {
    let example = serde_json::to_string(&scalescope_core::scenario::Scenario::example()).unwrap();
    let tp3 = example.replace("\"tp\":2", "\"tp\":3");
    assert_ne!(tp3, example);
    let file = format!(
        "[{{\"name\":\"Live setting\",\"scenario\":{example}}},{{\"name\":\"odd TP\",\"scenario\":{tp3}}}]"
    );
    let out = scalescope(&["eval", "-"], &file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["name"], "Live setting");
    assert!(v[0]["report"]["mfu"].as_f64().unwrap() > 0.1);
    assert_eq!(v[1]["name"], "odd TP");
    assert!(
        v[1]["error"]
            .as_str()
            .unwrap()
            .contains("tensor parallel 3"),
        "{v}"
    );
    // The other commands run the first, the live setting.
    let out = scalescope(&["search", "-", "--top", "1"], &file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A mistake is named by its setting's index.
    let bad = file.replacen("\"tp\":3", "\"tp\":\"three\"", 1);
    let out = scalescope(&["eval", "-"], &bad);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`[1].scenario.parallel.tp`"), "{err}");
}

/// An interleaved file without its chunk count has it chosen at each
/// point of a sweep, as `eval` chooses it for the file's own size: the
/// count best on 32 nodes holds too many chunks in flight to fit on 4.
#[test]
fn a_sweep_chooses_an_unset_chunk_count_at_each_point() {
    let file = r#"{"hardware":{"gpu":"h100","nodes":32},"model":"llama2-70b","seq_len":4096,
"global_batch":256,"micro_batch":1,"stack":"megatron",
"parallel":{"dp":"zero1","tp":4,"pp":8,"schedule":"interleaved"}}"#;
    let fits = |text: &str| -> Vec<String> {
        let out = scalescope(
            &["sweep", "-", "--nodes", "4,32", "--scaling", "weak"],
            text,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(17).unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(fits(file), ["true", "true"]);
    // The count the file's own size chose, named in the file, is kept.
    let eval = scalescope(&["eval", "-"], file);
    let chosen = String::from_utf8_lossy(&eval.stdout)
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("\"virtual_stages\": ")
                .map(|v| v.trim_end_matches(',').to_string())
        })
        .expect("eval reports its chunk count");
    let named = file.replace(
        r#""schedule":"interleaved""#,
        &format!(r#""schedule":"interleaved","virtual_stages":{chosen}"#),
    );
    assert_eq!(fits(&named), ["false", "true"]);
}

/// A search, and a sweep or plan that searches, says that the layouts it
/// finds leave out the file's recomputation modules and offloading; a
/// plain search says nothing.
#[test]
fn a_search_names_what_of_the_files_layout_it_leaves_out() {
    let named = SCENARIO.replace(
        r#""micro_batch":2,"#,
        r#""micro_batch":2,"recompute":"selective","recompute_modules":["layernorm"],"#,
    );
    for args in [
        &["search", "-", "--top", "1"][..],
        &["sweep", "-", "--nodes", "4", "--best"],
        &["plan", "-", "--nodes", "4", "--best"],
    ] {
        let out = scalescope(args, &named);
        assert!(out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("recompute_modules"), "{args:?}: {err}");
        let plain = scalescope(args, SCENARIO);
        assert!(plain.stderr.is_empty(), "{args:?}");
    }
}

/// `validate` prints each MoE run's missing time per layer and
/// micro-batch with its experts per GPU, graph scope and host-bound time,
/// the fp8 line through them, and each scope's mean.
#[test]
fn validate_prints_the_time_the_model_misses_on_moe_runs() {
    let out = scalescope(&["validate"], "");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("MoE runs under Megatron-Core"))
        .take_while(|l| !l.is_empty())
        .collect();
    let rows = table.iter().filter(|l| l.contains("experts/GPU")).count();
    assert!(rows >= 12, "{table:?}");
    assert!(table
        .iter()
        .any(|l| l.contains("graphs attn moe_router moe_preprocess") && l.contains("host-bound")));
    assert!(table
        .iter()
        .any(|l| l.contains("ms per local expert (least squares)")));
    assert_eq!(
        table
            .iter()
            .filter(|l| l.contains("fp8 runs, graphs"))
            .count(),
        3,
        "{table:?}"
    );
}
