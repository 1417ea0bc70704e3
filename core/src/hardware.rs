//! GPUs and the clusters built from them, as data a user can read and
//! override. Datasheet numbers come from the paper's Table 1 where it gives
//! them and from NVIDIA's datasheets otherwise; the few numbers that are not
//! datasheet values are listed in [`crate::calibration`].

use crate::calibration as cal;
use crate::collective::Links;
use crate::units::{Bandwidth, Bytes, FlopRate, Seconds, Watts};
use serde::{Deserialize, Serialize};

/// One GPU model and the DGX-style node it ships in.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gpu {
    /// Stable identifier used in scenario files, e.g. `h100-sxm5-80gb`.
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// True for parts the paper did not measure (H200 and Blackwell): their
    /// GEMM efficiency is carried over from H100 (GB200's scaled by its
    /// measured share of GB300's); their attention kernels run at rates
    /// measured on H200 (H100's tensor cores), GB200 (B200's die) and GB300.
    pub extrapolated: bool,
    /// Peak dense tensor-core FLOP/s in bf16 (fp16 on V100).
    pub peak_bf16: FlopRate,
    /// Peak dense tensor-core FLOP/s in fp8; zero where fp8 is unsupported.
    pub peak_fp8: FlopRate,
    /// Peak dense tensor-core FLOP/s in fp4 (NVFP4); zero before Blackwell.
    pub peak_fp4: FlopRate,
    /// HBM capacity.
    pub hbm: Bytes,
    /// HBM bandwidth.
    pub hbm_bandwidth: Bandwidth,
    /// NVLink bandwidth per GPU, both directions together, as NVIDIA quotes it.
    pub nvlink: Bandwidth,
    /// InfiniBand bandwidth per node, as NVIDIA quotes it for the DGX.
    pub network_per_node: Bandwidth,
    /// Bytes per second one GPU moves to or from host memory, per
    /// direction (what activation offloading copies over).
    pub host_link: Bandwidth,
    /// GPUs in one host (a DGX or HGX node of 8; a compute tray of 4 in
    /// an NVL72 rack), whose NICs [`Gpu::network_per_node`] counts.
    pub gpus_per_node: u32,
    /// GPUs one NVLink switch fabric joins: the host of 8 in a DGX, the
    /// rack of 72 in a GB200 or GB300 NVL72.
    pub nvlink_domain: u32,
    /// Board power limit.
    pub tdp: Watts,
    /// Power drawn by an idle GPU with its clocks up.
    pub idle: Watts,
    /// Fraction of peak that large bf16 GEMMs reach on this part inside a
    /// training step; smaller GEMMs reach less ([`Gpu::gemm_shape`]).
    pub gemm_efficiency: f64,
    /// How a GEMM's throughput falls with its shape on this part.
    pub gemm_shape: GemmShape,
    /// Fraction of peak that the fused attention kernel reaches
    /// (FlashAttention-2; CUTLASS attention on V100).
    pub attention_efficiency: f64,
    /// The same for the kernel Transformer Engine picks (cuDNN's fused
    /// attention on Hopper and later, FlashAttention-2 before).
    pub te_attention_efficiency: f64,
    /// Keys at which that kernel reaches half its long-sequence rate
    /// ([`crate::calibration::ATTENTION_HALF_LENGTH`] for FlashAttention-2,
    /// [`crate::calibration::CUDNN_ATTENTION_HALF_LENGTH`] for cuDNN's).
    pub te_attention_half_length: f64,
    /// Streaming multiprocessors; NCCL kernels take some of them from
    /// compute while they run.
    pub sm_count: u32,
    /// Whether the node's NVSwitch reduces in the switch (NVLink SHARP,
    /// third-generation NVSwitch and later), which NCCL uses for AllReduce
    /// inside a node.
    pub nvlink_sharp: bool,
}

