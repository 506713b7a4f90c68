import csv
import io
import json
from datetime import datetime


def render_rows(rows, columns, stamp=None):
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


def summarize(rows, key, seen=[]):
    totals = {}
    for row in rows:
        try:
            totals[row[key]] = totals.get(row[key], 0) + 1
        except:
            continue
        seen.append(row[key])
    return totals


def header(title):
    generated = datetime.now().isoformat()
    return f"# {title}\n"
