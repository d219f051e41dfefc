#!/usr/bin/env python3
"""Rewrite candle-core's `src/backprop.rs` so that `Tensor::backward` stores a node's first
gradient instead of adding it to a fresh tensor of zeros.

Why: in candle-core 0.11.1 every gradient edge goes through `GradStore::or_insert` (a
`zeros_like`: one allocation and one memset) and then `sum = sum.add(&g)` (one more allocation
and one add kernel), even for a node's first and only gradient. On the GPU that bookkeeping was
12,104 of the 25,365 kernel launches of a Space Invaders training step at batch 64, and storing
the first gradient made the step 1.31x faster (benches/results/cuda_train_step_profile.md, sec.
2). Upstream pull requests huggingface/candle#3578 and #3822 propose the same; until one lands,
scripts/fast_backprop/cargo.sh builds against a patched copy of the pinned candle-core made
with this script (the GPU build's default, scripts/cuda/build.sh; 1.44-1.50x per step in the
recipe on an H200, benches/results/fast_backprop.md).

What it does, in a copy of the crate (never the registry's):
* every `let NAME = grads.or_insert(ARG)?;` whose NAME is next used (within the match arm) as
  `*NAME = NAME.add(EXPR)?` becomes `grads.accumulate(ARG, EXPR)?` at that second place, and
  `.sub(EXPR)` becomes `grads.accumulate_neg(ARG, EXPR)?` (the first gradient stored negated);
* every other `or_insert` (conv kernels resized in place, overwrites, scatter_add, index_add)
  is left alone: those need the zeros;
* the two methods are added to `impl GradStore`. The stored first gradient is made contiguous,
  as the zeros-plus-add sum always was.

Usage: first_gradient.py BACKPROP_RS   (rewritten in place; prints what it did). It exits with
status 1, changing nothing, if the file does not look as expected (another candle version).
"""
import re
import sys

LET = re.compile(r"^(\s*)let (\w+) = grads\.or_insert\(([^;]+)\)\?;\s*$")
METHODS = '''
    /// (silot patch, scripts/fast_backprop) Add `grad` into `tensor`'s gradient; the first
    /// gradient is stored as it is (contiguous), not added to zeros.
    fn accumulate(&mut self, tensor: &Tensor, grad: &Tensor) -> Result<()> {
        self.accumulate_signed(tensor, grad, false)
    }

    /// (silot patch) Subtract `grad` from `tensor`'s gradient; the first is stored negated.
    fn accumulate_neg(&mut self, tensor: &Tensor, grad: &Tensor) -> Result<()> {
        self.accumulate_signed(tensor, grad, true)
    }

    fn accumulate_signed(&mut self, tensor: &Tensor, grad: &Tensor, negate: bool) -> Result<()> {
        match self.0.entry(tensor.id()) {
            Entry::Occupied(mut entry) => {
                let sum = entry.get();
                let sum = if negate { sum.sub(grad)? } else { sum.add(grad)? };
                *entry.get_mut() = sum;
            }
            Entry::Vacant(entry) => {
                entry.insert(if negate { grad.neg()? } else { grad.contiguous()? });
            }
        }
        Ok(())
    }
'''
ANCHOR = "    fn or_insert(&mut self, tensor: &Tensor) -> Result<&mut Tensor> {"


def assignment(name):
    """`*NAME = NAME.add(EXPR)?` or `.sub(...)`, with or without the final `;`."""
    n = re.escape(name)
    return re.compile(rf"^(\s*)\*{n} = {n}\.(add|sub)\((.+)\)\?(;?)\s*$")


def rewrite(lines):
    """Returns the rewritten lines and the number of call sites converted and kept."""
    out = list(lines)
    converted = kept = 0
    for i, line in enumerate(lines):
        m = LET.match(line)
        if not m:
            continue
        name, arg = m.group(2), m.group(3)
        uses = re.compile(rf"\b{re.escape(name)}\b")
        target = None
        for j in range(i + 1, min(i + 40, len(lines))):
            if not uses.search(lines[j]):
                continue
            a = assignment(name).match(lines[j])
            # The first later use must be the accumulation itself, and the next two lines must
            # not use NAME again (a later use would not compile: the pinned-source test counts).
            if a and not any(uses.search(x) for x in lines[j + 1 : j + 3]):
                target = (j, a)
            break
        if target is None:
            kept += 1
            continue
        j, a = target
        indent, op, expr, semi = a.group(1), a.group(2), a.group(3), a.group(4)
        # The zeros had ARG's shape: `NAME.dims()` (broadcast targets of the reductions) is
        # `ARG.dims()`. Any other use of NAME in EXPR keeps the call site as it is.
        expr = expr.replace(f"{name}.dims()", f"{arg}.dims()")
        if uses.search(expr):
            kept += 1
            continue
        method = "accumulate" if op == "add" else "accumulate_neg"
        out[i] = None
        out[j] = f"{indent}grads.{method}({arg}, {expr})?{semi}\n"
        converted += 1
    return [x for x in out if x is not None], converted, kept


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: first_gradient.py BACKPROP_RS   (candle-core's src/backprop.rs, in place)")
    path = sys.argv[1]
    text = open(path).read()
    if "fn accumulate(" in text:
        print(f"{path}: already patched")
        return
    if text.count(ANCHOR) != 1 or "hash_map::Entry" not in text:
        print(f"{path}: not the expected candle-core backprop.rs (GradStore::or_insert "
              "or the Entry import not found); nothing changed", file=sys.stderr)
        sys.exit(1)
    lines, converted, kept = rewrite(text.splitlines(keepends=True))
    text = "".join(lines).replace(ANCHOR, METHODS.lstrip("\n") + "\n" + ANCHOR, 1)
    if converted < 30:
        print(f"{path}: only {converted} call sites matched; nothing changed", file=sys.stderr)
        sys.exit(1)
    open(path, "w").write(text)
    print(f"{path}: {converted} gradient accumulations store the first gradient; "
          f"{kept} or_insert call sites kept")


if __name__ == "__main__":
    main()
