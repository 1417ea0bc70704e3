//! NCCL collectives as cost models: a latency per algorithm step plus bytes
//! over bus bandwidth, on a two-level topology (an NVLink domain inside a
//! node, a rail-optimised network between nodes).
//!
//! The step counts and the shape of the latency terms follow NCCL's own
//! tuning model (`src/graph/tuning.cc`): a ring AllGather or ReduceScatter
//! over `n` ranks on `m` nodes takes `n - 1` steps, `m - 1` of which cross
//! the network; a ring AllReduce takes twice that; a double binary tree
//! AllReduce pays `2 * ((n/m - 1) * intra + log2(m) * inter)`. The per-step
//! latencies themselves live in [`Links`] so that a user can override them.

use crate::math;
use crate::units::{Bandwidth, Bytes, Seconds};
use serde::{Deserialize, Serialize};

/// How a communicator's ranks are laid out: `ranks` GPUs, `ranks_per_node`
/// of them on each node it spans.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Number of ranks (GPUs) in the communicator.
    pub ranks: u32,
    /// Ranks of this communicator that share one node (1 to GPUs per node).
    pub ranks_per_node: u32,
}

impl Group {
    /// A group of `ranks` GPUs placed `ranks_per_node` to a node; both are
    /// clamped to at least 1 and `ranks_per_node` to at most `ranks`.
    #[must_use]
    pub fn new(ranks: u32, ranks_per_node: u32) -> Self {
        let ranks = ranks.max(1);
        Self {
            ranks,
            ranks_per_node: ranks_per_node.clamp(1, ranks),
        }
    }

    /// Number of nodes the group spans.
    #[must_use]
    pub fn nodes(self) -> u32 {
        self.ranks.div_ceil(self.ranks_per_node)
    }
}

/// The links a communicator runs over, as seen by one GPU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Links {
    /// Bytes per second one GPU achieves into the NVLink domain, per
    /// direction, after protocol efficiency.
    pub nvlink: Bandwidth,
    /// Bytes per second one GPU achieves on its own network rail, per
    /// direction, after protocol efficiency.
    pub network: Bandwidth,
    /// Fixed start-up latency of a collective kernel.
    pub base_latency: Seconds,
    /// Latency of one ring step over NVLink.
    pub nvlink_step: Seconds,
    /// Latency of one ring step over the network.
    pub network_step: Seconds,
    /// Latency of one tree hop over NVLink (a pipelined chunk).
    pub nvlink_tree_hop: Seconds,
    /// Latency of one tree hop over the network (a pipelined chunk).
    pub network_tree_hop: Seconds,
    /// Multiplies the latency of every ring step in groups of more than two
    /// ranks: measured rings at scale run slower per step than NCCL's
    /// tuning model (stragglers and jitter over many synchronised steps).
    /// Point-to-point sends and two-rank groups do not pay it.
    pub ring_step_factor: f64,
    /// Whether AllReduce inside a node can reduce in the switch (NVLS).
    pub nvls: bool,
}

/// The collective operations the model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Collective {
    /// Every rank ends with the concatenation of every rank's buffer.
    AllGather,
    /// Every rank ends with its shard of the element-wise sum.
    ReduceScatter,
    /// Every rank ends with the whole element-wise sum.
    AllReduce,
}

/// The algorithm NCCL would pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// A ring through every rank.
    Ring,
    /// Two complementary binary trees across nodes, a chain inside each.
    Tree,
    /// NVLink SHARP: the switch reduces, each GPU sends and receives its
    /// buffer once (inside one node).
    Nvls,
}

/// The modelled cost of one collective call.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollectiveCost {
    /// The algorithm chosen (the faster one, as NCCL's tuner does).
    pub algorithm: Algorithm,
    /// Wall-clock time of the call.
    pub time: Seconds,
    /// Bus bandwidth as nccl-tests reports it for this call.
    pub bus_bandwidth: Bandwidth,
}

/// Bus bandwidth of a ring over `group`: the NVLink rate inside one node;
/// across nodes, the slower of NVLink and the group's share of the node's
/// rails (each rank drives its own rail, so `ranks_per_node` rails).
#[must_use]
pub fn ring_bus_bandwidth(group: Group, links: &Links) -> Bandwidth {
    if group.nodes() <= 1 {
        links.nvlink
    } else {
        links
            .nvlink
            .min(links.network * f64::from(group.ranks_per_node))
    }
}

