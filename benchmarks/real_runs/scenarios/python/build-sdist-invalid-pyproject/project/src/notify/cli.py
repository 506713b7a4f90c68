import argparse


def main(argv=None):
    ap = argparse.ArgumentParser(prog="notify-hooks")
    ap.add_argument("url")
    ap.add_argument("--message", default="build finished")
    args = ap.parse_args(argv)
    print(f"would POST {args.message!r} to {args.url}")
    return 0
