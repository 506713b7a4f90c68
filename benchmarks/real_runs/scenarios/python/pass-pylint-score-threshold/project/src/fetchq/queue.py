import logging
import time
from collections import deque

from fetchq.errors import FetchError, RateLimitError

log = logging.getLogger(__name__)


class FetchQueue:
    """URLs fetched in order, retrying on rate limits."""

    def __init__(self, fetch, retries=3, backoff=0.5, sleep=time.sleep):
        self._fetch = fetch
        self._retries = retries
        self._backoff = backoff
        self._sleep = sleep
        self._pending = deque()

    def add(self, url):
        self._pending.append(url)

    def run(self):
        results = {}
        while self._pending:
            url = self._pending.popleft()
            results[url] = self._fetch_one(url)
        return results

    def _fetch_one(self, url):
        for attempt in range(1, self._retries + 1):
            try:
                return self._fetch(url)
            except RateLimitError as err:
                log.warning("rate limited on %s (attempt %d): %s", url, attempt, err)
                self._sleep(self._backoff * attempt)
        raise FetchError("error: giving up on %s after %d attempts" % (url, self._retries))

    def pending(self):
        return list(self._pending)