/// Time of one collective over `group`, where `bytes` is the whole buffer:
/// the gathered output of an AllGather, the input of a ReduceScatter, the
/// buffer of an AllReduce. A group of one rank costs nothing.
///
/// ```
/// use scalescope_core::collective::{time, Collective, Group, Links};
/// use scalescope_core::units::{Bandwidth, Bytes, Seconds};
/// let links = Links {
///     nvlink: Bandwidth::gb_s(360.0),
///     network: Bandwidth::gb_s(45.0),
///     base_latency: Seconds::us(8.4),
///     nvlink_step: Seconds::us(3.4),
///     network_step: Seconds::us(14.0),
///     nvlink_tree_hop: Seconds::us(4.0),
///     network_tree_hop: Seconds::us(14.0),
///     ring_step_factor: 1.0,
///     nvls: false,
/// };
/// // 1 GB gathered over the 8 GPUs of one node.
/// let c = time(Collective::AllGather, Bytes::mb(1000.0), Group::new(8, 8), &links);
/// assert!(c.time.as_ms() > 2.4 && c.time.as_ms() < 2.5);
/// ```
#[must_use]
pub fn time(op: Collective, bytes: Bytes, group: Group, links: &Links) -> CollectiveCost {
    let n = f64::from(group.ranks);
    let ring = ring_cost(op, bytes, group, links);
    if group.ranks <= 1 || bytes.0 <= 0.0 {
        return CollectiveCost {
            algorithm: Algorithm::Ring,
            time: Seconds(0.0),
            bus_bandwidth: ring_bus_bandwidth(group, links),
        };
    }
    let best = if op == Collective::AllReduce {
        let tree = tree_allreduce(bytes, group, links);
        let mut best = if tree.0 < ring.0 {
            (Algorithm::Tree, tree)
        } else {
            (Algorithm::Ring, ring)
        };
        if links.nvls && group.nodes() <= 1 {
            let nvls =
                links.base_latency + bytes / (links.nvlink * crate::calibration::NVLS_EFFICIENCY);
            if nvls.0 < best.1 .0 {
                best = (Algorithm::Nvls, nvls);
            }
        }
        best
    } else {
        (Algorithm::Ring, ring)
    };
    let factor = match op {
        Collective::AllReduce => 2.0 * (n - 1.0) / n,
        Collective::AllGather | Collective::ReduceScatter => (n - 1.0) / n,
    };
    CollectiveCost {
        algorithm: best.0,
        time: best.1,
        bus_bandwidth: Bandwidth(bytes.0 * factor / best.1 .0),
    }
}

fn ring_cost(op: Collective, bytes: Bytes, group: Group, links: &Links) -> Seconds {
    Ring::of(op, group, links).cost(bytes)
}

/// A ring collective over one group and its links, ready to be costed
/// for several buffer sizes ([`time`]'s ring, computed once): a latency
/// and a volume over the bus bandwidth. An AllGather and a ReduceScatter
/// of the same group cost the same.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ring {
    latency: Seconds,
    volume: f64,
    bus: Bandwidth,
    /// A group of one rank, which costs nothing.
    alone: bool,
}

impl Ring {
    pub(crate) fn of(op: Collective, group: Group, links: &Links) -> Self {
        let n = f64::from(group.ranks);
        let m = f64::from(group.nodes());
        let (steps, inter_steps, volume) = match op {
            Collective::AllGather | Collective::ReduceScatter => (n - 1.0, m - 1.0, (n - 1.0) / n),
            Collective::AllReduce => (2.0 * (n - 1.0), 2.0 * (m - 1.0), 2.0 * (n - 1.0) / n),
        };
        let factor = if group.ranks > 2 {
            links.ring_step_factor
        } else {
            1.0
        };
        Self {
            latency: links.base_latency
                + (links.nvlink_step * (steps - inter_steps) + links.network_step * inter_steps)
                    * factor,
            volume,
            bus: ring_bus_bandwidth(group, links),
            alone: group.ranks <= 1,
        }
    }

