//! The paper tour's words, stop by stop (`scalescope pages` writes them
//! into the tour's fragment beside each finding's numbers): what happens
//! and why, what to try, and what the step's timeline shows where it
//! shows the finding. The explorer's `app/src/tour.rs` holds each stop's
//! setting and chart.

/// The words of one stop.
pub struct Words {
    /// The finding, `F1` to `F14`.
    pub finding: &'static str,
    /// Two to four plain sentences: what happens and why.
    pub text: &'static str,
    /// What to try from here.
    pub try_this: &'static str,
    /// What to look at in the step's timeline, where it shows the finding.
    pub timeline: Option<&'static str>,
}

/// Every stop's words, in the order of the findings.
pub const WORDS: [Words; 14] = [
    Words {
        finding: "F1",
        text: "Llama-2 7B with FSDP, two 4096-token sequences per GPU, from 8 to 2048 H100s. \
               Each GPU does the same compute at every size, but every step it must gather the \
               weights and reduce the gradients across all GPUs, and past 128 GPUs that traffic \
               no longer hides behind compute. Per-GPU throughput falls while power per GPU \
               barely moves, so tokens per joule fall too.",
        try_this: "Drag Nodes and watch MFU and the power chart.",
        timeline: None,
    },
    Words {
        finding: "F2",
        text: "A ring AllGather over N GPUs takes N-1 steps, each paying a fixed network \
               latency, while the bytes per step shrink as 1/N. Past a few dozen nodes the \
               latency term dominates and the bus bandwidth falls. NCCL's tree AllReduce needs \
               only about log2 N steps, so it keeps its bandwidth.",
        try_this: "Change the GPU: the collapse starts earlier where NVLink and InfiniBand are faster.",
        timeline: None,
    },
    Words {
        finding: "F3",
        text: "In weak scaling every GPU computes the same tokens at any cluster size, so the \
               blue compute bar stays level. The AllGather and ReduceScatter that FSDP needs \
               take longer as the ring grows, and the part that compute cannot hide is the \
               exposed communication on top.",
        try_this: "Hover a bar for its exact split; compare the hidden communication on the right.",
        timeline: Some("In the timeline, the red data-parallel row: each layer's AllGather runs under the previous layer's compute, and at 2,048 GPUs it outlasts it, so red exposed ticks appear between the blue compute blocks."),
    },
    Words {
        finding: "F4",
        text: "The global batch is fixed at 32 sequences, so from 2 to 32 nodes each GPU gets a \
               smaller share: first fewer sequences, then slices of a sequence through tensor \
               parallelism. The kernels shrink while the communication per step does not, so \
               even the best layout's MFU falls.",
        try_this: "Switch the best-layout search off to see a fixed layout run out of work.",
        timeline: Some("In the timeline, the blue compute blocks are thin: each GPU has a sliver of the batch, and the tensor-parallel collectives (purple) between them take as long as the work."),
    },
    Words {
        finding: "F5",
        text: "At 256 GPUs and a global batch of 512, tensor or pipeline degrees of 2 or 4 \
               shrink the FSDP group to GPUs / (TP x PP), so each data-parallel collective \
               spans fewer GPUs and moves less. Small degrees stay inside one 8-GPU node on \
               NVLink; large ones pay for crossing nodes and for smaller kernels.",
        try_this: "Set Tensor parallel degree back to 1 for FSDP-only; try local batch 1 or 256 nodes, where more layouts beat it.",
        timeline: None,
    },
    Words {
        finding: "F6",
        text: "On 32 nodes the best layouts keep tensor parallelism inside a node. A tensor or \
               pipeline degree above 8 sends its blocking traffic over InfiniBand, which is \
               about a tenth of NVLink's bandwidth, and exposed communication jumps. The paper \
               measured the best layout at 59.67% MFU on A100 and 40.77% on H100.",
        try_this: "Switch GPU between A100 80 GB and H100 and compare the grids.",
        timeline: None,
    },
    Words {
        finding: "F7",
        text: "From A100 to H100, bf16 FLOPS grew about 3x but NVLink and HBM bandwidth only \
               about 1.5x. The same workload finishes its compute sooner while the same \
               collectives take almost as long, so a larger share of the step is waiting on \
               communication and MFU falls.",
        try_this: "Use the hardware what-ifs to give H100 more NVLink or InfiniBand bandwidth.",
        timeline: None,
    },
    Words {
        finding: "F8",
        text: "Larger models move more bytes per step: FSDP gathers and reduces every \
               parameter, and tensor parallelism adds collectives per layer, the forward's blocking. At their \
               best layouts, total and exposed communication grow with model size, and model \
               parallelism keeps the exposed part down.",
        try_this: "Step the model from Llama-2 1B to 70B and watch the exposed share.",
        timeline: None,
    },
    Words {
        finding: "F9",
        text: "Attention work grows faster than linearly with context length while the weights \
               to gather stay the same size. Longer sequences give each GPU bigger kernels to \
               hide the FSDP collectives behind, so exposed communication falls and MFU and \
               tokens per joule rise. This stop starts at 1024 tokens.",
        try_this: "Drag Context length up to 8192 and watch the exposed bars shrink.",
        timeline: Some("In the timeline, drag Context length up: the blue blocks widen while the gathers under them keep their length, and the red exposed ticks shrink."),
    },
    Words {
        finding: "F10",
        text: "FSDP-only training of Llama-2 7B is communication-bound beyond 128 H100s. With \
               tensor parallelism of 4 inside each node, the data-parallel ring has a quarter \
               of the GPUs, its collectives move a quarter of the weights, and throughput at \
               2048 GPUs rises by about half for a little more power.",
        try_this: "Set Tensor parallel degree back to 1 and compare the curves.",
        timeline: None,
    },
    Words {
        finding: "F11",
        text: "With 1024 sequences per step, 512 to 2048 GPUs leave each GPU less work while \
               every collective spans more GPUs. Even at the best layout, local throughput and \
               MFU fall; the paper saw MFU drop by more than 30%.",
        try_this: "Compare Llama-2 7B with 70B at the same batch.",
        timeline: None,
    },
    Words {
        finding: "F12",
        text: "Context parallelism splits each sequence across GPUs and passes keys and values \
               around a ring during attention. At 4096 tokens the attention blocks are too \
               small to hide that exchange, so it loses to tensor parallelism of the same \
               degree.",
        try_this: "Move the degree from context to tensor parallelism and compare per-GPU throughput.",
        timeline: Some("In the timeline, the green context-parallel exchange sticks out past each attention block; move the degree to tensor parallelism and the purple collectives take its place."),
    },
    Words {
        finding: "F13",
        text: "On 32 V100 nodes with one sequence per GPU, Llama-2 7B with FSDP alone does not \
               fit in 32 GB. Small tensor or pipeline degrees fit and give the best \
               throughput. The step from V100 to A100 raised utilisation, unlike the step from \
               A100 to H100.",
        try_this: "Open the generations chart to compare V100, A100 and H100.",
        timeline: None,
    },
    Words {
        finding: "F14",
        text: "FSDP splits weights, gradients and optimizer state across its group, so memory \
               per GPU falls as the group grows. Activations and runtime buffers are not \
               sharded, so the savings shrink: going from 8 to 16 GPUs saves far more than \
               going from 128 to 256.",
        try_this: "Try full recomputation or a longer context to see activations take over.",
        timeline: None,
    },
];

#[cfg(test)]
mod tests {
    use super::WORDS;

    #[test]
    fn one_stop_per_finding_in_order_in_two_to_four_sentences() {
        for (i, s) in WORDS.iter().enumerate() {
            assert_eq!(s.finding, format!("F{}", i + 1));
            let sentences = s.text.matches(". ").count() + 1;
            assert!(
                (2..=4).contains(&sentences),
                "{}: {sentences} sentences",
                s.finding
            );
        }
    }
}
