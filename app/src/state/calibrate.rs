//! Calibrating the model to the user's own measured runs: the runs read
//! from CSV and the constants fitted by the core ([`scalescope_core::calibrate`]).

use scalescope_core::calibrate::{fit, read_csv, Constant, FitReport};

/// The constants free by default: the GPU's GEMM efficiency, the
/// network's efficiency and the data-parallel overlap share.
pub const FREE_BY_DEFAULT: [Constant; 3] = [
    Constant::GemmEfficiency,
    Constant::NetworkEfficiency,
    Constant::DpOverlapShare,
];

/// Fits the `free` constants to the runs in `csv`.
///
/// # Errors
/// A line of the CSV that cannot be read (named by line and column), or a
/// fit the core refuses (more free constants than runs, none free).
pub fn fit_csv(csv: &str, free: &[Constant]) -> Result<FitReport, String> {
    let runs = read_csv(csv).map_err(|e| e.to_string())?;
    fit(&runs, free, Default::default()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{compute, Controls};

    const RUNS: &str = "gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,dp,stack,metric,value
h100,1,llama2-7b,4096,16,2,1,1,fsdp,megatron,tokens_per_gpu,8648
h100,4,llama2-7b,4096,64,2,1,1,fsdp,megatron,tokens_per_gpu,8100
h100,16,llama2-7b,4096,256,2,1,1,fsdp,megatron,tokens_per_gpu,7700
h100,32,llama2-7b,4096,64,2,8,1,fsdp,megatron,tokens_per_gpu,4839
";

    #[test]
    fn a_fit_changes_every_chart_until_it_is_turned_off() {
        let report = fit_csv(RUNS, &FREE_BY_DEFAULT).expect("fits");
        assert!(report.rms_after < report.rms_before);
        let plain = Controls::default();
        let mut c = plain.clone();
        c.calibration = report.calibration;
        c.calibrated = true;
        let (_, a) = compute(&plain).current.expect("runs");
        let (_, b) = compute(&c).current.expect("runs");
        assert!(
            b.tokens_per_s < a.tokens_per_s * 0.95,
            "{} {}",
            a.tokens_per_s,
            b.tokens_per_s
        );
        c.calibrated = false;
        let (_, back) = compute(&c).current.expect("runs");
        assert_eq!(back, a);
        // The calibration rides in the link, on or off.
        for on in [true, false] {
            c.calibrated = on;
            let (read, notices) = crate::url::from_query(&crate::url::to_query(&c));
            assert!(notices.is_empty(), "{notices:?}");
            assert_eq!(read, c);
        }
    }

    #[test]
    fn a_bad_line_is_named_by_line_and_field() {
        let bad = RUNS.replace("8100", "-12");
        let e = fit_csv(&bad, &FREE_BY_DEFAULT).expect_err("negative throughput");
        assert!(e.starts_with("line 3, field `value`"), "{e}");
        let two = RUNS.lines().take(3).collect::<Vec<_>>().join("\n");
        let e = fit_csv(&two, &FREE_BY_DEFAULT).expect_err("3 constants from 2 runs");
        assert!(e.contains('3') && e.contains('2'), "{e}");
    }
}
