"""Micro-benchmark of the normalization ops, forward + backward, on the device the build runs on.

Each op normalizes a float32 tensor of 32 × 256 × 256 over its last dimension and back-propagates a fixed
output gradient. After a warm-up, 200 repetitions run with the ops interleaved (each repetition runs every
op once, in an order that rotates), so a slow phase of a shared machine hits all ops alike. On CUDA every
timing is bracketed by synchronizations. A plain tensor copy of the same size is timed in the same loop:
the rate at which this device moves memory. Bytes moved are counted as the minimum an op must touch; at this
size (8 MiB per tensor) part of that traffic can stay in a CPU's caches, so a well-fused op may exceed the
copy's rate, while an op that makes several passes over memory falls far below it.
"""
from __future__ import annotations

import platform
import statistics
import time
from typing import Callable

import torch
from torch.nn import functional as F

SHAPE = (32, 256, 256)
EPS = 1e-5
WARMUP = 20
REPS = 200
FLOAT32_BYTES = 4
# Forward reads x and writes y; backward reads x and dy and writes dx: five tensors of the input's size
# (the d-sized weights and per-token statistics are negligible). A copy reads one and writes one.
TENSORS_MOVED = {"norm": 5, "copy": 2}


def rmsnorm_manual(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w


def rmsnorm_zero_centered(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * (1 + w)


def eager_ops(d: int) -> dict[str, Callable]:
    return {
        "layernorm": lambda x, w, b: F.layer_norm(x, (d,), w, b, EPS),
        "rmsnorm": lambda x, w, b: F.rms_norm(x, (d,), w, EPS),
        "rmsnorm_manual": lambda x, w, b: rmsnorm_manual(x, w),
        "rmsnorm_zero_centered": lambda x, w, b: rmsnorm_zero_centered(x, w),
    }


def cpu_name() -> str:
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def device_name(device: str) -> str:
    """The GPU's name on CUDA, the CPU's model otherwise (the thread count is recorded beside it)."""
    return torch.cuda.get_device_name(0) if device == "cuda" else cpu_name()


def summarize(times_ms: list[float], tensors: int, numel: int) -> dict:
    q = statistics.quantiles(times_ms, n=4)
    med = statistics.median(times_ms)
    moved = tensors * numel * FLOAT32_BYTES
    return {"median_ms": med, "min_ms": min(times_ms), "max_ms": max(times_ms), "q1_ms": q[0], "q3_ms": q[2],
            "iqr_ms": q[2] - q[0], "bytes_moved": moved, "gbps": moved / (med / 1e3) / 1e9}


def run_bench(device: str = "cpu", compile_ops: bool = True, reps: int = REPS, warmup: int = WARMUP,
              shape: tuple[int, ...] = SHAPE) -> dict:
    d = shape[-1]
    gen = torch.Generator().manual_seed(0)
    x0 = torch.randn(shape, generator=gen).to(device)
    dy = torch.randn(shape, generator=gen).to(device)
    w = (1 + 0.1 * torch.randn(d, generator=gen)).to(device).requires_grad_()
    b = (0.1 * torch.randn(d, generator=gen)).to(device).requires_grad_()
    x = x0.clone().requires_grad_()
    copy_out = torch.empty_like(x0)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    ops = eager_ops(d)
    compiled: dict[str, dict] = {}
    if compile_ops:
        # compile from scratch: a warm on-disk cache would report a compile time no first use sees
        import torch._inductor.config as inductor_config
        cached, inductor_config.force_disable_caches = inductor_config.force_disable_caches, True
        for name in ("layernorm", "rmsnorm_manual", "rmsnorm_zero_centered"):
            fn = torch.compile(ops[name], dynamic=False)
            t0 = time.perf_counter()
            try:
                fn(x, w, b).backward(dy)  # the first call compiles forward and backward
                sync()
                ops[f"{name}_compiled"] = fn
                compiled[f"{name}_compiled"] = {"ok": True, "compile_s": time.perf_counter() - t0}
            except Exception as e:  # recorded, not hidden: the page says which forms compiled here
                compiled[f"{name}_compiled"] = {"ok": False, "compile_s": time.perf_counter() - t0,
                                                "error": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"}
        inductor_config.force_disable_caches = cached

    def step(name: str) -> float:
        x.grad = w.grad = b.grad = None
        sync()
        t0 = time.perf_counter()
        if name == "copy":
            copy_out.copy_(x0)
        else:
            ops[name](x, w, b).backward(dy)
        sync()
        return (time.perf_counter() - t0) * 1e3

    names = ["copy", *ops]
    for _ in range(warmup):
        for name in names:
            step(name)
    times: dict[str, list[float]] = {n: [] for n in names}
    for rep in range(reps):
        k = rep % len(names)
        for name in names[k:] + names[:k]:  # rotate the order: no op always runs first or last
            times[name].append(step(name))

    numel = x0.numel()
    result_ops = {n: summarize(times[n], TENSORS_MOVED["norm"], numel) for n in ops}
    copy = summarize(times["copy"], TENSORS_MOVED["copy"], numel)
    for r in result_ops.values():
        r["fraction_of_copy_gbps"] = r["gbps"] / copy["gbps"]
    return {"device": device, "device_name": device_name(device), "shape": list(shape), "dtype": "float32",
            "reps": reps, "warmup": warmup, "threads": torch.get_num_threads(), "ops": result_ops, "plain_copy": copy,
            "compiled": compiled}
