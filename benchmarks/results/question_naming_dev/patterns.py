import json,sys,collections
sys.path.insert(0, __import__('os').path.dirname(__file__))
from label import label
db=sys.argv[1]
for path in sys.argv[2:]:
    c=collections.Counter(); n=0
    for l in open(path):
        r=json.loads(l); n+=1
        lab,note=label(db,r['query'])
        if lab!='fluent': c[(lab,note)]+=1
    print(path, n, 'records;', ', '.join(f"{k[0][:3]} '{k[1]}': {v}" for k,v in sorted(c.items(), key=lambda x:-x[1])))
