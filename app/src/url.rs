//! The controls in the URL query string, so that a copied link reproduces
//! the exact view. Only fields that differ from the defaults are written.
//! Reading never fails: unknown or malformed parameters are ignored and
//! values out of range are clamped, each with a notice saying so.

use crate::charts::Chart;
use crate::keys::Key;
use crate::state::{
    custom_max, read_count, Controls, Overrides, Scaling, DEGREES, MAX_NODES, MAX_WHAT_IF,
    SEQ_RANGE,
};
use scalescope_core::hardware::gpu_by_id;
use scalescope_core::model::{find_preset, Mlp};
use scalescope_core::scenario::{DataParallel, Precision, Recompute, Schedule};
use scalescope_core::stack::StackId;

/// Encodes the controls as a query string (without the leading `?`).
#[must_use]
pub fn to_query(c: &Controls) -> String {
    let d = Controls::default();
    let mut out: Vec<(&str, String)> = Vec::new();
    let mut put = |k: &'static str, v: String, default: String| {
        if v != default {
            out.push((k, v));
        }
    };
    put("gpu", c.gpu.into(), d.gpu.into());
    put("nodes", c.nodes.to_string(), d.nodes.to_string());
    put("model", c.model.into(), d.model.into());
    if c.model == "custom" {
        let m = c.custom;
        for (k, v) in [
            ("layers", m.layers),
            ("hidden", m.hidden),
            ("heads", m.heads),
            ("kv", m.kv_heads),
            ("ffn", m.ffn),
            ("vocab", m.vocab),
        ] {
            out.push((k, v.to_string()));
        }
        out.push(("mlp", m.mlp.key().into()));
    }
    let mut put = |k: &'static str, v: String, default: String| {
        if v != default {
            out.push((k, v));
        }
    };
    put("seq", c.seq_len.to_string(), d.seq_len.to_string());
    put("tp", c.tp.to_string(), d.tp.to_string());
    put("pp", c.pp.to_string(), d.pp.to_string());
    put("cp", c.cp.to_string(), d.cp.to_string());
    put("dp", c.dp.key().into(), d.dp.key().into());
    put("sp", bool_key(c.sp).into(), bool_key(d.sp).into());
    put("schedule", c.schedule.key().into(), d.schedule.key().into());
    put("scaling", c.scaling.key().into(), d.scaling.key().into());
    put(
        "local",
        c.local_batch.to_string(),
        d.local_batch.to_string(),
    );
    put(
        "global",
        c.global_batch.to_string(),
        d.global_batch.to_string(),
    );
    put("mb", c.micro_batch.to_string(), d.micro_batch.to_string());
    put(
        "recompute",
        c.recompute.key().into(),
        d.recompute.key().into(),
    );
    put(
        "precision",
        c.precision.key().into(),
        d.precision.key().into(),
    );
    put("stack", c.stack.key().into(), d.stack.key().into());
    put("best", bool_key(c.best).into(), bool_key(d.best).into());
    let o = c.overrides;
    for (k, v) in [
        ("peak", o.peak_tflops),
        ("hbm", o.hbm_gb_per_s),
        ("nvlink", o.nvlink_gb_per_s),
        ("net", o.network_gbps_per_gpu),
        ("gpn", o.gpus_per_node.map(f64::from)),
        ("dpbw", o.dp_overlap_gb_per_s),
    ] {
        if let Some(v) = v {
            out.push((k, crate::format::exact(v)));
        }
    }
    out.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

