//! The controls in the URL query string, so that a copied link reproduces
//! the exact view. Only fields that differ from the defaults are written.
//! Reading never fails: unknown or malformed parameters are ignored and
//! values out of range are clamped, each with a notice saying so.

use crate::charts::Chart;
use crate::keys::Key;
use crate::state::{
    custom_max, read_count, Controls, Overrides, PlanInputs, Scaling, DEGREES, MAX_NODES, MAX_PINS,
    MAX_PIN_NAME, MAX_WHAT_IF, SEQ_RANGE,
};
use scalescope_core::calibrate::Constant;
use scalescope_core::hardware::gpu_by_id;
use scalescope_core::model::{find_preset, Mlp};
use scalescope_core::scenario::{DataParallel, Precision, Recompute, Schedule};
use scalescope_core::stack::StackId;

/// A custom model's shape, every field (no default to leave out).
fn put_custom_model(c: &Controls, out: &mut Vec<(&str, String)>) {
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
        put_custom_model(c, &mut out);
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
    put("ep", c.ep.to_string(), d.ep.to_string());
    put("etp", c.etp.to_string(), d.etp.to_string());
    put(
        "epo",
        bool_key(c.ep_overlap).into(),
        bool_key(d.ep_overlap).into(),
    );
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
        ("nvd", o.nvlink_domain.map(f64::from)),
        ("dpbw", o.dp_overlap_gb_per_s),
        ("imb", c.routing.imbalance),
        ("cap", c.routing.capacity),
    ] {
        if let Some(v) = v {
            out.push((k, crate::format::exact(v)));
        }
    }
    let (pl, dl) = (c.plan, d.plan);
    for (k, v, default) in [
        ("tokens", pl.tokens, dl.tokens),
        ("tpp", Some(pl.tokens_per_param), Some(dl.tokens_per_param)),
        ("price", pl.price, dl.price),
        ("overhead", Some(pl.overhead), Some(dl.overhead)),
        ("pue", Some(pl.pue), Some(dl.pue)),
        ("carbon", Some(pl.carbon), Some(dl.carbon)),
        ("knee", Some(pl.knee), Some(dl.knee)),
    ] {
        if let Some(v) = v.filter(|_| v != default) {
            out.push((k, crate::format::exact(v)));
        }
    }
    for (key, constant) in CALIBRATION_KEYS {
        if let Some(v) = c.calibration.get(constant) {
            out.push((key, crate::format::exact(v)));
        }
    }
    if !c.calibrated && !c.calibration.is_empty() {
        out.push(("cal", String::from("0")));
    }
    for (key, pin) in PIN_KEYS.iter().zip(&c.pins) {
        let mut inner = to_query(&pin.controls);
        if !inner.is_empty() {
            inner.push('&');
        }
        inner.push_str("name=");
        inner.extend(form_urlencoded::byte_serialize(pin.name.as_bytes()));
        out.push((
            key,
            form_urlencoded::byte_serialize(inner.as_bytes()).collect(),
        ));
    }
    out.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// The link key of each constant a calibration may set.
const CALIBRATION_KEYS: [(&str, Constant); 4] = [
    ("cgemm", Constant::GemmEfficiency),
    ("cnet", Constant::NetworkEfficiency),
    ("coverlap", Constant::DpOverlapShare),
    ("cattn", Constant::AttentionEfficiency),
];

/// A calibrated constant (clamped into its bounds, with a notice), or
/// `cal=0` (the calibration kept but not drawn): whether the value was
/// valid, or `None` if the key is not one of these.
fn read_calibration(c: &mut Controls, p: &mut Param, off: &mut bool) -> Option<bool> {
    if p.key == "cal" {
        *off = p.value == "0";
        return Some(matches!(p.value, "0" | "1"));
    }
    let &(_, constant) = CALIBRATION_KEYS.iter().find(|(k, _)| *k == p.key)?;
    let v = p.ranged(constant.bounds());
    if let Some(v) = v {
        c.calibration.set(constant, Some(v));
    }
    Some(v.is_some())
}

