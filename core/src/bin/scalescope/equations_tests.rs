//! Tests of the model page's sections.
use super::{Section, SECTIONS};
use scalescope_core::calibration::TABLE;

fn strings(s: &Section) -> impl Iterator<Item = &'static str> {
    [s.id, s.title]
        .into_iter()
        .chain(s.paragraphs.iter().copied())
        .chain(s.equations.iter().copied())
        .chain(s.constants.iter().copied())
}

#[test]
fn sections_come_in_reading_order_with_unique_ids() {
    let ids: Vec<&str> = SECTIONS.iter().map(|s| s.id).collect();
    assert_eq!(
        ids,
        [
            "units",
            "stacks",
            "compute",
            "collectives",
            "parallelism",
            "experts",
            "overlap",
            "memory",
            "power",
            "assumptions"
        ]
    );
    for (i, a) in ids.iter().enumerate() {
        assert!(!ids[i + 1..].contains(a), "duplicate id {a}");
        assert!(
            a.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{a} is not an anchor"
        );
    }
}

#[test]
fn every_section_has_one_to_three_paragraphs() {
    for s in SECTIONS {
        assert!(
            (1..=3).contains(&s.paragraphs.len()),
            "{}: {} paragraphs",
            s.id,
            s.paragraphs.len()
        );
    }
}

#[test]
fn no_string_is_empty() {
    for s in SECTIONS {
        for t in strings(s) {
            assert!(!t.trim().is_empty(), "{}: empty string", s.id);
            assert_eq!(t, t.trim(), "{}: stray whitespace in {t:?}", s.id);
            assert!(!t.contains('\n'), "{}: {t:?} is not one line", s.id);
        }
    }
}

#[test]
fn every_constant_is_in_the_calibration_table() {
    for s in SECTIONS {
        for name in s.constants {
            assert!(
                TABLE.iter().any(|c| c.name == *name),
                "{}: {name} is not in calibration::TABLE",
                s.id
            );
        }
        let unique = s
            .constants
            .iter()
            .enumerate()
            .all(|(i, n)| !s.constants[i + 1..].contains(n));
        assert!(unique, "{}: a constant is listed twice", s.id);
    }
}

#[test]
fn every_listed_constant_is_quoted_at_its_current_value() {
    for s in SECTIONS {
        let text: String = s
            .paragraphs
            .iter()
            .chain(s.equations)
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        for name in s.constants {
            let c = TABLE.iter().find(|c| c.name == *name).unwrap();
            let value = format!("{}", c.value);
            assert!(
                text.contains(&value),
                "{}: {name} = {value} is not quoted; update the text",
                s.id
            );
        }
    }
}
