// Stand-in for Scala's scala.jdk.CollectionConverters: MisereSolver.heapOptions calls
// SeqHasAsJava(seq).asJava() to turn the options into a java.util.List. Here the options
// already are one.
package scala.jdk;

import java.util.List;

public final class CollectionConverters {
    private CollectionConverters() {
    }

    public static final class AsJava<A> {
        private final List<A> list;

        AsJava(List<A> list) {
            this.list = list;
        }

        public List<A> asJava() {
            return list;
        }
    }

    public static <A> AsJava<A> SeqHasAsJava(List<A> seq) {
        return new AsJava<>(seq);
    }
}
