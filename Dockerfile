# stackbot: the Discord bot, its database on the /data volume.
#   docker build -t stackbot .
#   docker run --rm --env-file .env stackbot sync      # publish the slash commands
#   docker run -d --name stackbot --restart unless-stopped --env-file .env \
#       -v stackbot-data:/data stackbot                # run the bot (the default command)
# A bind-mounted /data must be writable by uid 10001: mkdir data && sudo chown 10001 data
# Debian bookworm, pinned: the font packages below are checked against it.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/stackbot.db

# The Debian packages of system-packages.txt (also installed by .ci/run): the fonts of the
# table picture, Latin, Greek and Cyrillic (DejaVu), Chinese, Japanese and Korean (Noto
# CJK) and emoji and symbols in one colour (Symbola, drawn at any size), so that display
# names draw as typed. pictures/fonts.py finds them at run time. The list's last part is for
# the tests only (the browser tests' Chromium): the image stops before it.
COPY system-packages.txt /tmp/system-packages.txt
RUN apt-get update \
    && sed '/^# Tests only/,$d' /tmp/system-packages.txt | grep -v '^[[:space:]]*#' \
        | xargs apt-get install --yes --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/system-packages.txt

RUN useradd --create-home --uid 10001 stackbot \
    && mkdir -p /data \
    && chown stackbot:stackbot /data

WORKDIR /app

# The dependencies in a layer of their own, rebuilt only when pyproject.toml or
# constraints.txt changes: the pinned list is read from pyproject.toml and installed, with
# their own dependencies at the versions of constraints.txt, before any source is copied.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" \
        > /tmp/requirements.txt \
    && pip install --constraint constraints.txt --requirement /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The package itself, without touching the dependencies installed above.
COPY README.md LICENSE ./
COPY catalog ./catalog
COPY engine ./engine
COPY persistence ./persistence
COPY pictures ./pictures
COPY host ./host
COPY terminal ./terminal
COPY web ./web
COPY bot ./bot
RUN pip install --no-deps . \
    && rm -rf build ./*.egg-info

USER stackbot
VOLUME ["/data"]
# `docker run stackbot` runs the bot; `docker run stackbot sync` (or `play`, …) runs that
# stackbot command instead. Exec form: stackbot is PID 1 and gets docker stop's SIGTERM
# (which PID 1 ignores unless it handles it: every command does, bot/stop_signal.py).
ENTRYPOINT ["stackbot"]
CMD ["run"]
