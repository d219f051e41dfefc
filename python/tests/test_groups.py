"""The pipelined vector env (``groups``): the same envs, ids, rewards, flags and autoresets as
one group; bad group counts are clear errors."""

import numpy as np
import pytest

import silot
from conftest import TINY_ENCODER


def _run(venv, steps, seed, n_actions):
    """Every step's results under a seeded random policy (the same actions for every env
    layout)."""
    rng = np.random.default_rng(seed)
    out = [venv.reset(seed=seed) + (None, None, None)]
    for _ in range(steps):
        obs, r, term, trunc, infos = venv.step(rng.integers(0, n_actions, size=venv.num_envs))
        out.append((obs, infos, r, term, trunc))
    return out


def _assert_same(a, b, mode):
    for t, ((oa, ia, ra, ta, ua), (ob, ib, rb, tb, ub)) in enumerate(zip(a, b)):
        msg = f"step {t}"
        np.testing.assert_array_equal(oa["ids"], ob["ids"], err_msg=msg)
        np.testing.assert_allclose(oa["pres"], ob["pres"], atol=1e-4, err_msg=msg)
        np.testing.assert_allclose(oa["features"], ob["features"], rtol=1e-3, atol=1e-3, err_msg=msg)
        if ra is not None:
            np.testing.assert_array_equal(ra, rb, err_msg=msg)
            np.testing.assert_array_equal(ta, tb, err_msg=msg)
            np.testing.assert_array_equal(ua, ub, err_msg=msg)
        assert set(ia) == set(ib), msg
        if "objects" in ia:  # synthetic envs' ground truth
            for i, ok in enumerate(ia["_objects"]):
                if ok:
                    np.testing.assert_array_equal(ia["objects"]["ids"][i], ib["objects"]["ids"][i])
                    np.testing.assert_array_equal(ia["objects"]["boxes"][i], ib["objects"]["boxes"][i])
        for k in ("lives", "episode_frame_number", "frame_number"):
            if k in ia:
                np.testing.assert_array_equal(ia[k], ib[k], err_msg=f"{msg}: {k}")
        if mode == "SameStep":
            assert ("final_obs" in ia) == ("final_obs" in ib), msg
            if "final_obs" in ia:
                np.testing.assert_array_equal(ia["_final_obs"], ib["_final_obs"], err_msg=msg)
                for i in np.flatnonzero(ia["_final_obs"]):
                    fa, fb = ia["final_obs"][i], ib["final_obs"][i]
                    np.testing.assert_array_equal(fa["ids"], fb["ids"], err_msg=msg)
                    np.testing.assert_allclose(
                        fa["features"], fb["features"], rtol=1e-3, atol=1e-3, err_msg=msg
                    )


@pytest.mark.parametrize("num_envs,groups,mode", [(4, 2, "NextStep"), (5, 3, "SameStep")])
def test_groups_match_one_group_synthetic(mode, num_envs, groups):
    """300 steps of 8-frame episodes (37 autoresets per env) under a random policy."""
    kw = dict(encoder=TINY_ENCODER, autoreset_mode=mode, num_threads=2, render_mode="rgb_array")
    one = silot.make_vec("smoke", num_envs, groups=1, **kw)
    many = silot.make_vec("smoke", num_envs, groups=groups, **kw)
    assert (one.groups, many.groups) == (1, groups)
    n = one.single_action_space.n
    a, b = _run(one, 300, 3, n), _run(many, 300, 3, n)
    assert sum(int(x[3].sum()) + int(x[4].sum()) for x in a[1:]) >= 37 * num_envs
    _assert_same(a, b, mode)
    np.testing.assert_array_equal(one.render(), many.render())


def test_groups_match_one_group_atari():
    """Space Invaders with the shipped encoder: rewards, lives and frame numbers of 2 groups are
    those of 1 group, objects within float rounding (``what`` codes: relative 1e-3)."""
    kw = dict(encoder="space_invaders", autoreset_mode="SameStep", num_threads=2)
    one = silot.make_vec("space_invaders", 2, groups=1, **kw)
    many = silot.make_vec("space_invaders", 2, groups=2, **kw)
    a, b = _run(one, 100, 5, 6), _run(many, 100, 5, 6)
    assert sum(float(x[2].sum()) for x in a[1:]) > 0  # some rewards to compare
    _assert_same(a, b, "SameStep")


