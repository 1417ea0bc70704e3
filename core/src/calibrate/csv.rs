//! Measured runs as CSV: a header line naming the columns (in any order),
//! then one run per line; blank lines and lines starting with `#` are
//! skipped. Values are spelled as in a scenario file, and each run must
//! be able to run ([`Scenario::to_config`]). Cells are split at commas,
//! without quoting: no value needs a comma.

use super::{Measured, Metric, MAX_RUNS};
use crate::error::Error;
use crate::model::PRESETS;
use crate::scenario::{HardwareSpec, ModelSpec, Parallel, Scenario};
use crate::stack::StackId;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::de::{DeserializeOwned, IntoDeserializer};

/// Every column, in the order [`write_csv`] writes them, and whether a
/// CSV must have it. A missing optional column or an empty cell in one
/// takes the scenario file's default.
const COLUMNS: [(&str, bool); 20] = [
    ("gpu", true),
    ("gpus_per_node", false),
    ("nodes", true),
    ("inter_node_gbps_per_gpu", false),
    ("model", true),
    ("seq", true),
    ("global_batch", true),
    ("micro_batch", true),
    ("tp", true),
    ("pp", true),
    ("cp", false),
    ("dp", false),
    ("sp", false),
    ("schedule", false),
    ("virtual_stages", false),
    ("recompute", false),
    ("precision", false),
    ("stack", false),
    ("metric", true),
    ("value", true),
];

/// Why a CSV of measured runs cannot be read: the line (from 1), the
/// column where one is to blame, and what is wrong.
///
/// ```
/// use scalescope_core::calibrate::read_csv;
/// let e = read_csv("gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,metric,value\n\
///                   h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,-12\n").unwrap_err();
/// assert_eq!(e.to_string(), "line 2, field `value`: negative throughput -12");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// The line, counted from 1.
    pub line: usize,
    /// The column to blame, if one is.
    pub field: Option<String>,
    /// What is wrong, and what to change.
    pub message: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "line {}, field `{field}`: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl core::error::Error for RunError {}

fn refuse(line: usize, field: Option<&str>, message: impl Into<String>) -> RunError {
    RunError {
        line,
        field: field.map(String::from),
        message: message.into(),
    }
}

/// Reads measured runs from CSV text.
///
/// Required columns: `gpu` (a scenario file's GPU id or short name),
/// `nodes`, `model` (a preset), `seq` (context length), `global_batch`,
/// `micro_batch`, `tp`, `pp`, `metric` (`tokens_per_gpu`, `step_time` or
/// `mfu`, see [`Metric`]) and `value`. Optional: `gpus_per_node`,
/// `inter_node_gbps_per_gpu`, `cp`, `dp` (default `fsdp`), `sp`,
/// `schedule`, `virtual_stages`, `recompute`, `precision`, `stack`, with
/// the scenario file's defaults.
///
/// # Errors
/// A [`RunError`] naming the line and, where one is to blame, the column:
/// no header, an unknown, repeated or missing column, a line with another
/// number of cells than the header, a value that is not a number or not a
/// spelling the scenario file knows, a measured value that is not positive
/// and finite (or an MFU over 1), a setting that cannot run (the
/// scenario's error), or more than [`MAX_RUNS`] runs.
pub fn read_csv(text: &str) -> Result<Vec<Measured>, RunError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let (at, header) = lines.next().ok_or_else(|| {
        refuse(
            1,
            None,
            "no header line: the first line names the columns, e.g. gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,metric,value",
        )
    })?;
    let columns = read_header(at, header)?;
    let mut runs = Vec::new();
    for (at, line) in lines {
        if runs.len() == MAX_RUNS {
            return Err(refuse(
                at,
                None,
                format!("more than {MAX_RUNS} runs: calibrate on at most {MAX_RUNS}"),
            ));
        }
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if cells.len() != columns.len() {
            return Err(refuse(
                at,
                None,
                format!(
                    "{} cells, and the header names {} columns: give one value per column",
                    cells.len(),
                    columns.len()
                ),
            ));
        }
        runs.push(
            Row {
                at,
                columns: &columns,
                cells: &cells,
            }
            .run()?,
        );
    }
    Ok(runs)
}