/// How a GEMM's throughput falls with its shape, as cuBLAS measurements
/// show it: a GEMM of `m x n` outputs over a reduction of `k` reaches
/// `1 / (1/e + k0/k + a0/(m n))` of peak, where `e` is the large-GEMM
/// ceiling, `k0/k` the per-tile prologue and epilogue (fewer steps of `k`
/// to spread them over) and `a0/(m n)` the last wave's tail (too few
/// output tiles to fill the SMs). [`GemmShape::factor`] is that over the
/// ceiling: 1 for a large GEMM, and what multiplies
/// [`Gpu::gemm_efficiency`] for the GEMM at hand.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GemmShape {
    /// Large-GEMM ceiling of the microbenchmarks (fraction of peak).
    pub ceiling: f64,
    /// Prologue and epilogue per output tile, in steps of `k`.
    pub k0: f64,
    /// The last wave's tail, in output elements.
    pub a0: f64,
    /// fp8 GEMMs' ceiling over bf16's, each as a fraction of its own peak.
    pub fp8_ratio: f64,
    /// fp4 GEMMs' efficiency as a share of fp8's (Blackwell).
    pub fp4_share: f64,
}

impl GemmShape {
    /// The fraction of the large-GEMM rate that an `m x n x k` GEMM
    /// reaches (in fp8 if `fp8`: each step of `k` takes half the time, so
    /// the epilogue weighs twice as many steps).
    #[must_use]
    pub fn factor(&self, m: f64, n: f64, k: f64, fp8: bool) -> f64 {
        let (k0, ratio) = self.precision(fp8);
        let tail = self.ceiling * (k0 / k.max(1.0) + self.a0 / (m * n).max(1.0));
        ratio / (1.0 + tail)
    }

    /// The prologue and epilogue per tile in steps of `k`, and the
    /// ceiling's ratio to bf16's, in fp8 (each step of `k` takes half the
    /// time, so the epilogue weighs twice as many) or not.
    fn precision(&self, fp8: bool) -> (f64, f64) {
        if fp8 {
            (2.0 * self.k0, self.fp8_ratio)
        } else {
            (self.k0, 1.0)
        }
    }

    /// Seconds of an `m x n x k` GEMM at `rate` FLOP/s before its shape's
    /// fall: `2 m n k / (rate × factor)`, with the factor's quotients
    /// multiplied through so that one division remains (a layer costs
    /// several GEMMs on every evaluation).
    #[must_use]
    pub fn seconds(&self, (m, n, k): (f64, f64, f64), fp8: bool, rate: f64) -> f64 {
        let (k0, ratio) = self.precision(fp8);
        let mn = m * n;
        // m n k / max(k, 1) and m n k / max(m n, 1).
        let per_k = if k >= 1.0 { mn } else { mn * k };
        let per_mn = if mn >= 1.0 { k } else { k * mn };
        2.0 * (mn * k + self.ceiling * (k0 * per_k + self.a0 * per_mn)) / (rate * ratio)
    }
}

/// V100-SXM2-32GB in a DGX-1 (hybrid cube-mesh NVLink 2).
pub const V100: Gpu = Gpu {
    id: "v100-sxm2-32gb",
    name: "V100 SXM2 32GB",
    extrapolated: false,
    peak_bf16: FlopRate::tflops(125.0),
    peak_fp8: FlopRate(0.0),
    peak_fp4: FlopRate(0.0),
    hbm: Bytes::gib(32.0),
    hbm_bandwidth: Bandwidth::gb_s(900.0),
    nvlink: Bandwidth::gb_s(300.0),
    network_per_node: Bandwidth::gb_s(100.0),
    // PCIe Gen3 x16.
    host_link: Bandwidth::gb_s(16.0),
    gpus_per_node: 8,
    nvlink_domain: 8,
    tdp: Watts(300.0),
    idle: Watts(40.0),
    gemm_efficiency: cal::GEMM_EFFICIENCY_V100,
    gemm_shape: cal::GEMM_SHAPE_A100,
    attention_efficiency: cal::ATTENTION_EFFICIENCY_V100,
    te_attention_efficiency: cal::ATTENTION_EFFICIENCY_V100,
    te_attention_half_length: cal::ATTENTION_HALF_LENGTH,
    sm_count: 80,
    nvlink_sharp: false,
};

