// MisereSolver throws this when its thread is interrupted. CGSuite declares it in
// CommandLineInterface.java, which needs the CGScript interpreter and is not compiled
// here, so the driver declares the same class.
package org.cgsuite.core.misere.solver;

class TimeoutException extends RuntimeException {
}