/// The link keys of the pinned settings, in pin order: each holds the
/// pin's own link (and its `name`), percent-encoded.
const PIN_KEYS: [&str; MAX_PINS] = ["pin1", "pin2", "pin3", "pin4"];

/// A pinned setting from its link key: whether it was valid, or `None` if
/// the key is not a pin's. Its own notices are kept, named by the pin.
fn read_pin(c: &mut Controls, p: &mut Param) -> Option<bool> {
    let slot = PIN_KEYS.iter().position(|k| *k == p.key)?;
    let mut name = format!("Pin {}", slot + 1);
    let inner: String = params(p.value)
        .filter(|(k, v)| {
            if k == "name" {
                name = v.chars().take(MAX_PIN_NAME).collect();
            }
            k != "name" && !k.starts_with("pin")
        })
        .map(|(k, v)| {
            let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            format!("{}={}", enc(&k), enc(&v))
        })
        .collect::<Vec<_>>()
        .join("&");
    let (controls, notices) = from_query(&inner);
    for n in notices {
        p.notices.push(format!("{name}: {n}"));
    }
    let pin = crate::state::Pin { name, controls };
    if c.pins.len() > slot {
        c.pins[slot] = pin;
    } else {
        c.pins.push(pin);
    }
    Some(true)
}

fn bool_key(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

/// The query's parameters, `%xx` and `+` decoded (form_urlencoded, as the
/// browser's URLSearchParams reads them).
fn params(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    let query = query.strip_prefix('?').unwrap_or(query);
    form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned()))
}

/// At most 40 characters of what a link held, for a notice.
fn shown(v: &str) -> String {
    v.chars().take(40).collect()
}

/// One parameter being read, and the notices so far.
struct Param<'a> {
    key: &'a str,
    value: &'a str,
    notices: &'a mut Vec<String>,
}

impl Param<'_> {
    /// Reads a count, rounded and clamped into `[lo, hi]` (the notice says
    /// so). False if the value is not a number.
    fn count(&mut self, field: &mut u32, lo: u32, hi: u32) -> bool {
        let Some((v, why)) = read_count(self.value, lo, hi) else {
            return false;
        };
        if let Some(why) = why {
            let (k, v) = (shown(self.key), shown(self.value));
            self.notices.push(format!("`{k}={v}` {why}"));
        }
        *field = v;
        true
    }

    /// A number clamped into `[lo, hi]` (the notice says so), or `None` if
    /// the value is not a finite number.
    fn ranged(&mut self, (lo, hi): (f64, f64)) -> Option<f64> {
        let x = self
            .value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())?;
        let v = x.clamp(lo, hi);
        if v != x {
            let (k, shown_v) = (shown(self.key), shown(self.value));
            let exact = crate::format::exact(v);
            self.notices
                .push(format!("`{k}={shown_v}` is out of range: using {exact}"));
        }
        Some(v)
    }

    /// A positive what-if value, clamped to [`MAX_WHAT_IF`] (the notice
    /// says so).
    fn what_if(&mut self) -> Option<f64> {
        let x = self.value.trim().parse::<f64>().ok();
        let x = x.filter(|x| x.is_finite() && *x > 0.0)?;
        let clamped = x.min(MAX_WHAT_IF);
        if clamped < x {
            let (k, v) = (shown(self.key), shown(self.value));
            let exact = crate::format::exact(clamped);
            self.notices
                .push(format!("`{k}={v}` is out of range: using {exact}"));
        }
        Some(clamped)
    }
}

