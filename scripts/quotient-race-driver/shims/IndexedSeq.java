// Stand-in for Scala's scala.collection.immutable.IndexedSeq: the two methods
// MisereSolver.heapOptions calls on one option (a list of heaps).
package scala.collection.immutable;

public interface IndexedSeq<A> {
    int length();

    A apply(int i);
}
