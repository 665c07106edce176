"""The KV-cache counts of course/common/kv_cache.py, recomputed here from the raw official configs in
data/model-configs/ (not from the imported data), each by its own formula: a slip in the importer, in the
data's attention fields or in the plan shows as a mismatch. And the attention fields' provenance: every key
path the data names resolves in the copied config to the value the data holds."""
import json
import re
from dataclasses import replace

import pytest

from course.common import kv_cache as kv
from course.common.schema import load_inputs
from course.paths import MODEL_CONFIGS

BF16 = 2


def raw(file):
    """A config as copied, its text model's part where it nests one."""
    c = json.loads((MODEL_CONFIGS / file).read_text(encoding="utf-8"))
    return c.get("text_config", c)


@pytest.fixture(scope="module")
def inputs():
    return load_inputs()


@pytest.fixture(scope="module")
def plans(inputs):
    done, missing = kv.plans(inputs)
    return {p.model: p for p in done}, missing


def test_llama_3_1_8b_grouped_query_cache(plans):
    c = raw("meta-llama__Llama-3.1-8B-Instruct.config.json")
    head_dim = c["hidden_size"] // c["num_attention_heads"]          # the config has no head_dim key
    per_token = 2 * c["num_hidden_layers"] * c["num_key_value_heads"] * head_dim * BF16   # a key and a value
    plan = plans[0]["Llama 3.1 8B"]
    assert plan.attention == "GQA"
    assert plan.full_bytes_per_token() == plan.bytes_per_token() == per_token
    assert per_token == 131_072    # the spec's worked example: 32 layers × 8 KV heads × 128 × 2 × 2 bytes
    assert plan.bytes_at(32_768) == per_token * 32_768
    assert plan.max_context == c["max_position_embeddings"]


def test_gpt2_caches_a_key_and_value_per_head(plans):
    g = raw("openai__gpt2-124M.hparams.json")
    plan = plans[0]["GPT-2 small"]
    assert plan.attention == "MHA"
    assert plan.full_bytes_per_token() == 2 * g["n_layer"] * g["n_embd"] * BF16   # heads × head_dim = n_embd
    assert plan.max_context == g["n_ctx"]


