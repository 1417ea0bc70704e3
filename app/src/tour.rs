//! The paper tour: one stop per finding F1 to F14. Each stop sets the
//! controls to that figure's setting, names the chart that shows it, and
//! says in plain words what happens and why. The numbers beside each stop
//! come from the core's reproduction of the finding
//! (`scalescope_core::findings`), never from this file.

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
    /// Two or three plain sentences: what happens and why.
    pub text: &'static str,
    /// What to try from here.
    pub try_this: &'static str,
    /// What to look at in the step's timeline, where it shows the finding
    /// (the timeline card is highlighted too).
    pub timeline: Option<&'static str>,
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
        text: "Llama-2 7B with FSDP, two 4096-token sequences per GPU, from 8 to 2048 H100s. \
               Each GPU does the same compute at every size, but every step it must gather the \
               weights and reduce the gradients across all GPUs, and past 128 GPUs that traffic \
               no longer hides behind compute. Per-GPU throughput falls while power per GPU \
               barely moves, so tokens per joule fall too.",
        try_this: "Drag Nodes and watch MFU and the power chart.",
        timeline: None,
        setup: |c| c.nodes = 256,
    },
    Stop {
        finding: "F2",
        title: "AllGather collapses, AllReduce holds",
        chart: Chart::Collectives,
        text: "A ring AllGather over N GPUs takes N-1 steps, each paying a fixed network \
               latency, while the bytes per step shrink as 1/N. Past a few dozen nodes the \
               latency term dominates and the bus bandwidth falls. NCCL's tree AllReduce needs \
               only about log2 N steps, so it keeps its bandwidth.",
        try_this: "Change the GPU: the collapse starts earlier where NVLink and InfiniBand are faster.",
        timeline: None,
        setup: |c| c.nodes = 64,
    },
    Stop {
        finding: "F3",
        title: "Collectives grow, compute does not",
        chart: Chart::Breakdown,
        text: "In weak scaling every GPU computes the same tokens at any cluster size, so the \
               blue compute bar stays level. The AllGather and ReduceScatter that FSDP needs \
               take longer as the ring grows, and the part that compute cannot hide is the \
               exposed communication on top.",
        try_this: "Hover a bar for its exact split; compare the hidden communication on the right.",
        timeline: Some("In the timeline, the red data-parallel row: each layer's AllGather runs under the previous layer's compute, and at 2,048 GPUs it outlasts it, so red exposed ticks appear between the blue compute blocks."),
        setup: |c| c.nodes = 256,
    },
    Stop {
        finding: "F4",
        title: "Strong scaling: a fixed batch spread thin",
        chart: Chart::PerGpu,
        text: "The global batch is fixed at 32 sequences, so from 2 to 32 nodes each GPU gets a \
               smaller share: first fewer sequences, then slices of a sequence through tensor \
               parallelism. The kernels shrink while the communication per step does not, so \
               even the best layout's MFU falls.",
        try_this: "Switch the best-layout search off to see a fixed layout run out of work.",
        timeline: Some("In the timeline, the blue compute blocks are thin: each GPU has a sliver of the batch, and the tensor-parallel collectives (purple) between them take as long as the work."),
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
        text: "At 256 GPUs and a global batch of 512, tensor or pipeline degrees of 2 or 4 \
               shrink the FSDP group to GPUs / (TP x PP), so each data-parallel collective \
               spans fewer GPUs and moves less. Small degrees stay inside one 8-GPU node on \
               NVLink; large ones pay for crossing nodes and for smaller kernels.",
        try_this: "Set Tensor parallel degree back to 1 for FSDP-only; try local batch 1 or 256 nodes, where more layouts beat it.",
        timeline: None,
        setup: |c| c.tp = 2,
    },
    Stop {
        finding: "F6",
        title: "Degrees past 8 leave the node",
        chart: Chart::Grid,
        text: "On 32 nodes the best layouts keep tensor parallelism inside a node. A tensor or \
               pipeline degree above 8 sends its blocking traffic over InfiniBand, which is \
               about a tenth of NVLink's bandwidth, and exposed communication jumps. The paper \
               measured the best layout at 59.67% MFU on A100 and 40.77% on H100.",
        try_this: "Switch GPU between A100 80 GB and H100 and compare the grids.",
        timeline: None,
        setup: |c| c.gpu = "a100-sxm4-80gb",
    },
    Stop {
        finding: "F7",
        title: "Faster GPUs are more communication-bound",
        chart: Chart::Generations,
        text: "From A100 to H100, bf16 FLOPS grew about 3x but NVLink and HBM bandwidth only \
               about 1.5x. The same workload finishes its compute sooner while the same \
               collectives take almost as long, so a larger share of the step is waiting on \
               communication and MFU falls.",
        try_this: "Use the hardware what-ifs to give H100 more NVLink or InfiniBand bandwidth.",
        timeline: None,
        setup: |c| c.best = true,
    },
    Stop {
        finding: "F8",
        title: "Bigger models, more communication",
        chart: Chart::Breakdown,
        text: "Larger models move more bytes per step: FSDP gathers and reduces every \
               parameter, and tensor parallelism adds blocking collectives per layer. At their \
               best layouts, total and exposed communication grow with model size, and model \
               parallelism keeps the exposed part down.",
        try_this: "Step the model from Llama-2 1B to 70B and watch the exposed share.",
        timeline: None,
        setup: |c| {
            c.model = "llama2-70b";
            c.best = true;
        },
    },
    Stop {
        finding: "F9",
        title: "Longer context hides communication",
        chart: Chart::Breakdown,
        text: "Attention work grows faster than linearly with context length while the weights \
               to gather stay the same size. Longer sequences give each GPU bigger kernels to \
               hide the FSDP collectives behind, so exposed communication falls and MFU and \
               tokens per joule rise. This stop starts at 1024 tokens.",
        try_this: "Drag Context length up to 8192 and watch the exposed bars shrink.",
        timeline: Some("In the timeline, drag Context length up: the blue blocks widen while the gathers under them keep their length, and the red exposed ticks shrink."),
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
        text: "FSDP-only training of Llama-2 7B is communication-bound beyond 128 H100s. With \
               tensor parallelism of 4 inside each node, the data-parallel ring has a quarter \
               of the GPUs, its collectives move a quarter of the weights, and throughput at \
               2048 GPUs rises by about half for a little more power.",
        try_this: "Set Tensor parallel degree back to 1 and compare the curves.",
        timeline: None,
        setup: |c| {
            c.nodes = 256;
            c.tp = 4;
        },
    },
    Stop {
        finding: "F11",
        title: "Pretraining scale, fixed global batch",
        chart: Chart::PerGpu,
        text: "With 1024 sequences per step, 512 to 2048 GPUs leave each GPU less work while \
               every collective spans more GPUs. Even at the best layout, local throughput and \
               MFU fall; the paper saw MFU drop by more than 30%.",
        try_this: "Compare Llama-2 7B with 70B at the same batch.",
        timeline: None,
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
        text: "Context parallelism splits each sequence across GPUs and passes keys and values \
               around a ring during attention. At 4096 tokens the attention blocks are too \
               small to hide that exchange, so it loses to tensor parallelism of the same \
               degree.",
        try_this: "Move the degree from context to tensor parallelism and compare per-GPU throughput.",
        timeline: Some("In the timeline, the green context-parallel exchange sticks out past each attention block; move the degree to tensor parallelism and the purple collectives take its place."),
        setup: |c| c.cp = 2,
    },
    Stop {
        finding: "F13",
        title: "V100: small degrees still win",
        chart: Chart::Grid,
        text: "On 32 V100 nodes with one sequence per GPU, Llama-2 7B with FSDP alone does not \
               fit in 32 GB. Small tensor or pipeline degrees fit and give the best \
               throughput. The step from V100 to A100 raised utilisation, unlike the step from \
               A100 to H100.",
        try_this: "Open the generations chart to compare V100, A100 and H100.",
        timeline: None,
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
        text: "FSDP splits weights, gradients and optimizer state across its group, so memory \
               per GPU falls as the group grows. Activations and runtime buffers are not \
               sharded, so the savings shrink: going from 8 to 16 GPUs saves far more than \
               going from 128 to 256.",
        try_this: "Try full recomputation or a longer context to see activations take over.",
        timeline: None,
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
            let sentences = s.text.matches(". ").count() + 1;
            assert!(
                (2..=4).contains(&sentences),
                "{}: {sentences} sentences",
                s.finding
            );
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
