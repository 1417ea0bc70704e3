//! Reading a count typed in a field or written in a link.

/// Reads a count typed in a field or written in a link. A whole number in
/// `lo..=hi` is taken as it is; any other number is rounded and clamped,
/// with the reason (`is not a whole number: using 3`); text that is not a
/// number gives `None`.
#[must_use]
pub fn read_count(raw: &str, lo: u32, hi: u32) -> Option<(u32, Option<String>)> {
    let x = raw.trim().parse::<f64>().ok().filter(|x| x.is_finite())?;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let v = x.round().clamp(f64::from(lo), f64::from(hi)) as u32;
    let why = if x < f64::from(lo) || x > f64::from(hi) {
        Some(format!("is out of range ({lo} to {hi}): using {v}"))
    } else if x.fract() != 0.0 {
        Some(format!("is not a whole number: using {v}"))
    } else {
        None
    };
    Some((v, why))
}

#[cfg(test)]
mod tests {
    use super::read_count;

    #[test]
    fn whole_numbers_in_range_pass_and_others_say_what_was_used() {
        assert_eq!(read_count(" 24 ", 1, 256), Some((24, None)));
        let (v, why) = read_count("2.6", 1, 256).expect("a number");
        assert_eq!(
            (v, why.as_deref()),
            (3, Some("is not a whole number: using 3"))
        );
        let (v, why) = read_count("1e9", 1, 256).expect("a number");
        assert_eq!(v, 256);
        assert_eq!(
            why.as_deref(),
            Some("is out of range (1 to 256): using 256")
        );
        assert_eq!(read_count("many", 1, 256), None);
        assert_eq!(read_count("NaN", 1, 256), None);
    }
}
