//! Bus bandwidth of AllGather, AllReduce and All-to-All against the node
//! count, on the links the step model uses.

use super::{sweep_nodes, Controls};
use scalescope_core::collective::{self, Collective, Group};
use scalescope_core::units::Bytes;

/// Message size of the collective bandwidth chart (nccl-tests' 1 GB point).
pub const COLLECTIVE_MESSAGE: Bytes = Bytes::mb(1024.0);

/// Bus bandwidth of the two collectives at one node count.
#[derive(Clone, Copy, Debug)]
pub struct BusBandwidth {
    /// Nodes.
    pub nodes: u32,
    /// Ring AllGather bus bandwidth, GB/s.
    pub allgather: f64,
    /// AllReduce (NCCL's faster of ring and tree) bus bandwidth, GB/s.
    pub allreduce: f64,
    /// All-to-All over every GPU (an expert-parallel group of them all)
    /// bus bandwidth, GB/s.
    pub alltoall: f64,
}

/// Bus bandwidth of the three collectives at every node count of the sweep (none
/// when the setting's hardware does not resolve).
pub(super) fn collectives(c: &Controls) -> Vec<BusBandwidth> {
    let gpn = c.gpus_per_node();
    let Ok(cfg) = c.scenario_at(1, c.gpu).resolve() else {
        return Vec::new();
    };
    // The links the step model uses, with its at-scale ring step factor.
    let links = scalescope_core::evaluate::links(&cfg);
    let domain = cfg.cluster.domain();
    sweep_nodes(c.nodes)
        .into_iter()
        .map(|n| {
            let ranks = n.saturating_mul(gpn);
            // Ranks inside one NVLink domain: a host's, or an NVL72 rack's.
            let g = Group::new(ranks, ranks.min(domain));
            let bw = |op| {
                collective::time(op, COLLECTIVE_MESSAGE, g, &links)
                    .bus_bandwidth
                    .as_gb_s()
            };
            BusBandwidth {
                nodes: n,
                allgather: bw(Collective::AllGather),
                allreduce: bw(Collective::AllReduce),
                alltoall: collective::all_to_all(COLLECTIVE_MESSAGE, g, &links)
                    .bus_bandwidth
                    .as_gb_s(),
            }
        })
        .collect()
}
