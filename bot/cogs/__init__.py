"""Slash commands, one cog per area; each command is a thin call into ``bot.tables``."""
