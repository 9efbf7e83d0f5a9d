"""Checks that every test named in docs/facts-to-tests.md exists (run by Tests/EndToEnd/test_docs_examples.py)."""
import re, glob, sys, os
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
doc = open(sys.argv[1] if len(sys.argv) > 1 else f"{ROOT}/docs/facts-to-tests.md").read()

e2e = {}
for f in glob.glob(f"{ROOT}/Tests/EndToEnd/*.py"):
    e2e[os.path.basename(f)] = set(re.findall(r"^\s*(?:async\s+)?def\s+(\w+)\s*\(", open(f).read(), re.M))

# Swift: suite = innermost struct/class/extension around `func name(`; a test when @Test precedes it
swift = {}      # suite -> {func: (is_test, file, area)}
where = {}      # func -> [(suite, file)]
for f in glob.glob(f"{ROOT}/Tests/**/*.swift", recursive=True):
    area = "RPC" if "/NativeAdsRPCTests/" in f else ("Domain" if "/NativeAdsTests/" in f else "other")
    src = open(f).read()
    src = re.sub(r'#"""[\s\S]*?"""#', '""', src)
    src = re.sub(r'#"[^\n]*"#', '""', src)
    src = re.sub(r'"""[\s\S]*?"""', '""', src)
    src = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', src)          # strip strings
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    stack, depth, pend = [], 0, None
    for tok in re.finditer(r"\b(?:struct|class|extension|enum|actor)\s+(\w+)|\bfunc\s+(\w+)\s*[(<]|[{}]", src):
        t = tok.group(0)
        if tok.group(1):
            pend = tok.group(1)
        elif tok.group(2):
            pre = src[:tok.start()]
            is_test = pre.rfind("@Test") > pre.rfind("func ")
            suite = next((n for n, d in reversed(stack) if n), None)
            if suite:
                swift.setdefault(suite, {})[tok.group(2)] = (is_test, f, area)
                where.setdefault(tok.group(2), []).append((suite, os.path.relpath(f, ROOT), is_test))
        elif t == "{":
            stack.append((pend, depth)); pend = None; depth += 1
        else:
            depth -= 1
            if not stack: print('brace underflow', f); break
            stack.pop()

bad, count = [], 0
# table cells: split into segments so RPC: prefixes can be checked
for m in re.finditer(r"(RPC: )?`([A-Za-z_][\w.]*)::(\w+)`", doc):
    count += 1
    fname, fn = m.group(2), m.group(3)
    if fname.startswith("e2e_support") or fname == "file":
        continue
    if fn not in e2e.get(fname, set()):
        bad.append(f"{fname}::{fn}")
for m in re.finditer(r"(RPC: )?`([A-Z]\w*Tests)\.(\w+)`", doc):
    count += 1
    rpc, suite, fn = m.groups()
    info = swift.get(suite, {}).get(fn)
    if not info:
        bad.append(f"{suite}.{fn}  (found in: {where.get(fn)})")
    elif not info[0]:
        bad.append(f"{suite}.{fn}  (not a @Test)")
    else:
        # suite names are shared between the two targets; prefer a match in the right one
        want = "RPC" if rpc else "Domain"
        ok = any(s == suite and ("NativeAdsRPCTests" in p) == (want == "RPC") and t for s, p, t in where.get(fn, []))
        if not ok:
            bad.append(f"{'RPC: ' if rpc else ''}{suite}.{fn}  (wrong target; found in {where.get(fn)})")
for m in re.finditer(r"`(test_\w+\.py)`", doc):
    if m.group(1) not in e2e: bad.append(m.group(1))
for m in re.finditer(r"`([A-Z]\w*Tests)`", doc):
    if m.group(1) not in swift: bad.append(m.group(1))
print(f"checked {count} names; {len(bad)} unresolved")
for b in bad: print("  MISSING", b)
sys.exit(1 if bad else 0)
