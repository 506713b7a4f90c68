"""Write docs/index.json: one entry per Markdown page."""

import json
import sys
from pathlib import Path


def title(path: Path) -> str:
    for line in path.read_text().splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def main(root: str) -> int:
    pages = sorted(Path(root).glob("*.md"))
    index = [
        {"path": str(p), "title": title(p)}
        for p in pages
    Path(root, "index.json").write_text(json.dumps(index, indent=2))
    print(f"indexed {len(index)} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
