"""PPO on a silot env, CleanRL style (one file, every setting a flag): from SILOT objects or
from pixels, on the same frames.

    # objects: the shipped Space Invaders encoder, GPU
    python python/examples/ppo_objects.py --obs objects --device cuda --total-timesteps 2000000
    # pixels: the usual 84x84 grey 4-frame stack and Nature CNN, same frames and budget
    python python/examples/ppo_objects.py --obs pixels --device cuda --total-timesteps 2000000

Both variants step the same env (``--env``; Space Invaders under the paper preset: max-and-skip
4, no sticky actions, 195x160 RGB), with CleanRL's Atari PPO settings: rewards clipped to their
sign for learning, a life loss ends the episode for bootstrapping (the env itself goes on),
8 envs x 128 steps per update, 4 epochs of 4 minibatches, clip 0.1, entropy 0.01, learning
rate 2.5e-4 annealed. Returns are the game's unclipped scores of whole games.

The object agent (Deep Sets): each of the K slots' features (presence, box, depth, appearance
code ``what``) plus the slot's motion since the last step (its box centre minus the same
identity's previous one, 0 for a new identity) go through a shared MLP; slots are pooled by
presence-weighted mean and by max; an MLP head gives the policy and the value.
``--set-encoder attention`` puts self-attention layers over the slots (keys weighted by
presence) between the shared MLP and the pooling, so each slot's code can depend on the others.

Writes ``runs/<env>__<obs>__<seed>__<time>/episodes.csv`` (global_step, return, length) and
``summary.json`` (or into ``--run-dir``); ``python/examples/plot_ppo.py`` draws the learning
curves of several runs.

Stopping and resuming (runs longer than one sitting, e.g. 10-minute jobs):

    python python/examples/ppo_objects.py --run-dir runs/obj1 --save-every 20 --stop-after 540
    python python/examples/ppo_objects.py --run-dir runs/obj1 --resume --stop-after 540   # again

``--save-every N`` writes ``checkpoint.pt`` (agent, optimizer, update, global step, the episodes
so far, the RNG states of Python, NumPy and torch) every N updates, atomically;
``--stop-after S`` saves one and exits after the first update that ends S seconds after the
start (``summary.json`` then says ``"finished": false``). ``--resume`` goes on from the run
directory's checkpoint with the arguments it was started with (``--stop-after``,
``--save-every`` and ``--device`` may change) and restarts the envs (seeded anew from the
update count): the episodes in progress at the checkpoint are dropped, so a resumed run is not
step-for-step the uninterrupted one, but every recorded episode is a whole game and the
learning state (weights, Adam moments, learning-rate schedule, RNG) carries over exactly.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from gymnasium.vector import AutoresetMode
from torch.distributions.categorical import Categorical

import silot


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--obs", choices=["objects", "pixels"], default="objects")
    p.add_argument("--env", default="space_invaders", help="silot env id")
    p.add_argument("--encoder", default="space_invaders", help="--obs objects: the encoder")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu",
                   help="torch and encoder device")
    p.add_argument("--encoder-device", default=None, help="default: cuda if --device is cuda")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=2_000_000, help="agent steps, all envs")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=128)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--anneal-lr", type=int, default=1)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.1)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--episodic-life", type=int, default=1, help="a life loss ends the episode for GAE")
    p.add_argument("--hidden", type=int, default=256, help="objects: width of the slot MLP")
    p.add_argument("--set-encoder", choices=["deepsets", "attention"], default="deepsets",
                   help="objects: how the slots are combined (deepsets: pooled alone; attention: "
                        "self-attention layers over the slots before the pooling)")
    p.add_argument("--attention-layers", type=int, default=2, help="objects, attention: layers")
    p.add_argument("--attention-heads", type=int, default=4, help="objects, attention: heads")
    p.add_argument("--out", default="runs", help="parent folder of the run directory")
    p.add_argument("--run-dir", default=None, help="the run directory (default: OUT/<env>__<obs>__<seed>__<time>)")
    p.add_argument("--save-every", type=int, default=0, help="write checkpoint.pt every N updates (0: only at --stop-after)")
    p.add_argument("--stop-after", type=float, default=0.0, help="seconds: checkpoint and exit after the update that passes it")
    p.add_argument("--resume", action="store_true", help="go on from --run-dir's checkpoint.pt")
    p.add_argument("--groups", type=int, default=1,
                   help="objects: encoder pipeline groups (silot.make_vec; 1: at tens of envs the GPU "
                        "encoder is bound by kernel launches, so smaller batches only cost more)")
    p.add_argument("--env-threads", type=int, default=None, help="threads stepping the envs (default: one per core)")
    p.add_argument("--allow-env-mismatch", action="store_true")
    return p.parse_args(argv)


#: Arguments a resumed run may change; the others are the checkpoint's.
RESUMABLE = {"resume", "stop_after", "save_every", "device", "encoder_device", "run_dir", "out",
             "env_threads"}


def save_checkpoint(path: Path, state: dict) -> None:
    """``state`` to ``path``, atomically (a temporary file renamed into place)."""
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def rng_state() -> dict:
    return {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
    }


def set_rng_state(s: dict) -> None:
    random.setstate(s["python"])
    np.random.set_state(s["numpy"])
    torch.set_rng_state(s["torch"])
    if s["cuda"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(s["cuda"])


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class PixelAgent(nn.Module):
    """CleanRL's Nature CNN on 4 stacked 84x84 grey frames."""

    def __init__(self, n_actions: int):
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(4, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)), nn.ReLU(),
        )
        self.actor = layer_init(nn.Linear(512, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(512, 1), std=1)

    def hidden(self, x):
        return self.network(x / 255.0)

    def get_value(self, x):
        return self.critic(self.hidden(x))

    def get_action_and_value(self, x, action=None):
        h = self.hidden(x)
        probs = Categorical(logits=self.actor(h))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(h)


class ObjectAgent(nn.Module):
    """Deep Sets over the K object slots: per-slot MLP, presence-weighted mean and max pooling."""

    def __init__(self, slot_dim: int, n_actions: int, hidden: int):
        super().__init__()
        self.slot = nn.Sequential(
            layer_init(nn.Linear(slot_dim, hidden)), nn.ReLU(),
            layer_init(nn.Linear(hidden, hidden)), nn.ReLU(),
        )
        self.head = nn.Sequential(layer_init(nn.Linear(2 * hidden, 512)), nn.ReLU())
        self.actor = layer_init(nn.Linear(512, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(512, 1), std=1)

    def slot_codes(self, x):
        """(B, K, slot_dim) -> (B, K, H): each slot's code, before the pooling."""
        return self.slot(x)

    def hidden(self, x):
        # x: (B, K, slot_dim), column 0 = presence
        pres = x[..., :1]
        h = self.slot_codes(x) * pres  # (B, K, H)
        mean = h.sum(1) / pres.sum(1).clamp(min=1.0)
        return self.head(torch.cat([mean, h.max(1).values], -1))

    def get_value(self, x):
        return self.critic(self.hidden(x))

    def get_action_and_value(self, x, action=None):
        h = self.hidden(x)
        probs = Categorical(logits=self.actor(h))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(h)


class SlotAttentionBlock(nn.Module):
    """Pre-norm transformer layer over the slots; keys weighted by presence (log-presence added
    to the attention logits, so absent slots are all but ignored and no slot set is empty)."""

    def __init__(self, width: int, heads: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 2 * width), nn.ReLU(), nn.Linear(2 * width, width))

    def forward(self, h, log_pres):
        # h: (B, K, H); log_pres: (B, K) added to the logits of every query's keys
        x = self.norm1(h)
        h = h + self.attn(x, x, x, key_padding_mask=log_pres, need_weights=False)[0]
        return h + self.mlp(self.norm2(h))


class AttentionObjectAgent(ObjectAgent):
    """``ObjectAgent`` with self-attention over the slots between the slot MLP and the pooling:
    each slot's code can depend on the others (where the aliens are relative to the player),
    which pooling alone loses."""

    def __init__(self, slot_dim: int, n_actions: int, hidden: int, layers: int, heads: int):
        super().__init__(slot_dim, n_actions, hidden)
        self.blocks = nn.ModuleList(SlotAttentionBlock(hidden, heads) for _ in range(layers))

    def slot_codes(self, x):
        log_pres = x[..., 0].clamp(min=1e-4).log()  # (B, K)
        h = self.slot(x)  # (B, K, H)
        for block in self.blocks:
            h = block(h, log_pres)
        return h


class PixelObs:
    """(N, H, W, 3) uint8 frames -> (N, 4, 84, 84) grey stacks (area resize, on the device)."""

    def __init__(self, n: int, device):
        self.device = device
        self.stack = torch.zeros((n, 4, 84, 84), device=device)

    def __call__(self, frames, new_episode):
        x = torch.as_tensor(frames, device=self.device).float()  # (N, H, W, 3)
        grey = (x * torch.tensor([0.299, 0.587, 0.114], device=self.device)).sum(-1, keepdim=True)
        grey = F.interpolate(grey.permute(0, 3, 1, 2), size=(84, 84), mode="area")  # (N, 1, 84, 84)
        new = torch.as_tensor(new_episode, device=self.device)
        self.stack[new] = grey[new].expand(-1, 4, -1, -1)  # a new episode: the first frame x4
        self.stack = torch.cat([self.stack[:, 1:], grey], 1)
        return self.stack.clone()


class ObjectObs:
    """{features (N, K, D), ids (N, K)} -> (N, K, D + 2): features and the slot's motion."""

    def __init__(self, device):
        self.device = device
        self.prev = None

    def __call__(self, obs, new_episode):
        f = torch.as_tensor(obs["features"], device=self.device)
        ids = torch.as_tensor(obs["ids"], device=self.device)
        motion = torch.zeros(f.shape[:2] + (2,), device=self.device)
        if self.prev is not None:
            pf, pids = self.prev
            same = ids == pids
            same &= ~torch.as_tensor(new_episode, device=self.device)[:, None]
            motion = torch.where(same[..., None], (f[..., 1:3] - pf[..., 1:3]) * 10.0, motion)
        self.prev = (f, ids)
        return torch.cat([f, motion], -1)


def main(argv=None):
    args = parse_args(argv)
    wall_start = time.time()
    ckpt = None
    if args.resume:
        if not args.run_dir:
            raise SystemExit("--resume needs --run-dir")
        path = Path(args.run_dir) / "checkpoint.pt"
        if path.exists():
            ckpt = torch.load(path, map_location="cpu", weights_only=False)
            given = vars(args)
            # Flags added since the checkpoint was written take their defaults (the behaviour
            # it was trained with).
            defaults = vars(parse_args([]))
            args = argparse.Namespace(**{**defaults, **ckpt["args"], **{k: given[k] for k in RESUMABLE}})
        else:
            print(f"--resume: no {path} yet, starting the run", flush=True)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = max(1, args.total_timesteps // batch_size)
    if args.run_dir:
        run_dir = Path(args.run_dir)
        run_name = run_dir.name
    else:
        run_name = f"{args.env}__{args.obs}__{args.seed}__{int(time.time())}"
        run_dir = Path(args.out) / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    if ckpt is None:
        (run_dir / "args.json").write_text(json.dumps(vars(args), indent=2))

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    enc_device = args.encoder_device or ("cuda" if device.type == "cuda" else "cpu")

    # SAME_STEP: the observation after an episode's end is the next episode's first (CleanRL).
    envs = silot.make_vec(
        args.env,
        args.num_envs,
        encoder=args.encoder if args.obs == "objects" else None,
        device=enc_device,
        seed=args.seed,
        autoreset_mode=AutoresetMode.SAME_STEP,
        allow_env_mismatch=args.allow_env_mismatch,
        groups=args.groups if args.obs == "objects" else None,
        num_threads=args.env_threads,
    )
    n_actions = envs.single_action_space.n
    if args.obs == "objects":
        k, d = envs.single_observation_space["features"].shape
        if args.set_encoder == "attention":
            agent = AttentionObjectAgent(d + 2, n_actions, args.hidden, args.attention_layers,
                                         args.attention_heads).to(device)
        else:
            agent = ObjectAgent(d + 2, n_actions, args.hidden).to(device)
        prep = ObjectObs(device)
        obs_shape = (k, d + 2)
    else:
        agent = PixelAgent(n_actions).to(device)
        prep = PixelObs(args.num_envs, device)
        obs_shape = (4, 84, 84)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs) + obs_shape, device=device)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long, device=device)
    logprobs = torch.zeros((args.num_steps, args.num_envs), device=device)
    rewards = torch.zeros((args.num_steps, args.num_envs), device=device)
    dones = torch.zeros((args.num_steps, args.num_envs), device=device)
    values = torch.zeros((args.num_steps, args.num_envs), device=device)

    global_step = 0
    first_iteration = 1
    episodes = []
    elapsed_before = 0.0  # seconds of earlier sittings (for steps/s)
    env_seed = args.seed
    if ckpt is not None:
        agent.load_state_dict(ckpt["agent"])
        optimizer.load_state_dict(ckpt["optimizer"])
        global_step = ckpt["global_step"]
        first_iteration = ckpt["iteration"] + 1
        episodes = [tuple(e) for e in ckpt["episodes"]]
        elapsed_before = ckpt["elapsed"]
        set_rng_state(ckpt["rng"])
        # New episodes from fresh seeds: the envs' state is not in the checkpoint.
        env_seed = args.seed + 1_000_003 * ckpt["iteration"]
        print(f"resumed {run_dir} at update {ckpt['iteration']}/{num_iterations}, step {global_step}", flush=True)
    start = time.time()
    raw_obs, infos = envs.reset(seed=env_seed)
    new_episode = np.ones(args.num_envs, dtype=bool)
    next_obs = prep(raw_obs, new_episode)
    next_done = torch.zeros(args.num_envs, device=device)
    lives = infos.get("lives")
    ep_return = np.zeros(args.num_envs)
    ep_len = np.zeros(args.num_envs, dtype=np.int64)
    # The episodes up to the checkpoint (rows written after it, by a sitting that died, are
    # dropped: the resumed run plays those steps again).
    log = open(run_dir / "episodes.csv", "w", newline="")
    writer = csv.writer(log)
    writer.writerow(["global_step", "return", "length"])
    for row in episodes:
        writer.writerow(row)

    def summary(finished: bool) -> dict:
        last = [r for _, r, _ in episodes[-100:]]
        return {
            "run": run_name,
            "obs": args.obs,
            "env": args.env,
            "seed": args.seed,
            "agent_steps": global_step,
            "total_timesteps": num_iterations * batch_size,
            "finished": finished,
            "episodes": len(episodes),
            "final_mean_return_last_100": float(np.mean(last)) if last else None,
            "steps_per_s": global_step / (elapsed_before + time.time() - start),
            "num_envs": args.num_envs,
            "num_steps": args.num_steps,
        }

    def checkpoint(iteration: int) -> None:
        save_checkpoint(run_dir / "checkpoint.pt", {
            "args": vars(args),
            "agent": agent.state_dict(),
            "optimizer": optimizer.state_dict(),
            "iteration": iteration,
            "global_step": global_step,
            "episodes": episodes,
            "elapsed": elapsed_before + time.time() - start,
            "rng": rng_state(),
        })

    stopped = False
    for iteration in range(first_iteration, num_iterations + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / num_iterations) * args.learning_rate
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            raw_obs, reward, terminated, truncated, infos = envs.step(action.cpu().numpy())
            ended = terminated | truncated
            ep_return += reward
            ep_len += 1
            for i in np.flatnonzero(ended):
                writer.writerow([global_step, ep_return[i], ep_len[i]])
                episodes.append((global_step, float(ep_return[i]), int(ep_len[i])))
                ep_return[i], ep_len[i] = 0.0, 0
            done = ended.copy()
            if args.episodic_life and lives is not None:
                # SAME_STEP: an ended env's infos are its new episode's; its last lives are in final_info.
                now = infos["lives"].copy()
                if "final_info" in infos:
                    m = infos["_final_info"]
                    now[m] = infos["final_info"]["lives"][m]
                done |= now < lives
                lives = infos["lives"].copy()
            rewards[step] = torch.as_tensor(np.sign(reward), device=device, dtype=torch.float32)
            next_obs = prep(raw_obs, ended)
            next_done = torch.as_tensor(done, device=device, dtype=torch.float32)
        if episodes:
            recent = [r for _, r, _ in episodes[-20:]]
            print(f"step {global_step}: mean return (last {len(recent)}) {np.mean(recent):.1f}, "
                  f"{global_step / (elapsed_before + time.time() - start):.0f} steps/s", flush=True)
            log.flush()

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = 0
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nextnonterminal, nextvalues = 1.0 - next_done, next_value
                else:
                    nextnonterminal, nextvalues = 1.0 - dones[t + 1], values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        b_obs = obs.reshape((-1,) + obs_shape)
        b_logprobs, b_actions = logprobs.reshape(-1), actions.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        b_inds = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for s in range(0, batch_size, minibatch_size):
                mb = b_inds[s : s + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                newvalue = newvalue.view(-1)
                v_clipped = b_values[mb] + (newvalue - b_values[mb]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((newvalue - b_returns[mb]) ** 2, (v_clipped - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        if args.stop_after and time.time() - wall_start >= args.stop_after and iteration < num_iterations:
            checkpoint(iteration)
            stopped = True
            print(f"stopped after update {iteration}/{num_iterations} (step {global_step}): "
                  f"go on with --run-dir {run_dir} --resume", flush=True)
            break
        if args.save_every and iteration % args.save_every == 0:
            checkpoint(iteration)

    log.close()
    result = summary(finished=not stopped)
    if not stopped and args.save_every:
        checkpoint(num_iterations)
    (run_dir / "summary.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result))
    envs.close()
    return result


if __name__ == "__main__":
    main()
