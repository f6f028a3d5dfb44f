"""Query-planner cases from the reference (lians_engine.lians.query_planner.plan_query).

    python planner_cases.py SEED COUNT > cases.jsonl

One JSON line per case: {query, max, mode, variants, scopes}. Queries mix the planner's
trigger words (time, aggregate, relational), stop words, mixed case, the four letters
Python's re.IGNORECASE folds specially (Kelvin sign, long s, dotted/dotless i), Unicode
spaces, punctuation, digits and random letters; every mode and max_variants 0-5.
Read by src/audit/planner.rs (LIANS_PLANNER_CASES); see scripts/audit/planner-diff.sh.
"""
import json
import random
import sys

from lians_engine.lians.query_planner import plan_query

WORDS = (
    "when first last recent previous formerly used to how long date time year month week day before after prior "
    "later all both activities events ways examples kinds types places books jobs hobbies interests changes "
    "experiences things why would might likely relationship together influence role attitude personality "
    "nickname advice support cope reason the a an is of acme revenue Acme WHEN When whenever _when day's "
    "day-to-day x1 2024 it's"
).split()
SPECIALS = ["\u212a", "\u017f", "\u0130", "\u0131", "\u00e9", "\u00df", "\u03a3", "\u3000", "\u00a0", "\x1c", "\t",
            "\n", "_", "-", "'", "?", ".", "Zürich", "売上", "K", "ſ"]
SEPARATORS = [" ", "  ", "\t", "\u3000", ",", "", "\n", ".", "\u2028", "\x1f"]


def main() -> None:
    rng = random.Random(int(sys.argv[1]))
    letters = list("abcdefghijklmnopqrstuvwxyz")

    def word() -> str:
        r = rng.random()
        if r < 0.6:
            return rng.choice(WORDS)
        if r < 0.8:
            return "".join(rng.choice(SPECIALS + letters) for _ in range(rng.randint(1, 6)))
        w = "".join(c.upper() if rng.random() < 0.3 else c for c in rng.choice(WORDS))
        w = w.replace("k", rng.choice(["k", "\u212a"])).replace("s", rng.choice(["s", "\u017f"]))
        return w.replace("i", rng.choice(["i", "\u0130", "\u0131"]))

    out = sys.stdout
    for _ in range(int(sys.argv[2])):
        query = "".join(word() + rng.choice(SEPARATORS) for _ in range(rng.randint(0, 8)))
        mode = rng.choice(["fast", "deep", "reconstruct"])
        max_variants = rng.choice([0, 1, 2, 3, 4, 5])
        plan = plan_query(query, max_variants, retrieval_mode=mode)
        case = {"query": query, "max": max_variants, "mode": mode, "variants": list(plan.variants),
                "scopes": list(plan.scopes)}
        out.write(json.dumps(case) + "\n")


if __name__ == "__main__":
    main()
