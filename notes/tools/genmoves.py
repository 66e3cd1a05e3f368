#!/usr/bin/env python3
# Reads classify's output on stdin; prints the mvdecl commands of step 2:
# each declaration whose layer is not its file's moves to LAYER_STEM.go.
import sys, collections
moves = collections.OrderedDict()
for line in sys.stdin:
    f = line.rstrip('\n').split('\t')
    if not f[3].endswith(' *'):
        continue
    file, layer, names = f[0], f[1], f[2]
    stem = file[:-3]
    key = (file, f"{layer}_{stem}.go")
    moves.setdefault(key, []).append(names.split(',')[0])
for (src, dst), names in moves.items():
    print(f"mvdecl -from {src} -to {dst} {' '.join(names)}")
