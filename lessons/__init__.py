"""The course's lessons, one package each. `course.core.units.discover()` finds every package here that
defines `LESSON`; see README "Add a lesson"."""