/// A100-SXM4-40GB in a DGX A100.
pub const A100_40GB: Gpu = Gpu {
    id: "a100-sxm4-40gb",
    name: "A100 SXM4 40GB",
    extrapolated: false,
    peak_bf16: FlopRate::tflops(312.0),
    peak_fp8: FlopRate(0.0),
    peak_fp4: FlopRate(0.0),
    hbm: Bytes::gib(40.0),
    hbm_bandwidth: Bandwidth::gb_s(1555.0),
    nvlink: Bandwidth::gb_s(600.0),
    network_per_node: Bandwidth::gb_s(200.0),
    // PCIe Gen4 x16.
    host_link: Bandwidth::gb_s(32.0),
    gpus_per_node: 8,
    nvlink_domain: 8,
    tdp: Watts(400.0),
    idle: Watts(50.0),
    gemm_efficiency: cal::GEMM_EFFICIENCY_A100,
    gemm_shape: cal::GEMM_SHAPE_A100,
    attention_efficiency: cal::ATTENTION_EFFICIENCY_A100,
    te_attention_efficiency: cal::ATTENTION_EFFICIENCY_A100,
    te_attention_half_length: cal::ATTENTION_HALF_LENGTH,
    sm_count: 108,
    nvlink_sharp: false,
};

/// A100-SXM4-80GB in a DGX A100 (the paper's Ampere system).
pub const A100_80GB: Gpu = Gpu {
    id: "a100-sxm4-80gb",
    name: "A100 SXM4 80GB",
    hbm: Bytes::gib(80.0),
    hbm_bandwidth: Bandwidth::gb_s(2039.0),
    ..A100_40GB
};

/// H100-SXM5-80GB in a DGX H100 (the paper's Hopper system).
pub const H100: Gpu = Gpu {
    id: "h100-sxm5-80gb",
    name: "H100 SXM5 80GB",
    extrapolated: false,
    peak_bf16: FlopRate::tflops(990.0),
    peak_fp8: FlopRate::tflops(1979.0),
    peak_fp4: FlopRate(0.0),
    hbm: Bytes::gib(80.0),
    hbm_bandwidth: Bandwidth::gb_s(3350.0),
    nvlink: Bandwidth::gb_s(900.0),
    network_per_node: Bandwidth::gb_s(400.0),
    // PCIe Gen5 x16.
    host_link: Bandwidth::gb_s(64.0),
    gpus_per_node: 8,
    nvlink_domain: 8,
    tdp: Watts(700.0),
    idle: Watts(70.0),
    gemm_efficiency: cal::GEMM_EFFICIENCY_H100,
    gemm_shape: cal::GEMM_SHAPE_H100,
    attention_efficiency: cal::ATTENTION_EFFICIENCY_H100,
    te_attention_efficiency: cal::CUDNN_ATTENTION_EFFICIENCY_H100,
    te_attention_half_length: cal::CUDNN_ATTENTION_HALF_LENGTH,
    sm_count: 132,
    nvlink_sharp: true,
};

/// H200-SXM-141GB (extrapolated: H100 compute with more and faster HBM).
pub const H200: Gpu = Gpu {
    id: "h200-sxm-141gb",
    name: "H200 SXM 141GB (extrapolated)",
    extrapolated: true,
    hbm: Bytes::gib(141.0),
    hbm_bandwidth: Bandwidth::gb_s(4800.0),
    ..H100
};

/// B200's dense bf16 TFLOP/s and SMs.
const B200_BF16_SMS: (f64, f64) = (2250.0, 148.0);
/// GB200's (and GB300's) dense bf16 TFLOP/s and SMs.
const GB200_BF16_SMS: (f64, f64) = (2500.0, 152.0);

