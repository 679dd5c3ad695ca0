"""Per-file table of a mutation run and its survivors' statuses:
python benchmarks/mutation/table.py [RESULTS.jsonl SURVIVORS.txt] (default: the 80fbcef seed-1 sample)."""
import json, collections, sys
DEFAULT = ('benchmarks/mutation/80fbcef-seed1-pass1.jsonl', 'benchmarks/mutation/80fbcef-seed1-survivors.txt')
results, statuses = sys.argv[1:3] if len(sys.argv) >= 3 else DEFAULT
rows=[json.loads(l) for l in open(results)]
h={}
for l in open(statuses):
    k,st,why=l.rstrip('\n').split('|',2); h[k]=st
F=collections.defaultdict(lambda: [0,0,0,0,0])  # n, pass1 killed, killed now, equiv(+tie), other
for r in rows:
    k=f"{r['file']}:{r['line']}:{r['col']}"
    if k not in h: k=f"{r['file']}:{r['line']}"
    f=F[r['file']]
    f[0]+=1
    if r['outcome'] in ('killed','timeout'): f[1]+=1; f[2]+=1
    elif r['outcome']=='survived':
        st=h.get(k,'unhandled')
        if st.startswith('killed'): f[2]+=1
        elif st.startswith('equivalent') or st.startswith('tie-only'): f[3]+=1
tot=[sum(v[i] for v in F.values()) for i in range(4)]
print("| file | mutants | killed (pass 1) | rate | killed now | equivalent | rate now |")
print("|---|---|---|---|---|---|---|")
def pct(a,b): return f"{100*a/b:.0f} %" if b else "–"
for f,v in sorted(F.items(), key=lambda kv: (kv[1][2]/max(kv[1][0]-kv[1][3],1), kv[0])):
    print(f"| {f} | {v[0]} | {v[1]} | {pct(v[1],v[0])} | {v[2]} | {v[3]} | {pct(v[2], v[0]-v[3])} |")
print(f"| **all** | {tot[0]} | {tot[1]} | {pct(tot[1],tot[0])} | {tot[2]} | {tot[3]} | {pct(tot[2], tot[0]-tot[3])} |")
def handled(r):
    return f"{r['file']}:{r['line']}" in h or f"{r['file']}:{r['line']}:{r['col']}" in h
print("unhandled survivors:", [f"{r['file']}:{r['line']}" for r in rows if r['outcome']=='survived' and not handled(r)])
print("errors:", sum(r['outcome']=='error' for r in rows))
