"""Everything Discord: cogs, views, rendering for Discord, timers — and the ``stackbot`` CLI."""
