"""The course's chapters, one package each, whose `__init__.py` defines `UNIT` (kind "chapter"): its overview
page and what its lessons share. The build finds every one (course/core/units.py)."""
