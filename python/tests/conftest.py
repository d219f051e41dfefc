"""Shared fixtures: small envs that are quick on two CPU cores."""

import pytest

import silot

#: A random smoke-sized model: runs on any RGB frame size, objects meaningless (tests only).
TINY_ENCODER = "untrained:smoke"

SYNTHETIC = ["scattered_mnist", "scattered_shapes", "smoke"]


@pytest.fixture(scope="session")
def all_ids():
    return silot.env_ids()
