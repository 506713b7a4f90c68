import argparse
import sys

from report.render import render_rows, summarize


def main(argv=None):
    ap = argparse.ArgumentParser(prog="report")
    ap.add_argument("path")
    ap.add_argument("--key", default="status")
    args = ap.parse_args(argv)
    with open(args.path, encoding="utf-8") as fh:
        rows = [dict(zip(["id", "status"], line.strip().split(","))) for line in fh]
    print(render_rows(rows, ["id", "status"]))
    print(summarize(rows, args.key))
    return 0


if __name__ == "__main__":
    sys.exit(main())