    /// The ring's time on `bytes` (no check for a group of one).
    fn cost(&self, bytes: Bytes) -> Seconds {
        self.latency + bytes * self.volume / self.bus
    }

    /// [`time`] of this ring's collective on `bytes` where the ring is the
    /// algorithm (an AllGather or a ReduceScatter): nothing for a group of
    /// one rank or an empty buffer.
    pub(crate) fn time(&self, bytes: Bytes) -> Seconds {
        if self.alone || bytes.0 <= 0.0 {
            Seconds(0.0)
        } else {
            self.cost(bytes)
        }
    }
}

/// NCCL's double binary tree: a chain inside each node, two trees across
/// nodes. Its bandwidth term matches a ring's at 90% (NCCL's own factor);
/// its latency grows with log2 of the node count instead of the rank count.
fn tree_allreduce(bytes: Bytes, group: Group, links: &Links) -> Seconds {
    let m = f64::from(group.nodes());
    let per_node = f64::from(group.ranks_per_node);
    let latency = links.base_latency
        + (links.nvlink_tree_hop * (per_node - 1.0) + links.network_tree_hop * math::log2(m)) * 2.0;
    latency + bytes * 2.0 / (ring_bus_bandwidth(group, links) * 0.9)
}

/// Time of a point-to-point send of `bytes` to a peer, over NVLink when the
/// peer shares the node and over the network otherwise.
#[must_use]
pub fn send_recv(bytes: Bytes, same_node: bool, links: &Links) -> Seconds {
    if bytes.0 <= 0.0 {
        return Seconds(0.0);
    }
    let (bw, lat) = if same_node {
        (links.nvlink, links.nvlink_step)
    } else {
        (links.network, links.network_step)
    };
    links.base_latency + lat + bytes / bw
}

/// Time of an exchange in which each rank sends `copies` of `unit` bytes,
/// `.0` of them over NVLink and `.1` across the network, both links at
/// once, each at NCCL's bus rate on it (DeepEP measures 153-158 of H800's
/// 200 GB/s per direction inside a node, 0.78, and NCCL's maintainers put
/// All-to-All across nodes at one NIC's 46-49 GB/s of 50, 0.9: the links'
/// efficiencies), after one collective's start-up and one step's latency.
#[must_use]
pub fn exchange((nvlink, network): (f64, f64), unit: Bytes, links: &Links) -> Seconds {
    if nvlink + network <= 0.0 {
        return Seconds(0.0);
    }
    let step = if network > 0.0 {
        links.network_step
    } else {
        links.nvlink_step
    };
    (unit * nvlink / links.nvlink).max(unit * network / links.network) + links.base_latency + step
}

/// The shares of a rank's buffer an NCCL All-to-All over `group` sends
/// over NVLink (to the other ranks of its domain) and across the network
/// (to the rest): `(d - 1) / n` and `(n - d) / n`.
#[must_use]
pub(crate) fn spread(group: Group) -> (f64, f64) {
    let n = f64::from(group.ranks);
    let inside = f64::from(group.ranks_per_node);
    ((inside - 1.0) / n, (n - inside) / n)
}

