//! A timeline in Chrome's trace event format, which Perfetto and
//! chrome://tracing open like a profile: one process per stage, one thread
//! per stream, one complete event (`ph: "X"`) per interval, in microseconds.

use super::{Stream, Timeline};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// One trace event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    /// What it is.
    pub name: String,
    /// Its category (the stream).
    pub cat: &'static str,
    /// `X` for a complete event, `M` for metadata.
    pub ph: &'static str,
    /// Start, microseconds.
    pub ts: f64,
    /// Duration, microseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur: Option<f64>,
    /// The stage.
    pub pid: u32,
    /// The stream.
    pub tid: u32,
    /// Details.
    pub args: Args,
}

/// An event's details.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Args {
    /// A metadata event's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The micro-batches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub micro_batches: Option<(u32, u32)>,
    /// The stage's layers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<(u32, u32)>,
    /// The model chunk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<u32>,
}

/// A trace file: `{"traceEvents": [...], "displayTimeUnit": "ms"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    /// Every event.
    pub trace_events: Vec<Event>,
    /// How viewers show time.
    pub display_time_unit: &'static str,
}

fn tid(s: Stream) -> u32 {
    match s {
        Stream::Compute => 1,
        Stream::Tensor => 2,
        Stream::Context => 3,
        Stream::Data => 4,
        Stream::Pipeline => 5,
        Stream::Experts => 6,
    }
}

/// The trace of `t`.
#[must_use]
pub fn trace(t: &Timeline) -> Trace {
    let mut events = Vec::new();
    for st in &t.stages {
        let meta = |name: &str, tid: u32, value: String| Event {
            name: String::from(name),
            cat: "__metadata",
            ph: "M",
            ts: 0.0,
            dur: None,
            pid: st.stage,
            tid,
            args: Args {
                name: Some(value),
                ..Args::default()
            },
        };
        events.push(meta("process_name", 0, format!("stage {}", st.stage)));
        for s in Stream::ALL {
            events.push(meta("thread_name", tid(s), String::from(s.name())));
        }
        for i in &st.intervals {
            events.push(Event {
                name: String::from(i.kind.name()),
                cat: i.stream.name(),
                ph: "X",
                ts: i.start_s * 1e6,
                dur: Some(i.duration() * 1e6),
                pid: st.stage,
                tid: tid(i.stream),
                args: Args {
                    name: None,
                    micro_batches: i.micro_batches,
                    layers: i.layers,
                    chunk: Some(i.chunk),
                },
            });
        }
    }
    Trace {
        trace_events: events,
        display_time_unit: "ms",
    }
}
