#!/usr/bin/env python3
"""How much of a review's noise is the depth its search stopped at (issue #68).

    bench/review_agreement.py agreement URL --games 20 --nodes 25000 --only reversi --save DIR
    bench/review_depth_noise.py URL DIR/reversi.agreement.jsonl [PLIES]

Takes up to PLIES (default 500) plies of those reviews, drawn by a seeded
generator from those either review found a loss in, and analyses each
position with `analyze` (top 10, every completed depth streamed) at 25,000
and at 100,000 positions. A ply's loss at a depth is the best move's chance
of winning less the played move's, both from that depth's scores. Prints
the loss that the two budgets differ by in nine plies of ten (the review
noise's measure), taking each budget's last depth, the mean of its last
two and of its last three, and the last depth split by whether the two
budgets stopped on depths of the same parity. Reversi only; the played
move must be among the top 10.
"""
import json, urllib.request, random, sys
URL=sys.argv[1]
def post(path, body, sse=False):
    h={"content-type":"application/json"}
    if sse: h["accept"]="text/event-stream"
    req=urllib.request.Request(URL+path, data=json.dumps(body).encode(), headers=h)
    with urllib.request.urlopen(req, timeout=600) as r:
        if not sse: return json.load(r)
        events=[]; ev=None
        for line in r.read().decode().split("\n"):
            if line.startswith("event: "): ev=line[7:]
            elif line.startswith("data: "): events.append((ev, json.loads(line[6:])))
        return events
rows=[json.loads(l) for l in open(sys.argv[2])]
rng=random.Random(1)
cases=[]
for g in rows:
    a,b=g["small"],g["large"]
    for i,(pa,pb) in enumerate(zip(a["plies"],b["plies"])):
        if pa.get("label") in (None,"book") or pb.get("label") in (None,"book"): continue
        if pa.get("loss") is None or pb.get("loss") is None: continue
        if max(pa["loss"],pb["loss"])==0: continue
        cases.append((g["moves"], i))
rng.shuffle(cases); cases=cases[:int(sys.argv[3]) if len(sys.argv) > 3 else 500]
def losses(state, played, nodes):
    evs=[d for e,d in post("/v1/games/reversi/analyze", {"state":state,"top":10,"max_nodes":nodes}, sse=True) if e=="depth"]
    out=[]
    for d in evs:
        ms=d["moves"]; wp={m["move"]["notation"]:m.get("win_probability") for m in ms}
        if played not in wp or any(m.get("win_probability") is None for m in ms): out.append(None); continue
        out.append(max(0.0, ms[0]["win_probability"]-wp[played]))
    return out, [d["search"]["depth"] for d in evs]
res=[]; res3=[]
for moves,i in cases:
    rep=post("/v1/games/reversi/replay", {"moves":moves[:i+1],"states":True})
    state=rep["states"][i]; played=moves[i]
    ls,ds=losses(state, played, 25000); ll,dl=losses(state, played, 100000)
    if len(ls)<2 or len(ll)<2 or None in ls[-2:] or None in ll[-2:]: continue
    res.append((ls[-1],ll[-1],(ls[-1]+ls[-2])/2,(ll[-1]+ll[-2])/2, ds[-1], dl[-1])); res3.append((sum(ls[-3:])/len(ls[-3:]), sum(ll[-3:])/len(ll[-3:]))) if None not in ls[-3:]+ll[-3:] else None
def p90(v): v=sorted(v); return v[int(0.9*(len(v)-1))]
print("plies", len(res))
print("last depth: p90 |N-4N|", round(p90([abs(a-b) for a,b,_,_,_,_ in res]),4))
print("mean of last two: p90 |N-4N|", round(p90([abs(c-d) for _,_,c,d,_,_ in res]),4))
print("same parity last depths:", sum((x-y)%2==0 for *_,x,y in res), "of", len(res))
sp=[(a,b) for a,b,_,_,x,y in res if (x-y)%2==0]; dp=[(a,b) for a,b,_,_,x,y in res if (x-y)%2==1]
if sp: print("last depth, same parity p90", round(p90([abs(a-b) for a,b in sp]),4), len(sp))
if dp: print("last depth, other parity p90", round(p90([abs(a-b) for a,b in dp]),4), len(dp))
print("mean of last three: p90", round(p90([abs(a-b) for a,b in res3]),4), len(res3))
