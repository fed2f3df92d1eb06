"""The version has one source (include/retrogym/version.h): the installed package's metadata (written by
scikit-build-core's regex provider from that header), retrogym.__version__ (the linked library's rg_version) and
the header itself agree."""
import importlib.metadata
import pathlib
import re

import retrogym

HEADER = pathlib.Path(__file__).resolve().parents[2] / "include" / "retrogym" / "version.h"


def test_metadata_matches_library():
    assert importlib.metadata.version("retrogym") == retrogym.__version__


def test_library_matches_header():
    text = HEADER.read_text()
    parts = [re.search(rf"^#define RG_VERSION_{p} (\d+)$", text, re.M) for p in ("MAJOR", "MINOR", "PATCH")]
    assert all(parts), "version.h lost one of its three version lines"
    assert retrogym.__version__ == ".".join(m.group(1) for m in parts)