def test_default_groups_on_the_cpu_is_one():
    assert silot.make_vec("smoke", 4, encoder=TINY_ENCODER).groups == 1
    assert silot.make_vec("smoke", 4).groups == 1
    assert silot.make_vec("smoke", 3, encoder=TINY_ENCODER, groups=3).groups == 3


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(groups=0), ValueError, r"groups must be between 1 and num_envs \(4\), got 0"),
        (dict(groups=5), ValueError, r"groups must be between 1 and num_envs \(4\), got 5"),
        (dict(groups=-1), ValueError, r"got -1"),
        (dict(groups=2.0), TypeError, "groups must be an int or None"),
        (dict(groups="2"), TypeError, "groups must be an int or None"),
        (dict(groups=True), TypeError, "groups must be an int or None"),
        (dict(groups=2, encoder=None), ValueError, "groups=2 needs an encoder"),
    ],
)
def test_bad_group_counts_are_clear_errors(kwargs, exc, match):
    kw = {"encoder": TINY_ENCODER, **kwargs}
    with pytest.raises(exc, match=match):
        silot.make_vec("smoke", 4, **kw)


def test_native_bad_group_counts_raise_silot_error():
    with pytest.raises(silot.SilotError, match=r"groups must be between 1 and num_envs \(2\), got 3"):
        silot._silot.VecEnv("smoke", 2, encoder=TINY_ENCODER, groups=3)
    with pytest.raises(silot.SilotError, match="groups=2 needs an encoder"):
        silot._silot.VecEnv("smoke", 2, groups=2)
    with pytest.raises(OverflowError):
        silot._silot.VecEnv("smoke", 2, encoder=TINY_ENCODER, groups=-1)


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_send_recv_match_step(mode):
    """EnvPool-style send/recv per group, each group's next actions sent as soon as its results
    are read: the results of synchronous steps, group by group."""
    kw = dict(encoder=TINY_ENCODER, autoreset_mode=mode, num_threads=2)
    ref = silot.make_vec("smoke", 5, groups=1, **kw)
    venv = silot.make_vec("smoke", 5, groups=2, **kw)
    assert [venv.group_slice(g) for g in range(2)] == [slice(0, 2), slice(2, 5)]
    rng = np.random.default_rng(1)
    actions = [rng.integers(0, venv.single_action_space.n, size=5) for _ in range(40)]
    ref.reset(seed=9)
    venv.reset(seed=9)
    for g in range(2):
        venv.send(actions[0][venv.group_slice(g)], group=g)
    for t in range(40):
        obs, r, term, trunc, infos = ref.step(actions[t])
        for g in range(2):
            s = venv.group_slice(g)
            o, rg, tg, ug, ig = venv.recv(group=g)
            if t + 1 < 40:
                venv.send(actions[t + 1][s], group=g)
            np.testing.assert_array_equal(ig["env_id"], np.arange(5)[s])
            np.testing.assert_array_equal(o["ids"], obs["ids"][s])
            np.testing.assert_allclose(o["features"], obs["features"][s], rtol=1e-3, atol=1e-3)
            np.testing.assert_array_equal(rg, r[s])
            np.testing.assert_array_equal(tg, term[s])
            np.testing.assert_array_equal(ug, trunc[s])
            np.testing.assert_array_equal(ig["objects"]["_ids"], infos["objects"]["_ids"][s])
            if mode == "SameStep":
                assert ("final_obs" in ig) == ("final_obs" in infos and infos["_final_obs"][s].any())
                if "final_obs" in ig:
                    np.testing.assert_array_equal(ig["_final_obs"], infos["_final_obs"][s])
                    for j, i in enumerate(range(5)[s]):
                        if ig["_final_obs"][j]:
                            np.testing.assert_array_equal(
                                ig["final_obs"][j]["ids"], infos["final_obs"][i]["ids"]
                            )
    # A synchronous step after the pipeline went dry continues the same envs.
    obs, r, *_ = ref.step(actions[0])
    o, rv, *_ = venv.step(actions[0])
    np.testing.assert_array_equal(o["ids"], obs["ids"])
    np.testing.assert_array_equal(rv, r)


def test_send_recv_misuse_is_a_clear_error():
    venv = silot.make_vec("smoke", 4, encoder=TINY_ENCODER, groups=2)
    venv.reset(seed=0)
    with pytest.raises(silot.SilotError, match="no step of group 1 in flight"):
        venv.recv(group=1)
    with pytest.raises(silot.SilotError, match="group 2 does not exist: this vector env has 2 groups"):
        venv.send([0, 0], group=2)
    with pytest.raises(silot.SilotError, match="send got 3 actions for group 0 of 2 envs"):
        venv.send([0, 0, 0], group=0)
    with pytest.raises(silot.SilotError, match="invalid action 7"):
        venv.send([0, 7], group=0)
    venv.send([0, 0], group=0)
    with pytest.raises(silot.SilotError, match="a step of group 0 is in flight"):
        venv.send([0, 0], group=0)
    with pytest.raises(silot.SilotError, match="a step of group 0 is in flight"):
        venv.step([0, 0, 0, 0])
    obs, *_ = venv.reset(seed=0)  # drops the step in flight
    assert obs["ids"].shape == (4, 4)
    frames = silot.make_vec("smoke", 2)
    with pytest.raises(silot.SilotError, match="send/recv step groups of envs pipelined with an encoder"):
        frames.send([0, 0])
