//! Drawing a stage from the simulated schedule: its passes, interval by
//! interval, at the two ends of the step, and the passes in between as one
//! block per stream, with what of each stream shows.

use super::order::needs;
use super::pass::{self, Op, Recipe, Sink};
use super::schedule::{after, before, carries, span_of, Run};
use super::{merged, Interval, Kind, Stream};
use alloc::vec::Vec;

/// What drawing a stage needs of the run.
pub(super) struct Draw<'a> {
    /// The simulated schedule.
    pub run: &'a Run,
    /// Micro-batches per step.
    pub m: u32,
    /// Micro-batches simulated.
    pub m_sim: u32,
    /// Passes drawn one by one at each end of a stage.
    pub keep: u32,
    /// Layers per group.
    pub group: u32,
    /// What the micro-batches not simulated add to the steady state.
    pub extra: f64,
    /// One send to the neighbouring stage.
    pub send: f64,
}

impl Draw<'_> {
    /// The real micro-batch of simulated micro-batch `mb`.
    fn real(&self, mb: u32) -> u32 {
        if mb < self.m_sim / 2 {
            mb
        } else {
            mb + (self.m - self.m_sim)
        }
    }

    /// Draws stage `s` (made by `r`) into `out` if given; returns its end.
    pub fn stage(&self, r: &Recipe, s: u32, mut out: Option<&mut Vec<Interval>>) -> f64 {
        let times = &self.run.times[s as usize];
        let order = &self.run.orders[s as usize];
        let n = order.len() as u32;
        let first_middle = self.keep;
        let last_middle = n.saturating_sub(self.keep);
        // Passes after the middle block move by what the block gained.
        let shift = |i: u32| if i >= last_middle { self.extra } else { 0.0 };
        if let Some(out) = out.as_deref_mut() {
            before(r, Some(out));
        }
        let mut free = before(r, None);
        let mut i = 0;
        while i < n {
            if i == first_middle && last_middle > first_middle {
                let block_end = times[last_middle as usize - 1].2 + self.extra;
                if let Some(out) = out.as_deref_mut() {
                    self.block(r, s, first_middle..last_middle, block_end, out);
                }
                free = block_end;
                i = last_middle;
                continue;
            }
            let op = order[i as usize];
            let (at, _, _) = times[i as usize];
            let at = at + shift(i);
            if let Some(out) = out.as_deref_mut() {
                self.wait(s, op, (free, at), out);
                let mut real = op;
                real.mb = self.real(op.mb);
                let mut sink = Sink {
                    out: Some(out),
                    group: self.group,
                };
                pass::lay_out(r, real, at, carries(r), &mut sink);
            }
            let (_, f) = span_of(r, op);
            free = at + f;
            i += 1;
        }
        after(r, free, out)
    }

    /// The stage idle from `free` until `op` can start at `at`: waiting
    /// for what it needs, which arrives over the last `send` seconds.
    fn wait(&self, s: u32, op: Op, (free, at): (f64, f64), out: &mut Vec<Interval>) {
        let pp = self.run.orders.len() as u32;
        let v = self.run.chunks();
        let Some((mut need, over_link)) = needs(op, s, pp, v, self.run.v_shape()) else {
            return;
        };
        need.micro_batch = self.real(need.micro_batch);
        let mb = self.real(op.mb);
        let interval = |stream, kind, a: f64, b: f64| Interval {
            stream,
            kind,
            start_s: a,
            end_s: b,
            micro_batches: Some((mb, mb)),
            chunk: op.chunk,
            layers: None,
            waits_for: Some(need),
        };
        if at > free + 1e-12 {
            out.push(interval(Stream::Compute, Kind::Wait, free, at));
        }
        if over_link && self.send > 0.0 {
            // The receive runs from when the neighbour finished to when
            // what it sent arrived (drawn only where it does not overlap
            // the previous receive).
            let mut sim = need;
            sim.micro_batch = op.mb;
            let a = self.run.done_at(&sim)
                + if self.real(op.mb) == op.mb {
                    0.0
                } else {
                    self.extra
                };
            let b = a + self.send;
            let clear = out
                .iter()
                .rev()
                .find(|i| i.stream == Stream::Pipeline)
                .is_none_or(|prev| prev.end_s <= a);
            if a.is_finite() && clear {
                out.push(interval(Stream::Pipeline, Kind::Receive, a, b));
            }
        }
    }

    /// Each kind's time in passes `range` of stage `s`, scaled by
    /// `scale`, and what of the tensor-, context- and data-parallel streams
    /// shows (no compute beside it), each stream beyond the ones before it,
    /// each pass laid out alone.
    fn tally(
        r: &Recipe,
        ops: impl Iterator<Item = Op>,
        scale: f64,
        (totals, exposed): &mut ([f64; 10], [f64; 4]),
    ) {
        // Each stream's time in these passes, and what of it shows (no
        // compute beside it), each pass laid out alone.
        for op in ops {
            let mut scratch = Vec::new();
            let mut sink = Sink {
                out: Some(&mut scratch),
                group: r.layers,
            };
            pass::lay_out(r, op, 0.0, carries(r), &mut sink);
            for iv in &scratch {
                totals[slot(iv.kind)] += iv.duration() * scale;
            }
            // Each stream's exposure beyond the ones before it, so that the
            // three add up to what the pass shows.
            let mut covers: Vec<Stream> = Vec::new();
            for (k, stream) in [
                Stream::Tensor,
                Stream::Experts,
                Stream::Context,
                Stream::Data,
            ]
            .into_iter()
            .enumerate()
            {
                let cover = merged(&scratch, |iv| {
                    iv.kind.is_compute() || iv.kind == Kind::Host || covers.contains(&iv.stream)
                });
                let spans = merged(&scratch, |iv| iv.stream == stream);
                exposed[k] += super::uncovered(&spans, &cover) * scale;
                covers.push(stream);
            }
        }
    }

    /// The passes `range` of stage `s` as one block per stream, ending at
    /// `end`: each stream's time in those passes, laid end to end, with the
    /// compute first and the traffic hidden beside it drawn under it.
    fn block(
        &self,
        r: &Recipe,
        s: u32,
        range: core::ops::Range<u32>,
        end: f64,
        out: &mut Vec<Interval>,
    ) {
        let times = &self.run.times[s as usize];
        let order = &self.run.orders[s as usize];
        let start = times[range.start as usize].0
            + if range.start >= range.end {
                self.extra
            } else {
                0.0
            };
        let v = self.run.chunks();
        // The simulated passes, and every chunk's forward and backward of
        // each micro-batch not simulated.
        let mut sums = ([0.0_f64; 10], [0.0_f64; 4]);
        let passes = range.clone().map(|i| order[i as usize]);
        Self::tally(r, passes, 1.0, &mut sums);
        let split = self.run.splits_backward();
        let one = (0..v).flat_map(|chunk| {
            [(false, false), (true, false), (true, true)]
                .into_iter()
                .filter(move |&(_, weight)| split || !weight)
                .map(move |(backward, weight)| Op {
                    backward,
                    weight,
                    mb: 0,
                    chunk,
                })
        });
        Self::tally(r, one, f64::from(self.m - self.m_sim), &mut sums);
        let (totals, exposed) = sums;
        let [fwd, bwd, head, host, _tp, cp, ag, rs, _a2a, _] = totals;
        let [exposed_tp, exposed_a2a, exposed_cp, exposed_dp] = exposed;
        let first_mb = self.real(order[range.start as usize].mb);
        let last_mb = self.real(order[range.end as usize - 1].mb);
        let mbs = Some((first_mb.min(last_mb), first_mb.max(last_mb)));
        let mut put = |stream, kind, a: f64, len: f64| -> f64 {
            let b = (a + len).min(end);
            if b > a {
                out.push(Interval {
                    stream,
                    kind,
                    start_s: a,
                    end_s: b,
                    micro_batches: mbs,
                    chunk: 0,
                    layers: Some((1, r.layers)),
                    waits_for: None,
                });
            }
            b
        };
        let compute = fwd + bwd + head;
        let mut t = put(Stream::Compute, Kind::Forward, start, fwd);
        t = put(Stream::Compute, Kind::Head, t, head);
        t = put(Stream::Compute, Kind::Backward, t, bwd);
        put(
            Stream::Context,
            Kind::ContextExchange,
            (start + compute - (cp - exposed_cp)).max(start),
            cp - exposed_cp + 0.0,
        );
        let dp_hidden = (ag + rs - exposed_dp).max(0.0).min(compute);
        put(
            Stream::Data,
            if rs > ag {
                Kind::ReduceScatter
            } else {
                Kind::AllGather
            },
            start,
            dp_hidden,
        );
        t = put(Stream::Context, Kind::ContextExchange, t, exposed_cp);
        t = put(
            Stream::Data,
            if rs > ag {
                Kind::ReduceScatter
            } else {
                Kind::AllGather
            },
            t,
            exposed_dp,
        );
        t = put(Stream::Tensor, Kind::TensorCollective, t, exposed_tp);
        t = put(Stream::Experts, Kind::AllToAll, t, exposed_a2a);
        t = put(Stream::Compute, Kind::Host, t, host);
        if end > t + 1e-12 {
            out.push(Interval {
                stream: Stream::Compute,
                kind: Kind::Wait,
                start_s: t,
                end_s: end,
                micro_batches: mbs,
                chunk: 0,
                layers: None,
                waits_for: None,
            });
        }
    }
}

/// Where a kind's time is summed in a block.
fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Forward => 0,
        Kind::Backward | Kind::WeightGradient => 1,
        Kind::Head => 2,
        Kind::Host => 3,
        Kind::TensorCollective => 4,
        Kind::ContextExchange => 5,
        Kind::AllGather => 6,
        Kind::ReduceScatter | Kind::AllReduce => 7,
        Kind::AllToAll => 8,
        _ => 9,
    }
}