/// An All-to-All of `bytes` per rank over `group`, as nccl-tests runs it:
/// each rank sends `bytes / ranks` to every other, inside its NVLink
/// domain over NVLink and beyond it over its NIC. The bus bandwidth is
/// nccl-tests' `bytes x (n - 1) / n / time`.
#[must_use]
pub fn all_to_all(bytes: Bytes, group: Group, links: &Links) -> CollectiveCost {
    let n = f64::from(group.ranks);
    let t = exchange(spread(group), bytes, links);
    CollectiveCost {
        algorithm: Algorithm::Ring,
        time: t,
        bus_bandwidth: if t.0 > 0.0 {
            Bandwidth(bytes.0 * (n - 1.0) / n / t.0)
        } else {
            ring_bus_bandwidth(group, links)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100() -> Links {
        Links {
            nvlink: Bandwidth::gb_s(360.0),
            network: Bandwidth::gb_s(45.0),
            base_latency: Seconds::us(8.4),
            nvlink_step: Seconds::us(3.4),
            network_step: Seconds::us(14.0),
            nvlink_tree_hop: Seconds::us(4.0),
            network_tree_hop: Seconds::us(14.0),
            ring_step_factor: 1.0,
            nvls: false,
        }
    }

    /// Inside a node an All-to-All runs at NVLink's rate; across nodes
    /// every rank's NIC carries all but its node's share, so the bus rate
    /// falls to about one NIC's.
    #[test]
    fn all_to_all_falls_from_nvlink_to_one_nic_across_nodes() {
        let bytes = Bytes::mb(1024.0);
        let bw = |ranks, per_node| all_to_all(bytes, Group::new(ranks, per_node), &h100());
        assert!((bw(8, 8).bus_bandwidth.as_gb_s() - 360.0).abs() < 5.0);
        let across = bw(512, 8).bus_bandwidth.as_gb_s();
        assert!((across - 45.0).abs() < 2.0, "{across}");
        assert_eq!(bw(1, 1).time, Seconds(0.0));
    }

    #[test]
    fn single_rank_is_free() {
        let c = time(
            Collective::AllGather,
            Bytes::mb(100.0),
            Group::new(1, 1),
            &h100(),
        );
        assert_eq!(c.time.0, 0.0);
    }

    #[test]
    fn ring_allgather_pins_nccl_formula() {
        // 16 GPUs on 2 nodes: 15 steps, 1 over the network; 360 GB/s bus.
        let c = time(
            Collective::AllGather,
            Bytes::mb(1600.0),
            Group::new(16, 8),
            &h100(),
        );
        let expect = 8.4e-6 + 14.0 * 3.4e-6 + 14.0e-6 + 1.6e9 * 15.0 / 16.0 / 360e9;
        assert!(
            (c.time.0 - expect).abs() < 1e-12,
            "{} vs {}",
            c.time.0,
            expect
        );
    }

    #[test]
    fn allgather_bus_bandwidth_collapses_with_nodes_while_allreduce_holds() {
        let bytes = Bytes::mb(256.0);
        let bw = |op, nodes: u32| {
            time(op, bytes, Group::new(nodes * 8, 8), &h100())
                .bus_bandwidth
                .as_gb_s()
        };
        let ag4 = bw(Collective::AllGather, 4);
        let ag512 = bw(Collective::AllGather, 512);
        let ar4 = bw(Collective::AllReduce, 4);
        let ar512 = bw(Collective::AllReduce, 512);
        assert!(ag512 < ag4 / 4.0, "AllGather {ag4} -> {ag512}");
        assert!(ar512 > ar4 * 0.6, "AllReduce {ar4} -> {ar512}");
    }

    #[test]
    fn network_share_scales_with_ranks_per_node() {
        let links = h100();
        assert_eq!(
            ring_bus_bandwidth(Group::new(64, 1), &links).as_gb_s(),
            45.0
        );
        assert_eq!(
            ring_bus_bandwidth(Group::new(64, 8), &links).as_gb_s(),
            360.0
        );
        assert_eq!(
            ring_bus_bandwidth(Group::new(8, 8), &links).as_gb_s(),
            360.0
        );
    }

    #[test]
    fn nvls_allreduce_reaches_480_gb_s_in_one_h100_node_and_nowhere_else() {
        let mut links = h100();
        links.nvls = true;
        let bytes = Bytes::mb(1024.0);
        let eight = time(Collective::AllReduce, bytes, Group::new(8, 8), &links);
        assert_eq!(eight.algorithm, Algorithm::Nvls);
        assert!(
            (eight.bus_bandwidth.as_gb_s() - 479.0).abs() < 2.0,
            "{eight:?}"
        );
        // Two ranks: the ring moves as little and is faster.
        let two = time(Collective::AllReduce, bytes, Group::new(2, 2), &links);
        assert_eq!(two.algorithm, Algorithm::Ring);
        // Across nodes, or without a SHARP switch, no NVLS.
        let nodes = time(Collective::AllReduce, bytes, Group::new(16, 8), &links);
        assert_ne!(nodes.algorithm, Algorithm::Nvls);
        let plain = time(Collective::AllReduce, bytes, Group::new(8, 8), &h100());
        assert_ne!(plain.algorithm, Algorithm::Nvls);
        assert!(plain.time.0 > eight.time.0);
    }
}
