import logging
import sys

import yaml

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("plan")


def main(path: str) -> int:
    log.info("reading %s", path)
    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    for region in cfg["regions"]:
        print(f"deploy {cfg['service']} x{cfg['replicas']} -> {region}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
