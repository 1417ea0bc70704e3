//! Named errors: each says what is wrong and what to change.

use core::fmt;

/// Why a scenario cannot be evaluated.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A field that must be positive is zero (or negative, or not a number).
    NotPositive {
        /// The field's name in the scenario file.
        field: &'static str,
    },
    /// A field is above the largest value the model accepts.
    TooLarge {
        /// The field's name in the scenario file.
        field: &'static str,
        /// The largest accepted value.
        max: f64,
    },
    /// A field is positive but below the smallest value the model accepts.
    TooSmall {
        /// The field's name in the scenario file.
        field: &'static str,
        /// The smallest accepted value.
        min: f64,
    },
    /// The scenario names a GPU the model does not know.
    UnknownGpu,
    /// The scenario names a model preset that does not exist.
    UnknownModel,
    /// The attention heads do not split the hidden width into equal heads.
    HeadsNotDividingHidden {
        /// Attention heads.
        heads: u32,
        /// Hidden width.
        hidden: u32,
    },
    /// The key/value heads do not divide the attention heads (grouped-query
    /// attention shares each key/value head among equal groups).
    KvHeadsNotDividingHeads {
        /// Key/value heads.
        kv_heads: u32,
        /// Attention heads.
        heads: u32,
    },
    /// The tensor-parallel degree does not divide the attention heads.
    TpNotDividingHeads {
        /// Tensor-parallel degree.
        tp: u32,
        /// Attention heads.
        heads: u32,
    },
    /// The pipeline has more stages than layers, or more stages times
    /// virtual stages than layers and the embedding and the loss.
    PipelineTooDeep {
        /// Pipeline degree times virtual stages.
        stages: u32,
        /// The fewest layers they hold.
        least: u32,
        /// Transformer layers.
        layers: u32,
    },
    /// The pipeline's schedule would take more simulated passes than the
    /// model runs in bounded time (stages times chunks times the
    /// micro-batches simulated, forward and backward).
    PipelineTooLong {
        /// Pipeline degree.
        stages: u32,
        /// Chunks per stage (virtual stages; 1 without interleaving).
        chunks: u32,
        /// Passes the schedule would simulate.
        passes: u64,
        /// The most the model simulates.
        max: u64,
    },
    /// Activation offloading asks for what Megatron-Core refuses with it.
    OffloadNeeds {
        /// What offloading needs, e.g. "no recomputation".
        what: &'static str,
    },
    /// A recomputation module (`recompute_modules`) asks for what it
    /// reruns, or for a `selective` recomputation.
    ModuleNeeds {
        /// The module, as a file names it.
        module: &'static str,
        /// What it needs, e.g. "latent attention".
        what: &'static str,
    },
    /// The software stack has no such mechanism.
    StackLacks {
        /// The stack's key.
        stack: &'static str,
        /// What it lacks, e.g. "sequence parallelism".
        feature: &'static str,
    },
    /// Context parallelism needs the sequence to split into `2 * cp` equal chunks.
    CpNotDividingSequence {
        /// Context-parallel degree.
        cp: u32,
        /// Sequence length.
        seq_len: u32,
    },
    /// `tp * pp * cp` does not divide the GPU count.
    LayoutNotDividingGpus {
        /// Product of the model-parallel degrees.
        model_parallel: u32,
        /// GPUs in the cluster.
        gpus: u32,
    },
    /// The global batch does not split evenly into data-parallel replicas
    /// and micro-batches.
    BatchNotDivisible {
        /// Global batch in sequences.
        global_batch: u32,
        /// Data-parallel replicas.
        dp: u32,
        /// Micro-batch in sequences.
        micro_batch: u32,
    },
    /// The interleaved schedule needs at least as many micro-batches as
    /// pipeline stages (its groups of micro-batches hold at least PP), and
    /// DualPipeV twice as many (one per model chunk).
    InterleavingNeedsMicroBatches {
        /// The schedule's key.
        schedule: &'static str,
        /// Micro-batches per step.
        micro_batches: u32,
        /// The least it needs.
        least: u32,
        /// Pipeline degree.
        pp: u32,
    },
    /// The interleaved schedule with a stage holding fewer layers than
    /// chunks.
    InterleavingNeedsLayers {
        /// Layers of the stage.
        layers: u32,
        /// Chunks per stage.
        chunks: u32,
    },
    /// A value outside its range (an efficiency above one, say).
    OutOfRange {
        /// The field, as named in the API.
        field: &'static str,
        /// Smallest accepted value (excluded for efficiencies).
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// A calibrated constant (a scenario's `calibration`) outside the
    /// range the model accepts for it, or not a number.
    CalibrationOutOfRange {
        /// The constant's name in the scenario's `calibration`.
        field: &'static str,
        /// The value given.
        value: f64,
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// No layout of the search space fits in memory.
    NoLayoutFits,
    /// Expert parallelism asked of a dense model.
    ExpertsNeedMoe {
        /// The expert-parallel degree asked for.
        ep: u32,
        /// The expert tensor-parallel degree asked for.
        etp: u32,
    },
    /// The expert-parallel degree does not divide the routed experts.
    EpNotDividingExperts {
        /// Expert-parallel degree.
        ep: u32,
        /// Routed experts per layer.
        experts: u32,
    },
    /// EP x ETP does not divide the GPUs of a pipeline stage (TP x CP x DP),
    /// over which parallel folding lays the expert groups.
    ExpertGroupNotDividingStage {
        /// EP x ETP.
        expert_group: u32,
        /// TP x CP x DP.
        stage: u32,
    },
    /// The GPU cannot run the chosen precision.
    PrecisionUnsupported {
        /// The GPU's name.
        gpu: &'static str,
        /// The precision asked for (`fp8`, `fp4`).
        precision: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotPositive { field } => write!(f, "`{field}` must be a positive number"),
            Self::TooLarge { field, max } => write!(f, "`{field}` is too large: at most {max}"),
            Self::TooSmall { field, min } => write!(f, "`{field}` is too small: at least {min}"),
            Self::UnknownGpu => f.write_str(
                "unknown GPU: use v100-sxm2-32gb, a100-sxm4-40gb, a100-sxm4-80gb, h100-sxm5-80gb, h200-sxm-141gb, b200-180gb, gb200-nvl72 or gb300-nvl72",
            ),
            Self::UnknownModel => f.write_str(
                "unknown model: use llama2-1b, llama2-7b, llama2-13b, llama2-70b, llama3-8b, llama3-70b, llama3-405b, gpt3-175b or a custom shape",
            ),
            Self::HeadsNotDividingHidden { heads, hidden } => write!(
                f,
                "{heads} attention heads do not split the hidden width {hidden} into equal heads: pick heads dividing {hidden}"
            ),
            Self::KvHeadsNotDividingHeads { kv_heads, heads } => write!(
                f,
                "{kv_heads} key/value heads do not divide the {heads} attention heads: pick kv heads dividing {heads}"
            ),
            Self::TpNotDividingHeads { tp, heads } => write!(
                f,
                "tensor parallel {tp} does not divide the {heads} attention heads: pick a TP degree that divides {heads}"
            ),
            Self::PipelineTooDeep {
                stages,
                least,
                layers,
            } => write!(
                f,
                "{stages} pipeline stages need at least {least} layers, and the model has {layers}: lower PP or the virtual stages"
            ),
            Self::PipelineTooLong {
                stages,
                chunks,
                passes,
                max,
            } => write!(
                f,
                "a pipeline of {stages} stages of {chunks} chunks each would be simulated as {passes} passes, more than the {max} the model runs: lower PP or the virtual stages"
            ),
            Self::OffloadNeeds { what } => write!(
                f,
                "offloading needs {what} (Megatron-Core): set offload_layers to 0"
            ),
            Self::ModuleNeeds { module, what } => write!(
                f,
                "the recomputation module {module} needs {what} (Megatron-Core): remove it from recompute_modules"
            ),
            Self::StackLacks { stack, feature } => write!(
                f,
                "the {stack} stack has no {feature}: turn it off or pick a stack that has it (megatron, torchtitan)"
            ),
            Self::CpNotDividingSequence { cp, seq_len } => write!(
                f,
                "context parallel {cp} needs the sequence ({seq_len}) to split into {} equal chunks: lower CP or change the context length",
                2 * cp
            ),
            Self::LayoutNotDividingGpus { model_parallel, gpus } => write!(
                f,
                "TP x PP x CP = {model_parallel} does not divide the {gpus} GPUs: change a degree or the node count"
            ),
            Self::BatchNotDivisible { global_batch, dp, micro_batch } => write!(
                f,
                "global batch {global_batch} does not split over {dp} data-parallel replicas in micro-batches of {micro_batch}: make it a multiple of {}",
                u64::from(*dp) * u64::from(*micro_batch)
            ),
            Self::InterleavingNeedsMicroBatches {
                schedule,
                micro_batches,
                least,
                pp,
            } => write!(
                f,
                "the {schedule} schedule needs at least {least} micro-batches for PP {pp}, and has {micro_batches}: use 1F1B or a larger batch"
            ),
            Self::InterleavingNeedsLayers { layers, chunks } => write!(
                f,
                "the interleaved schedule splits each stage into {chunks} chunks, and a stage here holds {layers} layers: use fewer chunks, fewer stages or 1F1B"
            ),
            Self::OutOfRange { field, min, max } => {
                write!(f, "`{field}` must lie between {min} and {max}")
            }
            Self::CalibrationOutOfRange { field, value, min, max } => write!(
                f,
                "`calibration.{field}` is {value}: it must lie between {min} and {max}; set it inside that range or leave it out to keep the model's default"
            ),
            Self::NoLayoutFits => f.write_str(
                "no parallel layout fits in GPU memory: add nodes, shorten the context or pick a smaller model",
            ),
            Self::ExpertsNeedMoe { ep, etp } => write!(
                f,
                "expert parallelism (EP {ep}, ETP {etp}) needs a mixture-of-experts model: set EP and ETP to 1 or pick an MoE model"
            ),
            Self::EpNotDividingExperts { ep, experts } => write!(
                f,
                "expert parallel {ep} does not divide the {experts} routed experts: pick EP dividing {experts}"
            ),
            Self::ExpertGroupNotDividingStage { expert_group, stage } => write!(
                f,
                "EP x ETP = {expert_group} does not divide the {stage} GPUs of a pipeline stage (TP x CP x DP): lower EP or ETP, or change the node count"
            ),
            Self::PrecisionUnsupported { gpu, precision } => {
                write!(f, "{gpu} has no {precision} tensor cores: use bf16 or fp16")
            }
        }
    }
}

impl core::error::Error for Error {}

/// `message` with every backtick-quoted echo of the user's input longer
/// than `max` characters cut to `max` and an ellipsis, so that a 10 MB key
/// gives a readable line.
///
/// ```
/// use scalescope_core::error::clip_echoes;
/// let long = "x".repeat(1000);
/// let m = clip_echoes(&format!("unknown field `{long}`, expected `model`"), 8);
/// assert_eq!(m, "unknown field `xxxxxxxx…`, expected `model`");
/// ```
#[must_use]
pub fn clip_echoes(message: &str, max: usize) -> alloc::string::String {
    let mut out = alloc::string::String::with_capacity(message.len().min(4 * max + 200));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are inside backticks.
        if i % 2 == 1 && part.chars().count() > max {
            out.extend(part.chars().take(max));
            out.push('…');
        } else {
            out.push_str(part);
        }
    }
    out
}
