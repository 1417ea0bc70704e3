//! The panel's sliders: each over a list of values, with its label, unit
//! and the control it reads and sets.

use super::inputs::Slider;
use crate::state::{DEGREES, EXPERT_DEGREES};

const NODE_VALUES: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const SEQ_VALUES: [u32; 9] = [512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072];
pub(super) const LOCAL_BATCH_VALUES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
pub(super) const GLOBAL_BATCH_VALUES: [u32; 15] = [
    8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072,
];
const MICRO_BATCH_VALUES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

/// The node-count slider.
pub const NODES: Slider = Slider {
    label: "Nodes",
    testid: "nodes",
    unit: "nodes of 8 GPUs",
    values: &NODE_VALUES,
    get: |c| c.nodes,
    set: |c, v| c.nodes = v,
};

/// The context-length slider.
pub const SEQ: Slider = Slider {
    label: "Context length",
    testid: "seq",
    unit: "tokens",
    values: &SEQ_VALUES,
    get: |c| c.seq_len,
    set: |c, v| c.seq_len = v,
};

pub(super) const LAYOUT: [Slider; 6] = [
    Slider {
        label: "Tensor parallel degree",
        testid: "tp",
        unit: "GPUs",
        values: &DEGREES,
        get: |c| c.tp,
        set: |c, v| c.tp = v,
    },
    Slider {
        label: "Pipeline parallel degree",
        testid: "pp",
        unit: "stages",
        values: &DEGREES,
        get: |c| c.pp,
        set: |c, v| c.pp = v,
    },
    Slider {
        label: "Context parallel degree",
        testid: "cp",
        unit: "GPUs",
        values: &DEGREES,
        get: |c| c.cp,
        set: |c, v| c.cp = v,
    },
    Slider {
        label: "Expert parallel degree (MoE models)",
        testid: "ep",
        unit: "GPUs",
        values: &EXPERT_DEGREES,
        get: |c| c.ep,
        set: |c, v| c.ep = v,
    },
    Slider {
        label: "Expert tensor parallel degree (MoE models)",
        testid: "etp",
        unit: "GPUs",
        values: &DEGREES,
        get: |c| c.etp,
        set: |c, v| c.etp = v,
    },
    Slider {
        label: "Micro-batch",
        testid: "micro-batch",
        unit: "sequences",
        values: &MICRO_BATCH_VALUES,
        get: |c| c.micro_batch,
        set: |c, v| c.micro_batch = v,
    },
];
