"""Atomic writes and content hashes: the two things every stage needs to be safe and cacheable
(one implementation, in cachekit, shared with the small model's refresh)."""
from cachekit import hash_files, write_atomic

__all__ = ["write_atomic", "hash_files"]