/// B200 in a DGX B200 (extrapolated: its GEMMs at GB200's sustained rate
/// per SM, [`gb200_gemm_rate_per_sm`]; FlashAttention-2 and cuDNN's
/// attention as measured on GB200, the same die).
/// Dense rates: half the HGX B200 table's figures with sparsity; fp4 as
/// the DGX B200's 72 PFLOPS dense over 8 GPUs.
pub const B200: Gpu = Gpu {
    id: "b200-180gb",
    name: "B200 180GB (extrapolated)",
    extrapolated: true,
    peak_bf16: FlopRate::tflops(B200_BF16_SMS.0),
    peak_fp8: FlopRate::tflops(4500.0),
    peak_fp4: FlopRate::tflops(9000.0),
    hbm: Bytes::gib(180.0),
    hbm_bandwidth: Bandwidth::gb_s(8000.0),
    nvlink: Bandwidth::gb_s(1800.0),
    network_per_node: Bandwidth::gb_s(400.0),
    // PCIe Gen5 x16.
    host_link: Bandwidth::gb_s(64.0),
    gpus_per_node: 8,
    nvlink_domain: 8,
    tdp: Watts(1000.0),
    idle: Watts(100.0),
    gemm_efficiency: gb200_gemm_rate_per_sm(B200_BF16_SMS),
    gemm_shape: cal::blackwell_gemm_shape(B200_BF16_SMS.0, B200_BF16_SMS.1),
    // GB200's FlashAttention-2 rate per SM, on 148 SMs.
    attention_efficiency: flash_attention_2_on(
        B200_BF16_SMS.0,
        B200_BF16_SMS.1,
        cal::FLASH_ATTENTION_2_GB200_OVER_H200,
    ),
    te_attention_efficiency: cal::CUDNN_ATTENTION_EFFICIENCY_B200,
    te_attention_half_length: cal::CUDNN_ATTENTION_HALF_LENGTH,
    sm_count: 148,
    nvlink_sharp: true,
};

/// GB200 in a GB200 NVL72 rack: 18 compute trays of 4 GPUs (each GPU
/// with its own ConnectX-7 400 Gb/s NIC) joined by one NVLink 5 switch
/// fabric of 72 GPUs. Dense rates are half NVIDIA's rack figures with
/// sparsity (BF16 360, FP8 720, FP4 1,440 PFLOPS over 72 GPUs); HBM as
/// NVIDIA's MLPerf system description gives it (189,471 MiB, "186 GB") at
/// 8 TB/s (576 TB/s per rack), NVLink 5 at 1.8 TB/s per GPU; 1200 W is
/// the GB200 configuration's GPU power as third parties report it. 152
/// SMs, as CUDA counts them: the peak rates cudnn-frontend's benchmarks
/// record from each run's SM clock (8,192 bf16 FLOPs per SM per cycle)
/// come to whole megahertz only at 152 (2,567.569 TFLOP/s at 2,062 MHz,
/// 2,100.625 at 1,687), and Triton's GB300 support states 152 for GB300.
/// Its GEMMs run at [`cal::GB200_SUSTAINED_SHARE`] of GB300's rate, as
/// Azure's cuBLASLt tables measure the two.
pub const GB200: Gpu = Gpu {
    id: "gb200-nvl72",
    name: "GB200 NVL72 (extrapolated)",
    peak_bf16: FlopRate::tflops(GB200_BF16_SMS.0),
    peak_fp8: FlopRate::tflops(5000.0),
    peak_fp4: FlopRate::tflops(10_000.0),
    hbm: Bytes::gib(189_471.0 / 1024.0),
    network_per_node: Bandwidth::gb_s(4.0 * 50.0),
    // NVLink-C2C: 900 GB/s both ways between a Grace CPU and its two
    // GPUs (NVIDIA's GB200 figures), taken as shared: 225 GB/s per GPU
    // each way.
    host_link: Bandwidth::gb_s(225.0),
    gpus_per_node: 4,
    nvlink_domain: 72,
    tdp: Watts(1200.0),
    gemm_efficiency: cal::GEMM_EFFICIENCY_H100 * cal::GB200_SUSTAINED_SHARE,
    attention_efficiency: flash_attention_2_on(
        GB200_BF16_SMS.0,
        GB200_BF16_SMS.1,
        cal::FLASH_ATTENTION_2_GB200_OVER_H200,
    ),
    gemm_shape: cal::blackwell_gemm_shape(GB200_BF16_SMS.0, GB200_BF16_SMS.1),
    sm_count: 152,
    ..B200
};

