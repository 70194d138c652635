"""Color Stack on Discord, all in this package: the game (:mod:`.game`, its
``DISCORD_GAME``), the **My move** panel's tree (:mod:`.panel`) and its buttons
(:mod:`.views`), its words (:mod:`.words`) and its rules in short (:mod:`.rules`).
Registered in :mod:`bot.games`."""