/// A named choice (GPU, model, flavour, schedule, stack, switch): whether
/// the value was valid, or `None` if the key is not one of these.
fn read_choice(c: &mut Controls, key: &str, value: &str) -> Option<bool> {
    let flag = || match value {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    };
    Some(match key {
        // Short names and any capitalisation, as scenario files.
        "gpu" => gpu_by_id(value).map(|g| c.gpu = g.id).is_some(),
        "model" if value == "custom" => {
            c.model = "custom";
            true
        }
        "model" => find_preset(value).map(|p| c.model = p.id).is_some(),
        "mlp" => Mlp::from_key(value).map(|v| c.custom.mlp = v).is_some(),
        "dp" => DataParallel::from_key(value).map(|v| c.dp = v).is_some(),
        "schedule" => Schedule::from_key(value).map(|v| c.schedule = v).is_some(),
        "scaling" => Scaling::from_key(value).map(|v| c.scaling = v).is_some(),
        "recompute" => Recompute::from_key(value)
            .map(|v| c.recompute = v)
            .is_some(),
        "precision" => Precision::from_key(value)
            .map(|v| c.precision = v)
            .is_some(),
        "stack" => StackId::parse(value).map(|v| c.stack = v).is_some(),
        "sp" => flag().map(|v| c.sp = v).is_some(),
        "epo" => flag().map(|v| c.ep_overlap = v).is_some(),
        "best" => flag().map(|v| c.best = v).is_some(),
        _ => return None,
    })
}

/// A count (nodes, context, degrees, batches, a custom model's shape):
/// whether the value was valid, or `None` if the key is not one of these.
fn read_counted(c: &mut Controls, p: &mut Param) -> Option<bool> {
    let top = DEGREES[DEGREES.len() - 1];
    let m = &mut c.custom;
    Some(match p.key {
        "nodes" => p.count(&mut c.nodes, 1, MAX_NODES),
        "seq" => p.count(&mut c.seq_len, SEQ_RANGE.0 / 4, SEQ_RANGE.1 * 8),
        "tp" => p.count(&mut c.tp, 1, top),
        "pp" => p.count(&mut c.pp, 1, 256),
        "cp" => p.count(&mut c.cp, 1, top),
        "ep" => p.count(&mut c.ep, 1, 256),
        "etp" => p.count(&mut c.etp, 1, top),
        "local" => p.count(&mut c.local_batch, 1, 4096),
        "global" => p.count(&mut c.global_batch, 1, 1 << 24),
        "mb" => p.count(&mut c.micro_batch, 1, 4096),
        "layers" => p.count(&mut m.layers, 1, custom_max::LAYERS),
        "hidden" => p.count(&mut m.hidden, 1, custom_max::HIDDEN),
        "heads" => p.count(&mut m.heads, 1, custom_max::HEADS),
        "kv" => p.count(&mut m.kv_heads, 1, custom_max::HEADS),
        "ffn" => p.count(&mut m.ffn, 1, custom_max::FFN),
        "vocab" => p.count(&mut m.vocab, 1, custom_max::VOCAB),
        _ => return None,
    })
}

/// A hardware what-if: whether the value was valid, or `None` if the key
/// is not one of these.
fn read_hardware(o: &mut Overrides, p: &mut Param) -> Option<bool> {
    let slot = match p.key {
        "peak" => &mut o.peak_tflops,
        "hbm" => &mut o.hbm_gb_per_s,
        "nvlink" => &mut o.nvlink_gb_per_s,
        "net" => &mut o.network_gbps_per_gpu,
        "dpbw" => &mut o.dp_overlap_gb_per_s,
        // GPUs per node or NVLink domain are counts: positive, then
        // rounded and clamped.
        "gpn" | "nvd" => {
            let positive = p.what_if().is_some();
            let mut g = 1;
            let ok = positive && p.count(&mut g, 1, 1024);
            if ok {
                *if p.key == "gpn" {
                    &mut o.gpus_per_node
                } else {
                    &mut o.nvlink_domain
                } = Some(g);
            }
            return Some(ok);
        }
        _ => return None,
    };
    let v = p.what_if();
    if v.is_some() {
        *slot = v;
    }
    Some(v.is_some())
}

