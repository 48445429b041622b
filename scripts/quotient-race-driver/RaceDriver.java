// Drives CGSuite's MisereSolver (A. Siegel) heap by heap on an octal game, the way its
// CommandLineInterface does (ms.next() until the heap bound), without the periodicity stop,
// and prints one line per heap done:
//   heap H ms T order Q p P
// T: milliseconds since the JVM started (JVM start-up included), Q: |Q| the quotient's
// order and P: |P| its P-portion after heap H. On the time budget the solver thread is
// interrupted (MisereSolver checks for it) and the last line is "end timeout ms T";
// otherwise "end done ms T" or "end error ms T MESSAGE".
// Usage: java org.cgsuite.core.misere.solver.RaceDriver CODE MAX_HEAP SECONDS
package org.cgsuite.core.misere.solver;

import java.lang.management.ManagementFactory;
import org.cgsuite.core.impartial.TakeAndBreak;

public final class RaceDriver {
    private RaceDriver() {
    }

    private static long uptimeMs() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: RaceDriver CODE MAX_HEAP SECONDS");
            System.exit(2);
        }
        String code = args[0];
        int maxHeap = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        String[] end = {"done"};
        Thread solver = new Thread(null, () -> {
            try {
                MisereSolver ms = new MisereSolver(TakeAndBreak.apply(code));
                while (ms.p.prefn.size() <= maxHeap) {
                    int heap = ms.p.prefn.size();
                    ms.next();
                    System.out.println("heap " + heap + " ms " + uptimeMs() + " order "
                        + ms.p.quotient.size() + " p " + ms.p.quotient.pPortionSize());
                    System.out.flush();
                }
            } catch (TimeoutException exc) {
                end[0] = "timeout";
            } catch (Throwable exc) {
                end[0] = "error";
                String message = String.valueOf(exc).replace('\n', ' ');
                end[0] = "error " + (message.length() > 200 ? message.substring(0, 200) : message);
            }
        }, "MisereSolver", 1L << 28);
        solver.start();
        solver.join(seconds * 1000L);
        if (solver.isAlive()) {
            solver.interrupt();
            solver.join(5000L);
            end[0] = "timeout";
        }
        String[] parts = end[0].split(" ", 2);
        System.out.println("end " + parts[0] + " ms " + uptimeMs() + (parts.length > 1 ? " " + parts[1] : ""));
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