/// The header's columns, each known and named once, every required one present.
fn read_header(at: usize, header: &str) -> Result<Vec<&str>, RunError> {
    let columns: Vec<&str> = header.split(',').map(str::trim).collect();
    for (i, &c) in columns.iter().enumerate() {
        if !COLUMNS.iter().any(|&(name, _)| name == c) {
            let names: Vec<&str> = COLUMNS.iter().map(|&(name, _)| name).collect();
            return Err(refuse(
                at,
                Some(c),
                format!("unknown column: the columns are {}", names.join(", ")),
            ));
        }
        if columns[..i].contains(&c) {
            return Err(refuse(at, Some(c), "column named twice: name it once"));
        }
    }
    if let Some(&(missing, _)) = COLUMNS
        .iter()
        .find(|&&(name, required)| required && !columns.contains(&name))
    {
        return Err(refuse(at, Some(missing), "missing required column"));
    }
    Ok(columns)
}

/// One line's cells under the header's columns.
struct Row<'a> {
    at: usize,
    columns: &'a [&'a str],
    cells: &'a [&'a str],
}

impl Row<'_> {
    /// The cell of `column`, `None` where the column is absent or the cell empty.
    fn cell(&self, column: &str) -> Option<&str> {
        self.columns
            .iter()
            .position(|&c| c == column)
            .map(|i| self.cells[i])
            .filter(|c| !c.is_empty())
    }

    fn refuse(&self, column: &str, message: impl Into<String>) -> RunError {
        refuse(self.at, Some(column), message)
    }

    /// The cell of a required column.
    fn required(&self, column: &str) -> Result<&str, RunError> {
        self.cell(column)
            .ok_or_else(|| self.refuse(column, "empty: this column needs a value"))
    }

    /// A count of at least 1.
    fn count(&self, column: &str, default: Option<u32>) -> Result<u32, RunError> {
        let text = match (self.cell(column), default) {
            (None, Some(d)) => return Ok(d),
            (None, None) => self.required(column)?,
            (Some(t), _) => t,
        };
        match text.parse::<u32>() {
            Ok(0) => Err(self.refuse(column, "0: a count must be at least 1")),
            Ok(n) => Ok(n),
            Err(_) => Err(self.refuse(column, format!("`{text}` is not a whole number"))),
        }
    }

    /// A number.
    fn number(&self, column: &str, text: &str) -> Result<f64, RunError> {
        text.parse::<f64>()
            .map_err(|_| self.refuse(column, format!("`{text}` is not a number")))
    }

    /// A choice spelled as the scenario file spells it, or `default`.
    fn choice<T: DeserializeOwned>(&self, column: &str, default: T) -> Result<T, RunError> {
        let Some(text) = self.cell(column) else {
            return Ok(default);
        };
        let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
            text.into_deserializer();
        T::deserialize(de).map_err(|e| self.refuse(column, e.to_string()))
    }

    /// The run on this line, checked.
    fn run(&self) -> Result<Measured, RunError> {
        let metric_text = self.required("metric")?;
        let metric = Metric::parse(metric_text).ok_or_else(|| {
            self.refuse(
                "metric",
                format!("unknown metric `{metric_text}`: use tokens_per_gpu, step_time or mfu"),
            )
        })?;
        let value = self.number("value", self.required("value")?)?;
        if let Some(why) = metric.refuse(value) {
            return Err(self.refuse("value", why));
        }
        let sp = match self.cell("sp") {
            None => false,
            Some(t) => t
                .parse::<bool>()
                .map_err(|_| self.refuse("sp", format!("`{t}` is not true or false")))?,
        };
        let scenario = Scenario {
            hardware: HardwareSpec {
                gpu: String::from(self.required("gpu")?),
                nodes: self.count("nodes", None)?,
                gpus_per_node: self
                    .cell("gpus_per_node")
                    .map(|_| self.count("gpus_per_node", None))
                    .transpose()?,
                nvlink_domain: None,
                inter_node_gbps_per_gpu: self
                    .cell("inter_node_gbps_per_gpu")
                    .map(|t| self.number("inter_node_gbps_per_gpu", t))
                    .transpose()?,
                peak_tflops: None,
                hbm_gib: None,
                hbm_gb_per_s: None,
                nvlink_gb_per_s: None,
                dp_overlap_gb_per_s: None,
                host_link_gb_per_s: None,
            },
            model: ModelSpec::Preset(String::from(self.required("model")?)),
            seq_len: self.count("seq", None)?,
            global_batch: self.count("global_batch", None)?,
            micro_batch: self.count("micro_batch", None)?,
            parallel: Parallel {
                dp: self.choice("dp", crate::scenario::DataParallel::Fsdp)?,
                tp: self.count("tp", None)?,
                pp: self.count("pp", None)?,
                cp: self.count("cp", Some(1))?,
                sp,
                schedule: self.choice("schedule", crate::scenario::Schedule::OneFOneB)?,
                virtual_stages: self.count("virtual_stages", Some(0))?,
                ep: 1,
                etp: 1,
                ep_overlap: false,
            },
            recompute: self.choice("recompute", crate::scenario::Recompute::None)?,
            offload_layers: 0,
            recompute_modules: crate::scenario::Modules::NONE,
            precision: self.choice("precision", crate::scenario::Precision::Bf16)?,
            stack: self.choice("stack", StackId::Paper)?,
            calibration: super::Calibration::default(),
        };
        if let Err(e) = scenario.to_config() {
            return Err(refuse(self.at, column_of(&e), e.to_string()));
        }
        Ok(Measured {
            scenario,
            metric,
            value,
        })
    }
}

