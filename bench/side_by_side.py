"""Two builds side by side: the same seeded, node-capped analysis from each
game's start on a server of each build (one worker, no cache), three rounds
alternating which goes first; prints times, nodes and best moves.

    python3 bench/side_by_side.py OLD_BINARY NEW_BINARY
"""
import json, subprocess, time, urllib.request, sys
bins={'old':sys.argv[1],'new':sys.argv[2]}
ports={'old':18801,'new':18802}
procs=[]
for k,b in bins.items():
    procs.append(subprocess.Popen([b,'serve','--bind',f'127.0.0.1:{ports[k]}','--workers','1','--cache-mb','0','--max-time-ms','60000'],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL))
time.sleep(1.5)
def post(port, path, body):
    req=urllib.request.Request(f'http://127.0.0.1:{port}{path}', data=json.dumps(body).encode(), headers={'content-type':'application/json'})
    t=time.perf_counter(); r=json.load(urllib.request.urlopen(req)); return time.perf_counter()-t, r
def start(port, game):
    return post(port, f'/v1/games/{game}/new', {})[1]['state']
cases=[]
for game,nodes in [('reversi',3_000_000),('advance',1_500_000),('halma',1_500_000),('naughts',2_000_000)]:
    cases.append((game,nodes))
res={}
for rnd in range(3):
    for game,nodes in cases:
        for k in (['old','new'] if rnd%2==0 else ['new','old']):
            st=start(ports[k],game)
            dt,r=post(ports[k], f'/v1/games/{game}/analyze', {'state':st,'seed':1,'max_nodes':nodes,'time_ms':60000})
            n=r['search'].get('nodes'); 
            res.setdefault((game,k),[]).append((dt,n,r['moves'][0]['move'].get('notation')))
for (game,k),v in sorted(res.items()):
    print(game,k,[round(x[0],3) for x in v], 'nodes',v[0][1],'best',v[0][2], 'Mnodes/s %.2f'%(min(v[0][1]/x[0] for x in v)/1e6))
for p in procs: p.terminate()
