def wrap(text: str, width: int) -> list[str]:
    lines, cur = [], ""
    for word in text.split():
        if len(cur) + len(word) + 1 >= width and cur:
            lines.append(cur.rstrip())
            cur = ""
        cur += word + " "
    if cur:
        lines.append(cur.rstrip())
    return lines


def slug(text: str) -> str:
    return "-".join(text.lower().split())
