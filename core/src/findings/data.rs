//! What the paper states, as data: each finding's figure, claim and numbers
//! in words ([`Claim`]), and each number a check compares with the model's
//! ([`Stated`]), as the paper prints it and as the check reads it.

use super::{Bound, Claim, Stated};

/// F1: weak scaling of 7B with FSDP from 8 to 2048 H100s.
pub(super) const F1: Claim = Claim {
    id: "F1",
    figure: "Fig 1, 3",
    claim: "Weak scaling (7B, FSDP, local batch 2) from 8 to 2048 H100s: global throughput grows sub-linearly, per-GPU throughput and TFLOPS fall, power barely moves, power efficiency falls over 30%; exposed communication (as traces show it) stays under 5% up to 128 GPUs and rises at every doubling past them, above 20% at 2048",
    paper: "per-GPU WPS -37.22% (128->2048); power 658 W -> 620 W (-5.87%); tokens/J -30% or more",
};

/// F2: NCCL bus bandwidth from 4 to 512 nodes.
pub(super) const F2: Claim = Claim {
    id: "F2",
    figure: "Fig 2",
    claim: "NCCL bus bandwidth on DGX H100, 4 to 512 nodes: tree AllReduce holds up, ring AllGather collapses (latency-bound)",
    paper: "shape only",
};

/// F3: FSDP's collectives against compute as the world grows.
pub(super) const F3: Claim = Claim {
    id: "F3",
    figure: "Fig 4",
    claim:
        "AllGather and ReduceScatter time grow with world size while per-GPU compute stays constant",
    paper: "shape only",
};

/// F4: strong scaling at global batch 32.
pub(super) const F4: Claim = Claim {
    id: "F4",
    figure: "Fig 5",
    claim: "Strong scaling, global batch 32, 2 to 32 H100 nodes at the best layout: diminishing global returns, local throughput, MFU and power efficiency fall, overheads clear beyond 4 nodes. The layout at each size is the best of the paper's search (model-parallel groups inside a node, no sequence parallelism or interleaving), found by the model: the paper names none; MFU in the paper's (PaLM) convention",
    paper: "MFU about 40% at 2 nodes, under 15% at 32 nodes",
};

/// F5: tensor or pipeline parallelism against FSDP-only at 256 GPUs.
pub(super) const F5: Claim = Claim {
    id: "F5",
    figure: "Fig 6, 10",
    claim: "7B, global batch 512, 256 H100s: TP or PP of 2 or 4 beats FSDP-only on throughput, MFU and power efficiency; more viable layouts at local batch 1 and at 256 nodes",
    paper: "qualitative",
};

/// F6: A100 against H100 at their best layouts.
pub(super) const F6: Claim = Claim {
    id: "F6",
    figure: "Fig 7",
    claim: "32 nodes, A100 vs H100, local batch 2 (the model's choice, as in Figure 6): model parallelism beats data parallelism on both; groups over 8 GPUs (across nodes) expose at least twice the communication. The check reads '+12.83%' as points of step time, the paper's exposed share being a share of the step, and compares it with the exposure a trace shows",
    paper: "best-layout MFU 59.67% (A100) vs 40.77% (H100); exposed communication +12.83 points on H100",
};

/// F7: newer GPUs more communication-bound.
pub(super) const F7: Claim = Claim {
    id: "F7",
    figure: "§4.4",
    claim: "Asymmetric gains (bf16 FLOPS x3, NVLink and HBM x1.5) make newer GPUs more communication-bound",
    paper: "as F6",
};

/// F8: model size from 1B to 70B.
pub(super) const F8: Claim = Claim {
    id: "F8",
    figure: "Fig 8",
    claim: "1B to 70B at their best layouts on 32 H100 nodes (local batch 2, the model's choice: the paper states none): total and exposed communication grow with model size, MFU falls at every step; model parallelism reduces exposed communication at every size",
    paper: "shape only",
};

/// F9: context length from 1k to 8k.
pub(super) const F9: Claim = Claim {
    id: "F9",
    figure: "Fig 9",
    claim: "Longer context (1k to 8k, one sequence per GPU with FSDP on 32 H100 nodes: the model's choice of setting): larger kernels, better overlap, less exposed communication, higher MFU and power efficiency (model FLOPs per joule: tokens per joule fall as attention FLOPs per token grow)",
    paper: "shape only",
};

/// F10: FSDP-only past 128 GPUs, and tensor parallelism at 2048.
pub(super) const F10: Claim = Claim {
    id: "F10",
    figure: "§5",
    claim: "7B, local batch 2: FSDP-only is communication-bound past 128 H100s (its exposed communication rises at every doubling) and tensor parallelism of 2 or 4 is better or comparable (within 5%) at every size beyond; at 2048 GPUs TP gains about half for about 30 W per GPU",
    paper: "+52.60% WPS with TP at 2048 GPUs for +30 W per GPU",
};

/// F11: fixed global batch from 512 to 2048 GPUs.
pub(super) const F11: Claim = Claim {
    id: "F11",
    figure: "Fig 11",
    claim: "Fixed global batch at pretraining scale, 512 to 2048 GPUs, 7B and 70B: local throughput and MFU fall by more than 30% for each model (the check's reading of a sentence said of both). The paper states neither batch nor layouts: the model takes 1024 sequences and the best layout of the paper's search at each size",
    paper: "MFU falls by more than 30%",
};

