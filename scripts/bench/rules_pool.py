#!/usr/bin/env python3
"""Pools series of scripts/bench/rules.sh: for each group of logs (the group is the part of the
file name before its first dot, e.g. kml-file.1.log and kml-file.2.log make "kml-file"), the
ratio rules/plain of the medians of wall time and of CPU time (user + system), the median of the
pairs' own ratios, a 95 % bootstrap interval of the ratio of wall medians (2,000 resamples of
the pairs, seed 1), the plain runs' median and the largest peak RSS.

    scripts/bench/rules_pool.py LOG...

Standard library only."""
import os
import random
import statistics
import sys


def pairs(path):
    runs = {"plain": [], "rules": []}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 5 and p[0] in runs:
                runs[p[0]].append((int(p[1]), float(p[2]) + float(p[3]), int(p[4])))
    return list(zip(runs["plain"], runs["rules"]))


def ratio(sample, i):
    return statistics.median(r[i] for _, r in sample) / statistics.median(p[i] for p, _ in sample)


def main(paths):
    groups = {}
    for path in paths:
        groups.setdefault(os.path.basename(path).split(".")[0], []).extend(pairs(path))
    rng = random.Random(1)
    for name, sample in groups.items():
        boots = sorted(ratio([rng.choice(sample) for _ in sample], 0) for _ in range(2000))
        own = statistics.median(r[0] / p[0] for p, r in sample)
        print(
            f"{name}: {len(sample)} pairs; wall {ratio(sample, 0):.3f} (95 % {boots[50]:.3f}-{boots[1949]:.3f}), "
            f"pairs' median {own:.3f}; CPU {ratio(sample, 1):.3f}; "
            f"plain {statistics.median(p[0] for p, _ in sample):.0f} ms; "
            f"peak {max(max(p[2], r[2]) for p, r in sample)} KB"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
