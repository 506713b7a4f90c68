import logging
import time

log = logging.getLogger("sync.retry")


class TransientError(Exception):
    pass


def with_retries(fn, attempts=3, delay=0.01):
    for n in range(1, attempts + 1):
        try:
            return fn()
        except TransientError as exc:
            if n == attempts:
                log.error("giving up after %d attempts: %s", n, exc)
                raise
            log.warning("attempt %d failed: %s; retrying in %.2fs", n, exc, delay)
            time.sleep(delay)


def sync_records(records, upload):
    failed = 0
    for rec in records:
        try:
            with_retries(lambda: upload(rec))
        except TransientError:
            log.error("Error: record %s not synced, queued for next run", rec)
            failed += 1
    log.info("sync done: %d ok, %d failed", len(records) - failed, failed)
    return failed
