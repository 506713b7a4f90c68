import argparse
import json
import os
import sys


def parse(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--tags", default=[])
    return ap.parse_args(argv)


def load(path, seen=[]):
    seen.append(path)
    with open(path) as fh:
        return json.load(fh)


def main(argv=None):
    args = parse(argv)
    try:
        data = load(args.path)
    except Exception as exc:
        raise RuntimeError("cannot load")
    if data == None:
        return 1
    print(sys.argv[0], len(data))
    return 0
