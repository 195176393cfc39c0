#!/usr/bin/env python3
"""Random counting puzzles of any R×C box shape: a random grid (a search with random digit
order, or a shuffled pattern grid above 12×12), cells taken out in an order one of nine
strategies biases (uniform, a band/stack/column concentrated, emptied or full), as many as keep
the count at most a random target in 10..HI (binary search; counted with the release binary,
`count --count-by search --limit`). Prints one puzzle line each.

    shape_puzzles.py R C N SEED [STRATEGIES [HI]]     e.g. shape_puzzles.py 3 4 27 201

Used for the 12×12 and 15×15 counting sets of PERFORMANCE.md (30 November, early morning).
"""
import json, os, random, subprocess, sys
B = os.environ.get("SUDOKU_ENUM", os.path.join(os.path.dirname(__file__), "..", "target", "release", "sudoku-enum"))
SYM='123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
def fill(R,C,rng):
    N=R*C; full=(1<<N)-1
    while True:
        g=[-1]*(N*N); rows=[0]*N; cols=[0]*N; boxes=[0]*N
        nodes=[0]
        def bx(i): r,c=divmod(i,N); return (r//R)*R + c//C
        def rec():
            nodes[0]+=1
            if nodes[0]>20000: return False
            best=None;bm=None;bc=99
            for i in range(N*N):
                if g[i]<0:
                    r,c=divmod(i,N); m=full&~(rows[r]|cols[c]|boxes[bx(i)])
                    k=bin(m).count('1')
                    if k<bc: bc,best,bm=k,i,m
                    if k<=1: break
            if best is None: return True
            if bc==0: return False
            ds=[d for d in range(N) if bm>>d&1]; rng.shuffle(ds)
            r,c=divmod(best,N); b=bx(best)
            for d in ds:
                g[best]=d; rows[r]|=1<<d; cols[c]|=1<<d; boxes[b]|=1<<d
                if rec(): return True
                g[best]=-1; rows[r]&=~(1<<d); cols[c]&=~(1<<d); boxes[b]&=~(1<<d)
            return False
        if rec(): return g
def pattern(R,C,rng):
    N=R*C
    g=[((C*(r%R)+r//R+c)%N) for r in range(N) for c in range(N)]
    perm=list(range(N)); rng.shuffle(perm)
    bands=list(range(C)); rng.shuffle(bands)  # N/R = C bands
    rows=[b*R+x for b in bands for x in rng.sample(range(R),R)]
    stacks=list(range(R)); rng.shuffle(stacks)
    cols=[s*C+x for s in stacks for x in rng.sample(range(C),C)]
    return [perm[g[rows[r]*N+cols[c]]] for r in range(N) for c in range(N)]
def fmt(g,N): return ''.join('.' if v<0 else SYM[v] for v in g)
def count(line,R,C,lim):
    out=subprocess.run([B,'count','--json','-q','--box',f'{R}x{C}','--limit',str(lim),'--count-by','search','-'],input=line+'\n',capture_output=True,text=True).stdout
    j=json.loads(out.strip().splitlines()[0]); return j['solutions']
def order(strategy,R,C,rng):
    N=R*C; cells=list(range(N*N)); band=rng.randrange(C); stack=rng.randrange(R); col=rng.randrange(N)
    inb=lambda i: (i//N)//R==band
    ins=lambda i: (i%N)//C==stack
    inc=lambda i: i%N==col
    key={}
    for i in cells:
        k=rng.random()
        if strategy=='band_conc' and inb(i): k+=0.7
        if strategy=='stack_conc' and ins(i): k+=0.7
        if strategy=='col_conc' and inc(i): k+=0.9
        if strategy=='band_empty' and inb(i): k-=2
        if strategy=='stack_empty' and ins(i): k-=2
        if strategy=='band_full' and inb(i): k+=10
        if strategy=='stack_full' and ins(i): k+=10
        if strategy=='col_full' and inc(i): k+=10
        key[i]=k
    cells.sort(key=lambda i:key[i])
    if strategy in('band_full','stack_full','col_full'):
        cells=[i for i in cells if key[i]<5]
    return cells
def make(R,C,strategy,rng,lo=10,hi=10**6):
    N=R*C
    g=fill(R,C,rng) if (N<=12 or rng.random()<0.5) else pattern(R,C,rng)
    od=order(strategy,R,C,rng)
    target=int(10**rng.uniform(1,6)); target=max(lo,min(hi,target))
    def puz(k):
        p=list(g)
        for i in od[:k]: p[i]=-1
        return fmt(p,N)
    a,b=0,len(od)  # find largest k with count<=target
    if count(puz(b),R,C,target+1)<=target: return puz(b)
    while b-a>1:
        m=(a+b)//2
        if count(puz(m),R,C,target+1)<=target: a=m
        else: b=m
    return puz(a)
if __name__=='__main__':
    R,C,n,seed=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3]),int(sys.argv[4])
    strats=sys.argv[5].split(',') if len(sys.argv)>5 and sys.argv[5] else ['uniform','band_conc','stack_conc','col_conc','band_empty','stack_empty','band_full','stack_full','col_full']
    hi=int(sys.argv[6]) if len(sys.argv)>6 else 10**6
    rng=random.Random(seed)
    for t in range(n):
        s=strats[t%len(strats)]
        print(make(R,C,s,rng,hi=hi))
