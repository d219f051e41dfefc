"""Shared fixtures: small envs that are quick on two CPU cores."""

import pytest

import silot

#: A random smoke-sized model: runs on any RGB frame size, objects meaningless (tests only).
TINY_ENCODER = "untrained:smoke"

SYNTHETIC = ["scattered_mnist", "scattered_shapes", "smoke"]

#: Env ids that cannot be made at all, with why (reported as skips by ``pytest -rs``).
BROKEN = {
    # ALE 0.6's DefenderSettings::setMode presses SELECT until RAM 0x9B holds the mode; with the
    # ROM the `ale` crate bundles (md5 e1029676...) loadROM was still in that loop after minutes
    # (gdb), in Rust (registry::make("defender")) as in Python: a Rust core bug, not the binding's.
    "defender": "registry::make(\"defender\") hangs in ALE 0.6's Defender setMode (Rust core bug)",
}


def env_id_params():
    """Every env id, the broken ones skipped with their reason."""
    return [
        pytest.param(i, marks=pytest.mark.skip(reason=BROKEN[i])) if i in BROKEN else i
        for i in silot.env_ids()
    ]


@pytest.fixture(scope="session")
def all_ids():
    return silot.env_ids()
