"""Stack on Discord, all in this package: the game (:mod:`.game`, its ``DISCORD_GAME``),
its words (:mod:`.words`: the table, round and game ends, sheets, stats), the **My turn**
panel (:mod:`.panel`), refusals in Discord's words (:mod:`.wording`) and its story (:mod:`.story`:
**Full scoring**, the charts). Registered in :mod:`bot.games`."""
