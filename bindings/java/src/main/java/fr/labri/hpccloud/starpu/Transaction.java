package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.internal.Native;
import fr.labri.hpccloud.starpu.internal.NativeObject;

import java.util.function.BooleanSupplier;

/**
 * A transaction (StarPU 1.4): tasks submitted in it ({@link Task#transaction}) belong to its
 * current epoch, and an epoch's tasks run only if the function given when the epoch opened
 * answers true when the epoch begins (after the previous epoch's tasks). The codelet of such
 * a task must take a variable number of buffers ({@link Codelet#getAccessModes} null): the
 * transaction adds one.
 */
public final class Transaction {
	final NativeObject ref;

	private Transaction(long pointer) {
		this.ref = NativeObject.own(pointer, Native::transactionFree);
	}

	/** Opens a transaction and its first epoch ({@code starpu_transaction_open}). */
	static Transaction open(BooleanSupplier start) {
		return new Transaction(Native.transactionOpen(start));
	}

	/** Ends the current epoch and opens the next, whose tasks run if {@code start} answers true. */
	public void nextEpoch(BooleanSupplier start) {
		try {
			Native.transactionNextEpoch(ref.pointer(), start);
		} finally {
			ref.keepAlive();
		}
	}

	/** Ends the last epoch and the transaction. */
	public void close() {
		try {
			Native.transactionClose(ref.pointer());
		} finally {
			ref.keepAlive();
		}
	}
}
