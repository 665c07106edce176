"""The course's lessons, one package each, whose `__init__.py` defines `UNIT`; the build finds every one
(course/core/units.py). See README "Adding a lesson"."""
