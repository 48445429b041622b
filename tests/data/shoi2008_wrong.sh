#!/bin/sh
# A deliberately wrong SHOI2008 (misère Nim) solution in POSIX awk: it applies the
# normal-play XOR rule, the usual mistake, so it fails wherever every heap is <= 1.
awk '
function bxor(a, b,    r, bit) {
    r = 0; bit = 1
    while (a > 0 || b > 0) {
        if ((a % 2) != (b % 2)) r += bit
        a = int(a / 2); b = int(b / 2); bit *= 2
    }
    return r
}
{ for (i = 1; i <= NF; i++) tok[++n] = $i }
END {
    p = 1; t = tok[p++]
    for (c = 0; c < t; c++) {
        k = tok[p++]; x = 0
        for (j = 0; j < k; j++) x = bxor(x, tok[p++])
        if (x != 0) print "John"; else print "Brother"
    }
}'
