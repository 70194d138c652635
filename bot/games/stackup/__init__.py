"""Stack Up! on Discord, all in this package: the game (:mod:`.game`, its
``DISCORD_GAME``), the **My hand** panel's steps (:mod:`.panel`) and its buttons and words
(:mod:`.views`). Registered in :mod:`bot.games`."""