/// An MoE routing what-if (`imb`, `cap`): at least 1 (an even share),
/// at most the core's limit; whether the value was valid, or `None` if
/// the key is not one of these.
fn read_routing(r: &mut crate::state::Routing, p: &mut Param) -> Option<bool> {
    let slot = match p.key {
        "imb" => &mut r.imbalance,
        "cap" => &mut r.capacity,
        _ => return None,
    };
    let v = p.what_if().filter(|v| *v >= 1.0);
    if v.is_some() {
        *slot = v.map(|v| v.min(scalescope_core::scenario::limits::EXPERT_LOAD));
    }
    Some(v.is_some())
}

/// The range of each planner input, as the core's budget checks it.
pub const PLAN_RANGES: [(&str, f64, f64); 7] = [
    ("tokens", 1.0, 1e16),
    ("tpp", 1e-3, 1e6),
    ("price", 0.0, 1e4),
    ("overhead", 0.0, 5.0),
    ("pue", 1.0, 3.0),
    ("carbon", 0.0, 2.0),
    ("knee", 1.0, 2.0),
];

/// A planner input: whether the value was valid, or `None` if the key is
/// not one of these. Out of range, it is clamped and the notice says so.
fn read_plan(pl: &mut PlanInputs, p: &mut Param) -> Option<bool> {
    let &(_, lo, hi) = PLAN_RANGES.iter().find(|r| r.0 == p.key)?;
    let Some(v) = p.ranged((lo, hi)) else {
        return Some(false);
    };
    match p.key {
        "tokens" => pl.tokens = Some(v),
        "tpp" => pl.tokens_per_param = v,
        "price" => pl.price = Some(v),
        "overhead" => pl.overhead = v,
        "pue" => pl.pue = v,
        "carbon" => pl.carbon = v,
        _ => pl.knee = v,
    }
    Some(true)
}

/// Reads controls from a query string (with or without the leading `?`),
/// starting from the defaults. Returns the controls and one notice per
/// parameter that was ignored or clamped.
#[must_use]
pub fn from_query(query: &str) -> (Controls, Vec<String>) {
    let mut c = Controls::default();
    let mut notices = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut cal_off = false;
    for (key, value) in params(query) {
        if seen.contains(&key) {
            let k = shown(&key);
            notices.push(format!(
                "`{k}` is given more than once: the last one is used"
            ));
        } else if seen.len() < 64 {
            seen.push(key.clone());
        }
        let ignored = |why: &str| format!("ignored `{}={}`: {why}", shown(&key), shown(&value));
        let mut p = Param {
            key: &key,
            value: &value,
            notices: &mut notices,
        };
        let ok = read_choice(&mut c, &key, &value)
            .or_else(|| read_counted(&mut c, &mut p))
            .or_else(|| read_hardware(&mut c.overrides, &mut p))
            .or_else(|| read_routing(&mut c.routing, &mut p))
            .or_else(|| read_plan(&mut c.plan, &mut p))
            .or_else(|| read_pin(&mut c, &mut p))
            .or_else(|| read_calibration(&mut c, &mut p, &mut cal_off))
            // Read by `embed_of`.
            .or_else(|| (key == EMBED).then_some(true));
        match ok {
            Some(true) => {}
            Some(false) => notices.push(ignored("not a valid value")),
            None => notices.push(ignored("unknown parameter")),
        }
    }
    c.calibrated = !c.calibration.is_empty() && !cal_off;
    (c, notices)
}

/// The query parameter of embed mode: `embed=throughput,power`.
pub const EMBED: &str = "embed";

/// The charts an embed link asks for, if it is one, with notices for the
/// chart names it did not know. `embed=1` (or an empty list) shows the
/// throughput chart.
#[must_use]
pub fn embed_of(query: &str) -> Option<(Vec<Chart>, Vec<String>)> {
    // The last `embed=` counts, as the last of any parameter does.
    let value = params(query)
        .filter(|(k, _)| k == EMBED)
        .last()
        .map(|(_, v)| v)?;
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
#[path = "url_tests.rs"]
mod tests;
