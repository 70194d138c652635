"""Settings from the environment and ``.env`` (pydantic-settings). The token is a secret:
it is never logged or echoed."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    """``DISCORD_TOKEN``, ``DATABASE_URL``, ``DEV_GUILD_ID``, ``LOG_LEVEL``."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="the bot's token")
    database_url: str | None = Field(default=None, description="default: ./stackbot.db")
    dev_guild_id: int | None = Field(default=None, description="sync commands here at start")
    log_level: str = Field(default="INFO")

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("discord_token")
    @classmethod
    def _blank_is_none(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().strip():
            return None
        return value
