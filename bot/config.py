"""Settings from the environment and ``.env`` (pydantic-settings). The token is a secret:
it is never logged or echoed."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    """``DISCORD_TOKEN``, ``DATABASE_URL``, ``DEV_GUILD_ID``, ``LOG_LEVEL``; for several
    processes (``stackbot run --shards``) ``REDIS_URL``, ``NODE_NAME`` and
    ``CLUSTER_PREFIX``; ``HEALTH_PORT`` for the health endpoint."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="the bot's token")
    database_url: str | None = Field(default=None, description="default: ./stackbot.db")
    dev_guild_id: int | None = Field(default=None, description="sync commands here at start")
    log_level: str = Field(default="INFO")
    redis_url: str | None = Field(default=None, description="Redis, for several processes")
    node_name: str | None = Field(default=None, description="the readable part of the node id")
    cluster_prefix: str = Field(default="stackbot", description="Redis keys' prefix")
    health_port: int | None = Field(default=None, description="GET /health on this port")
    health_host: str = Field(default="0.0.0.0", description="the health endpoint's address")

    @field_validator("redis_url", "node_name")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value if value is None or value.strip() else None

    @field_validator("dev_guild_id", "health_port", "database_url", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """``DEV_GUILD_ID=`` (as .env.example leaves it) is the setting left unset."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("health_port")
    @classmethod
    def _port(cls, value: int | None) -> int | None:
        if value is not None and not 1 <= value <= 65535:
            raise ValueError("HEALTH_PORT must be a port number, 1 to 65535")
        return value

    @field_validator("cluster_prefix")
    @classmethod
    def _prefix(cls, value: str) -> str:
        if not value.strip() or not value.replace("-", "").replace("_", "").isalnum():
            raise ValueError("CLUSTER_PREFIX must be letters, digits, - and _")
        return value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.strip().upper() or "INFO"  # left empty: the default, as every setting
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("discord_token")
    @classmethod
    def _blank_is_none(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().strip():
            return None
        return value
