"""Suite-wide settings: the suite asserts behaviour, never speed (it must pass on a busy machine)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Hypothesis's defaults time every example (a 200 ms deadline) and the data generation
# (the too_slow health check): duration assertions that fail when the cores are shared.
# Speed is for `make bench`; here only a hang guard would do, and pytest's are enough.
settings.register_profile("meadhall", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("meadhall")
