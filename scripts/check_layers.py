#!/usr/bin/env python3
"""Checks that every include in Parley's code points down the layers of docs/architecture.md.

Each folder belongs to a layer, and each layer may include the headers of the layers listed for
it (and its own). A quoted include (#include "x/y.h") is judged by its first folder; system and
third-party includes (<...>, "arrow/...", "parquet/...") are not judged. Unit tests (*_test.cc),
their helpers (*_test_util.h) and the shared test helpers (src/testing) may include anything.

Exit status 0 when every include is allowed; otherwise 1, with one line per forbidden include:
the file, the line, the include, and what the file's layer may use.

Usage: scripts/check_layers.py [REPO]   (REPO defaults to the checkout holding this script)
"""

import os
import re
import sys

# The folder of a file -> its layer.
FOLDERS = {
    "include/parley/connector": "connector_api",
    "src/connector": "connector_api",
    "connectors/common": "connectors",
    "connectors/memory": "connectors",
    "connectors/files": "connectors",
    "connectors/delta": "connectors",
    "examples/connectors": "connectors",
    "src/sql": "sql",
    "src/catalog": "catalog",
    "src/plan": "plan",
    "src/cdc": "cdc",
    "src/kernels": "kernels",
    "src/functions": "functions",
    "src/analysis": "analysis",
    "src/exec": "exec",
    "src/main": "main",
    "include/parley": "main",
    "src/cli": "programs",
    "tests/slt": "programs",
    "bench": "programs",
}

# The first folder of a quoted include -> the layer it names. "parley/connector/..." and
# "parley/source_text.h" are the connector API; "parley/session.h" is the embedding API.
INCLUDE_ROOTS = {
    "sql": "sql",
    "catalog": "catalog",
    "plan": "plan",
    "cdc": "cdc",
    "kernels": "kernels",
    "functions": "functions",
    "analysis": "analysis",
    "exec": "exec",
    "main": "main",
    "cli": "programs",
    "connectors": "connectors",
    "testing": "testing",
}

# Which layers each layer may include, besides its own.
ALLOWED = {
    "connector_api": set(),
    "connectors": {"connector_api"},
    "sql": {"connector_api"},
    "catalog": {"connector_api"},
    "plan": {"connector_api", "sql", "catalog"},
    "cdc": {"connector_api", "sql", "catalog", "plan"},
    "kernels": {"connector_api", "sql", "catalog", "plan"},
    "functions": {"connector_api", "sql", "catalog", "plan", "kernels"},
    "analysis": {"connector_api", "sql", "catalog", "plan", "cdc", "functions"},
    "exec": {"connector_api", "sql", "catalog", "plan", "cdc", "kernels", "functions"},
    "main": {"connector_api", "sql", "catalog", "plan", "cdc", "kernels", "functions",
             "analysis", "exec"},
    "programs": {"connector_api", "sql", "catalog", "plan", "cdc", "kernels", "functions",
                 "analysis", "exec", "main"},
}

# Files allowed an include the layers forbid, each with the reason. None is left: a file that
# needs one has a layering problem to solve instead.
EXCEPTIONS: set = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of_file(relative):
    best = None
    for folder, layer in FOLDERS.items():
        if relative.startswith(folder + "/") and (best is None or len(folder) > len(best[0])):
            best = (folder, layer)
    return best[1] if best else None


def layer_of_include(path):
    if path.startswith("parley/connector/") or path == "parley/source_text.h":
        return "connector_api"
    if path.startswith("parley/"):
        return "main"
    return INCLUDE_ROOTS.get(path.split("/", 1)[0])


def violations(repo):
    out = []
    for top in ("include", "src", "connectors", "examples", "tests/slt", "bench"):
        for root, _, files in os.walk(os.path.join(repo, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")) or name.endswith(("_test.cc", "_test_util.h")):
                    continue
                path = os.path.join(root, name)
                relative = os.path.relpath(path, repo)
                layer = layer_of_file(relative)
                if layer is None:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = layer_of_include(match.group(1))
                        if target is None or target == layer or target in ALLOWED[layer]:
                            continue
                        if (relative, target) in EXCEPTIONS:
                            continue
                        may = ", ".join(sorted(ALLOWED[layer])) or "nothing but itself"
                        out.append(f"{relative}:{number}: includes \"{match.group(1)}\" "
                                   f"({target}); the {layer} layer may include {may}")
    return out


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    found = violations(repo)
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) point up the layers (see docs/architecture.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
