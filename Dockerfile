# RepoPilot GitHub Action image.
# Base pinned to an exact version tag. No digest: none was verified from this build environment,
# and an unverified digest is worse than none (pin one here once `docker buildx imagetools inspect`
# has confirmed it).
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /opt/repopilot

# Dependencies first (their own layer): every file is hash-checked, wheels only, no resolver.
COPY requirements.lock ./
RUN pip install --no-deps --require-hashes -r requirements.lock

# The project itself: a regular (non-editable) install built with the locked setuptools, so the
# build fetches nothing unpinned.
COPY pyproject.toml README.md ./
COPY repopilot ./repopilot
COPY patterns ./patterns
RUN pip install --no-deps --no-build-isolation . \
    && python -c "import repopilot.cli"

# User: the image keeps the default root user on purpose. GitHub runs Docker container actions
# with `--workdir /github/workspace` and mounts the workspace, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
# and the event file owned by the runner's uid (1001 on hosted runners); a fixed non-root uid
# here cannot write the output and summary files on every runner, and GitHub's docs advise
# against USER in action Dockerfiles. Containment comes from elsewhere: the code never executes
# anything from the checkout, and the job's token scope is set by the workflow.
ENTRYPOINT ["python", "-m", "repopilot", "action"]
