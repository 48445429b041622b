// Stand-in for CGSuite's Scala trait org.cgsuite.core.impartial.HeapRuleset: the one
// method MisereSolver uses, heapOptions(n), whose result MisereSolver turns into a list
// with toSeq() and CollectionConverters.
package org.cgsuite.core.impartial;

import java.util.List;
import org.cgsuite.core.Integer;
import scala.collection.immutable.IndexedSeq;

public interface HeapRuleset {
    interface Options {
        List<IndexedSeq<Integer>> toSeq();
    }

    Options heapOptions(Integer heapSize);
}