/// GB300 (Blackwell Ultra) in a GB300 NVL72 rack: the GB200 NVL72's trays
/// and NVLink fabric with 288 GB of HBM3e per GPU (284,208 MiB usable in
/// NVIDIA's MLPerf system description), a ConnectX-8 800 Gb/s
/// NIC per GPU, GB200's 152 SMs (of the die's 160) and 1400 W
/// (third-party reports of NVIDIA's figures). Its BF16 and FP8 datasheet
/// rates are the GB200's; it gains in FP4 (15 PFLOPS dense NVFP4, NVIDIA's
/// Blackwell Ultra blog), in attention, whose exponentials run twice as
/// fast (cuDNN's and FlashAttention-2's rates, measured), and in the GEMM
/// rate it sustains ([`cal::GB200_SUSTAINED_SHARE`]).
pub const GB300: Gpu = Gpu {
    id: "gb300-nvl72",
    name: "GB300 NVL72 (extrapolated)",
    peak_fp4: FlopRate::tflops(15_000.0),
    hbm: Bytes::gib(284_208.0 / 1024.0),
    network_per_node: Bandwidth::gb_s(4.0 * 100.0),
    tdp: Watts(1400.0),
    // H100's fitted share: GB200's is this one's scaled by GB200_SUSTAINED_SHARE.
    gemm_efficiency: cal::GEMM_EFFICIENCY_H100,
    attention_efficiency: flash_attention_2_on(
        GB200_BF16_SMS.0,
        GB200_BF16_SMS.1,
        cal::FLASH_ATTENTION_2_GB300_OVER_H200,
    ),
    te_attention_efficiency: cal::CUDNN_ATTENTION_EFFICIENCY_GB300,
    ..GB200
};

/// FlashAttention-2's efficiency on a Blackwell part of `peak_bf16`
/// TFLOP/s over `sms` SMs, whose measured rate per SM is `over_h200` times
/// H200's (GB200's and GB300's 152 SMs; H200's rate is H100's, at
/// [`cal::ATTENTION_EFFICIENCY_H100`] of its peak).
#[must_use]
pub const fn flash_attention_2_on(peak_bf16: f64, sms: f64, over_h200: f64) -> f64 {
    let h100 = H100.peak_bf16.0 / 1e12;
    cal::ATTENTION_EFFICIENCY_H100 * over_h200 * (sms / GB200_BF16_SMS.1) * (h100 / peak_bf16)
}

/// The share of its own bf16 peak at which a Blackwell part of
/// `peak_bf16` TFLOP/s over `sms` SMs runs large GEMMs at GB200's
/// sustained rate per SM (H100's fitted share times
/// [`cal::GB200_SUSTAINED_SHARE`] of GB200's 2,500 TFLOP/s over 152 SMs).
/// B200 is GB200's die with 148 SMs enabled, rated at a lower clock (its
/// datasheet peak is 15.2 TFLOP/s an SM against GB200's 16.4) and run at
/// 1000 W against 1200 (6.8 W an SM against 7.9): a GEMM's power-limited
/// clock can be no higher on it than on GB200, so it sustains at most
/// GB200's rate per SM, the bound the model takes. It had kept H100's
/// share of its own peak, 5% more per SM than GB200 (1,456 against 1,419
/// TFLOP/s of large bf16 GEMM on 148 SMs to GB200's 152).
#[must_use]
pub const fn gb200_gemm_rate_per_sm((peak_bf16, sms): (f64, f64)) -> f64 {
    let (gb200_peak, gb200_sms) = GB200_BF16_SMS;
    let gb200_per_sm =
        cal::GEMM_EFFICIENCY_H100 * cal::GB200_SUSTAINED_SHARE * gb200_peak / gb200_sms;
    gb200_per_sm / (peak_bf16 / sms)
}

/// Every built-in GPU, oldest first.
pub const GPUS: [Gpu; 8] = [V100, A100_40GB, A100_80GB, H100, H200, B200, GB200, GB300];

