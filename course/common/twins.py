"""Python twin of the course's residual-stream simulator: the same arithmetic the browser runs
(course/common/js/residual-sim.js), including its seeded PRNG, so a page load in any browser shows the
numbers the prose quotes. Lessons 2 and 3 each quote its read-outs in their own mode; tests hold the two
implementations to each other."""
from __future__ import annotations

import copy
import functools
import math
from dataclasses import dataclass, field


def remembered(fn):
    """For a twin's pure function of hashable arguments (its settings, a frozen spec): computed once per
    arguments in a process and handed out as a copy, which its caller may change. `mkdocs serve` recomputes
    the registry on every data edit, and these draws and runs, in plain Python, were most of that."""
    results = functools.lru_cache(maxsize=64)(fn)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        return copy.deepcopy(results(*args, **kwargs))
    return call


# ---------------------------------------------------------------- the seeded PRNG (mulberry32 + Box–Muller)

_M32 = 0xFFFFFFFF


def _imul(a: int, b: int) -> int:
    """JavaScript's Math.imul: the low 32 bits of a 32-bit product."""
    return ((a & _M32) * (b & _M32)) & _M32


class Mulberry32:
    """mulberry32 (Tommy Ettinger, public domain): a 32-bit state, one add and three xor-shift-multiplies
    per draw. Chosen because JavaScript and Python reproduce it bit for bit with integer arithmetic.

    uniform() is in [0, 1); normal() is Box–Muller's cosine branch on two uniforms, u1 = 1 − uniform()
    so the logarithm never sees 0. residual-sim.js implements the same two functions, line for line.
    """

    def __init__(self, seed: int):
        self.state = seed & _M32

    def uniform(self) -> float:
        self.state = (self.state + 0x6D2B79F5) & _M32
        t = self.state
        t = _imul(t ^ (t >> 15), t | 1)
        t = ((t + _imul(t ^ (t >> 7), t | 61)) & _M32) ^ t
        return ((t ^ (t >> 14)) & _M32) / 4294967296.0

    def normal(self) -> float:
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


# ---------------------------------------------------------------- the residual-stream simulator

@dataclass(frozen=True)
class SimSpec:
    """Everything about the simulator that is not a reader's control. The widget receives it through
    data-config (course/common/widgets.py), so no setting is typed twice."""
    # Fixed, so every page load shows the same run. Of seeds 1–12, seed 5 gives the readings nearest the
    # median at the defaults (residual only, + pre-RMSNorm, + 1/√N), so it is a typical draw, not a lucky one.
    seed: int = 5
    width: int = 32               # d: the width of the stream and of each sublayer
    tokens: int = 8               # T: rows of the stream, each a token
    eps: float = 1e-6             # inside RMSNorm's square root
    layers_min: int = 1
    layers_max: int = 128
    default_layers: int = 32
    gain_min: float = 0.25
    gain_max: float = 3.0
    gain_step: float = 0.05
    default_gain: float = 1.0


SIM = SimSpec()


@dataclass
class SimResult:
    grad_ratio: float             # ‖∂L/∂x‖ at the bottom sublayer's input over the same at the top sublayer's
    stream_rms: float             # RMS of the final residual stream x_N
    read_rms_top: float           # RMS of what the top sublayer reads (its input after the optional RMSNorm)
    grad: list[float] = field(default_factory=list)    # per sublayer l = 1..N: ‖∂L/∂x_{l−1}‖
    stream: list[float] = field(default_factory=list)  # RMS of x_0 … x_N
    read: list[float] = field(default_factory=list)    # per sublayer: RMS of its input u_l
    write: list[float] = field(default_factory=list)   # per sublayer: RMS of what it adds, s·F_l


@remembered
def simulate(layers: int, gain: float, residual: bool, prenorm: bool, scale: bool,
             spec: SimSpec = SIM) -> SimResult:
    """A stack of N randomly initialized sublayers, forward then backward; no training.

    Draws, in this order, from Mulberry32(seed): the stream x_0 (T × d, standard normal), the read-out
    vector c (d, normal / √d), then W_1 … W_N (each d × d, row-major, normal · gain / √d).
    Sublayer l:   u = RMSNorm(x) if prenorm else x       (per token, no gain: RMSNorm's value at init)
                  F = tanh(W_l u)                         (a linear map of width d and a nonlinearity)
                  x ← (x if residual else 0) + s·F,       s = 1/√N if scale else 1
    Loss:         L = (1/T) Σ_t c · x_N,t  (a fixed linear read-out, so ∂L/∂x_N is the same in every setting)
    Backward by hand through the same steps, summing in the same order as residual-sim.js.
    """
    d, T, N = spec.width, spec.tokens, layers
    rng = Mulberry32(spec.seed)
    x = [[rng.normal() for _ in range(d)] for _ in range(T)]
    c = [rng.normal() / math.sqrt(d) for _ in range(d)]
    sd = gain / math.sqrt(d)
    W = [[[rng.normal() * sd for _ in range(d)] for _ in range(d)] for _ in range(N)]
    s = 1.0 / math.sqrt(N) if scale else 1.0

    def rms_all(m: list[list[float]]) -> float:
        return math.sqrt(sum(v * v for row in m for v in row) / (len(m) * d))

    stream, read, write, inputs, outs, radii = [rms_all(x)], [], [], [], [], []
    for Wl in W:
        if prenorm:
            r = [math.sqrt(sum(v * v for v in row) / d + spec.eps) for row in x]
            u = [[v / r[t] for v in row] for t, row in enumerate(x)]
        else:
            r, u = [], x
        F = [[math.tanh(sum(Wl[i][j] * ut[j] for j in range(d))) for i in range(d)] for ut in u]
        x = [[(x[t][i] if residual else 0.0) + s * F[t][i] for i in range(d)] for t in range(T)]
        inputs.append(u), outs.append(F), radii.append(r)
        read.append(rms_all(u))
        write.append(s * rms_all(F))
        stream.append(rms_all(x))

    g = [[ci / T for ci in c] for _ in range(T)]
    grad = [0.0] * N
    for l in range(N - 1, -1, -1):
        Wl, u, F, r = W[l], inputs[l], outs[l], radii[l]
        dh = [[s * g[t][i] * (1.0 - F[t][i] * F[t][i]) for i in range(d)] for t in range(T)]
        du = [[sum(Wl[i][j] * dh[t][i] for i in range(d)) for j in range(d)] for t in range(T)]
        if prenorm:  # y = x / r  ⇒  ∂x = (∂y − y · mean(∂y ⊙ y)) / r
            dx = []
            for t in range(T):
                m = sum(du[t][j] * u[t][j] for j in range(d)) / d
                dx.append([(du[t][j] - u[t][j] * m) / r[t] for j in range(d)])
        else:
            dx = du
        g = [[(g[t][j] if residual else 0.0) + dx[t][j] for j in range(d)] for t in range(T)]
        grad[l] = math.sqrt(sum(v * v for row in g for v in row))
    return SimResult(grad_ratio=grad[0] / grad[-1], stream_rms=stream[-1], read_rms_top=read[-1],
                     grad=grad, stream=stream, read=read, write=write)
