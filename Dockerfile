# A slim image that runs the bot as a non-root user. Build: docker build -t racing-bot .
# Run: docker run --env-file .env -v racing-data:/app/data racing-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

RUN useradd --create-home --uid 10001 bot

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY assets ./assets
RUN pip install --no-compile -e . && mkdir -p /app/data && chown bot:bot /app/data

USER bot
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