/// The column to blame for a scenario's error, where one is.
fn column_of(e: &Error) -> Option<&'static str> {
    let field = match e {
        Error::NotPositive { field }
        | Error::TooLarge { field, .. }
        | Error::TooSmall { field, .. } => {
            let name = field.rsplit('.').next().unwrap_or(field);
            if name == "seq_len" {
                "seq"
            } else {
                name
            }
        }
        Error::UnknownGpu => "gpu",
        Error::UnknownModel => "model",
        Error::TpNotDividingHeads { .. } => "tp",
        Error::PipelineTooDeep { .. } | Error::PipelineTooLong { .. } => "pp",
        Error::CpNotDividingSequence { .. } => "cp",
        Error::BatchNotDivisible { .. } => "global_batch",
        Error::StackLacks { .. } => "stack",
        Error::PrecisionUnsupported { .. } => "precision",
        _ => return None,
    };
    COLUMNS
        .iter()
        .map(|&(name, _)| name)
        .find(|&name| name == field)
}

/// Writes runs as CSV that [`read_csv`] reads back, every column named.
/// The CSV names models by preset and holds no hardware override beyond
/// the GPUs per node and the network rate, nor a calibration: a custom
/// model shape is written as `custom` (which [`read_csv`] refuses), and
/// the other overrides are left out.
#[must_use]
pub fn write_csv(runs: &[Measured]) -> String {
    let names: Vec<&str> = COLUMNS.iter().map(|&(name, _)| name).collect();
    let mut out = names.join(",");
    out.push('\n');
    for m in runs {
        let s = &m.scenario;
        let hw = &s.hardware;
        let p = &s.parallel;
        let model = match &s.model {
            ModelSpec::Preset(id) => id.clone(),
            ModelSpec::Custom(shape) => PRESETS
                .iter()
                .find(|preset| preset.model == *shape)
                .map_or_else(|| String::from("custom"), |preset| String::from(preset.id)),
        };
        let cells = [
            hw.gpu.clone(),
            hw.gpus_per_node.map(|g| g.to_string()).unwrap_or_default(),
            hw.nodes.to_string(),
            hw.inter_node_gbps_per_gpu
                .map(|g| g.to_string())
                .unwrap_or_default(),
            model,
            s.seq_len.to_string(),
            s.global_batch.to_string(),
            s.micro_batch.to_string(),
            p.tp.to_string(),
            p.pp.to_string(),
            p.cp.to_string(),
            String::from(p.dp.key()),
            p.sp.to_string(),
            String::from(p.schedule.key()),
            // Unset (0) reads back from an empty cell.
            if p.virtual_stages == 0 {
                String::new()
            } else {
                p.virtual_stages.to_string()
            },
            String::from(s.recompute.key()),
            String::from(s.precision.key()),
            String::from(s.stack.key()),
            String::from(m.metric.key()),
            m.value.to_string(),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}