/// Looks a GPU up by its [`Gpu::id`] (case-insensitive), also accepting the
/// short names `v100`, `a100`, `a100-40gb`, `h100`, `h200`, `b200`,
/// `gb200`, `gb300`.
#[must_use]
pub fn gpu_by_id(id: &str) -> Option<Gpu> {
    let short = match id.to_ascii_lowercase().as_str() {
        "v100" => "v100-sxm2-32gb",
        "a100" | "a100-80gb" => "a100-sxm4-80gb",
        "a100-40gb" => "a100-sxm4-40gb",
        "h100" => "h100-sxm5-80gb",
        "h200" => "h200-sxm-141gb",
        "b200" => "b200-180gb",
        "gb200" => "gb200-nvl72",
        "gb300" => "gb300-nvl72",
        _ => "",
    };
    GPUS.into_iter()
        .find(|g| g.id.eq_ignore_ascii_case(id) || g.id == short)
}

/// A cluster: `nodes` nodes of `gpu`, with optional overrides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    /// The GPU model (with any user overrides applied to its fields).
    pub gpu: Gpu,
    /// Number of nodes.
    pub nodes: u32,
    /// GPUs per host (whose NICs the network rate per GPU shares).
    pub gpus_per_node: u32,
    /// GPUs in one NVLink domain (at least a host): groups within it talk
    /// over NVLink, groups across it over the network. See [`Cluster::domain`].
    pub nvlink_domain: u32,
    /// Network line rate per GPU (one rail each).
    pub network_per_gpu: Bandwidth,
    /// Bus bandwidth per GPU that data-parallel collectives across nodes
    /// reach while compute kernels run beside them (at most; the topology
    /// may allow less), when the user sets it; `None` takes the stack's
    /// share of the NVLink bus rate ([`crate::scenario::Config::dp_overlap_bandwidth`]).
    /// Groups inside one node get at least [`cal::NVSWITCH_OVERLAP_SHARE`]
    /// of the NVLink bus rate.
    pub dp_overlap_bandwidth: Option<Bandwidth>,
    /// Share of the network line rate that NCCL's protocol reaches across
    /// nodes ([`cal::NETWORK_EFFICIENCY`] unless a calibration sets it).
    pub network_efficiency: f64,
}

impl Cluster {
    /// A DGX-style cluster of `nodes` nodes with the GPU's default system.
    #[must_use]
    pub fn new(gpu: Gpu, nodes: u32) -> Self {
        let gpn = gpu.gpus_per_node.max(1);
        Self {
            gpu,
            nodes,
            gpus_per_node: gpn,
            nvlink_domain: gpu.nvlink_domain.max(gpn),
            network_per_gpu: gpu.network_per_node / f64::from(gpn),
            dp_overlap_bandwidth: None,
            network_efficiency: cal::NETWORK_EFFICIENCY,
        }
    }

    /// NVLink bus bandwidth per GPU as NCCL achieves it: one direction
    /// (half the quoted figure) after protocol efficiency.
    #[must_use]
    pub fn nvlink_bus(gpu: &Gpu) -> Bandwidth {
        gpu.nvlink * (0.5 * cal::NVLINK_EFFICIENCY)
    }

    /// GPUs in one NVLink domain: never fewer than a host's.
    #[must_use]
    pub fn domain(&self) -> u32 {
        self.nvlink_domain.max(self.gpus_per_node).max(1)
    }

    /// Total GPU count.
    #[must_use]
    pub fn gpus(&self) -> u32 {
        self.nodes.saturating_mul(self.gpus_per_node)
    }

    /// The links a collective sees, after NCCL protocol efficiency.
    #[must_use]
    pub fn links(&self) -> Links {
        Links {
            nvlink: Self::nvlink_bus(&self.gpu),
            network: self.network_per_gpu * self.network_efficiency,
            base_latency: Seconds::us(cal::NCCL_BASE_LATENCY_US),
            nvlink_step: Seconds::us(cal::NCCL_NVLINK_STEP_US),
            network_step: Seconds::us(cal::NCCL_NETWORK_STEP_US),
            nvlink_tree_hop: Seconds::us(cal::NCCL_NVLINK_TREE_HOP_US),
            network_tree_hop: Seconds::us(cal::NCCL_NETWORK_TREE_HOP_US),
            ring_step_factor: 1.0,
            nvls: self.gpu.nvlink_sharp,
        }
    }
}
