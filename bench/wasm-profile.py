#!/usr/bin/env python3
"""Where a wasm call's instructions go: callgrind's per-instruction costs of Node, attributed
to V8's JIT symbols (its --perf-basic-prof map names each TurboFan-compiled wasm function).
Driven by bench/wasm-profile.sh, which writes the two runs (A and B calls) this subtracts.
  wasm-profile.py A.cg A.map B.cg B.map CALLS [TOP]        self instructions per function, per call
  wasm-profile.py --callers X.cg X.map SUBSTRING             calls into matching functions, by caller
(wasm-to-wasm calls go through V8's jump table: a call's target slot is resolved by the jump
recorded from it, hence --collect-jumps=yes in the one-run profile.)"""
import bisect, collections, sys


def load_map(path):
    rows = []
    for line in open(path):
        a, s, name = line.rstrip("\n").split(" ", 2)
        rows.append((int(a, 16), int(s, 16), name))
    rows.sort()
    return rows, [r[0] for r in rows]


def symbolizer(path):
    rows, starts = load_map(path)

    def sym(a):
        i = bisect.bisect_right(starts, a) - 1
        return rows[i][2] if i >= 0 and a < rows[i][0] + rows[i][1] else None

    return sym


def position(tok, cur):
    if tok.startswith("0x"):
        return int(tok, 16)
    if tok[0] in "+-":
        return cur + int(tok, 0)
    return cur


def records(cg):
    """(kind, values) per cost line of a callgrind file with --dump-instr=yes: ('cost', addr, n, fn),
    ('call', src, target, count), ('jump', src, target)."""
    names, fn, addr, pending, jump = {}, "?", 0, None, None
    for line in open(cg):
        if line.startswith(("fn=", "cfn=")):
            key, _, rest = line.partition("=")
            rest = rest.strip()
            if rest.startswith("("):
                ident, _, name = rest[1:].partition(")")
                if name.strip():
                    names[ident] = name.strip()
                rest = names.get(ident, "?")
            if key == "fn":
                fn = rest
            continue
        if line.startswith("calls="):
            p = line[6:].split()
            pending = (int(p[0]), int(p[1], 16) if p[1].startswith("0x") else None)
            continue
        if line.startswith(("jump=", "jcnd=")):
            t = line.split("=", 1)[1].split()[1]
            jump = int(t, 16) if t.startswith("0x") else None
            continue
        if line[:1] and line[0] in "0123456789+-*":
            p = line.split()
            addr = position(p[0], addr)
            if pending:
                n, t = pending
                pending = None
                if t is not None:
                    yield ("call", addr, t, n)
                continue  # the inclusive cost of the call, not self cost
            if jump is not None:
                yield ("jump", addr, jump)
                jump = None
            yield ("cost", addr, int(p[2]) if len(p) > 2 else 0, fn)


def self_costs(cg, mp):
    sym, per = symbolizer(mp), collections.Counter()
    for r in records(cg):
        if r[0] == "cost":
            per[sym(r[1]) or "native:" + r[3]] += r[2]
    return per


def main():
    if sys.argv[1] == "--callers":
        cg, mp, sub = sys.argv[2:5]
        sym, calls, jumps = symbolizer(mp), [], {}
        for r in records(cg):
            if r[0] == "call":
                calls.append(r[1:])
            elif r[0] == "jump" and sym(r[1]) is None:
                jumps[r[1]] = r[2]
        out = collections.Counter()
        for src, t, n in calls:
            ts = sym(t) or next((sym(jumps[t + d]) for d in range(16) if t + d in jumps), None)
            if ts and sub in ts:
                out[(sym(src) or hex(src), ts)] += n
        for (a, b), n in out.most_common(40):
            print(f"{n:9d}  {a[:110]}  ->  {b[:70]}")
        return
    a, b = self_costs(*sys.argv[1:3]), self_costs(*sys.argv[3:5])
    k, top = float(sys.argv[5]), int(sys.argv[6]) if len(sys.argv) > 6 else 40
    d = {x: (b.get(x, 0) - a.get(x, 0)) / k for x in set(a) | set(b)}
    total = sum(d.values())
    jit = sum(v for x, v in d.items() if x.startswith("JS:"))
    print(f"per call: {total / 1e6:.2f} M instructions, {jit / 1e6:.2f} M in JIT code (wasm), {(total - jit) / 1e6:.2f} M native")
    for x, v in sorted(d.items(), key=lambda t: -t[1])[:top]:
        print(f"{v / 1e6:9.3f} M {100 * v / total:5.1f}%  {x[:140]}")


main()
