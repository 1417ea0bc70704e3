//! Unit tests of `evaluate`.
use super::*;
use crate::scenario::{Recompute, Scenario};

fn gathers(dp: DataParallel, micro_batch: u32) -> (Seconds, Seconds, u32) {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.layout.parallel.dp = dp;
    cfg.layout.micro_batch = micro_batch;
    let r = evaluate(&cfg).unwrap();
    (
        r.breakdown.dp_allgather.total,
        r.breakdown.dp_reduce_scatter.total,
        r.micro_batches,
    )
}

#[test]
fn the_paper_stack_gathers_and_scatters_every_micro_batch() {
    // Four sequences per replica: one micro-batch of 4, or two of 2.
    // The paper's FSDP (ZeRO-2 semantics) reshards after backward and
    // syncs gradients every backward.
    let (ag1, rs1, m1) = gathers(DataParallel::Fsdp, 4);
    let (ag2, rs2, m2) = gathers(DataParallel::Fsdp, 2);
    assert_eq!((m1, m2), (1, 2));
    assert!((ag2.0 - 2.0 * ag1.0).abs() < 1e-9 && (rs2.0 - 2.0 * rs1.0).abs() < 1e-9);
}

#[test]
fn a_stack_that_syncs_once_gathers_once_and_holds_unsharded_gradients() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::TORCHTITAN;
    cfg.layout.parallel.sp = false;
    let run = |cfg: &Config| {
        let r = evaluate(cfg).unwrap();
        (
            r.breakdown.dp_allgather.total,
            memory::per_gpu(cfg).gradients,
        )
    };
    cfg.layout.micro_batch = 4;
    let (ag1, grads1) = run(&cfg);
    cfg.layout.micro_batch = 2;
    let (ag2, grads2) = run(&cfg);
    assert!((ag2.0 - ag1.0).abs() < 1e-12);
    assert!(grads2.0 > grads1.0 * 10.0, "{} vs {}", grads2.0, grads1.0);
}

#[test]
fn a_bf16_gradient_buffer_halves_replicated_gradients_and_bf16_reduction_their_traffic() {
    // DDP and ZeRO-1 keep every gradient in the stack's buffer: fp32 by
    // default, bf16 where Megatron-Core reduces in bf16. FSDP's sharded
    // gradients stay fp32. Reducing in bf16 halves the reduction's bytes.
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::MEGATRON;
    for dp in [
        DataParallel::Ddp,
        DataParallel::Zero1,
        DataParallel::FsdpFull,
    ] {
        cfg.layout.parallel.dp = dp;
        cfg.stack.grad_buffer_bytes = 4.0;
        let fp32 = memory::per_gpu(&cfg).gradients.0;
        cfg.stack.grad_buffer_bytes = 2.0;
        let bf16 = memory::per_gpu(&cfg).gradients.0;
        let sharded = dp == DataParallel::FsdpFull;
        let want = if sharded { fp32 } else { fp32 / 2.0 };
        assert!(
            (bf16 - want).abs() <= 1e-9 * fp32,
            "{dp:?}: {bf16} vs {fp32}"
        );
    }
    cfg.layout.parallel.dp = DataParallel::Ddp;
    let traffic = |cfg: &Config| evaluate(cfg).unwrap().breakdown.dp_allreduce.total.0;
    cfg.stack.reduce_bytes = 4.0;
    let fp32 = traffic(&cfg);
    cfg.stack.reduce_bytes = 2.0;
    let bf16 = traffic(&cfg);
    assert!(bf16 < 0.75 * fp32 && bf16 > 0.0, "{bf16} vs {fp32}");
}

