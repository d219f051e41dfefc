"""Shared fixtures: small envs that are quick on two CPU cores."""

import pytest

import silot

#: A random smoke-sized model: runs on any RGB frame size, objects meaningless (tests only).
TINY_ENCODER = "untrained:smoke"

SYNTHETIC = ["scattered_mnist", "scattered_shapes", "smoke"]

#: Env ids that cannot be made at all, with why (reported as skips by ``pytest -rs``). None now:
#: games that cannot be played (defender) are refused by the Rust core and not listed.
BROKEN: dict = {}


def env_id_params():
    """Every env id, the broken ones skipped with their reason."""
    return [
        pytest.param(i, marks=pytest.mark.skip(reason=BROKEN[i])) if i in BROKEN else i
        for i in silot.env_ids()
    ]


@pytest.fixture(scope="session")
def all_ids():
    return silot.env_ids()
