"""Build the search index in memory, as the docs job does."""
import sys


def main(n_docs: int) -> None:
    print(f"indexing {n_docs} documents", flush=True)
    postings = []
    for i in range(0, n_docs, 1000):
        postings.append(bytearray(64 * 1024 * 1024))
        print(f"  {i + 1000} documents, {len(postings) * 64} MiB of postings", flush=True)
    print("index built")


if __name__ == "__main__":
    main(int(sys.argv[1]))
