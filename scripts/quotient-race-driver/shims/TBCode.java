// Stand-in for CGSuite's Scala class org.cgsuite.core.impartial.TBCode, limited to plain
// octal codes ("0.07", "4.7": digits 0 to 7, no brackets or constraints). It generates a
// heap's options in the order of TBCode's traversal: by tokens removed, then by the
// number of heaps left (0, 1, 2), then two heaps (a, n - a) by ascending a <= n - a.
package org.cgsuite.core.impartial;

import java.util.ArrayList;
import java.util.List;

public final class TBCode {
    private final String code;
    /** digits[t]: the digit for removing t tokens (digits[0] is the part before the point). */
    private final int[] digits;

    private TBCode(String code, int[] digits) {
        this.code = code;
        this.digits = digits;
    }

    public static TBCode apply(String code) {
        int point = code.indexOf('.');
        if (point < 0 || !code.matches("[0-7]*\\.[0-7]*")) {
            throw new IllegalArgumentException("not a plain octal code: " + code);
        }
        String before = code.substring(0, point);
        String after = code.substring(point + 1);
        if (before.length() > 1 || (before.length() == 1 && before.charAt(0) != '0' && before.charAt(0) != '4')) {
            throw new IllegalArgumentException("only 0. and 4. are supported: " + code);
        }
        int[] digits = new int[1 + after.length()];
        digits[0] = before.isEmpty() ? 0 : before.charAt(0) - '0';
        for (int i = 0; i < after.length(); i++) {
            digits[i + 1] = after.charAt(i) - '0';
        }
        return new TBCode(code, digits);
    }

    /** The options of a heap of size n, each a list of the heaps it leaves. */
    public List<int[]> options(int n) {
        List<int[]> result = new ArrayList<>();
        for (int t = 0; t < digits.length && t <= n; t++) {
            int d = digits[t];
            int left = n - t;
            if ((d & 1) != 0 && left == 0) {
                result.add(new int[0]);
            }
            if ((d & 2) != 0 && left >= 1) {
                result.add(new int[] {left});
            }
            if ((d & 4) != 0 && left >= 2) {
                for (int a = 1; a <= left - a; a++) {
                    result.add(new int[] {a, left - a});
                }
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return code;
    }
}
