#!/bin/sh
# A correct SHOI2008 (misère Nim) solution in POSIX awk: the anti-Nim rule.
# The first player wins iff (some heap > 1 and the XOR is non-zero) or
# (every heap <= 1 and the XOR is zero).
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
        k = tok[p++]; x = 0; rich = 0
        for (j = 0; j < k; j++) { h = tok[p++]; x = bxor(x, h); if (h > 1) rich = 1 }
        if ((rich && x != 0) || (!rich && x == 0)) print "John"; else print "Brother"
    }
}'
