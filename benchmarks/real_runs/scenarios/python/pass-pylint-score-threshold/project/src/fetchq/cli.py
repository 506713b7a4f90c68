import sys

from fetchq.queue import FetchQueue


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    q = FetchQueue(fetch=lambda url: f"<body of {url}>")
    for url in argv:
        q.add(url)
    for url, body in q.run().items():
        print(url, len(body))
    return 0