def test_mla_caches_the_latent_and_the_rope_key_whatever_the_kv_heads(plans, inputs):
    for name, file in (("DeepSeek-V3", "deepseek-ai__DeepSeek-V3.config.json"),
                       ("Kimi K2", "moonshotai__Kimi-K2-Instruct.config.json")):
        c = raw(file)
        plan = plans[0][name]
        assert plan.attention == "MLA"
        assert plan.bytes_per_token() == (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * c["num_hidden_layers"] * BF16
        # an MLA config's num_key_value_heads says nothing about its cache
        m = inputs.frontier.by_name(name)
        other = kv.plan_model(m.model_copy(update={"num_kv_heads": 1}))
        assert other.bytes_at(4096) == plan.bytes_at(4096)


def test_gpt_oss_sliding_layers_cache_at_most_the_window(plans):
    for name, file in (("gpt-oss-120b", "openai__gpt-oss-120b.config.json"),
                       ("gpt-oss-20b", "openai__gpt-oss-20b.config.json")):
        c = raw(file)
        per_layer = 2 * c["num_key_value_heads"] * c["head_dim"] * BF16
        full = c["layer_types"].count("full_attention")
        sliding = c["layer_types"].count("sliding_attention")
        assert full + sliding == c["num_hidden_layers"] and c["layer_types"][0] == "sliding_attention"
        plan = plans[0][name]
        assert plan.full_bytes_per_token() == full * per_layer
        for T in (100, c["sliding_window"], 32_768, c["max_position_embeddings"]):
            assert plan.bytes_at(T) == per_layer * (full * T + sliding * min(T, c["sliding_window"])), T
        # past the window, only the full layers grow
        assert plan.bytes_at(20_000) - plan.bytes_at(10_000) == full * per_layer * 10_000


def linear_state_entries(k_heads, v_heads, k_dim, v_dim, kernel):
    """One linear-attention layer's state: a k_dim × v_dim matrix per value head, and the causal short
    convolution's last kernel − 1 inputs of q, k (k_heads × k_dim each) and v (v_heads × v_dim)."""
    return v_heads * k_dim * v_dim + (kernel - 1) * (2 * k_heads * k_dim + v_heads * v_dim)


def test_the_anchor_caches_only_in_its_full_attention_layers(plans, inputs):
    c = raw(inputs.anchor.provenance.copied_file)
    full = c["layer_types"].count("full_attention")
    linear = c["layer_types"].count("linear_attention")
    per_token = 2 * full * c["num_key_value_heads"] * c["head_dim"] * BF16
    state = linear * linear_state_entries(c["linear_num_key_heads"], c["linear_num_value_heads"],
                                          c["linear_key_head_dim"], c["linear_value_head_dim"],
                                          c["linear_conv_kernel_dim"]) * BF16
    plan = plans[0][inputs.anchor.name]
    assert plan.attention == "GQA"
    assert plan.full_bytes_per_token() == per_token and plan.fixed_bytes() == state
    for T in (1, 32_768, c["max_position_embeddings"]):
        assert plan.bytes_at(T) == per_token * T + state


def test_qwen3_next_layer_types_follow_the_full_attention_interval(plans, inputs):
    c = raw("Qwen__Qwen3-Next-80B-A3B-Instruct.config.json")
    n, L = c["full_attention_interval"], c["num_hidden_layers"]
    m = inputs.frontier.by_name("Qwen3-Next-80B-A3B")
    assert [i for i, t in enumerate(m.layer_types) if t == "full_attention"] == list(range(n - 1, L, n))
    plan = plans[0]["Qwen3-Next-80B-A3B"]
    assert plan.full_bytes_per_token() == 2 * (L // n) * c["num_key_value_heads"] * c["head_dim"] * BF16
    assert plan.fixed_bytes() == (L - L // n) * linear_state_entries(
        c["linear_num_key_heads"], c["linear_num_value_heads"], c["linear_key_head_dim"],
        c["linear_value_head_dim"], c["linear_conv_kernel_dim"]) * BF16


def test_kimi_k3_mixes_kda_and_mla_layers_numbered_from_one(plans, inputs):
    c = raw("moonshotai__Kimi-K3.config.json")
    lac = c["linear_attn_config"]
    assert sorted(lac["kda_layers"] + lac["full_attn_layers"]) == list(range(1, c["num_hidden_layers"] + 1))
    m = inputs.frontier.by_name("Kimi K3")
    assert [i + 1 for i, t in enumerate(m.layer_types) if t == "full_attention"] == lac["full_attn_layers"]
    plan = plans[0]["Kimi K3"]
    assert plan.attention == "MLA"
    assert plan.bytes_per_token() == len(lac["full_attn_layers"]) * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * BF16
    h, d = lac["num_heads"], lac["head_dim"]
    assert plan.fixed_bytes() == len(lac["kda_layers"]) * linear_state_entries(
        h, h, d, d, lac["short_conv_kernel_size"]) * BF16


@pytest.mark.parametrize("name,file", [("DeepSeek-V4-Flash", "deepseek-ai__DeepSeek-V4-Flash.config.json"),
                                       ("DeepSeek-V4-Pro", "deepseek-ai__DeepSeek-V4-Pro.config.json")])
def test_deepseek_v4_window_and_compressed_entries(plans, name, file):
    """As DeepSeek-V4-Flash's inference/model.py allocates them: per layer, window_size vectors of head_dim
    (the key is the value) plus one per compress_ratio tokens, and in ratio-4 layers the indexer's keys."""
    c = raw(file)
    L, ratios = c["num_hidden_layers"], c["compress_ratios"]
    assert len(ratios) == L + c["num_nextn_predict_layers"]     # the entry past the layers is the MTP layer's
    plan = plans[0][name]
    assert plan.attention == "CSA/HCA" and plan.full_bytes_per_token() == 0
    for T in (64, 1_000, 131_072, c["max_position_embeddings"]):
        entries = sum(c["head_dim"] * (min(T, c["sliding_window"]) + (T // r if r else 0))
                      + (c["index_head_dim"] * (T // r) if r == 4 else 0) for r in ratios[:L])
        assert plan.bytes_at(T) == entries * BF16, T
    growth = sum(c["head_dim"] / r + (c["index_head_dim"] / r if r == 4 else 0) for r in ratios[:L] if r)
    assert plan.bytes_per_token() == growth * BF16


def test_at_least_ten_models_have_a_cache_and_none_lacks_one(plans):
    done, missing = plans
    assert len(done) >= 10
    assert missing == [], [f"{m.model}: {m.reason}" for m in missing]


def test_a_model_without_the_fields_has_no_plan_and_says_why(inputs):
    m = inputs.frontier.by_name("Llama 3.1 8B").model_copy(update={"head_dim": None})
    p = kv.plan_model(m)
    assert isinstance(p, kv.NoPlan) and "head_dim" in p.reason


def yaml_value(text, key):
    m = re.search(rf"^\s+{re.escape(key)}:\s*(\S+)\s*$", text, re.M)
    return None if m is None else int(m.group(1))


def test_attention_fields_name_the_keys_they_came_from(inputs):
    """A value read from a config equals the value at the key path the data names for it; a value derived
    from several keys names keys that exist and says how in its rule; a field left out says why."""
    checked = 0
    for m in inputs.frontier.models:
        file = m.provenance.copied_file
        for field, key in m.attention_keys.items():
            assert file, f"{m.name}: attention_keys without a copied config"
            text = (MODEL_CONFIGS / file).read_text(encoding="utf-8")
            if file.endswith(".yaml"):
                lookup = lambda k: yaml_value(text, k.split(".")[-1])   # noqa: E731
            else:
                config = json.loads(text)
                lookup = lambda k: kv_at(config, k)                     # noqa: E731
            if isinstance(key, str):
                assert lookup(key) == getattr(m, field), f"{m.name}: {field} ≠ {file} {key}"
            else:
                assert all(lookup(k) is not None for k in key), f"{m.name}: {field} from {key}"
                assert getattr(m, f"{field}_rule"), f"{m.name}: {field} is derived but has no rule"
            checked += 1
        for field, reason in m.attention_absent.items():
            assert getattr(m, field) is None and reason, f"{m.name}: {field}"
    assert checked >= 60


def kv_at(config, key):
    v = config
    for part in key.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def test_a_plan_part_holds_what_its_kind_holds():
    window = kv.Part("sliding", 2, 10, "window", 128)
    strided = kv.Part("compressed", 3, 8, "strided", 4)
    state = kv.Part("linear_state", 5, 7, "fixed")
    assert [window.entries_at(T) for T in (0, 100, 1000)] == [0, 2 * 10 * 100, 2 * 10 * 128]
    assert [strided.entries_at(T) for T in (3, 4, 10)] == [0, 3 * 8, 3 * 8 * 2]
    assert state.entries_at(0) == state.entries_at(10**6) == 5 * 7
    plan = kv.CachePlan("x", "GQA", (window, strided, state), None, "test")
    assert plan.bytes_per_token() == 3 * 8 / 4 * BF16 and plan.fixed_bytes() == 5 * 7 * BF16
    assert plan.bytes_at(1000, batch=3) == 3 * plan.bytes_at(1000)
    assert replace(plan, parts=()).bytes_at(10) == 0
