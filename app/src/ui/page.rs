//! The page's shared state: the controls every input writes, the notices
//! above the charts, and what the readout shows. Signals are `Copy`, so
//! each part of the page takes a [`Page`] by value.

use crate::state::{self, Controls, Outcome};
use leptos::prelude::*;

/// Signals shared by the control panel, the readout, the chart cards, the
/// tour and embed mode.
#[derive(Clone, Copy)]
pub struct Page {
    /// The setting every chart shows.
    pub controls: RwSignal<Controls>,
    /// Lines of the notice box (what a link, a file or a typed value changed).
    pub notices: RwSignal<Vec<String>>,
    /// The notice box's heading.
    pub notice_title: RwSignal<String>,
    /// Why the last scenario file could not be opened.
    pub import_error: RwSignal<Option<String>>,
    /// The tour's current stop, if the tour is open.
    pub tour_at: RwSignal<Option<usize>>,
    /// Whether the model page (`#model`) is shown instead of the explorer.
    pub model_open: RwSignal<bool>,
    /// The current setting's outcome, for the readout.
    pub readout: RwSignal<Option<(Outcome, Controls)>>,
    /// The last setting that could run: the readout keeps showing it
    /// (greyed) while the current one cannot.
    pub last_good: RwSignal<Option<(Outcome, Controls)>>,
    /// When the last input event happened (for the input-to-draw budget).
    pub last_input: StoredValue<f64>,
    /// Bumped on every window resize (and when the explorer shows again):
    /// charts are re-measured.
    pub resized: RwSignal<u32>,
}

impl Page {
    /// A page starting from `start`, with `notices` about the link it came from.
    pub fn new(start: Controls, notices: Vec<String>, model_open: bool) -> Page {
        Page {
            controls: RwSignal::new(start),
            notices: RwSignal::new(notices),
            notice_title: RwSignal::new(String::from(
                "Some of this link's settings were not used: ",
            )),
            import_error: RwSignal::new(None),
            tour_at: RwSignal::new(None),
            model_open: RwSignal::new(model_open),
            readout: RwSignal::new(None),
            last_good: RwSignal::new(None),
            last_input: StoredValue::new(0.0),
            resized: RwSignal::new(0),
        }
    }

    /// Records when an input happened (the budget script measures from it).
    pub fn mark_input(self, ev: &web_sys::Event) {
        self.last_input.set_value(ev.time_stamp());
    }

    /// Shows what a typed value was changed into, and why, in the notice box.
    pub fn typed_notice(self, what: &str, raw: &str, why: &str) {
        let raw: String = raw.trim().chars().take(40).collect();
        self.notice_title
            .set(String::from("Some of what was typed was adjusted: "));
        self.notices.set(vec![format!("{what}: `{raw}` {why}")]);
    }

    /// Reads a typed count into the controls (rounded and clamped, with a
    /// notice saying so; text that is not a number keeps the count in use),
    /// then shows the count in use in the field.
    pub fn count_typed(
        self,
        ev: &leptos::ev::Event,
        what: &str,
        hi: u32,
        get: fn(&Controls) -> u32,
        set: fn(&mut Controls, u32),
    ) {
        self.mark_input(ev);
        let input: web_sys::HtmlInputElement = event_target(ev);
        let raw = input.value();
        match state::read_count(&raw, 1, hi) {
            Some((v, why)) => {
                if let Some(why) = why {
                    self.typed_notice(what, &raw, &why);
                }
                self.controls.update(|c| set(c, v));
            }
            // An emptied field (or one the browser could not read as a
            // number) just shows the count in use again.
            None if raw.trim().is_empty() => {}
            None => {
                let kept = get(&self.controls.get_untracked());
                self.typed_notice(what, &raw, &format!("is not a number: kept {kept}"));
            }
        }
        input.set_value(&get(&self.controls.get_untracked()).to_string());
    }

    /// Applies a scenario file whole, or not at all (the error is shown and
    /// nothing changes).
    pub fn apply_import(self, name: &str, read: Result<String, String>) {
        match read.and_then(|text| crate::export::import_scenario(&text)) {
            Ok((c, changed)) => {
                self.import_error.set(None);
                self.tour_at.set(None);
                self.notice_title.set(format!("Opened {name}: "));
                self.notices.set(changed);
                self.controls.set(c);
            }
            Err(e) => self.import_error.set(Some(format!(
                "Could not open {name}: {e}. Nothing was changed."
            ))),
        }
    }
}