fn bool_key(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

/// Decodes `%xx` and `+` (only ASCII is meaningful in these parameters).
fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = core::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                if let Ok(v) = u8::from_str_radix(hex, 16) {
                    out.push(v);
                    i += 2;
                } else {
                    out.push(b'%');
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads controls from a query string (with or without the leading `?`),
/// starting from the defaults. Returns the controls and one notice per
/// parameter that was ignored or clamped.
#[must_use]
pub fn from_query(query: &str) -> (Controls, Vec<String>) {
    let mut c = Controls::default();
    let mut notices = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut seen: Vec<String> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = unescape(raw_key);
        let value = unescape(raw_value);
        let shown = |v: &str| -> String { v.chars().take(40).collect() };
        if seen.contains(&key) {
            notices.push(format!(
                "`{}` is given more than once: the last one is used",
                shown(&key)
            ));
        } else if seen.len() < 64 {
            seen.push(key.clone());
        }
        let ignored = |why: &str| format!("ignored `{}={}`: {why}", shown(&key), shown(&value));
        let num = |v: &str| v.trim().parse::<f64>().ok().filter(|x| x.is_finite());
        // Counts are rounded and clamped into [lo, hi]; the notice says so.
        let int = |field: &mut u32, lo: u32, hi: u32, notices: &mut Vec<String>| match read_count(
            &value, lo, hi,
        ) {
            Some((v, why)) => {
                if let Some(why) = why {
                    notices.push(format!("`{}={}` {why}", shown(&key), shown(&value)));
                }
                *field = v;
                true
            }
            None => false,
        };
        let ok = match key.as_str() {
            // Short names and any capitalisation, as scenario files.
            "gpu" => match gpu_by_id(&value) {
                Some(g) => {
                    c.gpu = g.id;
                    true
                }
                None => false,
            },
            "model" => {
                if value == "custom" {
                    c.model = "custom";
                    true
                } else if let Some(p) = find_preset(&value) {
                    c.model = p.id;
                    true
                } else {
                    false
                }
            }
            "nodes" => int(&mut c.nodes, 1, MAX_NODES, &mut notices),
            "seq" => int(
                &mut c.seq_len,
                SEQ_RANGE.0 / 4,
                SEQ_RANGE.1 * 8,
                &mut notices,
            ),
            "tp" => int(&mut c.tp, 1, DEGREES[DEGREES.len() - 1], &mut notices),
            "pp" => int(&mut c.pp, 1, 256, &mut notices),
            "cp" => int(&mut c.cp, 1, DEGREES[DEGREES.len() - 1], &mut notices),
            "local" => int(&mut c.local_batch, 1, 4096, &mut notices),
            "global" => int(&mut c.global_batch, 1, 1 << 24, &mut notices),
            "mb" => int(&mut c.micro_batch, 1, 4096, &mut notices),
            "layers" => int(&mut c.custom.layers, 1, custom_max::LAYERS, &mut notices),
            "hidden" => int(&mut c.custom.hidden, 1, custom_max::HIDDEN, &mut notices),
            "heads" => int(&mut c.custom.heads, 1, custom_max::HEADS, &mut notices),
            "kv" => int(&mut c.custom.kv_heads, 1, custom_max::HEADS, &mut notices),
            "ffn" => int(&mut c.custom.ffn, 1, custom_max::FFN, &mut notices),
            "vocab" => int(&mut c.custom.vocab, 1, custom_max::VOCAB, &mut notices),
            "mlp" => Mlp::from_key(&value).map(|v| c.custom.mlp = v).is_some(),
            "dp" => DataParallel::from_key(&value).map(|v| c.dp = v).is_some(),
            "schedule" => Schedule::from_key(&value).map(|v| c.schedule = v).is_some(),
            "scaling" => Scaling::from_key(&value).map(|v| c.scaling = v).is_some(),
            "recompute" => Recompute::from_key(&value)
                .map(|v| c.recompute = v)
                .is_some(),
            "precision" => Precision::from_key(&value)
                .map(|v| c.precision = v)
                .is_some(),
            "stack" => StackId::parse(&value).map(|v| c.stack = v).is_some(),
            "sp" | "best" => match value.as_str() {
                "1" | "true" | "on" => Some(true),
                "0" | "false" | "off" => Some(false),
                _ => None,
            }
            .map(|v| {
                if key == "sp" {
                    c.sp = v;
                } else {
                    c.best = v;
                }
            })
            .is_some(),
            // GPUs per node is a count: positive, then rounded and clamped.
            "gpn" => match num(&value) {
                Some(x) if x > 0.0 => {
                    let mut g = 1;
                    int(&mut g, 1, 1024, &mut notices);
                    c.overrides.gpus_per_node = Some(g);
                    true
                }
                _ => false,
            },
            "peak" | "hbm" | "nvlink" | "net" | "dpbw" => match num(&value) {
                Some(x) if x > 0.0 => {
                    let o: &mut Overrides = &mut c.overrides;
                    let clamped = x.min(MAX_WHAT_IF);
                    if clamped < x {
                        notices.push(format!(
                            "`{}={}` is out of range: using {}",
                            shown(&key),
                            shown(&value),
                            crate::format::exact(clamped)
                        ));
                    }
                    match key.as_str() {
                        "peak" => o.peak_tflops = Some(clamped),
                        "hbm" => o.hbm_gb_per_s = Some(clamped),
                        "nvlink" => o.nvlink_gb_per_s = Some(clamped),
                        "net" => o.network_gbps_per_gpu = Some(clamped),
                        _ => o.dp_overlap_gb_per_s = Some(clamped),
                    }
                    true
                }
                _ => false,
            },
            // Read by `embed_of`.
            EMBED => true,
            _ => {
                notices.push(ignored("unknown parameter"));
                continue;
            }
        };
        if !ok {
            notices.push(ignored("not a valid value"));
        }
    }
    (c, notices)
}

/// The query parameter of embed mode: `embed=throughput,power`.
pub const EMBED: &str = "embed";

/// The charts an embed link asks for, if it is one, with notices for the
/// chart names it did not know. `embed=1` (or an empty list) shows the
/// throughput chart.
#[must_use]
pub fn embed_of(query: &str) -> Option<(Vec<Chart>, Vec<String>)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    // The last `embed=` counts, as the last of any parameter does.
    let value = query.split('&').rev().find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (unescape(k) == EMBED).then(|| unescape(v))
    })?;
    let mut charts = Vec::new();
    let mut notices = Vec::new();
    for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match Chart::ALL.iter().find(|c| c.id() == name) {
            Some(c) if !charts.contains(c) => charts.push(*c),
            Some(_) => {}
            None if matches!(name, "1" | "true" | "on") => {}
            None => notices.push(format!(
                "ignored chart `{}` in `embed`: the charts are {}",
                name.chars().take(40).collect::<String>(),
                Chart::ALL.map(Chart::id).join(", ")
            )),
        }
    }
    if charts.is_empty() {
        charts.push(Chart::Throughput);
    }
    Some((charts, notices))
}

