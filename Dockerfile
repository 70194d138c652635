# stackbot: the Discord bot, its database on a volume.
#   docker build -t stackbot .
#   docker run -d --name stackbot -e DISCORD_TOKEN=... -v stackbot-data:/data stackbot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/stackbot.db

RUN useradd --create-home --uid 10001 stackbot \
    && mkdir -p /data \
    && chown stackbot:stackbot /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY persistence ./persistence
COPY bot ./bot
RUN pip install .

USER stackbot
VOLUME ["/data"]
CMD ["stackbot", "run"]
