//! Numbers for people: `1.2 M tokens/s`, `41.3 %`, `512 GPUs`.

/// A value with an SI prefix (k, M, G, T) and three significant digits.
#[must_use]
pub fn si(v: f64, unit: &str) -> String {
    if !v.is_finite() {
        return String::from("–");
    }
    let (scaled, prefix) = match v.abs() {
        a if a >= 1e12 => (v / 1e12, "T"),
        a if a >= 1e9 => (v / 1e9, "G"),
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let digits = sig3(scaled);
    match (prefix.is_empty(), unit.is_empty()) {
        (true, true) => digits,
        (true, false) => format!("{digits} {unit}"),
        (false, true) => format!("{digits} {prefix}"),
        (false, false) => format!("{digits} {prefix} {unit}"),
    }
}

/// Three significant digits, without a trailing `.0`.
#[must_use]
pub fn sig3(v: f64) -> String {
    let a = v.abs();
    let s = if a >= 100.0 || a == 0.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    s
}

/// A fraction as a percentage with one decimal: `0.4127` is `41.3 %`.
#[must_use]
pub fn pct(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:.1} %", fraction * 100.0)
    } else {
        String::from("–")
    }
}

/// Seconds as ms (or s above ten seconds).
#[must_use]
pub fn duration(s: f64) -> String {
    if !s.is_finite() {
        String::from("–")
    } else if s >= 10.0 {
        format!("{s:.1} s")
    } else {
        format!("{} ms", sig3(s * 1e3))
    }
}

/// A GPU count, with a thousands separator: `2,048 GPUs`.
#[must_use]
pub fn gpus(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// An axis tick for a count axis: 1, 8, 64, 512, 4,096.
#[must_use]
pub fn count_tick(v: f64) -> String {
    if (0.0..4e9).contains(&v) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        gpus(v.round() as u32)
    } else {
        String::from("–")
    }
}

/// `v` with at most `places` decimals (at least one) and no trailing zeros:
/// `1200`, `0.125`. For links and data files, where exact digits matter.
#[must_use]
pub fn trimmed(v: f64, places: usize) -> String {
    let s = format!("{v:.*}", places.max(1));
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// At most `max` of `lines`, the last saying how many more there were: a
/// link with a thousand bad parameters gets a short list, not a page.
#[must_use]
pub fn capped(lines: &[String], max: usize) -> Vec<String> {
    if lines.len() <= max {
        return lines.to_vec();
    }
    let keep = max.saturating_sub(1);
    let mut out = lines[..keep].to_vec();
    out.push(format!("… and {} more", lines.len() - keep));
    out
}

/// A count and its unit, the unit's first word singular for one:
/// `count(1, "nodes of 8 GPUs")` is `1 node of 8 GPUs`, `count(2048, "GPUs")`
/// is `2,048 GPUs`.
#[must_use]
pub fn count(v: u32, unit: &str) -> String {
    if v == 1 {
        let (first, rest) = unit.split_once(' ').unwrap_or((unit, ""));
        let one = first.strip_suffix('s').unwrap_or(first);
        if rest.is_empty() {
            format!("1 {one}")
        } else {
            format!("1 {one} {rest}")
        }
    } else {
        format!("{} {unit}", gpus(v))
    }
}

/// `v` with every digit it needs to read back as the same number, and no
/// more: `1980`, `0.0016`, `1e-300`. For links and typed fields, where a
/// value rounded for show would change the setting. (serde_json's float
/// writer, already in the site for scenario files, rather than `{v}`,
/// which would add its own.)
#[must_use]
pub fn exact(v: f64) -> String {
    let s = serde_json::to_string(&v).unwrap_or_else(|_| trimmed(v, 6));
    match s.strip_suffix(".0") {
        Some(whole) => whole.to_owned(),
        None => s,
    }
}

/// Text escaped for HTML and SVG (text and attribute values).
#[must_use]
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_numbers() {
        assert_eq!(si(1_234_567.0, "tokens/s"), "1.23 M tokens/s");
        assert_eq!(si(8719.0, "tokens/s"), "8.72 k tokens/s");
        assert_eq!(si(512.0, "W"), "512 W");
        assert_eq!(si(45_000.0, ""), "45.0 k");
        assert_eq!(pct(0.4127), "41.3 %");
        assert_eq!(duration(0.9314), "931 ms");
        assert_eq!(duration(0.0123), "12.3 ms");
        assert_eq!(duration(12.34), "12.3 s");
        assert_eq!(gpus(2048), "2,048");
        assert_eq!(gpus(131_072), "131,072");
        assert_eq!(gpus(8), "8");
        assert_eq!(count_tick(4096.0), "4,096");
        assert_eq!(count(1, "nodes of 8 GPUs"), "1 node of 8 GPUs");
        assert_eq!(count(1, "GPUs"), "1 GPU");
        assert_eq!(count(1, "sequences per GPU"), "1 sequence per GPU");
        assert_eq!(count(2048, "GPUs"), "2,048 GPUs");
    }

    #[test]
    fn long_notice_lists_are_capped() {
        let lines: Vec<String> = (0..1500).map(|i| format!("n{i}")).collect();
        let shown = capped(&lines, 8);
        assert_eq!(shown.len(), 8);
        assert_eq!(shown[6], "n6");
        assert_eq!(shown[7], "… and 1493 more");
        assert_eq!(capped(&lines[..8], 8), lines[..8].to_vec());
    }

    #[test]
    fn exact_numbers_read_back_unchanged() {
        for v in [1980.0, 0.0016, 0.0001, 1234.5678, 1e6, 3e20, 1e-6] {
            let s = exact(v);
            assert_eq!(s.parse::<f64>(), Ok(v), "{s}");
            assert!(s.len() < 24, "{s}");
        }
        for v in [1e-300, 5e-324] {
            let s = exact(v);
            assert_eq!(s.parse::<f64>(), Ok(v), "{s}");
            assert!(s.len() < 24, "{s}");
        }
        assert_eq!(exact(1980.0), "1980");
        assert_eq!(exact(0.0016), "0.0016");
    }

    #[test]
    fn non_finite_values_never_print_nan() {
        assert_eq!(si(f64::NAN, "W"), "–");
        assert_eq!(pct(f64::INFINITY), "–");
        assert_eq!(duration(f64::NAN), "–");
    }
}