/// The `embed=` parameter naming `charts`.
#[must_use]
pub fn embed_param(charts: &[Chart]) -> String {
    format!(
        "{EMBED}={}",
        charts.iter().map(|c| c.id()).collect::<Vec<_>>().join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use scalescope_core::model::Model;

    #[test]
    fn defaults_make_an_empty_query() {
        assert_eq!(to_query(&Controls::default()), "");
        let (c, notices) = from_query("");
        assert_eq!(c, Controls::default());
        assert!(notices.is_empty());
    }

    #[test]
    fn every_control_round_trips() {
        let c = Controls {
            gpu: "a100-sxm4-40gb",
            nodes: 24,
            model: "custom",
            custom: Model {
                layers: 30,
                hidden: 3072,
                heads: 24,
                kv_heads: 8,
                ffn: 8192,
                vocab: 50_000,
                mlp: Mlp::Gelu,
            },
            seq_len: 8192,
            tp: 4,
            pp: 2,
            cp: 2,
            dp: DataParallel::Hsdp,
            sp: false,
            schedule: Schedule::Interleaved,
            scaling: Scaling::Strong,
            local_batch: 4,
            global_batch: 1024,
            micro_batch: 1,
            recompute: Recompute::Selective,
            precision: Precision::Fp16,
            stack: StackId::Megatron,
            best: true,
            overrides: Overrides {
                peak_tflops: Some(400.5),
                hbm_gb_per_s: Some(3000.0),
                nvlink_gb_per_s: Some(1200.0),
                network_gbps_per_gpu: Some(800.0),
                gpus_per_node: Some(16),
                dp_overlap_gb_per_s: Some(120.0),
            },
        };
        let q = to_query(&c);
        let (back, notices) = from_query(&format!("?{q}"));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, c, "{q}");
    }

    #[test]
    fn tampered_queries_are_ignored_or_clamped_with_a_notice() {
        let (c, notices) =
            from_query("?nodes=99999&tp=abc&gpu=tpu-v9&foo=1&seq=4096&model=llama2-70b&best=maybe&net=-3&%ZZ=%");
        assert_eq!(c.nodes, MAX_NODES);
        assert_eq!(c.tp, 1);
        assert_eq!(c.gpu, Controls::default().gpu);
        assert_eq!(c.model, "llama2-70b");
        assert!(!c.best);
        assert_eq!(c.overrides.network_gbps_per_gpu, None);
        let all = notices.join("\n");
        for expected in [
            "`nodes=99999` is out of range (1 to 16384): using 16384",
            "ignored `tp=abc`: not a valid value",
            "ignored `gpu=tpu-v9`: not a valid value",
            "ignored `foo=1`: unknown parameter",
            "ignored `best=maybe`: not a valid value",
            "ignored `net=-3`: not a valid value",
        ] {
            assert!(all.contains(expected), "missing {expected:?} in\n{all}");
        }
    }

    #[test]
    fn tiny_and_unround_what_ifs_keep_every_digit() {
        for v in [0.0001, 0.0016, 1e-300, 1234.5678] {
            let mut c = Controls::default();
            c.overrides.peak_tflops = Some(v);
            c.overrides.hbm_gb_per_s = Some(v);
            let (back, notices) = from_query(&to_query(&c));
            assert!(notices.is_empty(), "{notices:?}");
            assert_eq!(back, c, "{}", to_query(&c));
        }
    }

    #[test]
    fn gpus_and_models_are_read_as_scenario_files_read_them() {
        let (c, notices) = from_query("gpu=H100&model=LLAMA2-70B");
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!((c.gpu, c.model), ("h100-sxm5-80gb", "llama2-70b"));
        let (c, _) = from_query("gpu=b200");
        assert_eq!(c.gpu, "b200-180gb");
    }

    #[test]
    fn a_count_that_is_not_whole_is_rounded_and_said_so() {
        let (c, notices) = from_query("nodes=2.5&layers=5000&model=custom");
        assert_eq!((c.nodes, c.custom.layers), (3, custom_max::LAYERS));
        assert_eq!(
            notices,
            [
                "`nodes=2.5` is not a whole number: using 3",
                "`layers=5000` is out of range (1 to 1024): using 1024"
            ]
        );
        let (c, notices) = from_query("gpn=0.3");
        assert_eq!(c.overrides.gpus_per_node, Some(1));
        assert_eq!(notices, ["`gpn=0.3` is out of range (1 to 1024): using 1"]);
    }

    #[test]
    fn a_parameter_given_twice_counts_once_with_a_notice() {
        let (c, notices) = from_query("nodes=4&nodes=8");
        assert_eq!(c.nodes, 8);
        assert_eq!(
            notices,
            ["`nodes` is given more than once: the last one is used"]
        );
        let (charts, _) = embed_of("embed=power&embed=grid").unwrap();
        assert_eq!(charts, vec![Chart::Grid]);
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(unescape("a%20b+c%2"), "a b c%2");
        let (c, _) = from_query("model=llama2%2D13b");
        assert_eq!(c.model, "llama2-13b");
    }

    #[test]
    fn embed_links_name_their_charts() {
        assert!(embed_of("nodes=4").is_none());
        let (charts, notices) = embed_of("?nodes=4&embed=power,per-gpu,bogus").unwrap();
        assert_eq!(charts, vec![Chart::Power, Chart::PerGpu]);
        assert_eq!(notices.len(), 1);
        assert!(notices[0].contains("bogus"));
        assert_eq!(embed_of("embed=1").unwrap().0, vec![Chart::Throughput]);
        assert_eq!(embed_of("embed").unwrap().0, vec![Chart::Throughput]);
        // The controls ignore the parameter without a notice.
        let (c, notices) = from_query("embed=power&nodes=4");
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(c.nodes, 4);
        assert_eq!(
            embed_param(&[Chart::Power, Chart::Memory]),
            "embed=power,memory"
        );
    }
}