/// F12: context against tensor parallelism.
pub(super) const F12: Claim = Claim {
    id: "F12",
    figure: "Fig 12",
    claim: "Context parallelism at 4k context is worse than tensor parallelism of the same degree",
    paper: "qualitative",
};

/// F13: V100's best layouts, and A100 against V100.
pub(super) const F13: Claim = Claim {
    id: "F13",
    figure: "Fig 13",
    claim: "V100, 32 nodes, local batch 1: small model-parallel degrees give the best throughput; A100 improves utilisation over V100",
    paper: "qualitative",
};

/// F14: memory as the FSDP group grows.
pub(super) const F14: Claim = Claim {
    id: "F14",
    figure: "Fig 14",
    claim: "Per-GPU memory falls as the FSDP group grows, with diminishing savings",
    paper: "shape only",
};

/// F1: per-GPU throughput falls 37.22% from 128 to 2048 GPUs.
pub(super) const F1_FALL: Stated = Stated {
    quantity: "per-GPU throughput fall, 128 to 2048 GPUs",
    bound: Bound::About,
    printed: 37.22,
    value: 0.3722,
    unit: "%",
};

/// F1: 658 W per GPU at 128 GPUs.
pub(super) const F1_POWER_128: Stated = Stated {
    quantity: "power per GPU at 128 GPUs",
    bound: Bound::About,
    printed: 658.0,
    value: 658.0,
    unit: "W",
};

/// F1: 620 W per GPU at 2048 GPUs.
pub(super) const F1_POWER_2048: Stated = Stated {
    quantity: "power per GPU at 2048 GPUs",
    bound: Bound::About,
    printed: 620.0,
    value: 620.0,
    unit: "W",
};

/// F1: tokens per joule fall by 30% or more from 128 to 2048 GPUs.
pub(super) const F1_EFFICIENCY_FALL: Stated = Stated {
    quantity: "tokens per joule fall, 128 to 2048 GPUs",
    bound: Bound::Over,
    printed: 30.0,
    value: 0.30,
    unit: "%",
};

/// F1: power per GPU falls 5.87% from 128 to 2048 GPUs (a fraction; checked,
/// not listed among the numbers).
pub(super) const F1_POWER_FALL: f64 = 0.0587;

/// F1: exposed communication (as a trace shows it) stays under this share
/// of the step up to 128 GPUs.
pub(super) const F1_EXPOSURE_MINIMAL: f64 = 0.05;

/// F1: exposed communication (as a trace shows it) is above this share of
/// the step at 2048 GPUs.
pub(super) const F1_EXPOSURE_AT_2048: f64 = 0.20;

/// F4: MFU about 40% at 2 nodes.
pub(super) const F4_MFU_2_NODES: Stated = Stated {
    quantity: "MFU at 2 nodes",
    bound: Bound::About,
    printed: 40.0,
    value: 0.40,
    unit: "%",
};

/// F4: MFU under 15% at 32 nodes.
pub(super) const F4_MFU_32_NODES: Stated = Stated {
    quantity: "MFU at 32 nodes",
    bound: Bound::Under,
    printed: 15.0,
    value: 0.15,
    unit: "%",
};

/// F6: best-layout MFU 59.67% on A100.
pub(super) const F6_MFU_A100: Stated = Stated {
    quantity: "best-layout MFU, A100",
    bound: Bound::About,
    printed: 59.67,
    value: 0.5967,
    unit: "%",
};

/// F6: best-layout MFU 40.77% on H100.
pub(super) const F6_MFU_H100: Stated = Stated {
    quantity: "best-layout MFU, H100",
    bound: Bound::About,
    printed: 40.77,
    value: 0.4077,
    unit: "%",
};

/// F6: exposed communication 12.83 points higher on H100 than on A100.
pub(super) const F6_EXPOSURE_GAP: Stated = Stated {
    quantity: "exposed communication (trace), H100 minus A100",
    bound: Bound::About,
    printed: 12.83,
    value: 0.1283,
    unit: "points",
};

/// F10: tensor parallelism gains 52.6% at 2048 GPUs.
pub(super) const F10_GAIN: Stated = Stated {
    quantity: "throughput gain of TP at 2048 GPUs",
    bound: Bound::About,
    printed: 52.6,
    value: 0.526,
    unit: "%",
};

/// F10: for about 30 W more per GPU.
pub(super) const F10_POWER_RISE: Stated = Stated {
    quantity: "power rise of TP at 2048 GPUs",
    bound: Bound::About,
    printed: 30.0,
    value: 30.0,
    unit: "W",
};

/// F11: MFU falls by more than 30% from 512 to 2048 GPUs, for each model.
pub(super) const F11_MFU_FALL: [(&str, Stated); 2] = [
    (
        "llama2-7b",
        Stated {
            quantity: "MFU fall, 512 to 2048 GPUs, Llama-2 7B",
            bound: Bound::Over,
            printed: 30.0,
            value: 0.30,
            unit: "%",
        },
    ),
    (
        "llama2-70b",
        Stated {
            quantity: "MFU fall, 512 to 2048 GPUs, Llama-2 70B",
            bound: Bound::Over,
            printed: 30.0,
            value: 0.30,
            unit: "%",
        },
    ),
];
