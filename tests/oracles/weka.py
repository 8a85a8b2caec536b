"""Weka's J48 as an oracle: run it on ARFF files (one JVM for many jobs) and read back its
trees and exact class distributions; read the same ARFF files for treebook.

Debian's ``weka`` package provides ``/usr/share/java/weka.jar`` and the example ARFF
files in ``/usr/share/doc/weka/examples``; ``make crosscheck`` installs it when missing.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

WEKA_JAR = Path("/usr/share/java/weka.jar")
EXAMPLES = Path("/usr/share/doc/weka/examples")
HERE = Path(__file__).resolve().parent


def read_arff(path: Path, build_dir: Path):
    """``(X, y, class_names)`` exactly as Weka reads ``path``: nominal attributes as
    pandas Categoricals in the ARFF's declared value order (NaN for ``?``), numeric ones
    as floats, and the class as a pandas
    Categorical in the ARFF's declared order (unused classes included)."""
    out = _java(build_dir, [(path, "DUMP")])
    attrs, rows = [], []
    for line in out.splitlines():
        fields = line.split("\t")
        if fields[0] == "ATTR":
            attrs.append((fields[1], fields[2], fields[3:]))
        elif fields[0] == "ROW":
            rows.append(fields[1:])
    columns = {}
    for j, (name, kind, values) in enumerate(attrs):
        raw = [r[j] for r in rows]
        if kind == "nominal":
            # the declared order: J48's -B keeps the first of equally good values in it
            columns[name] = pd.Series(pd.Categorical([np.nan if v == "?" else v for v in raw],
                                                     categories=values))
        else:
            columns[name] = pd.Series([np.nan if v == "?" else float(v) for v in raw],
                                      dtype=float)
    names = [a[0] for a in attrs]
    X = pd.DataFrame({n: columns[n] for n in names[:-1]})
    class_names = attrs[-1][2]
    y = pd.Categorical(columns[names[-1]], categories=class_names)
    return X, y, class_names


@dataclass
class J48Result:
    size: int
    n_leaves: int
    classes: list
    distribution: np.ndarray
    text: str
    leaves: list = field(default_factory=list)  # (class, n, errors) of non-empty leaves


_LEAF = re.compile(r":\s*(?P<cls>.+?) \((?P<n>[0-9.]+)(?:/(?P<e>[0-9.]+))?\)\s*$")


def _leaves(text: str) -> list:
    out = []
    for line in text.splitlines():
        m = _LEAF.search(line)
        if m and float(m["n"]) > 0:
            out.append((m["cls"], float(m["n"]), float(m["e"] or 0.0)))
    return out


def compile_driver(build_dir: Path) -> Path:
    build_dir.mkdir(parents=True, exist_ok=True)
    target = build_dir / "J48Oracle.class"
    source = HERE / "J48Oracle.java"
    if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(build_dir), str(source)],
                       check=True)
    return build_dir


def _java(build_dir: Path, jobs) -> str:
    classes_dir = compile_driver(build_dir)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        for path, options in jobs:
            fh.write(f"{path}\t{options}\n")
    try:
        return subprocess.run(["java", "-cp", f"{WEKA_JAR}:{classes_dir}", "J48Oracle",
                               fh.name], check=True, capture_output=True, text=True).stdout
    finally:
        Path(fh.name).unlink()


def run_j48(jobs: list[tuple[Path, str]], build_dir: Path) -> list[J48Result]:
    """Run J48 once per ``(arff, options)`` job, all in one JVM."""
    out = _java(build_dir, jobs)
    results = []
    for block in out.split("\nEND")[:-1]:
        lines = block.strip("\n").splitlines()
        size = int(lines[1].split()[1])
        n_leaves = int(lines[2].split()[1])
        classes = lines[3].split("\t")[1:]
        dist_lines = [ln for ln in lines if ln.startswith("DIST")]
        distribution = np.array([[float(v) for v in ln.split()[1:]] for ln in dist_lines])
        text = "\n".join(lines[lines.index("TREE") + 1:])
        results.append(J48Result(size, n_leaves, classes, distribution, text, _leaves(text)))
    return results
