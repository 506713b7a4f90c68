"""Create a deployment through the deploy API and report it."""

import argparse
import json
import os
import urllib.request


def call(method: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        os.environ["DEPLOY_API"] + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            "Authorization": "Bearer " + os.environ["DEPLOY_TOKEN"],
            "Content-Type": "application/json",
        },
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--version", required=True)
    args = ap.parse_args()
    state = call("GET", f"/environments/{args.env}")
    print(f"{args.env}: currently {state['current']} (locked: {state['locked']})")
    print(f"creating deployment of {args.version} to {args.env}")
    dep = call("POST", "/deployments", {"environment": args.env, "version": args.version})
    print(f"deployment {dep['id']} created")


if __name__ == "__main__":
    main()
