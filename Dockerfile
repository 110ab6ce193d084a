# A slim image that runs the bot as a non-root user, with /healthz and /metrics on port 9100.
# Build: docker build -t racing-bot .
# Run:   docker run --env-file .env -v racing-data:/app/data racing-bot
# Several processes on PostgreSQL: compose.yaml (docs/operating.md#containers-docker-compose).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    METRICS_PORT=9100 METRICS_HOST=0.0.0.0
WORKDIR /app

RUN useradd --create-home --uid 10001 bot

# The dependencies first, in a layer of their own: it is rebuilt only when pyproject.toml changes, so a
# code change rebuilds in seconds. (The project itself is not installed: it runs from /app.)
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install --no-compile -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY assets ./assets
COPY cogs ./cogs
COPY bot ./bot
RUN mkdir -p /app/data && chown bot:bot /app/data

USER bot
VOLUME ["/app/data"]
EXPOSE 9100
STOPSIGNAL SIGTERM
# The slim image has no curl: Python asks /healthz (200 healthy; 503, no answer or an error: unhealthy).
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('METRICS_PORT', '9100') + '/healthz', timeout=4)"]
CMD ["python", "-m", "bot"]