/// A fully sharded state kept in bf16 (NeMo Automodel's) holds half the
/// bytes of fp32 shards in its weights, gradients and optimizer; a loss
/// that holds 2 bytes a logit (Transformer Engine's fused cross-entropy)
/// where another holds 8 keeps 6 fewer per logit.
#[test]
fn a_bf16_sharded_state_halves_the_shards_and_the_loss_sets_the_logits() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.layout.parallel.dp = DataParallel::FsdpFull;
    let fp32 = memory::per_gpu(&cfg);
    cfg.stack.bf16_state = true;
    let bf16 = memory::per_gpu(&cfg);
    for (half, full) in [
        (bf16.weights, fp32.weights),
        (bf16.gradients, fp32.gradients),
        (bf16.optimizer, fp32.optimizer),
    ] {
        assert!(
            (2.0 * half.0 - full.0).abs() <= 1e-9 * full.0,
            "{half:?} {full:?}"
        );
    }
    assert_eq!(bf16.activations, fp32.activations);
    cfg.stack.logits_bytes = 8.0;
    let eight = memory::per_gpu(&cfg).activations;
    cfg.stack.logits_bytes = 2.0;
    let two = memory::per_gpu(&cfg).activations;
    // The example's micro-batch of 2 x 4096 tokens over TP 2.
    let logits = 2.0 * 4096.0 * f64::from(cfg.model.vocab) / 2.0;
    let saved = (eight - two).0;
    assert!((saved - 6.0 * logits).abs() <= 1e-9 * saved, "{saved}");
}

#[test]
fn full_sharding_gathers_and_scatters_per_micro_batch() {
    let (ag1, rs1, _) = gathers(DataParallel::FsdpFull, 4);
    let (ag2, rs2, _) = gathers(DataParallel::FsdpFull, 2);
    assert!((ag2.0 - 2.0 * ag1.0).abs() < 1e-9 && (rs2.0 - 2.0 * rs1.0).abs() < 1e-9);
}

#[test]
fn an_eager_stack_waits_on_the_host_when_kernels_are_tiny() {
    // Llama-2 1B, one 128-token sequence per GPU: kernels shorter than
    // their dispatch.
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.model = crate::model::preset("llama2-1b").unwrap();
    cfg.seq_len = 128;
    cfg.layout.parallel.tp = 1;
    cfg.layout.micro_batch = 1;
    cfg.global_batch = 256;
    let eager = evaluate(&cfg).unwrap();
    cfg.stack = crate::stack::TORCHTITAN;
    let compiled = evaluate(&cfg).unwrap();
    assert!(eager.breakdown.host.0 > 0.0);
    assert!(compiled.breakdown.host.0 < eager.breakdown.host.0);
}

#[test]
fn the_trace_counts_the_bubble_as_exposed_communication() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.layout.parallel.tp = 1;
    cfg.layout.parallel.pp = 4;
    cfg.layout.micro_batch = 1;
    let r = evaluate(&cfg).unwrap();
    let b = r.breakdown;
    assert!(b.bubble.0 > 0.0);
    assert!((b.comm_exposed_trace().0 - b.comm_exposed().0 - b.bubble.0).abs() < 1e-12);
    assert!(r.exposed_comm_trace_fraction > r.exposed_comm_fraction);
}

