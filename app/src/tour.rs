//! The paper tour: one stop per finding F1 to F14. Each stop sets the
//! controls to that figure's setting and names the chart that shows it.
//! What it says in plain words, and the numbers beside it (the core's
//! reproduction of the finding, `scalescope_core::findings`), are written
//! when the site is built (`scalescope pages`).

use crate::charts::Chart;
use crate::state::{Controls, Scaling};
use scalescope_core::scenario::DataParallel;

/// One stop of the tour.
#[derive(Clone, Copy, Debug)]
pub struct Stop {
    /// The finding, `F1` to `F14`.
    pub finding: &'static str,
    /// A short title.
    pub title: &'static str,
    /// The chart that shows it (highlighted and scrolled to).
    pub chart: Chart,
    /// Whether the step's timeline shows the finding (its card is
    /// highlighted too). The stop's words are built with the site
    /// (`scalescope pages`, `core/src/bin/scalescope/tour_words.rs`).
    pub timeline: bool,
    /// Sets the controls to the figure's setting, from the defaults.
    setup: fn(&mut Controls),
}

impl Stop {
    /// The controls of this stop: the defaults (the paper's Figure 3
    /// setting) with the stop's changes.
    #[must_use]
    pub fn controls(&self) -> Controls {
        let mut c = Controls::default();
        (self.setup)(&mut c);
        c
    }
}

/// Every stop, in the order of the findings.
pub const STOPS: [Stop; 14] = [
    Stop {
        finding: "F1",
        title: "Weak scaling: more GPUs, less from each",
        chart: Chart::PerGpu,
        timeline: false,
        setup: |c| c.nodes = 256,
    },
    Stop {
        finding: "F2",
        title: "AllGather collapses, AllReduce holds",
        chart: Chart::Collectives,
        timeline: false,
        setup: |c| c.nodes = 64,
    },
    Stop {
        finding: "F3",
        title: "Collectives grow, compute does not",
        chart: Chart::Breakdown,
        timeline: true,
        setup: |c| c.nodes = 256,
    },
    Stop {
        finding: "F4",
        title: "Strong scaling: a fixed batch spread thin",
        chart: Chart::PerGpu,
        timeline: true,
        setup: |c| {
            c.scaling = Scaling::Strong;
            c.global_batch = 32;
            c.best = true;
        },
    },
    Stop {
        finding: "F5",
        title: "A little model parallelism beats pure FSDP",
        chart: Chart::Grid,
        timeline: false,
        setup: |c| c.tp = 2,
    },
    Stop {
        finding: "F6",
        title: "Degrees past 8 leave the node",
        chart: Chart::Grid,
        timeline: false,
        setup: |c| c.gpu = "a100-sxm4-80gb",
    },
    Stop {
        finding: "F7",
        title: "Faster GPUs are more communication-bound",
        chart: Chart::Generations,
        timeline: false,
        setup: |c| c.best = true,
    },
    Stop {
        finding: "F8",
        title: "Bigger models, more communication",
        chart: Chart::Breakdown,
        timeline: false,
        setup: |c| {
            c.model = "llama2-70b";
            c.best = true;
        },
    },
    Stop {
        finding: "F9",
        title: "Longer context hides communication",
        chart: Chart::Breakdown,
        timeline: true,
        setup: |c| {
            c.seq_len = 1024;
            c.local_batch = 1;
            c.micro_batch = 1;
        },
    },
    Stop {
        finding: "F10",
        title: "At 2048 GPUs, tensor parallelism wins",
        chart: Chart::Throughput,
        timeline: false,
        setup: |c| {
            c.nodes = 256;
            c.tp = 4;
        },
    },
    Stop {
        finding: "F11",
        title: "Pretraining scale, fixed global batch",
        chart: Chart::PerGpu,
        timeline: false,
        setup: |c| {
            c.nodes = 256;
            c.scaling = Scaling::Strong;
            c.global_batch = 1024;
            c.best = true;
        },
    },
    Stop {
        finding: "F12",
        title: "Context parallelism at 4k context",
        chart: Chart::Breakdown,
        timeline: true,
        setup: |c| c.cp = 2,
    },
    Stop {
        finding: "F13",
        title: "V100: small degrees still win",
        chart: Chart::Grid,
        timeline: false,
        setup: |c| {
            c.gpu = "v100-sxm2-32gb";
            c.local_batch = 1;
            c.micro_batch = 1;
            c.tp = 4;
        },
    },
    Stop {
        finding: "F14",
        title: "Sharding saves memory, with diminishing returns",
        chart: Chart::Memory,
        timeline: false,
        setup: |c| {
            c.local_batch = 1;
            c.micro_batch = 1;
            c.dp = DataParallel::Fsdp;
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::compute;

    #[test]
    fn one_stop_per_finding_in_order() {
        for (i, s) in STOPS.iter().enumerate() {
            assert_eq!(s.finding, format!("F{}", i + 1));
        }
    }

    #[test]
    fn every_stop_runs_and_changes_something() {
        for s in &STOPS {
            let c = s.controls();
            let v = compute(&c);
            assert!(v.current.is_ok(), "{}: {:?}", s.finding, v.current);
        }
        // Stops that look the same on screen would teach nothing.
        assert!(STOPS.iter().all(|s| s.controls() != Controls::default()));
    }

    #[test]
    fn every_stop_runs_under_the_papers_stack() {
        for s in &STOPS {
            assert_eq!(
                s.controls().stack,
                scalescope_core::stack::StackId::Paper,
                "{}",
                s.finding
            );
        }
    }

    #[test]
    fn f13_fsdp_alone_does_not_fit_on_v100() {
        let mut c = STOPS[12].controls();
        c.tp = 1;
        assert!(compute(&c).current.is_err());
    }
}
