#!/usr/bin/env python3
"""Pack a silot checkpoint directory as a shipped encoder folder (models/NAME/).

    python3 scripts/pack_model.py CHECKPOINT_DIR models/NAME [--f32] [--env JSON]

Writes NAME/weights.safetensors with every f32 tensor stored as f16 (half the size; silot
casts each tensor to its variable's dtype, f32, when loading), copies config.toml, writes a
state.json that records the new file (the Adam state is left out: inference needs weights and
config only) and prints the sha256 of each file for the folder's manifest.toml. --env adds the
env record checkpoints of older versions lack, e.g.
--env '{"id": "space_invaders", "preset": "paper", "frame": [195, 160, 3]}'.
Pure Python (struct's 'e' format rounds to nearest even, as a cast to f16 does).
"""
import hashlib
import json
import os
import shutil
import struct
import sys


def fnv1a64(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def read_safetensors(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    body = raw[8 + n :]
    meta = header.pop("__metadata__", None)
    return header, body, meta


def to_f16(header, body):
    out_header, chunks, offset, worst = {}, [], 0, 0.0
    for name in sorted(header, key=lambda k: header[k]["data_offsets"][0]):
        info = header[name]
        a, b = info["data_offsets"]
        data = body[a:b]
        dtype = info["dtype"]
        if dtype == "F32":
            vals = struct.unpack(f"<{len(data) // 4}f", data)
            worst = max([worst] + [abs(v) for v in vals])
            data = struct.pack(f"<{len(vals)}e", *vals)
            dtype = "F16"
        out_header[name] = {
            "dtype": dtype,
            "shape": info["shape"],
            "data_offsets": [offset, offset + len(data)],
        }
        chunks.append(data)
        offset += len(data)
    return out_header, b"".join(chunks), worst


def write_safetensors(path, header, body):
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # 8-byte aligned data, as safetensors writes it
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + body)


def main():
    argv = sys.argv[1:]
    env = None
    if "--env" in argv:
        i = argv.index("--env")
        env = json.loads(argv[i + 1])
        del argv[i : i + 2]
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    src, dst = args
    keep_f32 = "--f32" in argv
    os.makedirs(dst, exist_ok=True)
    header, body, _ = read_safetensors(os.path.join(src, "weights.safetensors"))
    if keep_f32:
        shutil.copy(os.path.join(src, "weights.safetensors"), dst)
    else:
        header, body, worst = to_f16(header, body)
        if worst > 65504.0:
            sys.exit(f"a weight of magnitude {worst} does not fit in f16; use --f32")
        write_safetensors(os.path.join(dst, "weights.safetensors"), header, body)
        print(f"largest |weight| {worst:.4g}")
    shutil.copy(os.path.join(src, "config.toml"), dst)
    state = json.load(open(os.path.join(src, "state.json")))
    files = {}
    for name in ("config.toml", "weights.safetensors"):
        data = open(os.path.join(dst, name), "rb").read()
        files[name] = {"bytes": len(data), "fnv1a64": fnv1a64(data)}
    state["files"] = files
    if env is not None:
        state["env"] = env
    elif "env" not in state:
        print("warning: the checkpoint records no env; pass --env (see --help)", file=sys.stderr)
    with open(os.path.join(dst, "state.json"), "w") as f:
        json.dump(state, f, indent=2)
    for name in ("config.toml", "state.json", "weights.safetensors"):
        data = open(os.path.join(dst, name), "rb").read()
        print(f'"{name}" = {{ bytes = {len(data)}, sha256 = "{hashlib.sha256(data).hexdigest()}" }}')


if __name__ == "__main__":
    main()