#[test]
fn more_recomputation_never_shortens_a_step() {
    // Recomputation only adds compute; every data-parallel stream hides
    // behind that compute once, so the step cannot fall. HSDP once hid its
    // in-node traffic and its replica AllReduce behind the same backward
    // twice over, and full recomputation ran faster than none.
    let mut base = Scenario::example().to_config().unwrap();
    let mut checked = 0;
    for id in crate::stack::STACKS {
        for (model, nodes, (tp, pp, cp)) in [
            ("gpt3-175b", 64, (1, 2, 4)),
            ("llama2-13b", 16, (1, 1, 1)),
            ("llama2-7b", 256, (2, 1, 1)),
        ] {
            for dp in [
                DataParallel::Hsdp,
                DataParallel::Fsdp,
                DataParallel::FsdpFull,
                DataParallel::Ddp,
                DataParallel::Zero1,
            ] {
                base.stack = crate::stack::Stack::of(id);
                base.model = crate::model::preset(model).unwrap();
                base.cluster = crate::hardware::Cluster::new(base.cluster.gpu, nodes);
                let p = &mut base.layout.parallel;
                (p.tp, p.pp, p.cp, p.dp) = (tp, pp, cp, dp);
                base.layout.micro_batch = 1;
                let step = |r| {
                    let mut cfg = base;
                    cfg.layout.recompute = r;
                    evaluate_checked(&cfg).step_time_s
                };
                let (none, sel, full) = (
                    step(Recompute::None),
                    step(Recompute::Selective),
                    step(Recompute::Full),
                );
                assert!(
                    none <= sel * (1.0 + 1e-12) && sel <= full * (1.0 + 1e-12),
                    "{id:?} {model} {dp:?} TP{tp} PP{pp} CP{cp}: none {none} selective {sel} full {full}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, crate::stack::STACKS.len() * 15);
}

#[test]
fn the_backward_tensor_collectives_hide_unless_the_weight_gradients_leave_the_pass() {
    // Megatron's stack, TP 4 and PP 4: 1F1B runs each input gradient's
    // reduction beside its weight-gradient GEMM; ZB-H1 defers those GEMMs
    // to a pass of their own, so the same reductions block.
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::MEGATRON;
    cfg.layout.parallel.dp = DataParallel::Zero1;
    cfg.layout.parallel.tp = 4;
    cfg.layout.parallel.pp = 4;
    cfg.layout.micro_batch = 2;
    let one_f_one_b = evaluate(&cfg).unwrap().breakdown.tp;
    assert!(one_f_one_b.exposed.0 < one_f_one_b.total.0);
    cfg.layout.parallel.schedule = crate::scenario::Schedule::ZeroBubbleH1;
    let zb = evaluate(&cfg).unwrap().breakdown.tp;
    assert!((zb.exposed.0 - zb.total.0).abs() < 1e-12 && zb.total == one_f_one_b.total);
}

/// llm-foundry's MPT tables (8 H100s, MPT 1B): MFU falls from 41.8% at
/// 2k tokens to 33.5% at 32k, as attention's share of the FLOPs grows
/// and FlashAttention 1 runs it below the GEMMs' rate; FlashAttention-2
/// runs it above, so the same sweep would rise.
#[test]
fn flash_attention_1_makes_long_contexts_cost_more_than_their_flops() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::LLM_FOUNDRY;
    cfg.cluster.nodes = 1;
    cfg.model = crate::model::Model {
        layers: 24,
        hidden: 2048,
        heads: 16,
        kv_heads: 16,
        ffn: 8192,
        vocab: 50_368,
        mlp: crate::model::Mlp::Gelu,
        head_dim: None,
        latent: None,
        moe: None,
        window: None,
    };
    cfg.layout.parallel.tp = 1;
    cfg.layout.parallel.dp = DataParallel::FsdpFull;
    let mfu = |cfg: &Config, seq: u32, micro_batch: u32| {
        let mut c = *cfg;
        c.seq_len = seq;
        c.layout.micro_batch = micro_batch;
        c.global_batch = 8 * micro_batch;
        evaluate(&c).unwrap().mfu_palm
    };
    let (short, long) = (mfu(&cfg, 2048, 14), mfu(&cfg, 32_768, 1));
    assert!(long < 0.9 * short, "{short} -> {long}");
    cfg.stack.attention = crate::stack::AttentionKernel::Flash2;
    let (short, long) = (mfu(&cfg, 2048, 14), mfu(&cfg, 32_768, 1));
    assert!(long > short, "{short} -> {long}");
}

/// Offloading activations (Megatron-Core's `cpu_offloading_num_layers`)
/// frees all but one offloaded layer's saved activations, costs nothing
/// where the host link outruns the layer and shows as host time where it
/// does not; Megatron-Core's rules (fewer than the layers, one stage, no
/// recomputation) are refused with a message.
#[test]
fn offloaded_activations_leave_the_gpu_and_wait_only_on_a_slow_host_link() {
    let mut cfg = Scenario::example().to_config().unwrap();
    let kept = memory::per_gpu(&cfg).activations;
    let base = evaluate(&cfg).unwrap();
    cfg.layout.offload_layers = 16;
    let fewer = memory::per_gpu(&cfg).activations;
    // 32 layers' saved activations and the logits; 16 leave, and the last
    // of them is freed before the logits are made.
    let layers = f64::from(cfg.model.layers);
    let logits = 2.0 * 4.0 * 8192.0 * f64::from(cfg.model.vocab) / 2.0;
    let per_layer = (kept.0 - logits) / layers;
    let expected = 16.0 * per_layer + logits.max(per_layer);
    assert!((fewer.0 - expected).abs() < 1e-6 * expected);
    // H100's PCIe Gen5 carries a 7B layer's activations at TP 2 (about
    // 0.67 GB at 8k tokens) in about 10.5 ms, longer than the two layers'
    // forward (about 3 ms each) it has beside it.
    let r = evaluate(&cfg).unwrap();
    assert!(
        r.breakdown.host.0 > base.breakdown.host.0 + 0.01,
        "{:?}",
        r.breakdown
    );
    cfg.cluster.gpu.host_link = crate::units::Bandwidth::gb_s(1e5);
    let fast = evaluate(&cfg).unwrap();
    assert!((fast.step_time_s - base.step_time_s).abs() < 1e-12);
    for (layers, pp, recompute) in [
        (32, 1, Recompute::None),
        (4, 2, Recompute::None),
        (4, 1, Recompute::Selective),
    ] {
        let mut bad = cfg;
        bad.layout.offload_layers = layers;
        bad.layout.parallel.pp = pp;
        bad.layout.recompute = recompute;
        let refused = match bad.check() {
            Err(Error::TooLarge { field, .. }) => field == "offload_layers" && layers == 32,
            Err(Error::OffloadNeeds { .. }) => layers == 4,
            _ => false,
        };
        assert!(refused, "{layers} {pp} {recompute:?}: {:?}", bad.check());
    }
}

/// Under fp8 Transformer Engine keeps a GEMM's input for the weight
/// gradient as its one-byte copy: the attention output and the two norm
/// outputs and the MLP activation a layer saves take half their bf16
/// bytes. torchao's fp8 linears (torchtitan) save the bf16 tensors.
#[test]
fn transformer_engines_fp8_saves_gemm_inputs_in_one_byte() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::MEGATRON;
    let bf16 = memory::per_gpu(&cfg).activations;
    cfg.precision = crate::scenario::Precision::Fp8;
    let fp8 = memory::per_gpu(&cfg).activations;
    // Llama-2 7B at TP 2 without sequence parallelism, 8192 tokens, 32
    // layers: (h / tp + 2h + f / tp) / 2 elements a token fewer.
    let (h, f, tp) = (4096.0, 11008.0, 2.0);
    let fewer = 2.0 * (h / tp + 2.0 * h + f / tp) / 2.0 * 8192.0 * 32.0;
    assert!(
        (bf16.0 - fp8.0 - fewer).abs() < 1e-6 * fewer,
        "{bf16:?} {fp8:?}"
    );
    cfg.stack = crate::stack::TORCHTITAN;
    cfg.layout.parallel.sp = false;
    let titan = memory::per_gpu(&cfg).activations;
    cfg.precision = crate::scenario::Precision::Bf16;
    assert_eq!(memory::per_gpu(&cfg).activations, titan);
}

/// Transformer Engine waits for offload copy `i` at the end of layer
/// `w (i + 1) - 1`: the first copy, issued after layer 0, has one layer
/// fewer beside it than the rest.
#[test]
fn the_first_offload_copy_has_one_layer_fewer_to_hide_behind() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.layout.offload_layers = 16;
    let zero = Seconds(0.0);
    let layers = f64::from(cfg.model.layers);
    // With no layer to hide behind, all 16 copies show.
    let copy = memory::offload_wait(&cfg, (zero, zero)).0 * (layers / 16.0);
    // Layers of 0.6 copies: two of them (w = 2) hide every copy but the
    // first, which has one layer beside it and shows 0.4 of a copy.
    let t = copy * 0.6;
    let (fwd, bwd) = memory::offload_wait(&cfg, (t, t));
    assert!((fwd.0 * layers - 0.4 * copy.0).abs() < 1e-12 * copy.0.max(1e-9));
    assert_eq!(fwd, bwd);
}

/// Attention keeps its queries, keys, values and output at the widths its
/// heads give them, not at the hidden size; latent attention keeps each
/// query and key with its rotary part and its latents split as the
/// hidden-sized tensors are (Megatron-Core's multi_latent_attention.py).
#[test]
fn attention_saves_its_tensors_at_their_head_widths() {
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.layout.recompute = Recompute::None;
    let (tp, layers) = (
        f64::from(cfg.layout.parallel.tp),
        f64::from(cfg.model.layers),
    );
    let tokens = f64::from(cfg.layout.micro_batch) * f64::from(cfg.seq_len);
    let saved = |cfg: &Config| memory::per_gpu(cfg).activations.0;
    let base = saved(&cfg);
    // Llama-2 7B's 32 heads at twice their width: queries, output, keys
    // and values each 4096 elements wider, split over TP.
    let mut wide = cfg;
    wide.model.head_dim = Some(256);
    let more = 2.0 * (4.0 * 4096.0 / tp) * tokens * layers;
    assert!((saved(&wide) - base - more).abs() < 1e-9 * more);
    // Latent ranks 1536 and 512 with a rotary width of 64: queries and
    // keys 32 × 64 wider (split over TP), the latents and their norms'
    // outputs split only by sequence parallelism.
    for sp in [false, true] {
        let mut plain = cfg;
        plain.layout.parallel.sp = sp;
        let mut latent = plain;
        latent.model.latent = Some(crate::model::Latent {
            q_rank: 1536,
            kv_rank: 512,
            rope: 64,
        });
        let split = if sp { tp } else { 1.0 };
        let more = 2.0 * (2.0 * 2048.0 / tp + 2.0 * 2048.0 / split) * tokens * layers;
        let got = saved(&latent) - saved(&plain);
        assert!((got - more).abs() < 1e-9 * more, "sp {sp}: {got} {more}");
    }
}

/// A selective recomputation of named modules drops what Megatron-Core's
/// checkpoint of each drops and reruns its forward: `mla_up_proj` the
/// queries, keys, values and normed latents for the up-projections'
/// GEMMs; `layernorm` nothing where every norm is fused into a linear.
#[test]
fn recompute_modules_drop_and_rerun_what_they_name() {
    use crate::scenario::{Module, Modules};
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.model.latent = Some(crate::model::Latent {
        q_rank: 1536,
        kv_rank: 512,
        rope: 64,
    });
    cfg.layout.recompute = Recompute::None;
    let (tp, layers) = (
        f64::from(cfg.layout.parallel.tp),
        f64::from(cfg.model.layers),
    );
    let tokens = f64::from(cfg.layout.micro_batch) * f64::from(cfg.seq_len);
    let none = memory::per_gpu(&cfg).activations.0;
    let mut up = cfg;
    up.layout.recompute = Recompute::Selective;
    up.layout.recompute_modules = Modules::of(&[Module::MlaUpProj]);
    // Queries and keys 32 × 192, values 32 × 128, split over TP; the
    // normed latents 1536 + 512 whole (no sequence parallelism).
    let fewer = 2.0 * ((2.0 * 6144.0 + 4096.0) / tp + 2048.0) * tokens * layers;
    let got = none - memory::per_gpu(&up).activations.0;
    assert!((got - fewer).abs() < 1e-9 * fewer, "{got} {fewer}");
    // It reruns the up-projections, their share of the attention's
    // projection GEMM, and nothing else.
    let (layer, _) = phases::compute(&up, &phases::Shape::of(&up));
    let again = layer.recompute(Recompute::Selective, up.layout.recompute_modules, &up.stack);
    let m = &cfg.model;
    let projections = m.attention_params() - m.q_dim() * f64::from(m.hidden);
    let share = m.up_projection_params() / projections;
    assert!(again.0 > 0.0);
    assert!((again.0 - layer.column.0 .0 * share).abs() < 1e-12);
    // Every norm of a dense layer without latents feeds a linear that
    // saves its output: `layernorm` drops nothing there and reruns
    // nothing.
    let mut dense = cfg;
    dense.model.latent = None;
    let kept = memory::per_gpu(&dense).activations;
    dense.layout.recompute = Recompute::Selective;
    dense.layout.recompute_modules = Modules::of(&[Module::Layernorm]);
    assert_eq!(memory::per_gpu(&dense).activations, kept);
    let (layer, _) = phases::compute(&dense, &phases::Shape::of(&dense));
    let modules = dense.layout.recompute_modules;
    assert_eq!(
        layer
            .recompute(Recompute::Selective, modules, &dense.stack)
            .0,
        0.0
    );
}

/// The modules' drops in an MoE model under fp8, where Transformer
/// Engine saves GEMM inputs quantised (half their bf16 bytes): `layernorm`
/// the pre-MLP norm's output of every MoE layer, `moe_act` the routed
/// experts' activation output, `mla_up_proj` the queries, keys, values
/// (in bf16, the attention kernel's inputs) and the normed latents. And
/// the scores a stack without FlashAttention keeps stay unless `core_attn`
/// is named.
#[test]
fn recompute_modules_drop_quantised_inputs_and_keep_scores_unless_named() {
    use crate::scenario::{Module, Modules};
    let mut cfg = Scenario::example().to_config().unwrap();
    cfg.stack = crate::stack::MEGATRON;
    cfg.precision = crate::scenario::Precision::Fp8;
    cfg.model = crate::model::preset("qwen3-30b-a3b").unwrap();
    cfg.layout.recompute = Recompute::None;
    let (tp, layers) = (
        f64::from(cfg.layout.parallel.tp),
        f64::from(cfg.model.layers),
    );
    let sp = if cfg.layout.parallel.sp { tp } else { 1.0 };
    let tokens = f64::from(cfg.layout.micro_batch) * f64::from(cfg.seq_len);
    let saved = |c: &Config| memory::per_gpu(c).activations.0;
    let none = saved(&cfg);
    let e = cfg.model.moe.unwrap();
    let routed = f64::from(e.expert_ffn) * f64::from(e.top_k) * e.load();
    let mut named = cfg;
    named.layout.recompute = Recompute::Selective;
    for (modules, elements) in [
        (Modules::of(&[Module::Layernorm]), 2048.0 / sp * 0.5),
        (Modules::of(&[Module::MoeAct]), routed / tp * 0.5),
        (
            Modules::of(&[Module::Layernorm, Module::MoeAct]),
            2048.0 / sp * 0.5 + routed / tp * 0.5,
        ),
    ] {
        named.layout.recompute_modules = modules;
        let fewer = 2.0 * elements * tokens * layers;
        let got = none - saved(&named);
        assert!(
            (got - fewer).abs() < 1e-9 * fewer,
            "{modules:?}: {got} {fewer}"
        );
    }
    // Latent attention under fp8: the attention's inputs in bf16, the
    // normed latents quantised.
    let mut latent = cfg;
    latent.model = crate::model::preset("deepseek-v3").unwrap();
    let layers = f64::from(latent.model.layers);
    let none = saved(&latent);
    latent.layout.recompute = Recompute::Selective;
    latent.layout.recompute_modules = Modules::of(&[Module::MlaUpProj]);
    let (qk, v) = (128.0 * 192.0, 128.0 * 128.0);
    let fewer = 2.0 * ((2.0 * qk + v) / tp + 2048.0 / sp * 0.5) * tokens * layers;
    let got = none - saved(&latent);
    assert!((got - fewer).abs() < 1e-9 * fewer, "{got} {fewer}");
    // Megatron-LM of 2021 materialises the scores: kept under `layernorm`,
    // dropped under `core_attn`.
    let mut scores = Scenario::example().to_config().unwrap();
    scores.stack = crate::stack::MEGATRON_2021;
    scores.layout.recompute = Recompute::None;
    let kept = saved(&scores);
    scores.layout.recompute = Recompute::Selective;
    scores.layout.recompute_modules = Modules::of(&[Module::Layernorm]);
    assert_eq!(saved(&scores), kept);
    scores.layout.recompute_modules = Modules::of(&[Module::CoreAttn]);
    let heads = f64::from(scores.model.heads);
    let fewer = 2.0 * 2.5 * heads * f64::from(scores.seq_len) / tp * tokens * 32.0;
    let got = kept - saved(&scores);
    assert!((got - fewer).abs() < 1e-9 * fewer, "{got} {fewer}");
}

/// GB200 and GB300 share tensor cores, SMs and datasheet bf16 and fp8
/// rates; GB200's GEMMs sustain the mean of its four large-shape ratios
/// to GB300's in Azure's cuBLASLt fp8 tables, and so a layer of dense
/// fp8 work runs faster on GB300 by about that ratio's inverse.
#[test]
fn gb200_sustains_its_measured_share_of_gb300s_gemm_rate() {
    use crate::calibration as cal;
    use crate::hardware::{GB200, GB300};
    // TFLOP/s at 4096, 8192, 16384 cubed and 6144 x 12288 x 12288.
    let gb200 = [2834.6, 2876.6, 2906.9, 2895.6];
    let gb300 = [3257.0, 3286.3, 3308.5, 3279.5];
    let mean = gb200.iter().zip(gb300).map(|(a, b)| a / b).sum::<f64>() / 4.0;
    assert!((mean - cal::GB200_SUSTAINED_SHARE).abs() < 5e-4, "{mean}");
    let share = GB200.gemm_efficiency / GB300.gemm_efficiency;
    assert!(
        (share - cal::GB200_SUSTAINED_SHARE).abs() < 1e-12,
        "{share}"
    );
    assert_eq!(GB300.gemm_efficiency, cal::GEMM_EFFICIENCY_H100);
    assert_eq!(
        (GB200.peak_bf16, GB200.peak_fp8),
        (GB300.peak_bf16, GB300.peak_fp8)
    );
    // Llama-2 7B in fp8 on two trays of each at the same layout.
    let run = |gpu| {
        let mut cfg = crate::findings::base(gpu, 2, "llama2-7b", 16, 2);
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        cfg.precision = crate::scenario::Precision::Fp8;
        evaluate(&cfg).unwrap().tokens_per_s_per_gpu
    };
    let ratio = run(GB300) / run(GB200);
    assert!(ratio > 1.05 && ratio < 1.2, "{ratio}");
    // B200, GB200's die at less power and a lower rated clock, sustains
    // GB200's large-GEMM rate per SM, no more.
    let per_sm =
        |g: crate::hardware::Gpu| g.gemm_efficiency * g.peak_bf16.0 / f64::from(g.sm_count);
    let b200 = crate::hardware::B200;
    assert!((per_sm(b200) / per_sm(GB200) - 1.0).abs() < 1e-12);
    assert!(
        b200.peak_bf16.0 / f64::from(b200.sm_count) < GB200.peak_bf16.0 / f64::from(GB200.sm_count)
    );
}

/// FlashAttention-2 runs on Blackwell at its measured rate against
/// H200's (Azure's tables), not at the datasheet's ratio: its absolute
/// rate grows 1.14 and 1.21 times where the peak grows 2.53 times, and a
/// stack that runs it spends far more of a Blackwell step in attention.
#[test]
fn flash_attention_2_on_blackwell_runs_at_its_measured_rate() {
    use crate::hardware::{B200, GB200, GB300, H100};
    let rate = |g: crate::hardware::Gpu| g.attention_efficiency * g.peak_bf16.0;
    let h100 = rate(H100);
    assert!((rate(GB200) / h100 - 373.9 / 329.3).abs() < 1e-3);
    assert!((rate(GB300) / h100 - 399.7 / 329.3).abs() < 1e-3);
    // B200 is GB200's die with 148 of its 152 SMs.
    assert!((rate(B200) / rate(GB200) - 148.0 / 152.0).abs() < 1e-9);
    // The paper's stack (FlashAttention-2) on 8 GPUs: what of the forward
    // an attention kernel at the full peak would save is over half as
    // large again on GB200 as on H100, its kernel gaining little where the
    // GEMMs gain much.
    let attention_share = |gpu: crate::hardware::Gpu| {
        let nodes = 8 / gpu.gpus_per_node;
        let mut cfg = crate::findings::base(gpu, nodes, "llama2-7b", 8, 1);
        cfg.seq_len = 8192;
        let f2 = evaluate(&cfg).unwrap().breakdown.forward.0;
        cfg.cluster.gpu.attention_efficiency = 1.0;
        let fast = evaluate(&cfg).unwrap().breakdown.forward.0;
        1.0 - fast / f2
    };
    let (h, g) = (attention_share(H100), attention_share(GB200));
    assert!(g > 1.5 * h, "{h} {g}");
}
