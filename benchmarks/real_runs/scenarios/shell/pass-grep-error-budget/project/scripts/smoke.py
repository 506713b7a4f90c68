"""Run a short synthetic workload and write per-worker logs, as the soak job does."""
import logging
import pathlib

pathlib.Path("logs").mkdir(exist_ok=True)
for worker, failures in (("ingest", 2), ("render", 0), ("notify", 1)):
    log = logging.getLogger(worker)
    handler = logging.FileHandler(f"logs/{worker}.log", mode="w")
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    for i in range(20):
        log.info("job %d done", i)
    for i in range(failures):
        log.error("job %d failed: upstream returned 503, will be retried", 100 + i)
print("smoke workload finished")
