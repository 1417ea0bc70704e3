//! Reading a scenario file, with errors that name the field: serde_path_to_error
//! tracks the path (`parallel.tp`, `model.heads`) as serde_json reads. The
//! command-line tool reads files with it; the explorer does not link it (it
//! would cost the site 11 KiB gzipped) and finds the path from serde_json's
//! line and column instead, with a test that both name the same field.

use crate::scenario::{Named, Scenario};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// Reads a scenario file.
///
/// # Errors
/// Text that is not JSON (`not valid JSON: ...`), or a field that is
/// unknown, missing or of the wrong type, named by its dotted path:
/// "`parallel.tp`: invalid type: string \"4\", expected u32 at line 9 column 13".
pub fn read_scenario(text: &str) -> Result<Scenario, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let s: Scenario = serde_path_to_error::deserialize(&mut de).map_err(describe)?;
    // Trailing characters after the document are a syntax error too.
    de.end().map_err(|e| format!("not valid JSON: {e}"))?;
    Ok(s)
}

/// Reads a scenario file, or a file of several named settings (an array
/// of `{"name", "scenario"}`, as the explorer writes one with pins); a
/// single scenario comes back unnamed.
///
/// # Errors
/// As [`read_scenario`], the path starting at the setting's index
/// (`[1].scenario.parallel.tp`); an empty array.
pub fn read_scenarios(text: &str) -> Result<Vec<Named>, String> {
    if !text.trim_start().starts_with('[') {
        let scenario = read_scenario(text)?;
        return Ok(vec![Named {
            name: String::new(),
            scenario,
        }]);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let all: Vec<Named> = serde_path_to_error::deserialize(&mut de).map_err(describe)?;
    de.end().map_err(|e| format!("not valid JSON: {e}"))?;
    if all.is_empty() {
        return Err(String::from(
            "a file of several settings holds at least one `{\"name\", \"scenario\"}`",
        ));
    }
    Ok(all)
}

fn describe(e: serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    let inner = e.into_inner();
    if inner.is_syntax() || inner.is_eof() {
        return format!("not valid JSON: {inner}");
    }
    // An unknown key is named by the message itself; the path is the
    // object it was found in.
    let path = if inner.to_string().starts_with("unknown field") {
        path.rsplit_once('.').map_or("", |(parent, _)| parent)
    } else {
        path.as_str()
    };
    if path.is_empty() || path == "." {
        inner.to_string()
    } else {
        format!("`{path}`: {inner}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> String {
        serde_json::to_string_pretty(&Scenario::example()).unwrap()
    }

    #[test]
    fn the_example_reads_back() {
        assert_eq!(read_scenario(&example()).unwrap(), Scenario::example());
    }

    #[test]
    fn a_wrong_type_is_named_by_its_path() {
        let text = example().replacen("\"tp\": ", "\"tp\": \"x\", \"was\": ", 1);
        let e = read_scenario(&text).unwrap_err();
        assert!(e.starts_with("`parallel.tp`: invalid type: string"), "{e}");
    }

    #[test]
    fn a_mistake_inside_a_custom_model_is_named_by_its_path() {
        let custom = r#"{"layers": 32, "hidden": "big", "heads": 32, "kv_heads": 8, "ffn": 14336, "vocab": 128256, "mlp": "swiglu"}"#;
        let mut v: serde_json::Value = serde_json::from_str(&example()).unwrap();
        v["model"] = serde_json::from_str(custom).unwrap();
        let e = read_scenario(&v.to_string()).unwrap_err();
        assert!(
            e.starts_with("`model.hidden`: invalid type: string \"big\""),
            "{e}"
        );
        v["model"]["hidden"] = 4096.into();
        v["model"]["hiden"] = 4096.into();
        let e = read_scenario(&v.to_string()).unwrap_err();
        assert!(e.contains("unknown field `hiden`"), "{e}");
        assert!(e.starts_with("`model`: unknown field `hiden`"), "{e}");
        v["model"].as_object_mut().unwrap().remove("hiden");
        v["model"].as_object_mut().unwrap().remove("heads");
        let e = read_scenario(&v.to_string()).unwrap_err();
        assert!(e.starts_with("`model`: missing field `heads`"), "{e}");
    }

    #[test]
    fn text_that_is_not_json_says_so() {
        for bad in ["", "{", "{\"hardware\": }", "[1, 2]x"] {
            let e = read_scenario(bad).unwrap_err();
            assert!(
                e.starts_with("not valid JSON") || e.contains("expected"),
                "{bad}: {e}"
            );
        }
        let trailing = format!("{} x", example());
        assert!(read_scenario(&trailing)
            .unwrap_err()
            .starts_with("not valid JSON"));
    }
}
