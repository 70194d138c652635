"""Settings from the environment and ``.env`` (pydantic-settings). The token is a secret:
it is never logged or echoed."""

from __future__ import annotations

import difflib
import io
from pathlib import Path
from urllib.parse import urlparse

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from redis.connection import parse_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_SNOWFLAKE = 2**64 - 1  # a Discord id: a positive 64-bit number
# what a setting read as a number must be: said when it is out of range, and when it is no
# number at all (pydantic's words were "Input should be a valid integer, unable to parse
# string as an integer", naming no setting nor what it takes)
PORT = "a port number, 1 to 65535"
DISCORD_ID = "a Discord id, a number such as 1234567890123456789"
NUMBERS = {
    "health_port": PORT,
    "web_port": PORT,
    "dev_guild_id": DISCORD_ID,
    "discord_client_id": DISCORD_ID,
}


class Settings(BaseSettings):
    """``DISCORD_TOKEN``, ``DATABASE_URL``, ``DEV_GUILD_ID``, ``LOG_LEVEL``; for several
    processes (``stackbot run --shards``) ``REDIS_URL``, ``NODE_NAME`` and
    ``CLUSTER_PREFIX``; ``HEALTH_PORT`` for the health endpoint; ``WEB_PORT`` (and
    ``WEB_HOST``, ``WEB_ORIGINS``) for the tables' web pages, and for the Discord Activity
    ``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET`` (a secret: never logged nor sent to a
    page) and ``DISCORD_API_BASE``."""

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
    web_port: int | None = Field(default=None, description="the tables' web pages on this port")
    web_host: str = Field(default="127.0.0.1", description="their address (behind a proxy)")
    web_origins: str = Field(default="", description="more origins allowed, comma-separated")
    discord_client_id: int | None = Field(default=None, description="the Activity's app id")
    discord_client_secret: SecretStr | None = Field(default=None, description="its secret")
    discord_api_base: str = Field(
        default="https://discord.com/api/v10", description="Discord's HTTP API (tests: a stand-in)"
    )

    @field_validator("redis_url", "node_name")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value if value is None or value.strip() else None

    @field_validator("node_name")
    @classmethod
    def _node_name(cls, value: str | None) -> str | None:
        """Printable ASCII: the node id names the process's PostgreSQL sessions (so that a
        take-over can end a paused holder's), and PostgreSQL keeps nothing else in a
        session's name."""
        if value is not None and not all(" " <= c <= "~" for c in value):
            raise ValueError(
                "NODE_NAME must be printable ASCII, such as shards-0-3: PostgreSQL names "
                "the process's sessions after it"
            )
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, value: str | None) -> str | None:
        """A URL redis-py reads as written (a database number it cannot read would be
        db 0); the URL itself is never echoed: it may hold a password."""
        if value is None:
            return None
        fix = "REDIS_URL must be a Redis URL such as redis://host:6379/0"
        try:
            parse_url(value)  # type: ignore[no-untyped-call]
        except ValueError:
            schemes = "redis://, rediss:// or unix://"
            raise ValueError(f"{fix} ({schemes}, a port number and a database number)") from None
        path = urlparse(value).path.strip("/")
        if not value.startswith("unix:") and path and not path.isdigit():
            raise ValueError(f"{fix}: the database is a number, as /0") from None
        return value

    @field_validator(
        "dev_guild_id",
        "health_port",
        "web_port",
        "discord_client_id",
        "database_url",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """``DEV_GUILD_ID=`` (as .env.example leaves it) is the setting left unset."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("health_host", "web_host", "cluster_prefix", "discord_api_base", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object, info: ValidationInfo) -> object:
        """``WEB_HOST=`` is the setting left unset: its default (127.0.0.1), not the empty
        host, which aiohttp serves on every interface."""
        if isinstance(value, str) and not value.strip():
            return cls.model_fields[str(info.field_name)].default
        return value

    @field_validator("health_port", "web_port")
    @classmethod
    def _port(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and not 1 <= value <= 65535:
            raise ValueError(f"{str(info.field_name).upper()} must be {PORT}")
        return value

    @field_validator("dev_guild_id", "discord_client_id")
    @classmethod
    def _snowflake(cls, value: int | None, info: ValidationInfo) -> int | None:
        """A Discord id: ``DEV_GUILD_ID=0`` synced nowhere, a negative one was Discord's
        400 at start-up, said as 'cannot reach Discord'."""
        if value is not None and not 1 <= value <= MAX_SNOWFLAKE:
            raise ValueError(f"{str(info.field_name).upper()} must be {DISCORD_ID}")
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

    @field_validator("discord_token", "discord_client_secret")
    @classmethod
    def _blank_is_none(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().strip():
            return None
        return value


def settings_mistake(err: ValidationError) -> str:
    """The first thing wrong with the settings, in one line naming the setting: our own
    words (a validator's), or, for a number setting given no number, what it must be."""
    first = err.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else ""
    name = field.upper() or "a setting"
    if first["type"] != "value_error" and field in NUMBERS:
        return f"bad setting {name}: {name} must be {NUMBERS[field]}"
    said = str(first["msg"]).removeprefix("Value error, ")  # pydantic's, for our own
    return f"bad setting {name}: {said}"


def env_file_mistake(path: str | Path | None = None) -> str | None:
    """What is wrong with ``.env`` (``path``: the settings' own), in one line, or ``None``.
    A line that is not ``NAME=value`` and a name a letter or two from a setting's
    (``LOG_LEVL``, ``HEALTH_PROT``) were skipped without a word, the setting left at its
    default; other names are left alone (Docker Compose's, say, share the file)."""
    from dotenv.parser import parse_stream

    file = Path(path if path is not None else str(Settings.model_config.get("env_file")))
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # none (or no file to read): pydantic-settings reads none either
    names = [name.upper() for name in Settings.model_fields]
    for binding in parse_stream(io.StringIO(text)):
        line = binding.original.line
        if binding.error:  # (not echoed: it may hold the token)
            return f"{file} line {line} is not NAME=value, nor a # comment"
        key = (binding.key or "").upper()
        if not key or key in names:
            continue
        close = difflib.get_close_matches(key, names, n=1, cutoff=0.8)
        if close:
            return f"{file} line {line}: {binding.key} is no setting; did you mean {close[0]}?"
    return None
