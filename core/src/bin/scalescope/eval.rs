//! `scalescope eval`: one setting's report, or each named setting's of a
//! file of several (as the explorer writes one with pins).

use super::{read_input, stack_flag, USAGE};
use scalescope_core::evaluate::evaluate;

/// Evaluates the file `args[1]` names.
pub(super) fn eval(args: &[String]) -> Result<(), String> {
    let path = args.get(1).ok_or_else(|| USAGE.to_string())?;
    let text = read_input(path)?;
    let all = scalescope_core::json::read_scenarios(&text).map_err(|e| format!("{path}: {e}"))?;
    if let [one] = all.as_slice() {
        let mut scenario = one.scenario.clone();
        if let Some(stack) = stack_flag(args)? {
            scenario.stack = stack;
        }
        let cfg = scenario.to_config().map_err(|e| e.to_string())?;
        let report = evaluate(&cfg).map_err(|e| e.to_string())?;
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    // A file of several settings (the explorer's pins): each one's report,
    // or why it cannot run, by name.
    let mut out = Vec::new();
    for named in all {
        let mut scenario = named.scenario;
        if let Some(stack) = stack_flag(args)? {
            scenario.stack = stack;
        }
        let result = scenario
            .to_config()
            .and_then(|cfg| evaluate(&cfg))
            .map_err(|e| e.to_string());
        out.push(match result {
            Ok(report) => serde_json::json!({ "name": named.name, "report": report }),
            Err(e) => serde_json::json!({ "name": named.name, "error": e }),
        });
    }
    outln!(
        "{}",
        serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
    );
    Ok(())
}
