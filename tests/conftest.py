"""What every test shares: hypothesis draws the same examples on every run (profile
``ci``), so that CI fails only on a change, never on a new random draw; set
``HYPOTHESIS_PROFILE=explore`` to draw new examples (and look for new failures)."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
