// Stand-in for CGSuite's Scala case class org.cgsuite.core.impartial.TakeAndBreak: a heap
// ruleset from an octal code (TakeAndBreak.apply(code)), whose heapOptions builds, like
// the original, a fresh list of boxed heap sizes for every option on every call.
package org.cgsuite.core.impartial;

import java.util.ArrayList;
import java.util.List;
import org.cgsuite.core.Integer;
import scala.collection.immutable.IndexedSeq;

public final class TakeAndBreak implements HeapRuleset {
    private final TBCode tbCode;

    private TakeAndBreak(TBCode tbCode) {
        this.tbCode = tbCode;
    }

    public static TakeAndBreak apply(String code) {
        return new TakeAndBreak(TBCode.apply(code));
    }

    public TBCode tbCode() {
        return tbCode;
    }

    private static final class Option implements IndexedSeq<Integer> {
        private final Integer[] heaps;

        Option(int[] heaps) {
            this.heaps = new Integer[heaps.length];
            for (int i = 0; i < heaps.length; i++) {
                this.heaps[i] = Integer.apply(heaps[i]);
            }
        }

        @Override
        public int length() {
            return heaps.length;
        }

        @Override
        public Integer apply(int i) {
            return heaps[i];
        }
    }

    @Override
    public Options heapOptions(Integer heapSize) {
        List<IndexedSeq<Integer>> result = new ArrayList<>();
        for (int[] option : tbCode.options(heapSize.intValue())) {
            result.add(new Option(option));
        }
        return () -> result;
    }

    @Override
    public String toString() {
        return tbCode.toString();
    }
}
