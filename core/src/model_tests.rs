//! Unit tests of `model`: the presets' sizes and the FLOPs counted per token.
use super::*;

#[test]
fn preset_parameter_counts_match_published_sizes() {
    let cases = [
        ("llama2-1b", 1.10),
        ("llama2-7b", 6.74),
        ("llama2-13b", 13.0),
        ("llama2-70b", 69.0),
        ("llama3-8b", 8.03),
        ("llama3-70b", 70.6),
        ("llama3-405b", 405.9),
        ("gpt3-175b", 175.0),
    ];
    for (id, billions) in cases {
        let p = preset(id).unwrap().params() / 1e9;
        assert!((p - billions).abs() / billions < 0.02, "{id}: {p}");
    }
}

#[test]
fn moe_presets_have_their_published_total_and_active_sizes() {
    // (id, total, active) in billions, from each model's card; active
    // counts both embedding tables, as Mistral's and Qwen's cards do
    // (OpenAI's 5.13B for GPT-OSS leaves out its 0.58B input table).
    let cases = [
        ("mixtral-8x7b", 46.7, 12.9),
        ("mixtral-8x22b", 141.0, 39.0),
        ("qwen3-30b-a3b", 30.5, 3.3),
        ("qwen3-235b-a22b", 235.0, 22.0),
        ("gpt-oss-120b", 116.8, 5.13 + 0.58),
        ("deepseek-v3", 671.0, 37.0),
        ("llama4-scout", 109.0, 17.0),
        ("llama4-maverick", 400.0, 17.0),
    ];
    for (id, total, active) in cases {
        let m = preset(id).unwrap();
        let p = m.params() / 1e9;
        let a = m.active_params() / 1e9;
        assert!((p - total).abs() / total < 0.03, "{id}: {p}");
        assert!((a - active).abs() / active < 0.06, "{id}: {a}");
    }
}

#[test]
fn moe_flops_per_token_follow_megatron_bridge_tables() {
    // Model TFLOP/s over tokens/s per GPU in NVIDIA's Megatron-Bridge
    // 26.06 table (seq 4096): DeepSeek-V3 1648/6338, Qwen3-30B-A3B
    // 1041/45275, Qwen3-235B-A22B 1337/9033, GPT-OSS-120B 1081/33166.
    let cases = [
        ("deepseek-v3", 260.0),
        ("qwen3-30b-a3b", 23.0),
        ("qwen3-235b-a22b", 148.0),
        ("gpt-oss-120b", 32.6),
    ];
    for (id, gflops) in cases {
        let f = preset(id).unwrap().flops_per_token(4096) / 1e9;
        assert!((f - gflops).abs() / gflops < 0.1, "{id}: {f} GFLOP/token");
    }
    // GPT-OSS's 18 windowed layers count the window's 128 keys a query,
    // not 2,048: 6 x 4096 x 18 x (4096 - 256) fewer FLOPs a token than
    // every layer at full context, 32.7 against 34.4 GFLOP a token.
    let oss = preset("gpt-oss-120b").unwrap();
    let full = crate::model::Model {
        window: None,
        ..oss
    };
    let (f, g) = (
        oss.flops_per_token(4096) / 1e9,
        full.flops_per_token(4096) / 1e9,
    );
    assert!((f - 32.59).abs() / 32.59 < 0.01, "{f}");
    let saved = 6.0 * 4096.0 * (2048.0 - 128.0) * 18.0 * 2.0 / 1e9;
    assert!((g - f - saved).abs() < 1e-6, "{g} {f} {saved}");
    // NVIDIA's DGX Cloud Llama 4 Maverick recipe: 8.92e14 FLOPs a
    // sequence of 8192 (its README's formula), 108.9 GFLOP a token.
    let f = preset("llama4-maverick").unwrap().flops_per_token(8192) / 1e9;
    assert!((f - 108.9).abs() / 108.9 < 0.03, "{f}");
}

#[test]
fn maverick_has_experts_on_every_second_layer() {
    let m = preset("llama4-maverick").unwrap();
    assert_eq!(m.moe_layers(), 24);
    assert!((m.moe_share() - 0.5).abs() < 1e-12);
    // Every layer past the first dense ones by default.
    assert_eq!(preset("deepseek-v3").unwrap().moe_layers(), 58);
}

#[test]
fn flops_per_token_is_six_n_plus_attention() {
    let m = preset("llama2-7b").unwrap();
    let f = m.flops_per_token(4096);
    // 6 x 6.608e9 matmul parameters + 6 x 32 x 4096 x 4096 (causal).
    assert!((f / 1e9 - 42.87).abs() < 0.05, "{f}");
    let palm = m.flops_per_token_palm(4096);
    assert!((palm / 1e9 - 46.09).abs() < 0.05, "{palm}");
}

#[test]
fn llama4_chunks_are_full_attention_within_a_chunk_and_cheaper_beyond() {
    let m = preset("llama4-scout").unwrap();
    let full = crate::model::Model { window: None, ..m };
    // At the 8,192 tokens it trains at, a chunk is the whole context.
    let at = |seq| (m.flops_per_token(seq), full.flops_per_token(seq));
    let (c, f) = at(8192);
    assert!((c - f).abs() < 1e-6 * f, "{c} {f}");
    // At 32k, 36 of its 48 layers see a causal chunk of 8,192, not of
    // 32,768: 6 x (32768 - 8192) x 36 x 5120 fewer FLOPs a token.
    let (c, f) = at(32768);
    let saved = 6.0 * (32768.0 - 8192.0) * 36.0 * 5120.0;
    assert!((f - c - saved).abs() < 1e-6 * f, "{f} {c} {saved}");
}

/// torchtitan's per-op policy reruns every second matmul of a layer in
/// forward order: Llama 3 8B's keys (2nd), output projection (4th) and
/// up projection (6th, after the gate); GPT-3's keys, output and down
/// projection (6th); DeepSeek-V3's two up-projections (2nd, 4th of five)
/// and, on its three dense layers of 61, the gate and down projections
/// (6th, 8th).
#[test]
fn the_per_op_policy_reruns_every_second_matmul() {
    let m = preset("llama3-8b").unwrap();
    let (h, ffn) = (4096.0, 14_336.0);
    let want = h * 1024.0 + h * h + h * ffn;
    assert!((m.alternate_matmul_params() - want).abs() < 1e-6 * want);
    let g = preset("gpt3-175b").unwrap();
    let h = 12_288.0;
    let want = 2.0 * h * h + 4.0 * h * h;
    assert!((g.alternate_matmul_params() - want).abs() < 1e-6 * want);
    let d = presets::DEEPSEEK_V3;
    let h = 7168.0;
    let dense = 2.0 * h * f64::from(d.ffn) * (1.0 - d.moe_share());
    assert!(d.moe_share() > 0.9);
    let want = d.up_projection_params() + dense;
    assert!((d.alternate_matmul_params() - want).abs() < 1e-6 * want);
    // Less than the layer's matmuls, more than a third of a dense one's.
    let all = m.attention_params() + m.dense_mlp_params();
    assert!(m.alternate_matmul_params() < 0.5 * all);
    assert!(m.alternate_matmul_params() > all / 3.0);
}
